"""Reading a stage as its format's ``StageState``; the draw check; a format's refusal as a message."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch

from snapleague.errors import ApplicationError, Conflict
from tournaments.competitions.formats.base import (
    FormatErrorCode,
    Seeding,
    SeriesResult,
    StageState,
)
from tournaments.competitions.formats.round_robin import seeded_order
from tournaments.competitions.formats.stored import rounds_from_json
from tournaments.competitions.messages import tournament_error_message
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.series.fold import seed_commitment
from tournaments.models import (
    Entry,
    GameKind,
    Player,
    Round,
    Series,
    Stage,
    StandingRow,
    Withdrawal,
)
from tournaments.rankings.ratings.selectors import seeding_by_rating

# --- Reading a stage ------------------------------------------------------------------------------


def stage_state(stage: Stage) -> StageState:
    """``stage`` as its format reads it (see the module docstring)."""
    rounds = list(
        Round.objects.filter(stage=stage)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "series",
                queryset=Series.objects.filter(status=Series.Status.DECIDED, walkover=False).prefetch_related(
                    "seats"
                ),
                to_attr="decided",
            )
        )
    )
    planned = tuple(rounds_from_json(json.dumps([r.plan]))[0] for r in rounds)
    results: dict[str, SeriesResult] = {}
    for rnd in rounds:
        for series in rnd.decided:  # type: ignore[attr-defined]
            results[series.key] = series_result(series)
    withdrawals = dict(Withdrawal.objects.filter(stage=stage).values_list("player_id", "from_round"))
    entrants = tuple(stage.entrants) if stage.entrants else tuple(stage_entrants_before_draw(stage))
    return StageState(
        entrants=entrants,
        seed=stage.seed,
        game=GameKind(stage.tournament.game),
        options=dict(stage.options),
        rounds=planned,
        results=results,
        withdrawals=withdrawals,
        seeding=tuple(stage.seeding),
    )


def series_result(series: Series) -> SeriesResult:
    """A decided series' placings by seat (its seats prefetched): no placing for an empty seat or a
    player who did not play (a forfeit, a withdrawal)."""
    by_seat: list[int | None] = [None] * series.seat_count
    for seat in series.seats.all():
        place = series.placings.get(str(seat.player_id))
        if seat.seat < len(by_seat):
            by_seat[seat.seat] = place
    return SeriesResult(tuple(by_seat))


def stage_entrants_before_draw(stage: Stage) -> list[int]:
    """Who the stage would seat now, in the order handed to its seeding: an earlier stage's
    standings (its top ``seeded_take``), or the tournament's entry list (seed order) without the
    players withdrawn from the tournament (only the players the organiser chose, ``Stage.players``,
    when they chose some)."""
    if stage.seeded_from_id is not None:
        rows = StandingRow.objects.filter(stage_id=stage.seeded_from_id).order_by("position", "group")
        order = [row.player_id for row in rows]
        order = order[: stage.seeded_take] if stage.seeded_take else order
    else:
        order = list(
            Entry.objects.filter(tournament_id=stage.tournament_id, withdrawn=False)
            .order_by("seed", "player__name")
            .values_list("player_id", flat=True)
        )
        if stage.players:
            chosen = set(stage.players)
            order = [p for p in order if p in chosen]
    if stage.options.get("seeding") == Seeding.RATING:
        return seeding_by_rating(tournament=stage.tournament, player_ids=order)
    return order


@dataclass(frozen=True)
class DrawCheck:
    """A stage's draw as "Verify this draw" shows it (docs/formats.md "Checking a random draw").

    ``random``: seeded at random; ``verifiable``: it committed to its seed when it was created (a
    stage created before that has no commitment: its draw predates verification); ``seed``: once
    round 1 is published, else None. Lists are (player id, name) pairs: ``draw_entrants`` the draw's
    input in its order, ``seeding`` the stored seeding order, ``recomputed`` the draw worked out again
    here from the seed and the input. The two checks are None until the seed is revealed."""

    stage: Stage
    random: bool
    verifiable: bool
    seed: str | None
    draw_entrants: list[tuple[int, str]]
    seeding: list[tuple[int, str]]
    recomputed: list[tuple[int, str]]
    commitment_ok: bool | None
    order_ok: bool | None


def stage_draw_check(stage: Stage) -> DrawCheck:
    """Work out ``stage``'s draw again from its revealed seed and its published input."""
    names = player_names([*stage.entrants, *stage.seeding])

    def named(ids: Sequence[int]) -> list[tuple[int, str]]:
        return [(int(p), names.get(str(p), "?")) for p in ids]

    random = stage.options.get("seeding", Seeding.RANDOM) == Seeding.RANDOM
    seed = stage.seed_revealed
    recomputed: list[int] = []
    commitment_ok = order_ok = None
    if seed is not None:
        commitment_ok = seed_commitment(seed) == stage.seed_commitment
        recomputed = list(seeded_order(stage.draw_entrants, seed)) if random else list(stage.draw_entrants)
        order_ok = recomputed == list(stage.seeding)
    return DrawCheck(
        stage=stage,
        random=random,
        verifiable=bool(stage.seed_commitment),
        seed=seed,
        draw_entrants=named(stage.draw_entrants),
        seeding=named(stage.seeding),
        recomputed=named(recomputed),
        commitment_ok=commitment_ok,
        order_ok=order_ok,
    )


def player_names(player_ids: Sequence[object]) -> dict[str, str]:
    """Names by player id (as a string), for messages."""
    ids = [int(str(p)) for p in player_ids]
    return {str(pk): name for pk, name in Player.objects.filter(pk__in=ids).values_list("pk", "name")}


def format_refusal(
    exc: TournamentInputError, state: StageState | None = None, *, status: int = 400
) -> ApplicationError:
    """A pure module's refusal as an ApplicationError: the translated message, under the option it
    names (``field``) when it names one."""
    names = player_names(state.entrants) if state is not None else {}
    message = tournament_error_message(exc, player_names=names)
    field = exc.extra.get("field")
    if exc.code is FormatErrorCode.UNKNOWN_OPTION:
        field = "options"  # no form field holds an option the format does not have
    fields = {str(field): [message]} if isinstance(field, str) else {}
    kind = Conflict if status == Conflict.status else ApplicationError
    return kind(code=str(exc.code), message=message, fields=fields, extra=exc.extra, status=status)
