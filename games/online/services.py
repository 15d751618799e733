"""Online play's writes (sync, the database): tables, seats, the deal, the log, the end.

The owner (games/online/owner.py) is the only caller of :func:`log_append_many` and :func:`finish` for a
live game; pages call :func:`table_create`, :func:`seat_join`, :func:`seats_fill_with_bots` and
:func:`game_start`. docs/online.md.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine.errors import InvalidRules, InvalidSnapshot
from games.engine.protocol import Engine, GameKind, engine_for
from games.engine_messages import problem_messages
from games.models import GameLogEntry, GameSnapshot, OnlineGame, OnlineSeat
from games.online.groups import view_group
from games.online.kinds import GameOnline, online_for
from games.ports import tournament_port
from snapleague.compiled import CompiledInsert, CompiledUpdate
from snapleague.errors import ApplicationError, Conflict, NotFound, PermissionDenied

SNAPSHOT_EVERY = 20  # actions between snapshots: a takeover replays at most this many log rows

# The table's own options, stored in the game's options next to the engine's (which never sees
# them): how long a player may be away before a bot takes the seat (docs/online.md "Absent players").
TABLE_OPTIONS = ("absent_seconds",)
# The log rows that are not the game's inputs but say who plays a seat (docs/online.md, "Absent
# players"): a bot stands in for an absent player (``bot`` its level) or the player is back
# (``bot`` null); a tournament game abandoned because ``seats`` were absent. Every replay of the
# log skips them (the state), and tables.Seating reads them.
STAND_IN = "stand_in"
ABANDON = "abandon"
CONTROL_ROWS = frozenset({STAND_IN, ABANDON})
ABSENT_SECONDS_RANGE = (10, 3600)
ABSENT_SECONDS_WRONG = _("Choose how long a player may be away: from %(low)s to %(high)s seconds.")


def absent_seconds_check(value: Any) -> int:
    """A table's ``absent_seconds``, or ApplicationError (field ``absent_seconds``)."""
    low, high = ABSENT_SECONDS_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        message = ABSENT_SECONDS_WRONG % {"low": low, "high": high}
        raise ApplicationError(code="invalid", message=message, fields={"absent_seconds": [message]})
    return value


def absent_seconds_of(game: OnlineGame) -> float:
    """How long a seat of ``game`` may be away: the table's option (casual), else the setting
    ``ONLINE_ABSENT_SECONDS`` (tournament series games; 60 by default)."""
    from django.conf import settings

    default = float(getattr(settings, "ONLINE_ABSENT_SECONDS", 60))
    return float((game.options or {}).get("absent_seconds", default))


logger = logging.getLogger(__name__)


def engine_of(game: OnlineGame) -> Engine:
    return engine_for(game.kind)


def deal_seed(server_seed: bytes, client_seeds: Sequence[bytes]) -> bytes:
    """The seed the engine deals from (docs/online.md, "Fair dealing"):
    ``SHA-256(server_seed || SHA-256(client_seed_0) || … || SHA-256(client_seed_n-1))``, the client
    seeds in seat order (an empty one for a seat that gave none, and for a bot)."""
    digest = hashlib.sha256(server_seed)
    for seed in client_seeds:
        digest.update(hashlib.sha256(seed).digest())
    return digest.digest()


def table_check(kind: str, options: Mapping[str, Any], seats: int) -> None:
    """Raise ApplicationError (translated, with the rules' problems as field errors) unless
    ``kind`` can be played online at ``seats`` seats with ``options``."""
    _options(kind, options, seats)


def _options(kind: str, options: Mapping[str, Any], seats: int) -> None:
    try:
        engine = engine_for(kind)
    except (ValueError, KeyError):
        raise ApplicationError(code="unknown_game", message=_("There is no such game.")) from None
    low, high = engine.seat_range()
    if not low <= seats <= high:
        raise ApplicationError(
            code="seats",
            message=_("This game is played by %(low)s to %(high)s players.") % {"low": low, "high": high},
        )
    try:
        engine.check_options(options, seats)
        _online(kind).check_table(options, seats)
    except InvalidRules as exc:
        raise ApplicationError(
            code="rules_invalid",
            message=_("These rules cannot be played."),
            fields={"options": problem_messages(exc.errors)},
        ) from None


def _online(kind: str) -> GameOnline:
    return online_for(kind)


def _bot_level(kind: str, level: str) -> str:
    if level not in _online(kind).bot_levels:
        raise ApplicationError(
            code="unknown_bot", message=_("There is no bot level called “%(level)s”.") % {"level": level}
        )
    return level


def server_seed_commit() -> dict[str, str]:
    """A fresh server seed and its SHA-256 commitment, as the fields of a new :class:`OnlineGame`.
    It is drawn when the table is created, before any client seed is given, so the server cannot
    choose its seed knowing the clients' (nor a client its seed knowing the server's: only the
    commitment is shown until the end)."""
    server = secrets.token_bytes(32)
    return {"sealed_seed": server.hex(), "server_seed_hash": hashlib.sha256(server).hexdigest()}


@transaction.atomic
def table_create(
    *,
    user: Any,
    kind: str,
    options: Mapping[str, Any],
    seats: int,
    bots: Sequence[str | None] = (),
    absent_seconds: Any = None,
    client_seed: str = "",
) -> OnlineGame:
    """A casual table with ``user`` in seat 0 (with ``client_seed``); ``bots[i]`` (a level, or
    None) sits in seat i + 1. ``absent_seconds`` (default: the setting) is stored in the options
    (the table's, not the engine's). Raises ApplicationError for rules, seats, levels, the absence
    allowance or a seed refused."""
    seed = client_seed_clean(client_seed)
    _options(kind, options, seats)
    table = {} if absent_seconds is None else {"absent_seconds": absent_seconds_check(absent_seconds)}
    game = OnlineGame.objects.create(
        kind=GameKind(kind).value,
        options={**options, **table},
        seat_count=seats,
        invite_token=secrets.token_urlsafe(24),
        created_by=user,
        **server_seed_commit(),
    )
    for number in range(seats):
        level = bots[number - 1] if 0 < number <= len(bots) else None
        OnlineSeat.objects.create(
            game=game,
            number=number,
            user=user if number == 0 else None,
            bot_level=_bot_level(kind, level) if level else "",
            client_seed=seed if number == 0 else "",
        )
    if all(not s.is_empty for s in game.seats.all()):
        game_start(game_id=game.pk)
        game.refresh_from_db()
    return game


def _locked(game_id: int) -> OnlineGame:
    try:
        return OnlineGame.objects.select_for_update().get(pk=game_id)
    except OnlineGame.DoesNotExist:
        raise NotFound(code="game_not_found", message=_("There is no such game.")) from None


@transaction.atomic
def seat_join(*, user: Any, token: str, client_seed: str = "") -> OnlineSeat:
    """``user`` takes the first empty seat of the table the invite ``token`` names, giving
    ``client_seed``; the table starts when it is full. A tournament series' game is not joined by
    invitation: its players start it with "Play" (games/online/series.py)."""
    seed = client_seed_clean(client_seed)
    game = OnlineGame.objects.select_for_update().filter(invite_token=token).first()
    if game is None:
        raise NotFound(code="game_not_found", message=_("This invitation is not valid."))
    if game.series_id is not None:
        raise PermissionDenied(
            code="series_game",
            message=_("This game belongs to a tournament series: its players start it with “Play”."),
        )
    seats = list(game.seats.all())
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is not None:
        return mine
    if game.status != OnlineGame.Status.OPEN:
        raise Conflict(code="table_full", message=_("This table is full."))
    seat = next((s for s in seats if s.is_empty), None)
    if seat is None:  # pragma: no cover - an open table has an empty seat
        raise Conflict(code="table_full", message=_("This table is full."))
    seat_take(seat, user=user, client_seed=seed)
    return seat


def seat_take(seat: OnlineSeat, *, user: Any, client_seed: str) -> None:
    """``user`` sits in the empty ``seat`` (its game locked by the caller) with a cleaned seed;
    the game starts when every seat is taken."""
    seat.user = user
    seat.client_seed = client_seed
    seat.save(update_fields=["user", "client_seed"])
    if all(not s.is_empty for s in seat.game.seats.all()):
        game_start(game_id=seat.game_id)


CLIENT_SEED_MESSAGE = _("A client seed is up to 64 bytes written in hexadecimal (0–9, a–f, an even count).")


def client_seed_clean(value: str) -> str:
    """The seed as stored (lower-case hex, up to 64 bytes; empty: none given). Raises
    ApplicationError (400, a field error on ``client_seed``) for anything else."""
    value = value.strip().lower()
    if len(value) > 128 or any(c not in "0123456789abcdef" for c in value) or len(value) % 2:
        raise ApplicationError(
            code="client_seed", message=CLIENT_SEED_MESSAGE, fields={"client_seed": [CLIENT_SEED_MESSAGE]}
        )
    return value


@transaction.atomic
def seats_fill_with_bots(*, game_id: int, level: str) -> None:
    game = _locked(game_id)
    if game.status != OnlineGame.Status.OPEN:
        raise Conflict(code="table_started", message=_("This game has already started."))
    if game.series_id is not None:
        raise Conflict(
            code="series_game", message=_("A tournament series' game is played by its players, not by bots.")
        )
    game.seats.filter(user__isnull=True, bot_level="").update(bot_level=_bot_level(game.kind, level))
    game_start(game_id=game_id)


@transaction.atomic
def game_start(*, game_id: int) -> OnlineGame:
    """Deal: the server seed committed when the table was created (:func:`server_seed_commit`),
    combined with every seat's client seed (:func:`deal_seed`)."""
    game = _locked(game_id)
    if game.status != OnlineGame.Status.OPEN:
        return game
    seats = list(game.seats.order_by("number"))
    if any(s.is_empty for s in seats):
        raise Conflict(code="seats_empty", message=_("Every seat needs a player or a bot first."))
    if not game.sealed_seed:  # a table created before seeds were committed at creation
        for field, value in server_seed_commit().items():
            setattr(game, field, value)
    server = bytes.fromhex(game.sealed_seed)
    seed = deal_seed(server, [bytes.fromhex(s.client_seed) for s in seats])
    options = {k: v for k, v in game.options.items() if k not in TABLE_OPTIONS}
    state = engine_of(game).new_game(options, seats=game.seat_count, dealer=game.dealer, seed=seed)
    # The engine's setup, and what the game's online play adds (Snap: its timing numbers).
    game.setup = {**engine_of(game).game_setup(state), **_online(game.kind).setup_extra(game)}
    game.status = OnlineGame.Status.PLAYING
    game.started_at = timezone.now()
    game.save()
    GameSnapshot.objects.create(game=game, seq=0, data=engine_of(game).to_snapshot(state))
    transaction.on_commit(lambda: table_started_announce(game.pk))
    return game


def table_started_announce(game_id: int) -> None:
    """Tell the game's sockets already open (a waiting table's page: docs/online.md "Waiting for
    the other players") that the table has started: each sends its page ``{"type": "started"}``
    and the page moves on to the game. Best effort: a page that misses it (its socket was down)
    learns it on reconnecting, from its hello's view."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    try:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(view_group(game_id), {"type": "game.started"})
    except Exception:  # the channel layer is down: the game has started all the same
        logger.warning("online game %s: could not tell its waiting pages it started", game_id, exc_info=True)


def state_load(game: OnlineGame) -> tuple[Any, int]:
    """The state after every logged action: the newest snapshot, then the log rows after it."""
    engine = engine_of(game)
    snapshot = game.snapshots.order_by("-seq").first()
    if snapshot is None:  # pragma: no cover - game_start always takes one
        raise RuntimeError(f"online game {game.pk} has no snapshot")
    try:
        state, seq = engine.from_snapshot(snapshot.data), snapshot.seq
    except InvalidSnapshot:  # a cache: the setup and the whole log give the same state
        logger.warning(
            "online game %s: snapshot at seq %s is damaged; replaying the log", game.pk, snapshot.seq
        )
        state, seq = engine.replay(game.setup, []), 0
    for row in game.log.filter(seq__gt=seq).order_by("seq"):
        seq = row.seq
        if row.action.get("type") in CONTROL_ROWS:  # who plays a seat: tables.Seating
            continue
        state, _events = engine.apply(state, engine.action_from_dict(row.action))
    return state, seq


@dataclass(frozen=True)
class Sender:
    seat: int | None
    user_id: int | None = None
    bot_level: str = ""


class StaleWrite(Exception):
    """Another owner has written this seq: this one must stop (its lease was lost)."""

    @classmethod
    def at(cls, game_id: int, seq: int) -> StaleWrite:
        """Refusing action ``seq`` of ``game_id``: the game is no longer at ``seq - 1``."""
        return cls(f"online game {game_id} is not at version {seq - 1}")


@dataclass(frozen=True)
class LogRow:
    """One action to append: number ``seq``, its JSON, who sent it, when it arrived, the engine's
    events, and a snapshot when one is due (games/online/tables.py's ``Entry`` is one)."""

    seq: int
    action: Mapping[str, Any]
    sender: Sender
    received_at: datetime
    events: list[Any]
    snapshot: Mapping[str, Any] | None = None


# The owners' appends are the hottest writes there are (every accepted action of every live game):
# their SQL is built once per process (snapleague/compiled.py; docs/benchmarks.md "Online play: no
# database hop per frame").
_VERSION_MOVE = CompiledUpdate(
    lambda game_id, was, now: (OnlineGame.objects.filter(pk=game_id, version=was), {"version": now}),
    game_id=int,
    was=int,
    now=int,
)
_LOG_INSERT = CompiledInsert(
    GameLogEntry, "game", "seq", "action", "seat", "user", "bot_level", "received_at", "events"
)


@transaction.atomic
def log_append_many(batch: Sequence[tuple[int, Sequence[LogRow]]]) -> set[int]:
    """Append each game's rows (numbered on from the game's version, in order), every game of the
    batch in one transaction: the owners of a process write together (games/online/tables.py's
    ``LogWriter``), not one transaction per action each. A game that is not at the version its
    first row follows was written by another owner: it is left out, and returned (StaleWrite for
    its owner), and the others are written.

    The games are written in the order of their ids, whatever the batch's order: every writer of
    online-game rows (the owners of each process, a takeover's new owner, the sweeper, closing)
    then locks them in one order, and two batches that share games wait for each other instead
    of deadlocking (seen once on PostgreSQL: ``deadlock detected ... in relation
    "games_onlinegame"``)."""
    stale: set[int] = set()
    logged: list[tuple[Any, ...]] = []
    snapshots: list[GameSnapshot] = []
    for game_id, rows in sorted(batch, key=lambda item: item[0]):
        if not rows:
            continue
        first, last = rows[0].seq, rows[-1].seq
        if [row.seq for row in rows] != list(range(first, last + 1)):
            raise ValueError(f"online game {game_id}: rows not numbered in order")
        if not _VERSION_MOVE.run(game_id=game_id, was=first - 1, now=last):
            stale.add(game_id)
            continue
        for row in rows:
            sender = row.sender
            logged.append(
                (
                    game_id,
                    row.seq,
                    dict(row.action),
                    sender.seat,
                    sender.user_id,
                    sender.bot_level,
                    row.received_at,
                    row.events,
                )
            )
            if row.snapshot is not None:
                snapshots.append(GameSnapshot(game_id=game_id, seq=row.seq, data=dict(row.snapshot)))
    _LOG_INSERT.run(logged)
    GameSnapshot.objects.bulk_create(snapshots)
    return stale


@transaction.atomic
def finish(*, game_id: int, result: Mapping[str, Any], engine_result: Any = None) -> None:
    """The end: the result stored and the server seed revealed (anyone may now verify the deal);
    a tournament series game's result recorded by the result service, source = engine."""
    game = _locked(game_id)
    if game.status == OnlineGame.Status.FINISHED:
        return
    game.status = OnlineGame.Status.FINISHED
    game.server_seed = game.sealed_seed
    game.result = dict(result)
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "server_seed", "result", "finished_at"])
    if game.series_id is not None and game.game_number is not None and engine_result is not None:
        tournament_port().series_game_finished(
            game_id=game.pk,
            series_id=game.series_id,
            game_number=game.game_number,
            players=game.players,
            result=engine_result,
        )


@transaction.atomic
def abandon(*, game_id: int, seats: Sequence[int]) -> None:
    """The end of a tournament series game whose ``seats`` were away longer than allowed (the
    owner has logged the ``abandon`` row): stored as abandoned (no engine result, the server seed
    revealed), and the absent players' forfeit recorded by the tournament's rule
    (:func:`series_absent_forfeit`)."""
    game = _locked(game_id)
    if game.status == OnlineGame.Status.FINISHED:
        return
    game.status = OnlineGame.Status.FINISHED
    game.server_seed = game.sealed_seed
    game.result = {"abandoned": {"absent": sorted(seats)}}
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "server_seed", "result", "finished_at"])
    series_absent_forfeit(game, sorted(seats))


def series_absent_forfeit(game: OnlineGame, seats: list[int]) -> bool:
    """A series game abandoned because ``seats`` were away (rules/tournaments.md "Byes,
    withdrawals, forfeits": a no-show is a forfeit; everyone away, a double forfeit): the forfeit
    is recorded by the tournament (the port, games/ports.py), whose rule decides when it may be
    (no game of the series recorded yet, and no more players left than go on); the standings and
    the next round follow by the stage's Celery path. When the rule does not allow it (a later
    game of the series, a Snap table where more players stay), nothing is recorded: the organiser
    decides (the game is shown abandoned). True when the forfeit was recorded."""
    if game.series_id is None:
        return False
    players = [game.players[s] for s in seats if s < len(game.players)]
    reason = str(
        _("Away from online game %(number)s longer than the table allows.") % {"number": game.game_number}
    )
    try:
        with transaction.atomic():  # a refusal rolls back only this, not the game's end
            tournament_port().series_game_abandoned(
                series_id=game.series_id, player_ids=players, reason=reason
            )
    except ApplicationError as refused:
        logger.warning(
            "online game %s: the absent players' forfeit was not recorded (%s): the organiser decides",
            game.pk,
            refused.code,
        )
        return False
    return True
