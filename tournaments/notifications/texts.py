"""What a notification says, made from its event and plain params in the reader's language (the
in-app list renders in the viewer's, mails and pushes in the recipient's profile language)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from tournaments.notifications.models import Event


@dataclass(frozen=True)
class Text:
    title: str
    body: str


def _names(names: Any) -> str:
    return ", ".join(str(n) for n in names or []) or "—"


def _when(value: Any) -> str:
    moment = parse_datetime(str(value or ""))
    return date_format(localtime(moment), "DATETIME_FORMAT") if moment else ""


def _render(event: str, p: Mapping[str, Any]) -> Text:
    if event == Event.ROUND_PUBLISHED:
        where = p.get("station") or _("table %(table)s") % {"table": p.get("table", "?")}
        return Text(
            _("Round %(round)s of %(tournament)s")
            % {"round": p.get("round"), "tournament": p.get("tournament")},
            _("You play at %(where)s against %(opponents)s.")
            % {"where": where, "opponents": _names(p.get("opponents"))},
        )
    if event == Event.CHECK_IN_OPEN:
        return Text(
            _("Check-in is open: %(session)s") % {"session": p.get("session")},
            _("%(tournament)s, %(when)s: check in when you arrive.")
            % {"tournament": p.get("tournament"), "when": _when(p.get("starts_at"))},
        )
    if event == Event.YOUR_MOVE:
        return Text(
            _("Your move against %(opponents)s") % {"opponents": _names(p.get("opponents"))},
            _("Your online game is waiting for you. Come back before a bot or a forfeit takes your seat."),
        )
    if event == Event.REGISTRATION_ACCEPTED:
        return Text(
            _("You are registered for %(tournament)s") % {"tournament": p.get("tournament")},
            _("Your place is confirmed."),
        )
    if event == Event.MOVED_UP:
        return Text(
            _("You moved up: %(tournament)s") % {"tournament": p.get("tournament")},
            _("A place came free and it is yours: you are registered."),
        )
    if event == Event.JOIN_DECIDED:
        if p.get("approved"):
            return Text(
                _("Welcome to %(club)s") % {"club": p.get("club")},
                _("Your request to join was approved."),
            )
        return Text(
            _("%(club)s answered your request") % {"club": p.get("club")},
            _("Your request to join was refused.") + (f" {p['reason']}" if p.get("reason") else ""),
        )
    if event == Event.RESULT_TO_CONFIRM:
        return Text(
            _("Confirm a result: %(series)s") % {"series": p.get("series")},
            _("%(reporter)s reported %(result)s. Confirm it or give your version.")
            % {"reporter": p.get("reporter"), "result": p.get("result")},
        )
    if event == Event.RESULT_DISPUTED:
        return Text(
            _("Disputed: %(series)s") % {"series": p.get("series")},
            _("Game %(n)s needs a referee or an organiser to decide.") % {"n": p.get("game")},
        )
    if event == Event.DISPUTE_DECIDED:
        return Text(
            _("Decided: %(series)s") % {"series": p.get("series")},
            _("Game %(n)s: %(result)s.") % {"n": p.get("game"), "result": p.get("result")},
        )
    if event == Event.REPORT_OVERDUE:
        return Text(
            _("Not reported: %(series)s") % {"series": p.get("series")},
            _("Nothing was reported by the deadline."),
        )
    return Text(str(event), "")


def notification_text(event: str, params: Mapping[str, Any], language: str | None = None) -> Text:
    """The title and body of a notification, in ``language`` (None: the active one)."""
    if language is None:
        return _render(event, params)
    with translation.override(language or settings.LANGUAGE_CODE):
        return _render(event, params)
