"""Snapszer analysis on the web (docs/analysis.md): asked for from the replay page, worked out by a
Celery task with the engine's pure analysis (games/engine/sixtysix/analysis.py), stored per hand
(``AnalysedHand``) and shown on the replay page in words.

The engine returns values and codes only; every sentence is made here, from the message maps
below (as games/engine_messages.py does for the engines' problems): one message per
:class:`~games.engine.sixtysix.analysis.Kind` of decision, and the words for each action.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any, Final

from django.db import transaction
from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.protocol import GameKind
from games.engine.sixtysix.actions import action_from_dict
from games.engine.sixtysix.analysis import ANALYSIS_VERSION, AnalysisBudget, Kind, analyse_hand, game_hands
from games.models import AnalysedHand, GameAnalysis, OnlineGame
from games.online.replay import ALL, Viewer, card_words, finished_game_get, log_rows, named, seat_names
from games.online.tables import is_control
from snapleague.celery import enqueue
from snapleague.errors import Conflict, NotFound

logger = logging.getLogger(__name__)

# The budget the web analysis runs with: docs/benchmarks.md ("Snapszer analysis") measures a hand.
BUDGET: Final = AnalysisBudget()
# A request still pending after this long lost its task (a worker died): asking again sends it again.
STALE: Final = timedelta(minutes=10)

CARDS_UNKNOWN = gettext_lazy(
    "This game cannot be analysed: only its result was recorded, not the cards that were dealt and "
    "played. Games played online (and hands entered card by card) can be analysed."
)
ONLY_SNAPSZER = gettext_lazy("Only Snapszer games can be analysed.")
NO_SUCH_TABLE_GAME = gettext_lazy("There is no such game.")

# What a decision cost, by the kind of the action chosen: %(chosen)s and %(best)s are action words
# (ACTION_WORDS), %(loss)s the game points given away on average.
COST: Final[dict[Kind, Promise]] = {
    Kind.LEAD: gettext_lazy("Leading %(chosen)s cost %(loss)s game points on average; %(best)s was better."),
    Kind.FOLLOW: gettext_lazy(
        "Answering with %(chosen)s cost %(loss)s game points on average; %(best)s was better."
    ),
    Kind.MARRIAGE: gettext_lazy(
        "Showing the marriage here cost %(loss)s game points on average; %(best)s was better."
    ),
    Kind.EXCHANGE: gettext_lazy(
        "Exchanging the trump card here cost %(loss)s game points on average; %(best)s was better."
    ),
    Kind.CLOSE: gettext_lazy("Closing here cost %(loss)s game points on average; %(best)s was better."),
    Kind.DRAW: gettext_lazy("Drawing here cost %(loss)s game points on average; %(best)s was better."),
    Kind.DECLARE: gettext_lazy("Declaring here cost %(loss)s game points on average; %(best)s was better."),
    Kind.PASS: gettext_lazy("Passing here cost %(loss)s game points on average; %(best)s was better."),
}

# An action in words, by its type in the engine's wire form (``to_dict()["type"]``); a card played
# is the card's own words (games/card_names.py).
ACTION_WORDS: Final[dict[str, Promise]] = {
    "marriage": gettext_lazy("the marriage, leading %(card)s"),
    "exchange": gettext_lazy("exchanging the trump card"),
    "close": gettext_lazy("closing the stock"),
    "draw": gettext_lazy("drawing"),
    "declare": gettext_lazy("declaring 66"),
    "pass": gettext_lazy("passing"),
}


def action_words(action: Mapping[str, Any]) -> str:
    card = action.get("card")
    if action["type"] == "play":
        return card_words(card, GameKind.SNAPSZER)
    return str(ACTION_WORDS[action["type"]]) % {
        "card": card_words(card, GameKind.SNAPSZER) if card else "",
    }


def points_words(value: float) -> str:
    """Game points with one decimal, in the reader's number format."""
    return str(formats.number_format(value, 1, use_l10n=True))


def cost_sentence(decision: Mapping[str, Any]) -> str:
    return str(COST[Kind(decision["kind"])]) % {
        "chosen": action_words(decision["chosen"]),
        "best": action_words(decision["best"]),
        "loss": points_words(decision["loss"]),
    }


# --- requests --------------------------------------------------------------------------------------


def _analysable(game: OnlineGame) -> None:
    if game.kind != GameKind.SNAPSZER:
        raise Conflict(code="analysis_not_snapszer", message=ONLY_SNAPSZER)
    if not game.setup:
        raise Conflict(code="cards_unknown", message=CARDS_UNKNOWN)


def analysis_request(*, user: Any, game_id: int) -> GameAnalysis:
    """Ask for the analysis of finished game ``game_id`` (every hand, both seats); safe to ask
    twice: a pending or done analysis of the current version is left as it is (a pending one that
    lost its task is sent again). Raises what the replay raises (NotFound, Conflict: not
    finished), and Conflict for a game that is not Snapszer or whose cards are unknown."""
    game = finished_game_get(user=user, game_id=game_id)
    _analysable(game)
    now = timezone.now()
    with transaction.atomic():
        analysis = GameAnalysis.objects.select_for_update().filter(game=game).first()
        if analysis is not None and analysis.version == ANALYSIS_VERSION:
            if analysis.status == GameAnalysis.Status.DONE:
                return analysis
            if analysis.status == GameAnalysis.Status.PENDING and now - analysis.requested_at < STALE:
                return analysis
        if analysis is None:
            analysis = GameAnalysis(game=game)
        analysis.status = GameAnalysis.Status.PENDING
        analysis.version = ANALYSIS_VERSION
        analysis.hands_done = 0
        analysis.requested_by = user if user.is_authenticated else None
        analysis.requested_at = now
        analysis.finished_at = None
        analysis.save()
        transaction.on_commit(lambda: _enqueue(game.pk))
    return analysis


def _enqueue(game_id: int) -> None:
    from games.tasks import analyse_game_task

    enqueue(analyse_game_task, game_id)


def table_game_analysis_request(*, user: Any, game_id: int) -> GameAnalysis:
    """Ask for the analysis of tournament game ``game_id`` (``tournaments.Game``): the online game
    it was played as, if any, else the newest hand of it entered card by card (games/hand_entry.py);
    a game played at a table and entered by its result only has no cards, and the request says so
    (Conflict ``cards_unknown``)."""
    from tournaments.competitions.selectors.tournaments import series_visible
    from tournaments.models import Game

    game = Game.objects.filter(pk=game_id, series__in=series_visible(user=user)).first()
    if game is None:
        raise NotFound(code="game_not_found", message=NO_SUCH_TABLE_GAME)
    online = game.results.filter(confirmed=True, engine_game__isnull=False).values_list(
        "engine_game", flat=True
    )
    online_id = next(iter(online), None)
    if online_id is None:
        # Played at a table: its hands entered card by card, if any (the newest is analysed first;
        # each entered hand's replay asks for its own).
        online_id = (
            OnlineGame.objects.filter(table_game=game, source=OnlineGame.Source.HAND)
            .order_by("-created_at", "-pk")
            .values_list("pk", flat=True)
            .first()
        )
    if online_id is None:
        raise Conflict(code="cards_unknown", message=CARDS_UNKNOWN)
    return analysis_request(user=user, game_id=online_id)


# --- the task's work -----------------------------------------------------------------------------------


def hand_rng(game_id: int, hand: int) -> random.Random:
    """The worlds of a hand's analysis come from this: the same game gives the same analysis."""
    return random.Random(f"snapleague-analysis:{game_id}:{hand}")


def analysis_run(*, game_id: int, budget: AnalysisBudget | None = None) -> str:
    """Analyse every hand of game ``game_id`` not stored yet at the current version (the Celery
    task; a second run finds the hands done and only marks the analysis done). Returns the status."""
    game = OnlineGame.objects.filter(pk=game_id).first()
    analysis = GameAnalysis.objects.filter(game_id=game_id).first()
    if game is None or analysis is None:
        return "missing"
    if analysis.status == GameAnalysis.Status.DONE and analysis.version == ANALYSIS_VERSION:
        return analysis.status
    rows = [row for row in log_rows(game) if not is_control(row["action"])]
    try:
        _analysable(game)
        actions = [action_from_dict(row["action"]) for row in rows]
        hands = game_hands(game.setup or {}, actions)
    except (Conflict, ValueError) as exc:  # the engine's errors are ValueErrors
        logger.warning("analysis of game %s failed: %s", game_id, exc)
        GameAnalysis.objects.filter(pk=game_id).update(
            status=GameAnalysis.Status.FAILED, finished_at=timezone.now()
        )
        return GameAnalysis.Status.FAILED
    GameAnalysis.objects.filter(pk=game_id).update(hands_total=len(hands))
    done = set(
        AnalysedHand.objects.filter(game=game, version=ANALYSIS_VERSION).values_list("hand", flat=True)
    )
    for position, hand in enumerate(hands, 1):
        if hand.number not in done:
            result = analyse_hand(
                hand.start, hand.actions, hand_rng(game_id, hand.number), budget or BUDGET, hand=hand.number
            )
            data = result.to_dict()
            for decision in data["decisions"]:
                decision["seq"] = rows[hand.offsets[decision["index"]]]["seq"]
            AnalysedHand.objects.update_or_create(
                game=game, hand=hand.number, defaults={"version": ANALYSIS_VERSION, "data": data}
            )
        GameAnalysis.objects.filter(pk=game_id).update(hands_done=position)
    GameAnalysis.objects.filter(pk=game_id).update(
        status=GameAnalysis.Status.DONE, finished_at=timezone.now()
    )
    return GameAnalysis.Status.DONE


# --- the page ----------------------------------------------------------------------------------------


def analysis_context(*, user: Any, game: OnlineGame, viewer: Viewer) -> dict[str, Any]:
    """What the replay page's analysis panel shows: the state of the analysis, and once done each
    hand's summaries and decisions of the seat viewed (both seats for "all cards"), each decision
    with the replay step it annotates and its sentence."""
    from games.online.replay import seat_of

    names = seat_names(game)
    mine = seat_of(user, game)
    analysis = GameAnalysis.objects.filter(game=game).first()
    context: dict[str, Any] = {
        "game": game,
        "viewer": viewer,
        "analysable": game.kind == GameKind.SNAPSZER and bool(game.setup),
        "seated": mine is not None,
        "analysis": analysis,
        "current": analysis is not None and analysis.version == ANALYSIS_VERSION,
        "hands": [],
    }
    if analysis is None or analysis.status != GameAnalysis.Status.DONE or not context["current"]:
        return context
    seats: Sequence[int] = (0, 1) if viewer == ALL else (int(viewer),)
    # A decision annotates the replay step of its action: steps are the deal and the moves, in order.
    step_of: dict[int, int] = {}
    for row in log_rows(game):
        if not is_control(row["action"]):
            step_of[row["seq"]] = len(step_of) + 1
    hands = []
    for record in AnalysedHand.objects.filter(game=game, version=ANALYSIS_VERSION).order_by("hand"):
        data = record.data
        decisions = []
        for d in data["decisions"]:
            if d["seat"] not in seats:
                continue
            step = step_of.get(d["seq"], 0)
            note = _(
                "Step %(step)s, %(who)s: chose %(chosen)s (%(value)s); best %(best)s (%(best_value)s)."
            ) % {
                "step": step,
                "who": named(names, d["seat"]),
                "chosen": action_words(d["chosen"]),
                "value": points_words(d["chosen_value"]),
                "best": action_words(d["best"]),
                "best_value": points_words(d["values"][0]["value"]),
            }
            if d["mistake"]:
                note += " " + cost_sentence(d)
            decisions.append({**d, "step": step, "note": note, "who": named(names, d["seat"])})
        summaries = []
        for s in data["summaries"]:
            if s["seat"] not in seats:
                continue
            line = ngettext(
                "%(who)s: %(count)s decision, %(loss)s game points given away, %(mistakes)s mistakes.",
                "%(who)s: %(count)s decisions, %(loss)s game points given away, %(mistakes)s mistakes.",
                s["decisions"],
            ) % {
                "who": named(names, s["seat"]),
                "count": s["decisions"],
                "loss": points_words(s["total_loss"]),
                "mistakes": s["mistakes"],
            }
            worst = s["worst"]
            summaries.append(
                {"line": line, "worst": cost_sentence(worst) if worst else "", "seat": s["seat"]}
            )
        hands.append({"number": record.hand, "summaries": summaries, "decisions": decisions})
    context["hands"] = hands
    return context
