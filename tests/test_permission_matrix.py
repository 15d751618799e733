"""The permission matrix (issue 16): every route × the methods it answers × six roles, each
expected status in one table (``MATRIX``).

Roles, in the table's column order:
  anon                 nobody signed in
  player               a player with an account, seated in the running tournament's series
  referee_here         a referee of the tournament the row is about (the running one and the draft)
  referee_elsewhere    a referee of another tournament of the same club
  organiser_here       an organiser (staff) of the tournament's club
  organiser_elsewhere  an organiser (staff) of another club

Reading the statuses: 200/201 done; 302 a redirect (for ``anon`` on a page that needs a login it is
the login page, which the test checks; for a signed-in role it is never a login page); 400 a bad
body (a role that is allowed gets it for a body the test sends on purpose); 403 refused; 404 not
found, which is also what someone who may not see a draft gets (a draft's existence is not told);
405 the route does not answer the method; 409 a conflict with the state (e.g. a round already out).

Beyond the status, each cell checks that a refused write (403/404, or the login page) is refused
the same way with an empty body (the role is decided before the body is read; docs/web.md, "Who
sees what", names the three API writes that cannot), and that a signed-in role's 302 carries an
error message exactly where the row says ``not_done``.

A new route without a row fails ``test_every_route_has_rows_and_every_row_a_route``; a method a
route answers without a row fails it too (every other method must be a 405).

The world is built once for the module; every request runs in a savepoint rolled back after it, so
a write in one cell never shows in another (the cells are independent and deterministic).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from games.engine.protocol import GameKind
from games.online.series import series_game_play
from games.online.services import table_create
from snapleague.users import Account
from tests.conftest import record_result, snapszer_win
from tests.games.online.finished_games import play_snap, play_snapszer
from tournaments.clubs.services import organiser_invitation_create, player_claim_create
from tournaments.competitions.registration import registration_create, registration_window_set
from tournaments.competitions.results import reporting
from tournaments.competitions.results.selectors import result_target_get
from tournaments.competitions.services import tournament_players_add
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.integrations.tokens.services import api_token_create
from tournaments.integrations.webhooks.models import WebhookDelivery
from tournaments.integrations.webhooks.services import webhook_endpoint_create
from tournaments.models import (
    Club,
    JoinRequest,
    Ladder,
    LadderChallenge,
    LadderRung,
    Player,
    ResultMode,
    Season,
    Series,
    Stage,
    Tournament,
)
from tournaments.nights import services as session_services
from tournaments.notifications.models import Notification

# A hand entered card by card: the non-dealer declares 66 at once (wrongly: X27), which ends it.
HAND_DEAL = {
    "profile": "snapszer",
    "dealer": 0,
    "hand_0": ["9C", "JC", "QC", "KC", "9D", "JD"],
    "hand_1": ["KH", "QH", "AH", "10H", "AC", "10C"],
    "trump": "JH",
}

ROLES = ("anon", "player", "referee_here", "referee_elsewhere", "organiser_here", "organiser_elsewhere")
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Row:
    route: str  # the URL name, with its namespace
    method: str
    on: str  # which objects fill the route's parameters: a key of World.targets
    statuses: tuple[int, int, int, int, int, int]  # in the order of ROLES
    # The roles whose 302 is "not done": sent back with an error message (a page form's refusal
    # or conflict). Every other signed-in 302 must carry no error message.
    not_done: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.route if self.on == "running" else f"{self.route}[{self.on}]"


def r(route: str, method: str, *statuses: int, on: str = "running", not_done: tuple[str, ...] = ()) -> Row:
    assert len(statuses) == len(ROLES), route
    assert set(not_done) <= set(ROLES) - {"anon"}, route
    return Row(route, method, on, statuses, not_done)  # type: ignore[arg-type]


# ``on``: "running" the public, running Snapszer tournament (its round robin stage, the series of
# the player with game 1 recorded); "draft" a draft tournament of the same club with a stage and no
# round (seen only by its club's organisers and its referees); "swiss", "knockout" its Swiss and
# single elimination stages; "fresh" a series with no game yet; "online" a series of its stage
# played online, the player seated; "reset" a password reset link, a confirmation link, a passkey, an outbox mail that are not valid; "finished" a
# finished casual online game, "series_game" a finished online game of a series of the running one.
# fmt: off
MATRIX: list[Row] = [
    # A 302 for anon is the login page (checked), but where REDIRECTS_ANYONE says otherwise.
    #   route                                    method    anon player ref  ref_x org  org_x
    # --- site -----------------------------------------------------------------------------------
    r("home",                                    "GET",    200, 200, 200, 200, 200, 200),
    r("healthz",                                 "GET",    200, 200, 200, 200, 200, 200),
    # 302: the admin's own login page (staff only); organisers are staff and see their club's rows.
    r("admin:index",                             "GET",    302, 302, 302, 302, 200, 200),
    # --- accounts: allauth and tournaments/accounts/ (docs/accounts.md) ----------------------------
    # Own pages (tournaments/accounts/), then allauth's. The world's accounts have no usable password:
    # allauth asks them to set one before changing it, and refuses (403) what needs re-entering it
    # (second factors, re-authentication). Invalid links ("reset"): allauth's "bad link" page.
    r("accounts:settings",                       "GET",    302, 200, 200, 200, 200, 200),
    r("accounts:settings",                       "POST",   302, 302, 302, 302, 302, 302),
    r("accounts:settings",                       "PUT",    302, 405, 405, 405, 405, 405),
    r("accounts:settings",                       "PATCH",  302, 405, 405, 405, 405, 405),
    r("accounts:settings",                       "DELETE", 302, 405, 405, 405, 405, 405),
    r("accounts:data",                           "GET",    302, 200, 200, 200, 200, 200),
    r("accounts:data",                           "POST",   302, 405, 405, 405, 405, 405),
    r("accounts:data",                           "PUT",    302, 405, 405, 405, 405, 405),
    r("accounts:data",                           "PATCH",  302, 405, 405, 405, 405, 405),
    r("accounts:data",                           "DELETE", 302, 405, 405, 405, 405, 405),
    r("accounts:delete",                         "GET",    302, 200, 200, 200, 200, 200),
    r("accounts:delete",                         "POST",   302, 400, 400, 400, 400, 400),
    r("accounts:delete",                         "PUT",    302, 405, 405, 405, 405, 405),
    r("accounts:delete",                         "PATCH",  302, 405, 405, 405, 405, 405),
    r("accounts:delete",                         "DELETE", 302, 405, 405, 405, 405, 405),
    r("account_login",                           "GET",    200, 302, 302, 302, 302, 302),
    r("account_login",                           "POST",   200, 302, 302, 302, 302, 302),
    r("account_login",                           "PUT",    200, 302, 302, 302, 302, 302),
    r("account_login",                           "PATCH",  405, 302, 302, 302, 302, 302),
    r("account_login",                           "DELETE", 405, 302, 302, 302, 302, 302),
    r("account_logout",                          "GET",    302, 200, 200, 200, 200, 200),
    r("account_logout",                          "POST",   302, 302, 302, 302, 302, 302),
    r("account_inactive",                        "GET",    200, 200, 200, 200, 200, 200),
    r("account_signup",                          "GET",    200, 302, 302, 302, 302, 302),
    r("account_signup",                          "POST",   200, 302, 302, 302, 302, 302),
    r("account_signup",                          "PUT",    200, 302, 302, 302, 302, 302),
    r("account_signup",                          "PATCH",  405, 302, 302, 302, 302, 302),
    r("account_signup",                          "DELETE", 405, 302, 302, 302, 302, 302),
    r("account_reauthenticate",                  "GET",    302, 403, 403, 403, 403, 403),
    r("account_reauthenticate",                  "POST",   302, 403, 403, 403, 403, 403),
    r("account_reauthenticate",                  "PUT",    302, 403, 403, 403, 403, 403),
    r("account_reauthenticate",                  "PATCH",  302, 403, 403, 403, 403, 403),
    r("account_reauthenticate",                  "DELETE", 302, 403, 403, 403, 403, 403),
    r("account_request_reauthentication_code",   "GET",    302, 403, 403, 403, 403, 403),
    r("account_request_reauthentication_code",   "POST",   302, 403, 403, 403, 403, 403),
    r("account_request_reauthentication_code",   "PUT",    302, 403, 403, 403, 403, 403),
    r("account_request_reauthentication_code",   "PATCH",  302, 403, 403, 403, 403, 403),
    r("account_request_reauthentication_code",   "DELETE", 302, 403, 403, 403, 403, 403),
    r("account_confirm_reauthentication_code",   "GET",    302, 302, 302, 302, 302, 302),
    r("account_confirm_reauthentication_code",   "POST",   302, 302, 302, 302, 302, 302),
    r("account_confirm_reauthentication_code",   "PUT",    302, 302, 302, 302, 302, 302),
    r("account_confirm_reauthentication_code",   "PATCH",  302, 302, 302, 302, 302, 302),
    r("account_confirm_reauthentication_code",   "DELETE", 302, 302, 302, 302, 302, 302),
    r("account_email",                           "GET",    302, 200, 200, 200, 200, 200),
    r("account_email",                           "POST",   302, 302, 302, 302, 302, 302),
    r("account_email",                           "PUT",    302, 302, 302, 302, 302, 302),
    r("account_email",                           "PATCH",  302, 405, 405, 405, 405, 405),
    r("account_email",                           "DELETE", 302, 405, 405, 405, 405, 405),
    r("account_email_verification_sent",         "GET",    200, 200, 200, 200, 200, 200),
    r("account_change_password",                 "GET",    302, 302, 302, 302, 302, 302),
    r("account_change_password",                 "POST",   302, 302, 302, 302, 302, 302),
    r("account_change_password",                 "PUT",    302, 302, 302, 302, 302, 302),
    r("account_change_password",                 "PATCH",  302, 302, 302, 302, 302, 302),
    r("account_change_password",                 "DELETE", 302, 302, 302, 302, 302, 302),
    r("account_set_password",                    "GET",    302, 200, 200, 200, 200, 200),
    r("account_set_password",                    "POST",   302, 200, 200, 200, 200, 200),
    r("account_set_password",                    "PUT",    302, 200, 200, 200, 200, 200),
    r("account_set_password",                    "PATCH",  302, 405, 405, 405, 405, 405),
    r("account_set_password",                    "DELETE", 302, 405, 405, 405, 405, 405),
    r("account_reset_password",                  "GET",    200, 200, 200, 200, 200, 200),
    r("account_reset_password",                  "POST",   302, 302, 302, 302, 302, 302),
    r("account_reset_password",                  "PUT",    200, 200, 200, 200, 200, 200),
    r("account_confirm_login_code",              "GET",    302, 302, 302, 302, 302, 302),
    r("account_confirm_login_code",              "POST",   302, 302, 302, 302, 302, 302),
    r("account_confirm_login_code",              "PUT",    302, 302, 302, 302, 302, 302),
    r("account_confirm_login_code",              "PATCH",  302, 302, 302, 302, 302, 302),
    r("account_confirm_login_code",              "DELETE", 302, 302, 302, 302, 302, 302),
    r("account_confirm_email",                   "GET",    200, 200, 200, 200, 200, 200, on="reset"),
    r("account_confirm_email",                   "POST",   404, 404, 404, 404, 404, 404, on="reset"),
    r("account_reset_password_from_key_done",    "GET",    200, 200, 200, 200, 200, 200),
    r("account_reset_password_from_key",         "GET",    200, 200, 200, 200, 200, 200, on="reset"),
    r("account_reset_password_from_key",         "POST",   200, 200, 200, 200, 200, 200, on="reset"),
    r("account_reset_password_from_key",         "PUT",    200, 200, 200, 200, 200, 200, on="reset"),
    r("account_reset_password_from_key",         "PATCH",  200, 200, 200, 200, 200, 200, on="reset"),
    r("account_reset_password_from_key",         "DELETE", 200, 200, 200, 200, 200, 200, on="reset"),
    r("account_reset_password_done",             "GET",    200, 200, 200, 200, 200, 200),
    r("mfa_index",                               "GET",    302, 200, 200, 200, 200, 200),
    r("mfa_index",                               "POST",   302, 405, 405, 405, 405, 405),
    r("mfa_index",                               "PUT",    302, 405, 405, 405, 405, 405),
    r("mfa_index",                               "PATCH",  302, 405, 405, 405, 405, 405),
    r("mfa_index",                               "DELETE", 302, 405, 405, 405, 405, 405),
    r("mfa_authenticate",                        "GET",    302, 302, 302, 302, 302, 302),
    r("mfa_authenticate",                        "POST",   302, 302, 302, 302, 302, 302),
    r("mfa_authenticate",                        "PUT",    302, 302, 302, 302, 302, 302),
    r("mfa_authenticate",                        "PATCH",  302, 302, 302, 302, 302, 302),
    r("mfa_authenticate",                        "DELETE", 302, 302, 302, 302, 302, 302),
    r("mfa_reauthenticate",                      "GET",    302, 403, 403, 403, 403, 403),
    r("mfa_reauthenticate",                      "POST",   302, 403, 403, 403, 403, 403),
    r("mfa_reauthenticate",                      "PUT",    302, 403, 403, 403, 403, 403),
    r("mfa_reauthenticate",                      "PATCH",  302, 403, 403, 403, 403, 403),
    r("mfa_reauthenticate",                      "DELETE", 302, 403, 403, 403, 403, 403),
    r("mfa_activate_totp",                       "GET",    302, 403, 403, 403, 403, 403),
    r("mfa_activate_totp",                       "POST",   302, 403, 403, 403, 403, 403),
    r("mfa_activate_totp",                       "PUT",    302, 403, 403, 403, 403, 403),
    r("mfa_activate_totp",                       "PATCH",  302, 403, 403, 403, 403, 403),
    r("mfa_activate_totp",                       "DELETE", 302, 403, 403, 403, 403, 403),
    r("mfa_deactivate_totp",                     "GET",    302, 404, 404, 404, 404, 404),
    r("mfa_deactivate_totp",                     "POST",   302, 404, 404, 404, 404, 404),
    r("mfa_deactivate_totp",                     "PUT",    302, 404, 404, 404, 404, 404),
    r("mfa_deactivate_totp",                     "PATCH",  302, 404, 404, 404, 404, 404),
    r("mfa_deactivate_totp",                     "DELETE", 302, 404, 404, 404, 404, 404),
    r("mfa_view_recovery_codes",                 "GET",    302, 404, 404, 404, 404, 404),
    r("mfa_view_recovery_codes",                 "POST",   302, 405, 405, 405, 405, 405),
    r("mfa_view_recovery_codes",                 "PUT",    302, 405, 405, 405, 405, 405),
    r("mfa_view_recovery_codes",                 "PATCH",  302, 405, 405, 405, 405, 405),
    r("mfa_view_recovery_codes",                 "DELETE", 302, 405, 405, 405, 405, 405),
    r("mfa_generate_recovery_codes",             "GET",    302, 403, 403, 403, 403, 403),
    r("mfa_generate_recovery_codes",             "POST",   302, 403, 403, 403, 403, 403),
    r("mfa_generate_recovery_codes",             "PUT",    302, 403, 403, 403, 403, 403),
    r("mfa_generate_recovery_codes",             "PATCH",  302, 403, 403, 403, 403, 403),
    r("mfa_generate_recovery_codes",             "DELETE", 302, 403, 403, 403, 403, 403),
    r("mfa_download_recovery_codes",             "GET",    302, 404, 404, 404, 404, 404),
    r("mfa_download_recovery_codes",             "POST",   302, 404, 404, 404, 404, 404),
    r("mfa_download_recovery_codes",             "PUT",    302, 404, 404, 404, 404, 404),
    r("mfa_download_recovery_codes",             "PATCH",  302, 404, 404, 404, 404, 404),
    r("mfa_download_recovery_codes",             "DELETE", 302, 404, 404, 404, 404, 404),
    r("mfa_list_webauthn",                       "GET",    302, 200, 200, 200, 200, 200),
    r("mfa_list_webauthn",                       "POST",   302, 405, 405, 405, 405, 405),
    r("mfa_list_webauthn",                       "PUT",    302, 405, 405, 405, 405, 405),
    r("mfa_list_webauthn",                       "PATCH",  302, 405, 405, 405, 405, 405),
    r("mfa_list_webauthn",                       "DELETE", 302, 405, 405, 405, 405, 405),
    r("mfa_add_webauthn",                        "GET",    302, 403, 403, 403, 403, 403),
    r("mfa_add_webauthn",                        "POST",   302, 403, 403, 403, 403, 403),
    r("mfa_add_webauthn",                        "PUT",    302, 403, 403, 403, 403, 403),
    r("mfa_add_webauthn",                        "PATCH",  302, 403, 403, 403, 403, 403),
    r("mfa_add_webauthn",                        "DELETE", 302, 403, 403, 403, 403, 403),
    r("mfa_reauthenticate_webauthn",             "GET",    302, 403, 403, 403, 403, 403),
    r("mfa_reauthenticate_webauthn",             "POST",   302, 403, 403, 403, 403, 403),
    r("mfa_reauthenticate_webauthn",             "PUT",    302, 403, 403, 403, 403, 403),
    r("mfa_reauthenticate_webauthn",             "PATCH",  302, 403, 403, 403, 403, 403),
    r("mfa_reauthenticate_webauthn",             "DELETE", 302, 403, 403, 403, 403, 403),
    r("mfa_remove_webauthn",                     "GET",    302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_remove_webauthn",                     "POST",   302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_remove_webauthn",                     "PUT",    302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_remove_webauthn",                     "PATCH",  302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_remove_webauthn",                     "DELETE", 302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_edit_webauthn",                       "GET",    302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_edit_webauthn",                       "POST",   302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_edit_webauthn",                       "PUT",    302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_edit_webauthn",                       "PATCH",  302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_edit_webauthn",                       "DELETE", 302, 403, 403, 403, 403, 403, on="reset"),
    r("mfa_login_webauthn",                      "GET",    302, 302, 302, 302, 302, 302),
    r("mfa_login_webauthn",                      "POST",   302, 302, 302, 302, 302, 302),
    r("mfa_login_webauthn",                      "PUT",    302, 302, 302, 302, 302, 302),
    r("mfa_login_webauthn",                      "PATCH",  405, 302, 302, 302, 302, 302),
    r("mfa_login_webauthn",                      "DELETE", 405, 302, 302, 302, 302, 302),
    r("outbox",                                  "GET",    200, 200, 200, 200, 200, 200),
    # --- notifications (tournaments/notifications/, docs/notifications.md) ----------------------
    # One's own list and settings; "open" is the player's own notification (a redirect to its page;
    # anyone else's is a 404). The push subscription with no body is a 400 (no endpoint, no keys).
    # The unsubscribe link here is not a signed one: 404 for all (a mail client POSTs without a
    # session or a CSRF token, RFC 8058).
    r("notifications:list",                      "GET",    302, 200, 200, 200, 200, 200),
    r("notifications:list",                      "POST",   302, 302, 302, 302, 302, 302),
    r("notifications:list",                      "PUT",    302, 405, 405, 405, 405, 405),
    r("notifications:list",                      "PATCH",  302, 405, 405, 405, 405, 405),
    r("notifications:list",                      "DELETE", 302, 405, 405, 405, 405, 405),
    r("notifications:open",                      "GET",    302, 302, 404, 404, 404, 404),
    r("notifications:open",                      "POST",   302, 405, 405, 405, 405, 405),
    r("notifications:open",                      "PUT",    302, 405, 405, 405, 405, 405),
    r("notifications:open",                      "PATCH",  302, 405, 405, 405, 405, 405),
    r("notifications:open",                      "DELETE", 302, 405, 405, 405, 405, 405),
    r("notifications:settings",                  "GET",    302, 200, 200, 200, 200, 200),
    r("notifications:settings",                  "POST",   302, 302, 302, 302, 302, 302),
    r("notifications:settings",                  "PUT",    302, 405, 405, 405, 405, 405),
    r("notifications:settings",                  "PATCH",  302, 405, 405, 405, 405, 405),
    r("notifications:settings",                  "DELETE", 302, 405, 405, 405, 405, 405),
    r("notifications:push-subscription",         "GET",    302, 405, 405, 405, 405, 405),
    r("notifications:push-subscription",         "POST",   302, 400, 400, 400, 400, 400),
    r("notifications:push-subscription",         "PUT",    302, 405, 405, 405, 405, 405),
    r("notifications:push-subscription",         "PATCH",  302, 405, 405, 405, 405, 405),
    r("notifications:push-subscription",         "DELETE", 302, 204, 204, 204, 204, 204),
    r("notifications:unsubscribe",               "GET",    404, 404, 404, 404, 404, 404),
    r("notifications:unsubscribe",               "POST",   404, 404, 404, 404, 404, 404),
    r("outbox-mail",                             "GET",    404, 404, 404, 404, 404, 404, on="reset"),
    r("set_language",                            "POST",   302, 302, 302, 302, 302, 302),  # back to "next" (or "/"), for anyone
    # --- online play (/play/) ----------------------------------------------------------------------
    r("games:lobby",                             "GET",    200, 200, 200, 200, 200, 200),
    r("games:new",                               "POST",   302, 302, 302, 302, 302, 302),  # to the new table
    r("games:fairness",                          "GET",    200, 200, 200, 200, 200, 200),
    # The invitation: GET shows the table and the "Take the seat" form (it changes nothing); POST sits.
    r("games:join",                              "GET",    302, 200, 200, 200, 200, 200),
    r("games:join",                              "POST",   302, 302, 302, 302, 302, 302),  # to the table, seated
    r("games:table",                             "GET",    200, 200, 200, 200, 200, 200),
    # The table's creator (the player) fills it with bots; anyone else back to the table, told why.
    r("games:fill",                              "POST",   302, 302, 302, 302, 302, 302,
      not_done=("referee_here", "referee_elsewhere", "organiser_here", "organiser_elsewhere")),
    r("games:verify",                            "GET",    200, 200, 200, 200, 200, 200),
    # A replay: refused while the game is played (the casual table is open); a finished casual game
    # for anyone; a finished tournament game for whoever sees its series (the tournament is public).
    r("games:replay",                            "GET",    409, 409, 409, 409, 409, 409),
    r("games:replay",                            "GET",    200, 200, 200, 200, 200, 200, on="finished"),
    r("games:replay",                            "GET",    200, 200, 200, 200, 200, 200, on="series_game"),
    # Snap statistics (docs/snap-stats.md): a game's once it is finished (the casual table is still
    # open: 409), for whoever may see its replay; mine after signing in; anyone's (the games the
    # visitor may see); practice: a signed-in player to the new table against bots.
    r("games:game_stats",                        "GET",    409, 409, 409, 409, 409, 409),
    r("games:game_stats",                        "GET",    200, 200, 200, 200, 200, 200, on="finished_snap"),
    r("games:my_stats",                          "GET",    302, 200, 200, 200, 200, 200),
    r("games:person_stats",                      "GET",    200, 200, 200, 200, 200, 200),
    r("games:practice",                          "POST",   302, 302, 302, 302, 302, 302),
    r("games_api:snap-stats",                    "GET",    200, 200, 200, 200, 200, 200),
    # The analysis panel of a replay (docs/analysis.md): as the replay. Asking for it needs a
    # sign-in, then back to the replay; a game entered at a table by its result has no cards: 409.
    r("games:analysis",                          "GET",    409, 409, 409, 409, 409, 409),
    r("games:analysis",                          "GET",    200, 200, 200, 200, 200, 200, on="finished"),
    r("games:analysis",                          "GET",    200, 200, 200, 200, 200, 200, on="series_game"),
    r("games:analysis",                          "POST",   302, 409, 409, 409, 409, 409),
    r("games:analysis",                          "POST",   302, 302, 302, 302, 302, 302, on="finished"),
    r("games:analysis",                          "POST",   302, 302, 302, 302, 302, 302, on="series_game"),
    r("games:table_game_analysis",               "POST",   302, 409, 409, 409, 409, 409),
    # A hand played at a table, entered card by card (docs/analysis.md): any signed-in user, for
    # themselves (a tournament game's own refusals are in tests/games/test_hand_entry*.py).
    r("games:hand_entry",                        "GET",    302, 200, 200, 200, 200, 200),
    r("games:hand_entry",                        "POST",   302, 200, 200, 200, 200, 200),  # the deal: the position
    r("games_api:hand-position",                 "POST",   403, 200, 200, 200, 200, 200),
    r("games_api:hand-create",                   "POST",   403, 201, 201, 201, 201, 201),
    # The player to the new table; anyone else back to the series, told only its players may.
    r("games:series_play",                       "POST",   302, 302, 302, 302, 302, 302, on="online",
      not_done=("referee_here", "referee_elsewhere", "organiser_here", "organiser_elsewhere")),
    # --- clubs, tournaments ------------------------------------------------------------------------
    r("tournaments:club",                        "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:club-ratings",                "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:tournament-create",           "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:tournament",                  "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:tournament",                  "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:results-csv",                 "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:results-csv",                 "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    # Anyone signed in opens a club (and organises it); organisers invite others by a single-use link.
    r("tournaments:club-create",                 "GET",    302, 200, 200, 200, 200, 200),
    r("tournaments:club-create",                 "POST",   302, 302, 302, 302, 302, 302),  # to the new club
    r("tournaments:club-invitation",             "POST",   302, 403, 403, 403, 200, 403),  # the page with the link
    r("tournaments:players-import",              "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:players-import",              "POST",   302, 403, 403, 403, 400, 403),  # no names: the form with the error
    r("tournaments:invitation",                  "GET",    302, 200, 200, 200, 200, 200, on="invite"),
    # Accepting makes an organiser of the club; its own organiser is one already (409).
    r("tournaments:invitation",                  "POST",   302, 302, 302, 302, 409, 302, on="invite"),
    # The big screen and its fragment: as public as the tournament page.
    r("tournaments:screen",                      "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:screen",                      "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:screen-body",                 "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:screen-body",                 "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:audit",                       "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:audit",                       "GET",    302, 404, 403, 404, 200, 404, on="draft"),
    r("tournaments:players-add",                 "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:players-add",                 "POST",   302, 404, 403, 404, 302, 404, on="draft"),
    r("tournaments:referee-add",                 "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:referee-add",                 "POST",   302, 404, 403, 404, 302, 404, on="draft"),
    r("tournaments:stage-create",                "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:stage-create",                "POST",   302, 404, 403, 404, 302, 404, on="draft"),
    # --- stages ------------------------------------------------------------------------------------
    r("tournaments:stage",                       "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:stage",                       "GET",    200, 200, 200, 200, 200, 200, on="swiss"),
    r("tournaments:stage",                       "GET",    200, 200, 200, 200, 200, 200, on="knockout"),
    r("tournaments:stage",                       "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:stage-draw",                  "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:stage-draw",                  "GET",    200, 200, 200, 200, 200, 200, on="knockout"),
    r("tournaments:stage-draw",                  "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:stage-body",                  "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:stage-body",                  "GET",    200, 200, 200, 200, 200, 200, on="knockout"),
    r("tournaments:stage-body",                  "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:stage-preview",               "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:stage-preview",               "GET",    302, 404, 403, 404, 200, 404, on="draft"),
    # The round robin has every round out already: the organiser is sent back, told nothing is due.
    r("tournaments:rounds-generate",             "POST",   302, 403, 403, 403, 302, 403, not_done=("organiser_here",)),
    r("tournaments:rounds-generate",             "POST",   302, 404, 403, 404, 302, 404, on="draft"),
    r("tournaments:round",                       "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:round",                       "GET",    200, 200, 200, 200, 200, 200, on="swiss"),
    r("tournaments:round",                       "GET",    200, 200, 200, 200, 200, 200, on="knockout"),
    r("tournaments:round-sheets",                "GET",    200, 200, 200, 200, 200, 200),  # as public as the round page
    r("tournaments:round-sheets",                "GET",    200, 200, 200, 200, 200, 200, on="knockout"),
    r("tournaments:stage-withdraw",              "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:stage-withdraw",              "POST",   302, 404, 403, 404, 400, 404, on="draft"),  # the form offers the drawn only
    r("tournaments:stage-online",                "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:stage-online",                "POST",   302, 404, 403, 404, 302, 404, on="draft"),
    r("tournaments:standings",                   "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:standings",                   "GET",    200, 200, 200, 200, 200, 200, on="swiss"),
    r("tournaments:standings",                   "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:standings-csv",               "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:standings-csv",               "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:standings-table",             "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:standings-table",             "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:stage-version",               "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:stage-version",               "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    # --- series, results ---------------------------------------------------------------------------
    r("tournaments:series",                      "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:series-games",                "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:series-version",              "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:record",                      "GET",    302, 403, 200, 403, 200, 403),
    r("tournaments:record",                      "POST",   302, 403, 302, 403, 302, 403),  # game 2, valid
    r("tournaments:forfeit",                     "POST",   302, 403, 403, 403, 302, 403, on="fresh"),
    r("tournaments:correct",                     "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:correct",                     "POST",   302, 403, 403, 403, 302, 403),  # game 1, with a reason
    # Players' reports (docs/results.md): the running tournament lets players report; Anna has a
    # report of game 2 waiting and asked for a correction of game 1 (a dispute). Only seated players
    # report (an empty form: 400) or confirm (her own report: refused, back to the series); only the
    # tournament's officials see the queue and decide (an empty choice: refused, back to the queue;
    # a correction: organisers only).
    r("tournaments:report",                      "GET",    302, 200, 403, 403, 403, 403),
    r("tournaments:report",                      "POST",   302, 400, 403, 403, 403, 403),
    r("tournaments:report-confirm",              "POST",   302, 302, 403, 404, 403, 404, not_done=("player",)),
    r("tournaments:correction-ask",              "GET",    302, 200, 403, 403, 403, 403),
    r("tournaments:correction-ask",              "POST",   302, 400, 403, 403, 403, 403),
    r("tournaments:disputes",                    "GET",    302, 403, 200, 403, 200, 403),
    r("tournaments:dispute-decide",              "POST",   302, 403, 302, 403, 302, 403, not_done=("referee_here", "organiser_here")),
    r("tournaments:dispute-decide-other",        "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:dispute-decide-other",        "POST",   302, 403, 403, 403, 400, 403),
    r("tournaments:result-mode",                 "POST",   302, 403, 403, 403, 302, 403, not_done=("organiser_here",)),
    r("tournaments:player",                      "GET",    200, 200, 200, 200, 200, 200),
    # People (tournaments/clubs/): the claim link for an unlinked player, the page it opens (Anna's
    # account has a player in the club already: refused), unlinking Anna, a person's page.
    r("tournaments:player-claim",                "POST",   302, 403, 403, 403, 200, 403, on="unlinked"),
    r("tournaments:player-unlink",               "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:claim",                       "GET",    302, 409, 200, 200, 200, 200, on="claim"),
    r("tournaments:claim",                       "POST",   302, 409, 302, 302, 302, 302, on="claim"),
    r("tournaments:me",                          "GET",    302, 200, 200, 200, 200, 200),
    # Join requests (tournaments/clubs/join_requests.py): anyone signed in asks (Anna is a player of
    # the club already: 409 on the club page); organisers see the list, open or close them, and
    # approve or refuse; someone else is not told the request exists (404).
    r("tournaments:club-join",                   "POST",   302, 409, 302, 302, 302, 302),
    r("tournaments:club-join-requests",          "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:club-join-requests",          "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:join-request-approve",        "POST",   302, 404, 404, 404, 302, 404),
    r("tournaments:join-request-refuse",         "POST",   302, 404, 404, 404, 302, 404),
    # Registration (tournaments/competitions/registration.py): the running tournament's page is
    # public and its sign-ups are over (400: not open; 409: started); a draft's registration page
    # is public once opened ("signup"), where organisers approve or refuse a pending sign-up.
    r("tournaments:registration",                "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:registration",                "GET",    200, 200, 200, 200, 200, 200, on="signup"),
    r("tournaments:registration-register",       "POST",   302, 400, 400, 400, 400, 400),
    r("tournaments:registration-withdraw",       "POST",   302, 409, 409, 409, 409, 409),
    r("tournaments:registration-window",         "POST",   302, 403, 403, 403, 400, 403),
    r("tournaments:registration-approve",        "POST",   302, 404, 404, 404, 302, 404, on="signup"),
    r("tournaments:registration-refuse",         "POST",   302, 404, 404, 404, 302, 404, on="signup"),
    # Anna replaces her own calendar's address; nobody else may.
    r("tournaments:player-calendar-replace",     "POST",   302, 302, 403, 403, 403, 403),
    r("tournaments:record-sw",                   "GET",    200, 200, 200, 200, 200, 200),  # a script, no data
    # --- webhooks (the club's organisers only) ------------------------------------------------------
    r("tournaments:webhooks",                    "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:webhooks",                    "POST",   302, 403, 403, 403, 200, 403),  # the new endpoint's page, with its secret
    r("tournaments:webhook",                     "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:webhook",                     "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:webhook-secret",              "POST",   302, 403, 403, 403, 200, 403),  # the page, with the new secret
    r("tournaments:webhook-test",                "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:webhook-delete",              "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:webhook-redeliver",           "POST",   302, 403, 403, 403, 302, 403),
    # --- club nights (tournaments/nights/): "session" is a session of the running tournament ------
    r("tournaments:session-create",              "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:session-create",              "POST",   302, 404, 403, 404, 302, 404, on="draft"),
    r("tournaments:session",                     "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:session",                     "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:session-body",                "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:session-body",                "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:session-version",             "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:session-version",             "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    # The session's big screen and its fragment: as public as the tournament page.
    r("tournaments:session-screen",              "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:session-screen",              "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments:session-screen-body",         "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:session-screen-body",         "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    # The desk: its organisers and referees.
    r("tournaments:session-desk",                "GET",    302, 403, 200, 403, 200, 403),
    r("tournaments:session-desk",                "GET",    302, 404, 200, 404, 200, 404, on="draft"),
    # Anna checks in: the desk, or Anna on her own account (a player of the tournament); back to the page.
    r("tournaments:session-checkin",             "POST",   302, 302, 302, 403, 302, 403),
    r("tournaments:session-checkin",             "POST",   302, 404, 302, 404, 302, 404, on="draft"),
    r("tournaments:session-close",               "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:session-close",               "POST",   302, 404, 403, 404, 302, 404, on="draft"),
    # Reopening an open check-in is refused with a message (the world's session is open).
    r("tournaments:session-reopen",              "POST",   302, 403, 403, 403, 302, 403, not_done=("organiser_here",)),
    r("tournaments:session-reopen",              "POST",   302, 404, 403, 404, 302, 404, on="draft", not_done=("organiser_here",)),
    r("tournaments:session-edit",                "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:session-edit",                "POST",   302, 404, 403, 404, 302, 404, on="draft"),
    r("tournaments:session-schedule",            "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:session-schedule",            "POST",   302, 404, 403, 404, 400, 404, on="draft"),  # a round of the running one
    r("tournaments:session-stations",            "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:session-stations",            "POST",   302, 404, 403, 404, 302, 404, on="draft"),
    r("tournaments:series-station",              "POST",   302, 403, 403, 403, 302, 403),
    # Calendar feeds are read signed out (a calendar app): a draft's is not found for anyone; a
    # player's needs its token ("token" here is not one: 404 with a clear message).
    r("tournaments:tournament-calendar",         "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:tournament-calendar",         "GET",    404, 404, 404, 404, 404, 404, on="draft"),
    r("tournaments:club-calendar",               "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:player-calendar",             "GET",    404, 404, 404, 404, 404, 404),
    # --- seasons (docs/seasons.md): public tables, the club's organisers edit ----------------------
    r("tournaments:seasons",                     "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:season-create",               "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:season-create",               "POST",   302, 403, 403, 403, 302, 403),  # to the new season
    r("tournaments:season",                      "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:season-csv",                  "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:season-edit",                 "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:season-edit",                 "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:season-tournament",           "POST",   302, 403, 403, 403, 302, 403),
    # --- ladders (docs/ladder.md): public ladder; a player challenges; the two or an organiser answer
    r("tournaments:ladders",                     "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:ladder-create",               "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:ladder-create",               "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:ladder",                      "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:ladder-edit",                 "GET",    302, 403, 403, 403, 200, 403),
    r("tournaments:ladder-edit",                 "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:ladder-players",              "POST",   302, 403, 403, 403, 302, 403),
    r("tournaments:ladder-challenge",            "POST",   302, 302, 403, 403, 403, 403),  # Anna, 4th, challenges Bence
    r("tournaments:ladder-challenge-record",     "POST",   302, 403, 403, 403, 302, 403),  # for Anna, 4th, against Bence
    r("tournaments:ladder-mine",                 "GET",    302, 200, 200, 200, 200, 200),
    r("tournaments:ladder-history",              "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:ladder-csv",                  "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments:ladder-answer",               "POST",   302, 403, 403, 403, 302, 403),  # Dániel → Csilla
    r("tournaments:ladder-result",               "POST",   302, 403, 403, 403, 302, 403),
    # --- the API (/api/): a write by someone not signed in is a 403 (session authentication) --------
    r("tournaments_api:club-list",               "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:club-list",               "POST",   403, 201, 201, 201, 201, 201),
    r("tournaments_api:club-detail",             "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:club-invitation-create",  "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:invitation-accept",       "POST",   403, 200, 200, 200, 409, 200, on="invite"),
    r("tournaments_api:player-claim",            "POST",   403, 403, 403, 403, 201, 403, on="unlinked"),
    r("tournaments_api:player-unlink",           "POST",   403, 403, 403, 403, 200, 403),
    r("tournaments_api:claim-accept",            "POST",   403, 409, 200, 200, 200, 200, on="claim"),
    r("tournaments_api:player-list",             "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:player-list",             "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:club-players",            "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:club-players-import",     "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:player-detail",           "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:player-ratings",          "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:club-ratings",            "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:tournament-list",         "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:tournament-list",         "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:tournament-detail",       "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:tournament-detail",       "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments_api:tournament-export",       "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:tournament-export",       "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments_api:tournament-players-add",  "POST",   403, 403, 403, 403, 200, 403),
    r("tournaments_api:tournament-players-add",  "POST",   403, 404, 403, 404, 200, 404, on="draft"),
    r("tournaments_api:stage-list",              "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:stage-list",              "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:stage-list",              "POST",   403, 404, 403, 404, 201, 404, on="draft"),
    r("tournaments_api:stage-detail",            "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:stage-detail",            "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments_api:stage-rounds-publish",    "POST",   403, 403, 403, 403, 409, 403),
    r("tournaments_api:stage-rounds-publish",    "POST",   403, 404, 403, 404, 201, 404, on="draft"),
    r("tournaments_api:stage-preview",           "GET",    403, 403, 403, 403, 200, 403),
    r("tournaments_api:stage-preview",           "GET",    404, 404, 403, 404, 200, 404, on="draft"),
    r("tournaments_api:stage-withdrawals",       "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:stage-withdrawals",       "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments_api:stage-withdrawals",       "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:stage-withdrawals",       "POST",   403, 404, 403, 404, 201, 404, on="draft"),  # before the draw, too
    r("tournaments_api:stage-bracket",           "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:stage-bracket",           "GET",    200, 200, 200, 200, 200, 200, on="knockout"),
    r("tournaments_api:stage-bracket",           "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments_api:stage-standings",         "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:stage-standings",         "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments_api:round-list",              "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:series-list",             "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:series-detail",           "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:result-create",           "POST",   403, 403, 201, 403, 201, 403),  # game 2, valid
    r("tournaments_api:series-forfeit",          "POST",   403, 403, 403, 403, 201, 403, on="fresh"),
    r("tournaments_api:tournament-sessions",     "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:tournament-sessions",     "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments_api:tournament-sessions",     "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:tournament-sessions",     "POST",   403, 404, 403, 404, 201, 404, on="draft"),
    r("tournaments_api:session-detail",          "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:session-detail",          "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    r("tournaments_api:session-rounds",          "POST",   403, 403, 403, 403, 200, 403),
    r("tournaments_api:session-rounds",          "POST",   403, 404, 403, 404, 400, 404, on="draft"),  # a round of the running one
    r("tournaments_api:session-checkins",        "GET",    403, 403, 200, 403, 200, 403),
    r("tournaments_api:session-checkins",        "GET",    404, 404, 200, 404, 200, 404, on="draft"),
    # Anna: by the desk, or by herself (201, the first check-in of each cell).
    r("tournaments_api:session-checkins",        "POST",   403, 201, 201, 403, 201, 403),
    r("tournaments_api:session-checkins",        "POST",   403, 404, 201, 404, 201, 404, on="draft"),
    r("tournaments_api:session-close",           "POST",   403, 403, 403, 403, 200, 403),
    r("tournaments_api:session-close",           "POST",   403, 404, 403, 404, 200, 404, on="draft"),
    r("tournaments_api:session-reopen",          "POST",   403, 403, 403, 403, 409, 403),  # it is open
    r("tournaments_api:session-reopen",          "POST",   403, 404, 403, 404, 409, 404, on="draft"),
    r("tournaments_api:session-detail",          "PATCH",  403, 403, 403, 403, 200, 403),
    r("tournaments_api:session-detail",          "PATCH",  403, 404, 403, 404, 200, 404, on="draft"),
    r("tournaments_api:player-calendar-replace", "POST",   403, 200, 403, 403, 403, 403),
    r("tournaments_api:game-list",               "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:result-list",             "GET",    200, 200, 200, 200, 200, 200),
    # Players' reports: Anna's report of game 2 waits (she reports it again: 409), her correction
    # request of game 1 is a dispute (organisers decide a correction; no body: 400).
    r("tournaments_api:reports",                 "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:reports",                 "POST",   403, 409, 403, 403, 403, 403),
    r("tournaments_api:report-confirm",          "POST",   403, 409, 403, 404, 403, 404),
    r("tournaments_api:dispute-list",            "GET",    403, 403, 200, 403, 200, 403),
    r("tournaments_api:dispute-decide",          "POST",   403, 403, 403, 403, 400, 403),
    r("tournaments_api:webhook-list",            "GET",    403, 403, 403, 403, 200, 403),
    r("tournaments_api:webhook-list",            "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:webhook-detail",          "GET",    403, 403, 403, 403, 200, 403),
    r("tournaments_api:webhook-detail",          "PATCH",  403, 403, 403, 403, 200, 403),
    r("tournaments_api:webhook-detail",          "DELETE", 403, 403, 403, 403, 204, 403),
    r("tournaments_api:webhook-secret",          "POST",   403, 403, 403, 403, 200, 403),
    r("tournaments_api:webhook-test",            "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:webhook-deliveries",      "GET",    403, 403, 403, 403, 200, 403),
    r("tournaments_api:webhook-redeliver",       "POST",   403, 403, 403, 403, 202, 403),
    # --- personal API tokens (each account its own; the token is the player's) --------------------
    r("tournaments:api-tokens",                  "GET",    302, 200, 200, 200, 200, 200),
    r("tournaments:api-tokens",                  "POST",   302, 200, 200, 200, 200, 200),  # the page, the new token shown once
    r("tournaments:api-token-revoke",            "POST",   302, 302, 404, 404, 404, 404),  # someone else's: no such token
    r("tournaments_api:api-token-list",          "GET",    403, 200, 200, 200, 200, 200),
    r("tournaments_api:api-token-list",          "POST",   403, 201, 201, 201, 201, 201),
    r("tournaments_api:api-token-detail",        "GET",    403, 200, 404, 404, 404, 404),
    r("tournaments_api:api-token-detail",        "DELETE", 403, 200, 404, 404, 404, 404),  # revoked
    r("tournaments_api:season-list",             "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:season-list",             "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:season-detail",           "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:season-detail",           "PATCH",  403, 403, 403, 403, 200, 403),
    r("tournaments_api:season-table",            "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:season-tournaments",      "GET",    403, 403, 403, 403, 200, 403),
    r("tournaments_api:season-tournaments",      "POST",   403, 403, 403, 403, 200, 403),
    r("tournaments_api:ladder-list",             "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:ladder-list",             "POST",   403, 403, 403, 403, 201, 403),
    r("tournaments_api:ladder-detail",           "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:ladder-detail",           "PATCH",  403, 403, 403, 403, 200, 403),
    r("tournaments_api:ladder-players",          "POST",   403, 403, 403, 403, 200, 403),
    r("tournaments_api:ladder-challenges",       "GET",    200, 200, 200, 200, 200, 200),
    r("tournaments_api:ladder-challenges",       "POST",   403, 201, 403, 403, 201, 403),  # for Anna
    r("tournaments_api:ladder-answer",           "POST",   403, 403, 403, 403, 200, 403),
    r("tournaments_api:ladder-result",           "POST",   403, 403, 403, 403, 200, 403),
    r("schema",                                  "GET",    200, 200, 200, 200, 200, 200),
    r("api-docs",                                "GET",    200, 200, 200, 200, 200, 200),
    r("api-redoc",                               "GET",    200, 200, 200, 200, 200, 200),
]
# fmt: on

# Routes whose 302 goes somewhere else than a login page even for someone not signed in.
REDIRECTS_ANYONE = {"account_logout", "account_reset_password", "set_language"}

# A refusal does not depend on the body: each refused write is sent again with an empty body and
# must get the same answer. But for these API routes, whose club or tournament is named in the
# body: the body is read first, so a bad one is a 400 for anyone signed in.
BODY_NAMES_THE_TARGET = {
    "tournaments_api:player-list",
    "tournaments_api:tournament-list",
    "tournaments_api:stage-list",
    "tournaments_api:season-list",
    "tournaments_api:ladder-list",
}


# --- The routes, from Django's resolver -------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str
    pattern: str


def _skipped(prefix: str, pattern: URLPattern | URLResolver) -> bool:
    """What the matrix leaves out, and why:
    - the admin's own pages under /admin/ (Django's admin checks ``is_staff`` and the model admins
      scope organisers to their clubs, tests/tournaments/test_admin.py): ``/admin/`` itself stays,
      as one row (``admin:index``), so that the admin's door is in the table;
    - static and media files (``django.views.static.serve``, only when DEBUG): files, no permission.
    """
    if prefix.startswith("admin/") and not (isinstance(pattern, URLPattern) and pattern.name == "index"):
        return True
    callback = getattr(pattern, "callback", None)
    return getattr(callback, "__module__", "") == "django.views.static"


@functools.cache
def resolver_routes() -> tuple[Route, ...]:
    """Every route the resolver knows (walking into each include), but those ``_skipped`` says."""
    found: list[Route] = []

    def walk(patterns: list[Any], prefix: str, namespace: str) -> None:
        for pattern in patterns:
            here = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, here, inner)
            elif not _skipped(here, pattern):
                found.append(Route(f"{namespace}{pattern.name}" if pattern.name else here, here))

    walk(get_resolver().url_patterns, "", "")
    return tuple(found)


# --- The world ----------------------------------------------------------------------------------------


@dataclass
class World:
    users: dict[str, Account | None]
    sessions: dict[str, str]  # role -> session key (signed in once, for the whole module)
    targets: dict[str, dict[str, Any]]  # ``on`` -> the routes' URL parameters
    bodies: dict[tuple[str, str], dict[str, Any]]  # (route, on) -> the body of a write
    # One client for every request: a new one loads the middleware again, and WhiteNoise's scans
    # the static files (two thirds of the time). Its cookies are set anew for each request.
    client: Client


def _account(username: str, **extra: Any) -> Account:
    user = get_user_model().objects.create(username=username, **extra)
    user.set_unusable_password()
    user.save()
    return user


def _series_of(stage: Stage, player: Player) -> Series:
    """The first series ``player`` plays in ``stage``."""
    found = Series.objects.filter(stage=stage, seats__player=player, walkover=False).order_by("round__number")
    series = found.first()
    assert series is not None
    return series


def _build() -> World:
    users: dict[str, Account | None] = {
        "anon": None,
        "player": _account("anna"),
        "referee_here": _account("referee"),
        "referee_elsewhere": _account("other-referee"),
        "organiser_here": _account("organiser", is_staff=True),
        "organiser_elsewhere": _account("other-organiser", is_staff=True),
    }
    organiser = users["organiser_here"]
    club = Club.objects.create(name="Hatvan Card Club", slug="hatvan")
    club.organisers.add(organiser)
    Club.objects.create(name="Győr Card Club", slug="gyor").organisers.add(users["organiser_elsewhere"])
    # Every entrant has an account, so that a series can be played online.
    anna, bence, csilla, daniel = (
        Player.objects.create(club=club, name=name, user=account)
        for name, account in [
            ("Anna", users["player"]),
            ("Bence", _account("bence")),
            ("Csilla", _account("csilla")),
            ("Dániel", _account("daniel")),
        ]
    )
    newcomer = Player.objects.create(club=club, name="Zoltán")  # in the club, entered nowhere

    def tournament(name: str, referee: Account | None) -> Tournament:
        made = Tournament.objects.create(
            club=club, name=name, game=GameKind.SNAPSZER, rules_profile="snapszer"
        )
        made.referees.add(referee)
        tournament_players_add(user=organiser, tournament=made, players=[anna, bence, csilla, daniel])
        return made

    def stage(of: Tournament, name: str, fmt: str, *, publish: bool = True, **extra: Any) -> Stage:
        made = stages_create.stage_create(user=organiser, tournament=of, name=name, format=fmt, **extra)
        if publish:
            stages_publish.stage_round_publish(user=organiser, stage_id=made.pk)
        return made

    running = tournament("Spring League", users["referee_here"])
    league = stage(running, "League", "round_robin")
    swiss = stage(running, "Swiss", "swiss")
    knockout = stage(running, "Cup", "single_elimination")
    online = stage(running, "Online", "round_robin", online_play=True)
    played = _series_of(league, anna)
    opponent = next(s.player for s in played.seats.all() if s.player_id != anna.pk)
    record_result(
        user=users["referee_here"], series_id=played.pk, game_number=1, result=snapszer_win(opponent, anna)
    )
    running.result_mode = ResultMode.CONFIRM
    running.save(update_fields=["result_mode"])
    waiting_report = reporting.report_submit(
        user=users["player"],
        series_id=played.pk,
        game_number=2,
        result=result_target_get(user=organiser, series_id=played.pk, game_number=2).parse(
            snapszer_win(anna, opponent)
        ),
    ).report
    asked = reporting.correction_request(
        user=users["player"],
        series_id=played.pk,
        game_number=1,
        result=result_target_get(user=organiser, series_id=played.pk, game_number=1).parse(
            snapszer_win(anna, opponent)
        ),
    )
    fresh = (
        Series.objects.filter(stage=league, games__isnull=True, walkover=False).exclude(pk=played.pk).first()
    )
    assert fresh is not None
    draft = tournament("Autumn Cup", users["referee_here"])
    draft_stage = stage(draft, "League", "round_robin", publish=False)
    tournament("Winter Cup", users["referee_elsewhere"])  # referee_elsewhere's (a draft)
    casual = table_create(
        user=users["player"], kind=GameKind.SNAPSZER, options={"profile": "snapszer"}, seats=2
    )

    # Finished games to replay: a casual one, and a game of an online series Anna does not play in
    # (so that her "Play" rows stay as they are).
    finished = table_create(
        user=users["player"],
        kind=GameKind.SNAPSZER,
        options={"profile": "snapszer"},
        seats=2,
        bots=["casual"],
    )
    play_snapszer(finished)
    finished_snap = table_create(
        user=users["player"],
        kind=GameKind.SNAP,
        options={"profile": "classic", "max_game_seconds": 30},
        seats=2,
        bots=["expert"],
    )
    play_snap(finished_snap)
    elsewhere = (
        Series.objects.filter(stage=online, walkover=False)
        .exclude(seats__player=anna)
        .order_by("round__number")
        .first()
    )
    assert elsewhere is not None
    # Dealt once every seated player has pressed "Play" (each with a seed).
    for seat in elsewhere.seats.order_by("seat"):
        assert seat.player.user is not None
        series_game = series_game_play(user=seat.player.user, series_id=elsewhere.pk)
    play_snapszer(series_game)

    api_token, _raw = api_token_create(user=users["player"], name="Anna's script", scope="read")
    _invitation, invitation_token = organiser_invitation_create(user=users["organiser_here"], club=club)
    _claim, claim_token = player_claim_create(user=users["organiser_here"], player_id=newcomer.pk)
    endpoint, _secret = webhook_endpoint_create(
        user=organiser, club=club, url="https://hooks.example.com/matrix", events=["result.confirmed"]
    )
    delivered = WebhookDelivery.objects.create(
        endpoint=endpoint, event="ping", body="{}", status=WebhookDelivery.Status.DELIVERED
    )

    # A club night of the running tournament (its league's first round scheduled, two tables) and
    # one of the draft.
    night = session_services.session_create(
        user=organiser, tournament=running, name="Thursday", starts_at=timezone.now() + timedelta(days=1)
    )
    session_services.session_stations_set(user=organiser, session_id=night.pk, stations=[(1, ""), (2, "")])
    league_rounds = list(league.rounds.order_by("number"))
    session_services.session_round_schedule(user=organiser, session_id=night.pk, round_id=league_rounds[0].pk)
    draft_night = session_services.session_create(
        user=organiser, tournament=draft, name="Autumn night", starts_at=timezone.now() + timedelta(days=1)
    )
    later = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    season = Season.objects.create(
        club=club, name="Season", starts_on=datetime.date(2000, 1, 1), ends_on=datetime.date(2999, 12, 31)
    )

    ladder = Ladder.objects.create(club=club, name="Ladder", game=GameKind.SNAPSZER)
    for place, member in enumerate([bence, csilla, daniel, anna], 1):
        LadderRung.objects.create(ladder=ladder, player=member, place=place)
    challenge = LadderChallenge.objects.create(
        ladder=ladder,
        challenger=daniel,
        challenged=csilla,
        challenger_place=3,
        challenged_place=2,
        due_at=timezone.now() + datetime.timedelta(days=7),
    )

    # The draft's registration is open, by approval; a newcomer's sign-up waits for it.
    registration_window_set(
        user=organiser,
        tournament=draft,
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=timezone.now() + timedelta(days=1),
        approval=True,
    )
    signup = registration_create(user=_account("walter"), tournament=draft)
    # Join requests are open; a newcomer (no player in the club) waits for an answer.
    Club.objects.filter(pk=club.pk).update(join_requests_open=True)
    waiting = JoinRequest.objects.create(club=club, user=_account("yvette"), message="Hello")

    base = {
        "slug": club.slug,
        "request_id": waiting.pk,
        "club_id": club.pk,
        "tournament_id": running.pk,
        "stage_id": league.pk,
        "number": 1,
        "series_id": played.pk,
        "game_number": 1,
        "player_id": anna.pk,
        "game_id": casual.pk,
        "token": casual.invite_token,
        "endpoint_id": endpoint.pk,
        "delivery_id": delivered.pk,
        "session_id": night.pk,
        "season_id": season.pk,
        "ladder_id": ladder.pk,
        "challenge_id": challenge.pk,
        "user_id": users["player"].pk,
        "table_game_id": played.games.get(number=1).pk,  # entered by a referee: only its result
        "token_id": api_token.pk,
        "report_id": waiting_report.pk,
        "dispute_id": asked.dispute_id,
        # The round the world published told the player their table.
        "notification_id": Notification.objects.filter(user=users["player"]).order_by("pk").first().pk,  # type: ignore[union-attr]
    }
    targets = {
        "running": base,
        "draft": {
            **base,
            "tournament_id": draft.pk,
            "stage_id": draft_stage.pk,
            "session_id": draft_night.pk,
        },
        "swiss": {**base, "stage_id": swiss.pk},
        "knockout": {**base, "stage_id": knockout.pk},
        "fresh": {**base, "series_id": fresh.pk},
        "online": {**base, "series_id": _series_of(online, anna).pk},
        # A password reset link, an e-mail confirmation link, a passkey and an outbox mail that do not exist.
        "reset": {
            "uidb36": "1",
            "key": "not-a-key",
            "pk": 999999,
            "name": "20260101T000000000000-000000000000.eml",
        },
        "invite": {**base, "token": invitation_token},
        "unlinked": {**base, "player_id": newcomer.pk},
        "claim": {**base, "token": claim_token},
        "signup": {**base, "tournament_id": draft.pk, "registration_id": signup.pk},
        "finished": {**base, "game_id": finished.pk},
        "series_game": {**base, "game_id": series_game.pk},
        "finished_snap": {**base, "game_id": finished_snap.pk},
    }
    fresh_away = fresh.seats.order_by("seat").first().player_id  # type: ignore[union-attr]
    won_game_2 = snapszer_win(anna, opponent)
    bodies: dict[tuple[str, str], dict[str, Any]] = {
        ("account_reset_password", "running"): {"email": "nobody@example.com"},
        ("games:new", "running"): {"profile": "snapszer", "opponent": "bot", "level": "casual"},
        ("games:practice", "running"): {"level": "casual", "seats": "2"},
        ("games:hand_entry", "running"): {"op": "deal", **HAND_DEAL},
        ("games_api:hand-position", "running"): HAND_DEAL,
        ("games_api:hand-create", "running"): {**HAND_DEAL, "actions": [{"type": "declare", "seat": 1}]},
        ("tournaments:club-create", "running"): {"name": "Matrix Club"},
        ("tournaments_api:club-list", "running"): {"name": "Matrix Club"},
        ("tournaments_api:invitation-accept", "invite"): {"token": invitation_token},
        ("tournaments_api:claim-accept", "claim"): {"token": claim_token},
        ("tournaments:tournament-create", "running"): {
            "name": "Summer Cup",
            "game": "snapszer",
            "series_format": "best_of_3",
        },
        ("tournaments:players-add", "running"): {"players": [newcomer.pk]},
        ("tournaments:players-add", "draft"): {"players": [newcomer.pk]},
        ("tournaments:referee-add", "running"): {"username": "other-referee"},
        ("tournaments:referee-add", "draft"): {"username": "other-referee"},
        ("tournaments:stage-create", "running"): {"name": "Extra", "format": "round_robin"},
        ("tournaments:stage-create", "draft"): {"name": "Extra", "format": "round_robin"},
        ("tournaments:stage-withdraw", "running"): {"player": daniel.pk, "reason": "went home"},
        ("tournaments:stage-withdraw", "draft"): {"player": daniel.pk, "reason": "went home"},
        ("tournaments:stage-online", "running"): {"online": "1"},
        ("tournaments:stage-online", "draft"): {"online": "1"},
        ("tournaments:record", "running"): {
            "game": 2,
            "expected_version": 0,
            "client_key": "matrix-2",
            "mode": "score",
            f"score_{anna.pk}": 7,
            f"score_{opponent.pk}": 3,
            "pot_carried": 0,
        },
        ("tournaments:forfeit", "fresh"): {"players": [fresh_away], "reason": "did not come"},
        ("tournaments:webhooks", "running"): {
            "url": "https://hooks.example.com/new",
            "events": ["round.published"],
        },
        ("tournaments:webhook", "running"): {
            "url": "https://hooks.example.com/moved",
            "events": ["round.published", "tournament.finished"],
            "active": "on",
        },
        ("tournaments_api:webhook-list", "running"): {
            "url": "https://hooks.example.com/new",
            "events": ["round.published"],
        },
        ("tournaments_api:webhook-detail", "running"): {"active": False},
        ("tournaments:api-tokens", "running"): {"name": "matrix", "scope": "read", "expires": "90"},
        ("tournaments_api:api-token-list", "running"): {"name": "matrix", "scope": "read"},
        ("tournaments:season-create", "running"): {
            "name": "Autumn",
            "starts_on": "2027-09-01",
            "ends_on": "2027-12-31",
            "points_scale": "10, 6, 3",
            "best_results": "",
        },
        ("tournaments:season-edit", "running"): {
            "name": "Season",
            "starts_on": "2000-01-01",
            "ends_on": "2999-12-31",
            "points_scale": "25, 18, 15",
            "best_results": "2",
        },
        ("tournaments:ladder-create", "running"): {
            "name": "Spring ladder",
            "game": "snap",
            "reach": "3",
            "reply_days": "7",
            "best_of": "3",
            "rematch_days": "7",
        },
        ("tournaments:ladder-edit", "running"): {
            "name": "Ladder",
            "game": "snapszer",
            "reach": "2",
            "reply_days": "5",
            "best_of": "1",
            "rematch_days": "0",
        },
        ("tournaments:ladder-players", "running"): {"player": newcomer.pk, "action": "add"},
        ("tournaments:ladder-challenge", "running"): {"challenged": bence.pk},
        ("tournaments:ladder-challenge-record", "running"): {"challenger": anna.pk, "challenged": bence.pk},
        ("tournaments:ladder-answer", "running"): {"action": "accept"},
        ("tournaments:ladder-result", "running"): {"challenger_wins": "2", "challenged_wins": "0"},
        ("tournaments_api:ladder-list", "running"): {"club": club.pk, "name": "Spring", "game": "snap"},
        ("tournaments_api:ladder-detail", "running"): {"reach": 2},
        ("tournaments_api:ladder-players", "running"): {"player": newcomer.pk, "action": "add"},
        ("tournaments_api:ladder-challenges", "running"): {"challenged": bence.pk, "challenger": anna.pk},
        ("tournaments_api:ladder-answer", "running"): {"action": "accept"},
        ("tournaments_api:ladder-result", "running"): {"challenger_wins": 2, "challenged_wins": 0},
        ("tournaments:season-tournament", "running"): {"tournament": running.pk, "choice": "out"},
        ("tournaments_api:season-list", "running"): {
            "club": club.pk,
            "name": "Autumn",
            "starts_on": "2027-09-01",
            "ends_on": "2027-12-31",
        },
        ("tournaments_api:season-detail", "running"): {"best_results": 3},
        ("tournaments_api:season-tournaments", "running"): {"tournament": running.pk, "choice": "in"},
        ("tournaments:correct", "running"): {
            "game": 1,
            "expected_version": 1,
            "client_key": "matrix-c",
            "mode": "score",
            "reason": "typo",
            f"score_{anna.pk}": 7,
            f"score_{opponent.pk}": 3,
            "pot_carried": 0,
        },
        ("tournaments:session-create", "running"): {"name": "Friday", "starts_at": later},
        ("tournaments:session-create", "draft"): {"name": "Friday", "starts_at": later},
        ("tournaments:session-checkin", "running"): {"player": anna.pk},
        ("tournaments:session-checkin", "draft"): {"player": anna.pk},
        ("tournaments:session-close", "running"): {},
        ("tournaments:session-edit", "running"): {"name": "Thursday", "rounds_planned": "2"},
        ("tournaments:session-edit", "draft"): {"name": "Autumn night", "rounds_planned": "2"},
        ("tournaments_api:session-detail", "running"): {"rounds_planned": 2},
        ("tournaments_api:session-detail", "draft"): {"rounds_planned": 2},
        ("tournaments:session-close", "draft"): {},
        ("tournaments:session-schedule", "running"): {"round": league_rounds[1].pk},
        ("tournaments:session-schedule", "draft"): {"round": league_rounds[1].pk},
        ("tournaments:session-stations", "running"): {"stations": "1 Window\n2\n3"},
        ("tournaments:session-stations", "draft"): {"stations": "1"},
        ("tournaments:series-station", "running"): {"station": night.stations.order_by("number").last().pk},  # type: ignore[union-attr]
        ("tournaments_api:tournament-sessions", "running"): {"name": "Friday", "starts_at": later},
        ("tournaments_api:tournament-sessions", "draft"): {"name": "Friday", "starts_at": later},
        ("tournaments_api:session-rounds", "running"): {"round": league_rounds[1].pk},
        ("tournaments_api:session-rounds", "draft"): {"round": league_rounds[1].pk},
        ("tournaments_api:session-checkins", "running"): {"player": anna.pk},
        ("tournaments_api:session-checkins", "draft"): {"player": anna.pk},
        ("tournaments_api:session-close", "running"): {},
        ("tournaments_api:session-close", "draft"): {},
        ("tournaments_api:player-list", "running"): {"club": club.pk, "name": "Viktor"},
        ("tournaments_api:club-players", "running"): {"players": [{"name": "Viktor"}, {"name": "Xénia"}]},
        ("tournaments_api:club-players-import", "running"): {"text": "name\nViktor\nXénia\n"},
        ("tournaments_api:tournament-list", "running"): {
            "club": club.pk,
            "name": "Summer Cup",
            "game": "snap",
        },
        ("tournaments_api:tournament-players-add", "running"): {"players": [newcomer.pk]},
        ("tournaments_api:tournament-players-add", "draft"): {"players": [newcomer.pk]},
        ("tournaments_api:stage-list", "running"): {
            "tournament": running.pk,
            "name": "Extra",
            "format": "round_robin",
        },
        ("tournaments_api:stage-list", "draft"): {
            "tournament": draft.pk,
            "name": "Extra",
            "format": "round_robin",
        },
        ("tournaments_api:stage-rounds-publish", "running"): {},
        ("tournaments_api:stage-rounds-publish", "draft"): {},
        ("tournaments_api:stage-withdrawals", "running"): {"player": daniel.pk, "reason": "went home"},
        ("tournaments_api:stage-withdrawals", "draft"): {"player": daniel.pk, "reason": "went home"},
        ("tournaments_api:result-create", "running"): {"game": 2, "result": won_game_2},
        ("tournaments_api:reports", "running"): {"game": 2, "result": won_game_2},
        ("tournaments_api:series-forfeit", "fresh"): {"players": [fresh_away], "reason": "did not come"},
    }
    sessions = {}
    for role, user in users.items():
        if user is not None:
            client = Client()
            client.force_login(user)
            sessions[role] = client.session.session_key
    return World(users=users, sessions=sessions, targets=targets, bodies=bodies, client=Client())


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """Built once, in a transaction rolled back when the module is done."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build()
        transaction.set_rollback(True)


# Each test runs in a savepoint of its own (pytest-django's test transaction, inside the module's),
# rolled back after it.
pytestmark = pytest.mark.django_db


def send(
    world: World, role: str, route: str, method: str, on: str, *, body: dict[str, Any] | None = None
) -> HttpResponse:
    client = world.client
    client.cookies = SimpleCookie()
    cache.clear()  # allauth's rate limits count in the cache: no cell counts another's requests
    if role != "anon":
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]
    target = world.targets[on]
    pattern = next(r.pattern for r in resolver_routes() if r.name == route)
    kwargs = {
        name: value for name, value in target.items() if f"<{name}>" in pattern or f":{name}>" in pattern
    }
    url = reverse(route, kwargs=kwargs)
    if body is None:
        body = world.bodies.get((route, on), {})
    call: Callable[..., HttpResponse] = getattr(client, method.lower())
    if method == "GET":
        return call(url)
    if url.startswith("/api/"):
        return call(url, body, content_type="application/json")
    if method == "POST":
        return call(url, body)
    return call(url)


LOGIN_PAGES = {"/accounts/login/", "/admin/login/"}


@pytest.mark.parametrize(
    ("row", "role"),
    [pytest.param(row, role, id=f"{row.id}-{row.method}-{role}") for row in MATRIX for role in ROLES],
)
def test_permission_matrix(world: World, row: Row, role: str) -> None:
    expected = row.statuses[ROLES.index(role)]
    response = send(world, role, row.route, row.method, row.on)
    assert response.status_code == expected, (
        f"{row.method} {row.id} as {role}: {response.status_code}, the table says {expected}"
    )
    refused = expected in (403, 404) or (
        role == "anon" and expected == 302 and row.route not in REDIRECTS_ANYONE
    )
    if row.method != "GET" and refused and (role == "anon" or row.route not in BODY_NAMES_THE_TARGET):
        empty = send(world, role, row.route, row.method, row.on, body={})
        assert empty.status_code == expected, (
            f"{row.method} {row.id} as {role} with an empty body: {empty.status_code}, refused with "
            f"{expected} with a good one"
        )
    if response.status_code == 302:
        to_login = urlsplit(response["Location"]).path in LOGIN_PAGES
        # A signed-in role sent to a login page is a refusal in disguise, but for the admin's door.
        should = row.route not in REDIRECTS_ANYONE and (role == "anon" or row.route == "admin:index")
        assert to_login == should, f"{row.method} {row.id} as {role} went to {response['Location']}"
        if role != "anon":
            told = [str(m) for m in get_messages(response.wsgi_request) if m.level == messages.ERROR]
            assert bool(told) == (role in row.not_done), f"{row.method} {row.id} as {role}: {told}"


def test_every_route_has_rows_and_every_row_a_route(world: World) -> None:
    """A route without a row, or a row without a route, fails; so does a method a route answers
    that the table does not list (as the club's organiser, every other method is a 405)."""
    names = [route.name for route in resolver_routes()]
    assert len(names) == len(set(names)), "two routes of one name: the table could not tell them apart"
    routes = set(names)
    in_table = {row.route for row in MATRIX}
    assert routes - in_table == set(), "routes without a row in MATRIX"
    assert in_table - routes == set(), "rows of routes that do not exist"
    listed: dict[str, set[str]] = {}
    first_on: dict[str, str] = {}
    for row in MATRIX:
        listed.setdefault(row.route, set()).add(row.method)
        first_on.setdefault(row.route, row.on)
    answered = []
    for route in sorted(routes):
        if route == "admin:index":
            continue  # Django's admin index answers any method (its own view)
        for method in METHODS:
            if method in listed[route]:
                continue
            with transaction.atomic():
                status = send(world, "organiser_here", route, method, first_on[route]).status_code
                transaction.set_rollback(True)
            if status != 405:
                answered.append(f"{method} {route}: {status}")
    assert answered == [], "methods answered without a row in MATRIX:\n" + "\n".join(answered)
