"""Engine problems and refused moves reach people as translated messages
(games/engine_messages.py), and so does every other coded problem.

(a) every code of every :class:`~games.engine.errors.Code` enum (engine problems, the shared
action vocabulary, the tournament modules' codes) has a message, collected by importing everything
(tests/codes.py), so a code added on any side without a message fails here; (b) every message
formats with the params its code carries, and every action code has a real engine call that
reports it; (c) the API and the pages answer bad rules and impossible Snapszer scores with 4xx
field errors whose text comes from the translation catalogue: a test catalogue for "hu" marks
every message it translates, so a message that bypassed gettext (or the mapping) would show
(tests/hu_catalogue.py, shared with test_tournament_messages.py).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django.utils.functional import Promise
from rest_framework.test import APIClient

from games.engine.errors import ActionCode, Code, IllegalAction, Problem, ProblemCode
from games.engine.sixtysix import MatchRecordProblem, Reason
from games.engine.snap.rules import SnapRulesProblem
from games.engine_messages import (
    ACTION_FALLBACK,
    ACTION_MESSAGES,
    FALLBACK,
    GAME_ACTION_MESSAGES,
    MESSAGES,
    REASONS,
    action_error_message,
    problem_message,
)
from tests.codes import all_codes
from tests.games.engine.action_codes import EXAMPLES as ACTION_EXAMPLES
from tests.games.engine.action_codes import UNREACHABLE, example_errors
from tests.games.engine.problem_codes import engine_problem_codes, example_problems
from tests.hu_catalogue import msgid as _msgid
from tournaments.competitions import messages as tournament_messages
from tournaments.competitions.problems import TournamentErrorCode
from tournaments.models import GameKind, GameResult, Player, Series, Tournament

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


# --- (a) every code has a message -----------------------------------------------------------------

# Each family of codes and the mapping that words it. A code of a new family (a new direct subclass
# of Code) has no message until its mapping is added here, and the tests below say so.
FAMILIES: list[tuple[type[Code], Mapping[Any, Promise]]] = [
    (ProblemCode, MESSAGES),
    (ActionCode, ACTION_MESSAGES),
    (TournamentErrorCode, tournament_messages.MESSAGES),
]
ALL_CODES = all_codes()


def message_of(code: Code) -> Promise | None:
    """The message that words ``code``, if its family has one for it."""
    for family, messages in FAMILIES:
        if isinstance(code, family):
            return messages.get(code)
    return None


def code_id(code: Code) -> str:
    return f"{type(code).__name__}.{code.name}"


def test_every_code_of_every_code_enum_has_a_message() -> None:
    assert [code_id(c) for c in ALL_CODES if message_of(c) is None] == []


def test_the_collector_finds_every_family() -> None:
    found = {family for code in ALL_CODES for family, _messages in FAMILIES if isinstance(code, family)}
    assert found == {ProblemCode, ActionCode, TournamentErrorCode}
    assert set(ActionCode) <= set(ALL_CODES)


def test_a_code_shared_by_two_enums_is_one_problem_with_one_message() -> None:
    """Messages are looked up by the code's text: two enums may share one only for the same
    problem, with the same params and so the same message (``duplicate_entrant``: standings and
    pairings)."""
    by_value: dict[str, list[Code]] = {}
    for code in ALL_CODES:
        by_value.setdefault(code.value, []).append(code)
    shared = {value: codes for value, codes in by_value.items() if len(codes) > 1}
    assert "duplicate_entrant" in shared
    for value, codes in shared.items():
        assert len({tuple(sorted(c.param_names)) for c in codes}) == 1, value
        assert len({id(message_of(c)) for c in codes}) == 1, value


def test_every_engine_code_has_a_message_and_every_message_a_code() -> None:
    codes = engine_problem_codes()
    assert [c for c in codes if c not in MESSAGES] == []
    assert [c for c in MESSAGES if c not in codes] == []


def test_every_hand_ending_has_a_label() -> None:
    assert set(REASONS) == set(Reason)


# --- (b) every message formats with its code's params --------------------------------------------


@pytest.mark.parametrize("code", ALL_CODES, ids=code_id)
def test_the_message_formats_with_exactly_the_params_its_code_carries(code: Code) -> None:
    message = message_of(code)
    assert message is not None
    msgid = _msgid(message)
    assert "%" not in PLACEHOLDER.sub("", msgid), f"{code}: only %(name)s placeholders: {msgid}"
    assert set(PLACEHOLDER.findall(msgid)) <= set(code.param_names), msgid
    assert "%(" not in message % {name: f"<{name}>" for name in code.param_names}


EXAMPLE_PROBLEMS = example_problems()


@pytest.mark.parametrize(
    ("code", "problem"), EXAMPLE_PROBLEMS, ids=[f"{c}-{i}" for i, (c, _p) in enumerate(EXAMPLE_PROBLEMS)]
)
def test_real_problems_become_messages_not_english_engine_text(code: Any, problem: Problem) -> None:
    message = problem_message(problem)
    assert message and message != str(problem) and "%(" not in message
    if "hand" in problem.params:
        assert message.startswith(f"Hand {problem.params['hand']}: ")
    if "game" in problem.params:
        assert message.startswith(f"Game {problem.params['game']}: ")


def test_values_are_shown_as_the_user_sent_them() -> None:
    (problem,) = [p for c, p in EXAMPLE_PROBLEMS if c is SnapRulesProblem.NOT_A_CHOICE]
    assert problem_message(problem) == (
        "The Snap option “match_key” cannot be “suit”. Choose one of: rank, exact_card, picture_id."
    )
    odd = Problem(problem.code, "text", option="match_key", value=[1, None], choices="rank")
    assert "“[1, null]”" in problem_message(odd)


def test_allowed_points_and_hand_endings_read_as_words() -> None:
    message = problem_message(
        Problem(MatchRecordProblem.HAND_WRONG_POINTS, "t", reason="declared", allowed=(1, 2, 3), points=4)
    )
    assert message == "A hand that ends with “declared 66” gives 1, 2 or 3 game points, not 4."


def test_an_uncoded_problem_is_logged_and_shown_as_a_general_message(caplog: Any) -> None:
    with caplog.at_level(logging.ERROR, logger="games.engine_messages"):
        assert problem_message("a plain English string") == str(FALLBACK)
    assert "a plain English string" in caplog.text


ACTION_ERRORS = example_errors()
ACTION_IDS = [f"{c}-{i}" for i, (c, _e) in enumerate(ACTION_ERRORS)]


def test_every_action_code_has_a_real_engine_call_that_reports_it() -> None:
    reported = {code for code, _call in ACTION_EXAMPLES}
    assert reported.isdisjoint(UNREACHABLE)
    assert sorted(set(ActionCode) - reported - set(UNREACHABLE)) == []


def _raised_by(error: BaseException) -> str:
    """The engine package ("snap", "sixtysix") whose code raised ``error``."""
    trace = error.__traceback__
    assert trace is not None
    while trace.tb_next is not None:
        trace = trace.tb_next
    return str(trace.tb_frame.f_globals["__name__"]).split(".")[2]


def test_both_engines_refuse_with_one_code_for_one_reason() -> None:
    engines: dict[ActionCode, set[str]] = {}
    for code, error in ACTION_ERRORS:
        engines.setdefault(code, set()).add(_raised_by(error))
    shared = {code for code, where in engines.items() if where == {"snap", "sixtysix"}}
    assert shared >= {ActionCode.NO_SUCH_SEAT, ActionCode.GAME_OVER, ActionCode.NOT_YOUR_TURN}


@pytest.mark.parametrize(("code", "error"), ACTION_ERRORS, ids=ACTION_IDS)
def test_refused_moves_become_messages_not_the_engines_detail(code: ActionCode, error: Any) -> None:
    message = action_error_message(error)
    assert message == str(ACTION_MESSAGES[code]) and message != str(ACTION_FALLBACK)
    assert error.detail not in message


def test_a_refused_move_reads_as_a_player_would_say_it() -> None:
    error = IllegalAction(ActionCode.NOT_YOUR_TURN, "seat 1 flipped, seat 0 is on turn")
    assert action_error_message(error) == "It is not your turn."


@pytest.mark.parametrize("code", list(ActionCode), ids=str)
def test_action_messages_name_no_rule_ids_or_internals(code: ActionCode) -> None:
    text = _msgid(ACTION_MESSAGES[code])
    assert not re.search(r"\b[SX]\d+\b|_|seq|seat \d", text), text


def test_a_stale_move_is_told_in_each_games_own_words() -> None:
    """Snap's "stale" is a call on a card turned over since; Snapszer has no calls, and its table
    refuses a move chosen on a table that has changed since: each game says what happened to it."""
    error = IllegalAction(ActionCode.STALE, "version 5, now 6")
    snap, snapszer = (
        action_error_message(error, GameKind.SNAP),
        action_error_message(error, GameKind.SNAPSZER),
    )
    assert snap == str(ACTION_MESSAGES[ActionCode.STALE]) == action_error_message(error)
    assert "call" in snap
    assert snapszer == str(GAME_ACTION_MESSAGES[(GameKind.SNAPSZER, ActionCode.STALE)])
    assert snapszer != snap and "call" not in snapszer and "move" in snapszer


@pytest.mark.parametrize("key", list(GAME_ACTION_MESSAGES), ids="-".join)
def test_a_games_own_words_are_looked_up_in_the_catalogue(hu_catalogue: None, key: Any) -> None:
    kind, code = key
    with translation.override("hu"):
        message = action_error_message(IllegalAction(code, "detail"), kind)
    assert message == f"[hu] {_msgid(GAME_ACTION_MESSAGES[key])}"
    assert not re.search(r"\b[SX]\d+\b|_|seq|seat \d", _msgid(GAME_ACTION_MESSAGES[key]))


def test_an_action_code_without_a_message_is_logged_and_shown_as_a_general_message(
    caplog: Any, monkeypatch: Any
) -> None:
    monkeypatch.delitem(ACTION_MESSAGES, ActionCode.NOT_LEGAL)
    with caplog.at_level(logging.ERROR, logger="games.engine_messages"):
        assert action_error_message(IllegalAction(ActionCode.NOT_LEGAL, "KH")) == str(ACTION_FALLBACK)
    assert "not_legal" in caplog.text


# --- (c) through the API and the pages, with a test catalogue -----------------------------------


HU = {"HTTP_ACCEPT_LANGUAGE": "hu"}


def test_the_catalogue_is_used_at_all(hu_catalogue: None) -> None:
    with translation.override("hu"):
        assert str(MESSAGES[SnapRulesProblem.SPEED_PLAYERS]) == "[hu] Speed Snap is meant for 2 or 3 players."


@pytest.mark.parametrize(
    ("code", "problem"), EXAMPLE_PROBLEMS, ids=[f"{c}-{i}" for i, (c, _p) in enumerate(EXAMPLE_PROBLEMS)]
)
def test_every_message_is_looked_up_in_the_catalogue(hu_catalogue: None, code: Any, problem: Problem) -> None:
    with translation.override("hu"):
        message = problem_message(problem)
    assert message.startswith("[hu] ")
    if "reason" in problem.params:
        assert "“[hu] " in message  # the hand ending's label is translated too


@pytest.mark.parametrize(("code", "error"), ACTION_ERRORS, ids=ACTION_IDS)
def test_every_refused_move_is_looked_up_in_the_catalogue(
    hu_catalogue: None, code: ActionCode, error: Any
) -> None:
    with translation.override("hu"):
        assert action_error_message(error) == f"[hu] {_msgid(ACTION_MESSAGES[code])}"


def test_api_bad_rules_options_are_field_errors_from_the_catalogue(
    hu_catalogue: None, club: Any, organiser: Any
) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    body = {
        "club": club.pk,
        "name": "Cup",
        "game": "snapszer",
        "rules_options": {"marriage_scoring": "later"},
    }
    response = client.post("/api/tournaments/", body, format="json", **HU)
    assert response.status_code == 400
    assert response.json()["message"] == "[hu] These rules cannot be played."
    assert response.json()["fields"] == {
        "rules_profile": [
            "[hu] The option “marriage_scoring” cannot be “later”. "
            "Choose one of: immediate, after_a_trick, next_trick."
        ]
    }
    assert not Tournament.objects.filter(name="Cup").exists()


def test_api_snap_rules_that_no_table_can_play_are_field_errors_from_the_catalogue(
    hu_catalogue: None, club: Any, organiser: Any
) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    body = {
        "club": club.pk,
        "name": "Cup",
        "game": "snap",
        "rules_options": {"single_pile": True, "speed": True},
    }
    response = client.post("/api/tournaments/", body, format="json", **HU)
    assert response.status_code == 400
    assert response.json()["fields"]["rules_profile"] == [
        "[hu] Single-pile Snap cannot be combined with speed, double or slapjack: switch those off, "
        "or play with a pile each."
    ]


def test_page_form_with_rules_of_the_other_game_shows_the_catalogue_message(
    hu_catalogue: None, club: Any, organiser: Any
) -> None:
    client = Client()
    client.force_login(organiser)
    form = {"name": "Cup", "game": "snapszer", "series_format": "best_of_3", "rules_profile": "classic"}
    response = client.post(f"/clubs/{club.slug}/tournaments/new/", form, **HU)
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "[hu] There is no Snapszer rules profile called “classic”. Choose one of: snapszer, snapszer-hu, "
        "schnapsen, sixty-six, santase, schnapsen-lite." in page
    )
    assert "unknown profile" not in page  # the engine's English stays in the logs
    assert not Tournament.objects.filter(name="Cup").exists()


@pytest.fixture
def duel(make_series: Callable[..., Series], players: list[Player]) -> Series:
    return make_series(players[:2], game=GameKind.SNAPSZER)


def test_api_impossible_snapszer_score_is_a_field_error_from_the_catalogue(
    hu_catalogue: None, duel: Series, players: list[Player], referee: Any
) -> None:
    a, b = players[:2]
    client = APIClient()
    client.force_authenticate(referee)
    result = {"score": {str(a.pk): 10, str(b.pk): 6}}  # 6 + the largest award of 3 is at most 9
    response = client.post(
        f"/api/series/{duel.pk}/results/", {"game": 1, "result": result}, format="json", **HU
    )
    assert response.status_code == 400
    assert response.json()["code"] == "result_invalid"
    assert response.json()["fields"] == {
        "score": [
            "[hu] 10–6: the winner can have at most 9 (7 minus 1 before the last hand, plus at most 3 "
            "from it). Check the score and the pot carried into the last hand."
        ]
    }
    assert not GameResult.objects.exists()


def test_page_form_impossible_snapszer_score_shows_the_catalogue_message(
    hu_catalogue: None, duel: Series, players: list[Player], referee: Any
) -> None:
    a, b = players[:2]
    client = Client()
    client.force_login(referee)
    form = {"game": 1, "expected_version": 0, "client_key": "k1", "mode": "score"}
    form.update({f"score_{a.pk}": 4, f"score_{b.pk}": 5})
    response = client.post(f"/series/{duel.pk}/record/", form, **HU)
    assert response.status_code == 400
    page = response.content.decode()
    score_section = page[page.index('class="score-entry"') : page.index('class="hands-entry"')]
    assert "[hu] 4–5: nobody has reached 7, so the match is not over yet." in score_section
    assert not GameResult.objects.exists()


def test_page_form_hand_by_hand_problems_name_the_hand_in_the_catalogues_words(
    hu_catalogue: None, duel: Series, players: list[Player], referee: Any
) -> None:
    a, _b = players[:2]
    client = Client()
    client.force_login(referee)
    form: dict[str, Any] = {"game": 1, "expected_version": 0, "client_key": "k2", "mode": "hands"}
    form.update({"hand_0_winner": a.pk, "hand_0_points": 3, "hand_1_winner": a.pk, "hand_1_points": 6})
    response = client.post(f"/series/{duel.pk}/record/", form, **HU)
    assert response.status_code == 400
    assert (
        "[hu] Hand 2: [hu] A hand that ends with “[hu] declared 66” gives [hu] 1, 2 or 3 game points, not 6."
        in response.content.decode()
    )
