"""Replays (docs/online.md, "Replays"): a finished game stepped through from its log.

A game is ``setup + ordered log rows``, so its replay is a fold: each game kind's online play
(``online_for(kind).replay``, games/online/tables.py and games/online/snap.py) rebuilds the states
from the setup and the rows, with no snapshot and no database, and gives one :class:`Step` per
thing that happened: a short translated description and the **frame** the chosen viewer sees
then. A seat's frame is the one the live table sends (``view_frame``: ``observe`` of that seat);
"all cards" (:data:`ALL`) adds what no seat saw (every hand and the stock; every face-down pile),
which :func:`replay_get` allows only once the game is finished, like the whole replay: a replay
during play would show hidden cards.

Steps are numbered from 0 (the deal); a step's ``index`` is its address (the page's ``?step=``),
and ``seq`` is the log row it follows (0: the deal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.card_names import CARD_NAME, DECKS
from games.models import OnlineGame
from snapleague.errors import Conflict, NotFound

ALL: Final = "all"  # the viewer who sees every card (only once the game is over)

type Viewer = int | str  # a seat number, or ALL
type LogRows = Sequence[Mapping[str, Any]]  # a log as the replays take it: ``seq`` and ``action``

NOT_FINISHED = gettext_lazy(
    "This game is still being played. Its replay opens when it ends: a replay now would show "
    "cards the players may not see yet."
)
NO_SUCH_GAME = gettext_lazy("There is no such game.")
NO_SUCH_VIEWER = gettext_lazy("This game has no such seat.")


@dataclass(frozen=True)
class Step:
    """One step of a replay: after log row ``seq`` (0: the deal), ``text`` says what happened and
    ``frame`` is what the viewer sees. ``state`` is the engine's state (server-side only, for tests)."""

    seq: int
    text: str
    frame: dict[str, Any]
    state: Any = field(repr=False, compare=False)

    def to_dict(self, index: int) -> dict[str, Any]:
        return {"index": index, "seq": self.seq, "text": self.text, "frame": self.frame}


@dataclass(frozen=True)
class Replay:
    """Every step of a game, and the engine's result of its last state (None: not over)."""

    viewer: Viewer
    steps: list[Step]
    result: dict[str, Any] | None


# --- Words for cards and players ------------------------------------------------------------------


def card_words(name: str, kind: str) -> str:
    """``"AH"`` → "the ace of hearts" in the reader's language, with ``kind``'s own names for its
    cards (games/card_names.py: Snapszer in Hungarian says "a piros ász"); a picture card
    (``"cat.2"``) → "cat"; a second pack's copy (``"AH.1"``) reads as the card."""
    base = name.split(".", maxsplit=1)[0]
    ranks, suits = DECKS[kind]
    rank, suit = base[:-1], base[-1:]
    if not rank or suit not in suits:
        return base
    full = str(CARD_NAME) % {"rank": str(ranks[rank][1]) if rank in ranks else rank, "suit": str(suits[suit])}
    return _("the %(card)s") % {"card": full}


def suit_words(suit: str, kind: str) -> str:
    return str(DECKS[kind][1].get(suit, suit))


def seat_names(game: OnlineGame) -> list[str]:
    """Who sits where, for pages and replays: the user's name, or the bot and its level; an entered
    hand's names as entered (``seat_labels``)."""
    labels = list(game.seat_labels or [])
    return [
        labels[s.number]
        if s.number < len(labels) and labels[s.number]
        else s.user.username
        if s.user
        else (
            _("Bot %(number)s (%(level)s)") % {"number": s.number, "level": s.bot_level}
            if s.bot_level
            else "—"
        )
        for s in game.seats.all()
    ]


def log_rows(game: OnlineGame) -> LogRows:
    """The game's log as the replay functions take it: ``seq`` and the logged ``action``."""
    return [
        {"seq": seq, "action": action}
        for seq, action in game.log.order_by("seq").values_list("seq", "action")
    ]


# --- Who may see a replay ---------------------------------------------------------------------------


def viewer_parse(value: str | None, seats: int, default: int) -> Viewer:
    """The ``?seat=`` of the replay page: a seat number, ``all``, or nothing (``default``).
    Raises NotFound for anything else."""
    if value is None or value == "":
        return default
    if value == ALL:
        return ALL
    if value.isdigit() and int(value) < seats:
        return int(value)
    raise NotFound(code="no_such_seat", message=NO_SUCH_VIEWER)


def finished_game_get(*, user: Any, game_id: int) -> OnlineGame:
    """Game ``game_id`` once it is finished, for whoever may see its replay (the replay and its
    analysis). Raises NotFound (no such game, a series ``user`` may not see) or Conflict (not
    finished: every view of it would show what the players may not know yet)."""
    from tournaments.competitions.selectors.tournaments import series_visible

    game = OnlineGame.objects.prefetch_related("seats__user").filter(pk=game_id).first()
    if game is None or (
        game.series_id is not None and not series_visible(user=user).filter(pk=game.series_id).exists()
    ):
        raise NotFound(code="game_not_found", message=NO_SUCH_GAME)
    if game.source == OnlineGame.Source.HAND and not hand_visible(user=user, game=game):
        raise NotFound(code="game_not_found", message=NO_SUCH_GAME)
    if game.status != OnlineGame.Status.FINISHED:
        raise Conflict(code="game_not_finished", message=NOT_FINISHED)
    return game


def hand_visible(*, user: Any, game: OnlineGame) -> bool:
    """Who may see a hand entered card by card: one of a tournament game, whoever may see that
    game's series; one entered for oneself, its author and the users seated in it (private)."""
    from tournaments.competitions.selectors.tournaments import games_visible

    if game.table_game_id is not None:
        return games_visible(user=user).filter(pk=game.table_game_id).exists()
    if not user.is_authenticated:
        return False
    return game.created_by_id == user.pk or any(s.user_id == user.pk for s in game.seats.all())


def seat_of(user: Any, game: OnlineGame) -> int | None:
    """The seat ``user`` plays in ``game``, or None."""
    return next((s.number for s in game.seats.all() if user.is_authenticated and s.user_id == user.pk), None)


def replay_get(*, user: Any, game_id: int, viewer: str | None) -> tuple[OnlineGame, Replay]:
    """The replay of game ``game_id`` as ``viewer`` sees it (``?seat=``: a seat, ``all``; none: the
    user's own seat, else seat 0).

    Who may: a casual game, anyone who may see its table (everyone); a tournament series' game,
    whoever may see the series. Raises NotFound (no such game, a series ``user`` may not see, no
    such seat) or Conflict (the game is not finished: every view, "all cards" above all, would
    show what the players may not know yet)."""
    from games.online.tables import online_for  # tables imports the models this module does

    game = finished_game_get(user=user, game_id=game_id)
    mine = seat_of(user, game)
    chosen = viewer_parse(viewer, game.seat_count, 0 if mine is None else mine)
    replay = online_for(game.kind).replay(game.setup or {}, log_rows(game), chosen, seat_names(game))
    return game, replay


def describe(parts: Sequence[str]) -> str:
    """One step's text from its parts (the events worth telling)."""
    return " — ".join(p for p in parts if p)


def named(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return _("the table")
    return names[seat] if 0 <= seat < len(names) else _("seat %(seat)s") % {"seat": seat}


def several(names: Sequence[str], seats: Sequence[int]) -> str:
    return ", ".join(named(names, s) for s in seats)


def result_of(engine_result: Any) -> dict[str, Any] | None:
    return None if engine_result is None else dict(engine_result.to_dict())


def score_words(scores: Mapping[int, int] | Sequence[int]) -> str:
    return " – ".join(str(s) for s in (scores.values() if isinstance(scores, Mapping) else scores))
