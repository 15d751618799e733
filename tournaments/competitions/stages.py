"""Stages driven by their format: create, preview, publish, advance, withdraw, forfeit.

The format registry (``tournaments/competitions/formats/registry.py``) owns every format's options, pairing and
progress; this module only moves values between the database and the pure formats, under the
stage's row lock. No ``if format ==`` here: a stage's format object answers.

- **State.** :func:`stage_state` reads a stage as the formats' ``StageState``: its entrants in
  seeding order (fixed when the first round is published), its published rounds exactly as planned
  (``Round.plan``), the decided series' placings (a forfeit or a withdrawn player: no placing) and
  the withdrawals.
- **Publishing.** The organiser publishes the first round (after a preview). Later rounds are
  published by :func:`stage_advance` (the Celery stage task, after every result, and the beat
  reconciler) when the stage publishes automatically, or by the organiser when it is set to
  "review before publishing". Both go through :func:`_publish`; both run under the stage's row
  lock, and the format only ever returns rounds after the published ones, so two runs at once, or
  a run after a crash, publish each round once. After the commit, the rounds published go into
  the tournament's sessions that plan rounds (``sessions.services.rounds_schedule_published``).
- **Flags.** Published pairings never change. A round remembers the results it was paired from
  (``Round.inputs``); a correction that changes one flags that round's series. Brackets say which
  of their series a correction would now seat differently (``stale_series``) and only those are
  flagged.
"""

from __future__ import annotations

import datetime
import json
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.db.models import F, Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine_messages import problem_messages
from snapleague.errors import ApplicationError, Conflict
from snapleague.users import AnyUser
from tournaments.access import require_organiser
from tournaments.audit import audit
from tournaments.competitions import outcomes
from tournaments.competitions.formats.base import (
    Format,
    FormatErrorCode,
    PlannedRound,
    PlannedSeries,
    Seeding,
    SeriesResult,
    StageState,
)
from tournaments.competitions.formats.registry import format_for
from tournaments.competitions.formats.round_robin import seeded_order
from tournaments.competitions.formats.state import effective_placings, stage_entrants
from tournaments.competitions.formats.stored import rounds_from_json, rounds_to_json
from tournaments.competitions.messages import tournament_error_message
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.selectors.tournaments import series_by_id, stage_by_id
from tournaments.competitions.series.fold import seed_commitment
from tournaments.integrations.webhooks.events import (
    round_published_data,
    tournament_finished_data,
    webhook_event_emit,
)
from tournaments.integrations.webhooks.models import WebhookEvent
from tournaments.models import (
    AuditEntry,
    BracketSlot,
    Entry,
    Forfeit,
    GameKind,
    Player,
    Round,
    Series,
    SeriesSeat,
    Stage,
    StandingRow,
    Tournament,
    Withdrawal,
)
from tournaments.rankings.ratings.selectors import seeding_by_rating

logger = logging.getLogger(__name__)


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


# --- Creating a stage -----------------------------------------------------------------------------


@transaction.atomic
def stage_create(
    *,
    user: AnyUser,
    tournament: Tournament,
    name: str,
    format: str,
    options: Mapping[str, Any] | None = None,
    publishing: str = Stage.Publishing.AUTOMATIC,
    tiebreaks: Sequence[str] | None = None,
    seeded_from: Stage | None = None,
    seeded_take: int | None = None,
    online_play: bool = False,
    players: Sequence[int] | None = None,
) -> Stage:
    """A stage of ``format`` with ``options`` (checked by the format, against the players entered,
    the ``players`` chosen among them, or those taken from ``seeded_from``). ``players`` None: all
    the tournament's players. The stage seed is drawn and its SHA-256 committed to now (revealed
    when round 1 is published). Raises ApplicationError naming the field at fault; nothing is
    created then."""
    require_organiser(user, tournament.club)
    game = GameKind(tournament.game)
    fields: dict[str, list[Any]] = {}
    if not str(name).strip():
        fields["name"] = [_("A stage needs a name, e.g. “League” or “Playoff”.")]
    if options is not None and not isinstance(options, Mapping):
        fields["options"] = [_("Give the stage options as an object: option names and their values.")]
    if publishing not in Stage.Publishing.values:
        fields["publishing"] = [_("Choose automatic or review before publishing.")]
    if seeded_from is not None and seeded_from.tournament_id != tournament.pk:
        fields["seeded_from"] = [_("Choose an earlier stage of this tournament.")]
    if seeded_take is not None and (
        isinstance(seeded_take, bool) or not isinstance(seeded_take, int) or seeded_take < 2
    ):
        fields["seeded_take"] = [_("Take at least 2 players, or leave it empty to take everyone.")]
    elif seeded_take is not None and seeded_from is None:
        # Stored, it would say players were taken from a stage that does not exist.
        fields["seeded_take"] = [
            _("Players are taken from an earlier stage: choose it too, or leave this empty.")
        ]
    if players is not None:
        if seeded_from is not None:
            fields["players"] = [
                _(
                    "The players of a stage seeded from an earlier stage are that stage's best: "
                    "choose players or an earlier stage, not both."
                )
            ]
        else:
            problem = _chosen_players_problem(tournament, players)
            if problem:
                fields["players"] = [problem]
    if fields:
        raise ApplicationError(
            code="invalid", message=_("The stage cannot be created as it is."), fields=fields
        )
    options = dict(options or {})
    if seeded_from is not None:
        options.setdefault("seeding", "standings")
    order = (tournament.stages.order_by("-order").values_list("order", flat=True).first() or 0) + 1
    seed = secrets.token_hex(32)
    stage = Stage(
        tournament=tournament,
        name=str(name).strip(),
        format=format,
        order=order,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        players=list(players) if players is not None else [],
        publishing=publishing,
        seeded_from=seeded_from,
        seeded_take=seeded_take,
        online_play=bool(online_play),
    )
    if seeded_from is not None:
        ranked = StandingRow.objects.filter(stage=seeded_from).count()
        entrants = min(seeded_take, ranked) if seeded_take else ranked
        if seeded_take and seeded_take > ranked:
            raise ApplicationError(
                code="invalid",
                message=_("%(stage)s ranks %(n)s players; it cannot send on %(take)s.")
                % {"stage": seeded_from.name, "n": ranked, "take": seeded_take},
                fields={"seeded_take": [_("Take at most %(n)s players.") % {"n": ranked}]},
            )
    else:
        entrants = len(stage_entrants_before_draw(stage))
    try:
        fmt = format_for(format)
        # Before the draw the entry list may still grow: the entrant checks run at publishing time
        # too; here they run against the players entered now only once there are some.
        stage.options = fmt.check_options(
            options, game=game, entrants=entrants if entrants >= 2 or players is not None else None
        )
    except TournamentInputError as exc:
        refusal = format_refusal(exc)
        if players is not None and exc.code is FormatErrorCode.NOT_ENOUGH_ENTRANTS:
            refusal.fields = {"players": [refusal.message]}  # the players chosen are too few
        raise refusal from None
    stage.tiebreaks = _checked_tiebreaks(fmt, game, stage.options, tiebreaks)
    size = stage.options.get("table_size")
    if game is GameKind.SNAP and isinstance(size, int) and size > 2:
        problems = outcomes.rules_problems(
            tournament.game, tournament.rules_profile, tournament.rules_options, table_size=size
        )
        if problems:
            raise ApplicationError(
                code="invalid_rules",
                message=_("The tournament's rules cannot be played at tables of %(size)s.") % {"size": size},
                fields={"table_size": problem_messages(problems)},
            )
    stage.save()
    return stage


def _chosen_players_problem(tournament: Tournament, players: Sequence[int]) -> str:
    """What is wrong with the ``players`` chosen for a stage of ``tournament`` ("" when nothing):
    each must be one of its players (entered, not withdrawn), each once, at least two."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        return str(_("Choose the players as a list of player ids."))
    ids = [p for p in players if isinstance(p, int) and not isinstance(p, bool)]
    if len(ids) != len(players):
        return str(_("Choose the players as a list of player ids."))
    repeated = sorted({p for p in ids if ids.count(p) > 1})
    if repeated:
        return str(
            _("Each player can be chosen once; listed more than once: %(ids)s.")
            % {"ids": ", ".join(map(str, repeated))}
        )
    entered = set(
        Entry.objects.filter(tournament=tournament, withdrawn=False, player_id__in=ids).values_list(
            "player_id", flat=True
        )
    )
    strangers = [p for p in ids if p not in entered]
    if strangers:
        return str(
            _("Choose among the tournament's players; these are not entered in it: %(ids)s.")
            % {"ids": ", ".join(map(str, strangers))}
        )
    if len(ids) < 2:
        return str(_("Choose at least 2 players."))
    return ""


def _checked_tiebreaks(
    fmt: Format, game: GameKind, options: Mapping[str, object], tiebreaks: Sequence[str] | None
) -> list[str]:
    """The organiser's tiebreak list (empty: the format's default). Raises ApplicationError (field
    ``tiebreaks``) naming what does not apply."""
    if not tiebreaks:
        return []
    if isinstance(tiebreaks, str) or not isinstance(tiebreaks, Sequence):
        tiebreaks = [str(tiebreaks)]
    allowed = fmt.tiebreak_choices(game, options)
    wrong = [str(t) for t in tiebreaks if t not in {str(a) for a in allowed}]
    repeated = sorted({str(t) for t in tiebreaks if list(tiebreaks).count(t) > 1})
    if wrong or repeated:
        message = _(
            "These tiebreaks cannot be listed for this format, or are listed twice: %(wrong)s. Choose from: %(allowed)s."
        ) % {
            "wrong": ", ".join(wrong + repeated),
            "allowed": ", ".join(sorted(str(a) for a in allowed)),
        }
        raise ApplicationError(code="invalid_tiebreaks", message=message, fields={"tiebreaks": [message]})
    return [str(t) for t in tiebreaks]


# --- Preview and publish --------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """The rounds a publish would store now (nothing is stored), with the players' names."""

    stage: Stage
    rounds: tuple[PlannedRound, ...]
    names: dict[str, str]
    problem: str = ""


def stage_preview(*, user: AnyUser, stage_id: int) -> Preview:
    """What publishing would store now: the first round (or, in review mode, the round due)."""
    stage = stage_by_id(stage_id=stage_id)
    require_organiser(user, stage.tournament.club)
    state = stage_state(stage)
    try:
        rounds = format_for(stage.format).next_rounds(state)
    except TournamentInputError as exc:
        return Preview(stage, (), player_names(state.entrants), str(format_refusal(exc, state).message))
    return Preview(stage, rounds, player_names(state.entrants))


@transaction.atomic
def stage_round_publish(*, user: AnyUser, stage_id: int, round_number: int | None = None) -> list[Round]:
    """Publish the rounds due now (``round_number``: the organiser asks for that one). The first
    publish fixes the stage's entrants and starts it. Raises Conflict with the format's reason
    (already generated, not due yet, no more rounds) and ApplicationError for a stage its players
    cannot fill."""
    stage = stage_by_id(stage_id=stage_id, lock=True)
    require_organiser(user, stage.tournament.club)
    if stage.status == Stage.Status.FINISHED:
        raise Conflict(code="stage_finished", message=_("This stage is finished: it has no more rounds."))
    source = stage.seeded_from
    if (
        not stage.entrants
        and source is not None
        and (source.status != Stage.Status.FINISHED or source.standings_stale)
    ):
        # Its players come from the earlier stage's final standings.
        raise Conflict(
            code="seeding_stage_not_final",
            message=_(
                "%(stage)s is not finished yet (or its standings are being worked out): its final standings seed this stage."
            )
            % {"stage": source.name},
        )
    state = stage_state(stage)
    fmt = format_for(stage.format)
    try:
        due = fmt.next_rounds(state, round_number=round_number)
        if not due:
            # Nothing is due: the format says why (the series awaited, or no more rounds).
            fmt.next_rounds(state, round_number=len(state.rounds) + 1)
    except TournamentInputError as exc:
        raise format_refusal(exc, state, status=409 if str(exc.code) in _CONFLICTS else 400) from None
    if not due:
        raise Conflict(code="nothing_due", message=_("No round is due now."))
    return _publish(stage, state, due, user=user)


# Refusals because of where the stage stands (409); the rest are the request's or the options' (400).
_CONFLICTS = frozenset(
    {"round_already_generated", "round_not_due", "no_more_rounds", "no_pairing_without_rematch"}
)


def _publish(
    stage: Stage, state: StageState, due: Sequence[PlannedRound], *, user: AnyUser | None = None
) -> list[Round]:
    """Store ``due`` (under the stage lock): rounds with their plan, series, seats and bracket
    slots; walkovers decided at once. The first publish fixes the entrants and starts the stage.
    ``user``: the organiser who published, None for the stage task."""
    now = timezone.now()
    tournament = stage.tournament
    inputs = {key: list(result.placings) for key, result in sorted(state.results.items())}
    created: list[Round] = []
    for planned in due:
        if len(planned.byes) > 1:
            raise AssertionError(f"round {planned.number} gives {len(planned.byes)} byes; a round holds one")
        round_ = Round.objects.create(
            stage=stage,
            number=planned.number,
            bye_id=planned.byes[0] if planned.byes else None,
            plan=json.loads(rounds_to_json([planned]))[0],
            inputs=inputs,
            published_at=now,
        )
        for planned_series in planned.series:
            _series_create(stage, round_, planned_series, tournament.series_format, state)
        created.append(round_)
    # A new round changes the pages that follow the stage (and the standings' open series).
    Stage.objects.filter(pk=stage.pk).update(results_version=stage.results_version + 1)
    stage.results_version += 1
    audit(
        AuditEntry.Action.ROUND_PUBLISHED,
        user=user,
        tournament=stage.tournament_id,
        stage=stage,
        before=stage.results_version - 1,
        after=stage.results_version,
        rounds=[r.number for r in due],
        series_count=sum(len(r.series) for r in due),  # not `series`: that is the entry's series (an id)
    )
    round_ids = [r.pk for r in created]
    webhook_event_emit(
        WebhookEvent.ROUND_PUBLISHED, club_id=tournament.club_id, data=lambda: round_published_data(round_ids)
    )
    update = ["status"]
    if not stage.entrants:
        stage.entrants = list(state.entrants)
        update.append("entrants")
    if not stage.seeding:
        # The draw, made once: round 1 is out, so the order is fixed and from now on read as is
        # (and the seed it was drawn from is revealed: docs/formats.md "Checking a random draw").
        drawn = replace(state, rounds=(*state.rounds, *due))
        stage.seeding = list(
            stage_entrants(drawn, format_for(stage.format).check_options(stage.options, game=drawn.game))
        )
        update.append("seeding")
    stage.status = Stage.Status.RUNNING
    stage.save(update_fields=update)
    if tournament.status != Tournament.Status.RUNNING:
        # A draft starts; a finished tournament given another stage runs again.
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    stage_id, version = stage.pk, stage.results_version
    # The standings for this version (a run that already read it makes this one return at once); the
    # stage task always (a withdrawn player in the new round leaves a walkover to decide).
    transaction.on_commit(lambda: (_enqueue_standings(stage_id, version), _enqueue_advance(stage_id)))
    # Into the tournament's sessions that plan rounds, after the commit: scheduling locks sessions,
    # and a session is always locked before a stage (the check-in close), never after.
    transaction.on_commit(lambda: _schedule_into_sessions(round_ids), robust=True)
    return created


def _schedule_into_sessions(round_ids: list[int]) -> None:
    from tournaments.nights.services import rounds_schedule_published

    rounds_schedule_published(round_ids=round_ids)


def _series_create(
    stage: Stage, round_: Round, planned: PlannedSeries, series_format: str, state: StageState
) -> Series:
    seed = secrets.token_hex(16)
    walkover = planned.walkover
    placings: dict[str, int] = {}
    if walkover:
        decided = effective_placings(state, {}, round_.number, planned) or ()
        placings = {
            str(p): place
            for p, place in zip(planned.seats, decided, strict=True)
            if p is not None and place is not None
        }
    series = Series.objects.create(
        stage=stage,
        round=round_,
        table=planned.table,
        format=series_format,
        seed=seed,
        seed_hash=seed_commitment(seed),
        key=planned.key,
        phase=planned.phase.value,
        phase_round=planned.phase_round,
        group=planned.group or "",
        advance=planned.advance,
        seat_count=len(planned.seats),
        walkover=walkover,
        status=Series.Status.DECIDED if walkover else Series.Status.PENDING,
        placings=placings,
        decided_at=timezone.now() if walkover else None,
    )
    SeriesSeat.objects.bulk_create(
        SeriesSeat(series=series, player_id=int(str(pid)), seat=index)
        for index, pid in enumerate(planned.seats)
        if pid is not None
    )
    BracketSlot.objects.bulk_create(
        BracketSlot(series=series, place=place, to_key=slot.series, to_seat=slot.seat)
        for place, slot in enumerate(planned.to, start=1)
        if slot is not None
    )
    return series


def _enqueue_advance(stage_id: int) -> None:
    from snapleague.celery import enqueue
    from tournaments.tasks import stage_advance_task

    enqueue(stage_advance_task, stage_id)  # a broker that is down: the reconciler sends it later


# --- Advancing (the Celery stage task) --------------------------------------------------------------


@dataclass(frozen=True)
class Advance:
    """What :func:`stage_advance` did: the rounds it published, whether the stage is finished, the
    series flagged now, and the format's refusal (logged) if it could not go on."""

    published: tuple[int, ...] = ()
    finished: bool = False
    flagged: tuple[str, ...] = ()
    due_for_review: bool = False
    problem: str = ""
    skipped: bool = False  # an earlier run had seen the results this one was sent for


def stage_advance(*, stage_id: int, version: int | None = None, claim: bool = False) -> Advance:
    """Bring a running stage up to date with its results: decide the series a withdrawal leaves
    without opponents, flag the series a correction changed the pairing of, publish the rounds due
    (when the stage publishes automatically) and finish the stage after its last round.

    Idempotent: under the stage's row lock, and the format returns only rounds after the published
    ones; safe twice, in parallel and after a crash.

    ``version``: the ``results_version`` a result's task was sent for. A run that went through
    stamps ``advanced_version`` with the ``results_version`` it read under the lock (results are
    written under the same lock, so it saw every one of them). The task that ``advance_pending``
    stands for (``claim``: the one a result sent, or the reconciler's stand-in for a lost one) clears
    the flag first (a result committed after that sends a task of its own), then returns at once when
    the stamp is at the current ``results_version``: nothing came in since a run. Tasks sent for
    anything else (a withdrawal, a publish) carry no version, always run and leave the flag alone:
    a result's task that is still waiting keeps it, so results in the meantime send nothing more.
    A burst of results then costs a few runs instead of one each.
    """
    if claim:
        # Started: a result committed from now on sends a task of its own (it may not be read here).
        Stage.objects.filter(pk=stage_id, advance_pending=True).update(advance_pending=False)
    if (
        version is not None
        and Stage.objects.filter(pk=stage_id, advanced_version__gte=F("results_version")).exists()
    ):
        return Advance(skipped=True)  # an earlier run read every result there is
    with transaction.atomic():
        stage = stage_by_id(stage_id=stage_id, lock=True)
        if stage.status != Stage.Status.RUNNING:
            return Advance(finished=stage.status == Stage.Status.FINISHED)
        seen = stage.results_version
        fmt = format_for(stage.format)
        state = stage_state(stage)
        try:
            if _walkovers_store(stage, state):
                state = stage_state(stage)
            flagged = _flags_store(stage, fmt, state)
            due = fmt.next_rounds(state)
            published: tuple[int, ...] = ()
            if due and stage.publishing == Stage.Publishing.AUTOMATIC:
                _publish(stage, state, due)
                published = tuple(r.number for r in due)
                state = stage_state(stage)
                due = ()
            finished = fmt.finished(state)
        except TournamentInputError as exc:
            message = str(format_refusal(exc, state).message)
            logger.warning("stage %s cannot go on: %s", stage_id, exc)
            return Advance(problem=message)
        if finished:
            stage.status = Stage.Status.FINISHED
            stage.save(update_fields=["status"])
            _tournament_finish_if_done(stage.tournament)
        Stage.objects.filter(pk=stage_id, advanced_version__lt=seen).update(advanced_version=seen)
        return Advance(published=published, finished=finished, flagged=flagged, due_for_review=bool(due))


def _tournament_finish_if_done(tournament: Tournament) -> None:
    """The tournament is finished when its last stage is: every stage it has is (a stage still
    being set up keeps it running). Tells the club's webhooks, in the stage's transaction."""
    if tournament.status == Tournament.Status.FINISHED:
        return
    if tournament.stages.exclude(status=Stage.Status.FINISHED).exists():
        return
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    tournament_id = tournament.pk
    webhook_event_emit(
        WebhookEvent.TOURNAMENT_FINISHED,
        club_id=tournament.club_id,
        data=lambda: tournament_finished_data(tournament_id),
    )


def _walkovers_store(stage: Stage, state: StageState) -> bool:
    """Decide the published series that withdrawals leave without a game to play (the format
    reads them as decided; the page should too). Returns whether any was."""
    decided_keys = set(state.results)
    changed = False
    for rnd in state.rounds:
        for planned in rnd.series:
            if planned.walkover or planned.key in decided_keys:
                continue
            if not any(state.withdrawn(p, rnd.number) for p in planned.players):
                continue
            placings = effective_placings(state, {}, rnd.number, planned)
            if placings is None:
                continue
            by_player = {
                str(p): place
                for p, place in zip(planned.seats, placings, strict=True)
                if p is not None and place is not None
            }
            updated = Series.objects.filter(stage=stage, key=planned.key).exclude(
                status=Series.Status.DECIDED
            )
            changed |= bool(
                updated.update(status=Series.Status.DECIDED, placings=by_player, decided_at=timezone.now())
            )
    if changed:
        Stage.objects.filter(pk=stage.pk).update(results_version=stage.results_version + 1)
        stage.results_version += 1
        stage_id = stage.pk
        transaction.on_commit(lambda: _enqueue_standings(stage_id))
    return changed


def _flags_store(stage: Stage, fmt: Format, state: StageState) -> tuple[str, ...]:
    """Flag the published series whose pairing a corrected result changed; unflag the rest."""
    stale_series = getattr(fmt, "stale_series", None)
    if callable(stale_series):
        flagged = set(stale_series(state))
    else:
        now = {key: list(result.placings) for key, result in state.results.items()}
        flagged = set()
        for rnd in Round.objects.filter(stage=stage).only("number", "inputs", "plan"):
            if any(now.get(key) != placings for key, placings in rnd.inputs.items()):
                flagged |= {s["key"] for s in rnd.plan.get("series", ())}
    Series.objects.filter(stage=stage, flagged=True).exclude(key__in=flagged).update(flagged=False)
    Series.objects.filter(stage=stage, key__in=flagged, flagged=False).update(flagged=True)
    return tuple(sorted(flagged))


def _enqueue_standings(stage_id: int, version: int | None = None) -> None:
    from snapleague.celery import enqueue
    from tournaments.tasks import stage_standings_recompute_task

    # ``version``: the results_version committed (coalescing); a broker that is down: the reconciler
    # sends it later.
    enqueue(stage_standings_recompute_task, stage_id, version)


def stages_due() -> list[int]:
    """Running stages (the beat reconciler advances them; a stage with nothing due is a no-op)."""
    return list(Stage.objects.filter(status=Stage.Status.RUNNING).values_list("pk", flat=True))


# --- Withdrawals and forfeits ---------------------------------------------------------------------


@transaction.atomic
def stage_withdraw(
    *, user: AnyUser, stage_id: int, player_id: int, from_round: int | None = None, reason: str = ""
) -> Withdrawal:
    """Withdraw a player from a stage from round ``from_round`` on (default: the first round in
    which they have a series not decided yet, or the next round to be published). Their series from
    then on are walkovers for the others; rounds published later leave them out.

    Raises ApplicationError (field ``player`` / ``from_round``), Conflict (already withdrawn).
    """
    stage = stage_by_id(stage_id=stage_id, lock=True)
    require_organiser(user, stage.tournament.club)
    state = stage_state(stage)
    if int(player_id) not in {int(str(p)) for p in state.entrants}:
        raise ApplicationError(
            code="not_an_entrant",
            message=_("This player does not play in this stage."),
            fields={"player": [_("Choose a player of this stage.")]},
        )
    if Withdrawal.objects.filter(stage=stage, player_id=player_id).exists():
        raise Conflict(
            code="already_withdrawn", message=_("This player is already withdrawn from the stage.")
        )
    next_round = len(state.rounds) + 1
    if from_round is None:
        open_rounds = [
            rnd.number
            for rnd in state.rounds
            for s in rnd.series
            if player_id in s.players and s.key not in state.results and not s.walkover
        ]
        from_round = min(open_rounds, default=next_round)
    if isinstance(from_round, bool) or not isinstance(from_round, int) or not 1 <= from_round <= next_round:
        raise ApplicationError(
            code="invalid",
            message=_("A withdrawal takes effect from a round from 1 to %(next)s.") % {"next": next_round},
            fields={"from_round": [_("Choose a round from 1 to %(next)s.") % {"next": next_round}]},
        )
    withdrawal = Withdrawal.objects.create(
        stage=stage,
        player_id=player_id,
        from_round=from_round,
        reason=reason.strip(),
        recorded_by=user if user.is_authenticated else None,
    )
    audit(
        AuditEntry.Action.WITHDRAWAL,
        user=user,
        tournament=stage.tournament_id,
        stage=stage,
        player=withdrawal.player.name,
        from_round=from_round,
        reason=withdrawal.reason,
    )
    stage_id = stage.pk
    transaction.on_commit(lambda: _enqueue_advance(stage_id))
    return withdrawal


@transaction.atomic
def series_forfeit(*, user: AnyUser, series_id: int, player_ids: Sequence[int], reason: str = "") -> Series:
    """Record that ``player_ids`` did not come to a series: placed below everyone who played, they
    never go on. Allowed while no game of the series is recorded, and when it decides the series:
    the players who came are no more than those who go on (two seats: the opponent wins; everyone
    away: a double forfeit). Raises NotFound (no such series), ApplicationError, Conflict
    (``series_decided``, ``series_started``); nothing is written then."""
    series = series_by_id(series_id=series_id)  # NotFound for an unknown id
    stage = stage_by_id(stage_id=series.stage_id, lock=True)
    require_organiser(user, stage.tournament.club)
    return _forfeit_record(user=user, stage=stage, series_id=series_id, player_ids=player_ids, reason=reason)


@transaction.atomic
def series_forfeit_absent(*, series_id: int, player_ids: Sequence[int], reason: str) -> Series:
    """The same forfeit, recorded by the server for an online game whose ``player_ids`` were away
    longer than the table allows (games/online, docs/online.md "Absent players"): nobody signed
    in recorded it (the audit entry names no user). Raises as :func:`series_forfeit`."""
    series = series_by_id(series_id=series_id)
    stage = stage_by_id(stage_id=series.stage_id, lock=True)
    return _forfeit_record(user=None, stage=stage, series_id=series_id, player_ids=player_ids, reason=reason)


def series_forfeit_no_show(
    *, user: AnyUser, stage: Stage, series_id: int, player_ids: Sequence[int], reason: str, session_id: int
) -> Series:
    """The forfeit of players who did not check in for the session their series is played in
    (``tournaments.nights.services.session_check_in_close``): the caller holds ``stage``'s row
    lock and has checked that ``user`` organises it. The forfeits remember ``session_id`` (reopening
    its check-in withdraws them: :func:`series_no_show_withdraw`). Raises as :func:`series_forfeit`."""
    return _forfeit_record(
        user=user,
        stage=stage,
        series_id=series_id,
        player_ids=player_ids,
        reason=reason,
        session_id=session_id,
    )


def _series_no_show_store(
    user: Any,
    stage: Stage,
    series: Series,
    *,
    placings: dict[str, int],
    decided_at: datetime.datetime | None,
    action: str,
    **details: Any,
) -> None:
    """A no-show recorded (the series decided by it) or taken back (to be played): the series'
    placings, the stage's results version moved on, the audit entry, and standings and the
    stage's advance sent after the commit."""
    series.placings = placings
    series.status = Series.Status.PENDING if decided_at is None else Series.Status.DECIDED
    series.decided_at = decided_at
    series.save(update_fields=["placings", "status", "decided_at"])
    Stage.objects.filter(pk=stage.pk).update(results_version=stage.results_version + 1)
    audit(
        action,
        user=user,
        tournament=stage.tournament_id,
        stage=stage,
        series=series,
        before=stage.results_version,
        after=stage.results_version + 1,
        **details,
    )
    stage.results_version += 1
    stage_id = stage.pk
    transaction.on_commit(lambda: (_enqueue_standings(stage_id), _enqueue_advance(stage_id)))


def series_no_show_withdraw(*, user: AnyUser, stage: Stage, series_id: int, session_id: int) -> Series:
    """Take back the no-show forfeits that closing ``session_id``'s check-in recorded on a series
    (``tournaments.nights.services.session_check_in_reopen``): the series is not started again,
    its forfeits are deleted, the stage's results version goes up and its tasks run on commit, as
    for the forfeit itself. The caller holds ``stage``'s row lock and has checked that ``user``
    organises it.

    Refused, nothing written, when the series has moved on since (Conflict ``series_moved_on``):
    it is no longer decided by those forfeits alone (a game, another forfeit, a correction), the
    stage is finished, or a round was published from its result (published pairings never change,
    so the forfeit stays as they were made from it)."""
    series = Series.objects.select_related("round").prefetch_related("forfeits").get(pk=series_id)
    forfeits = list(series.forfeits.all())
    ours = [f for f in forfeits if f.session_id == session_id]
    paired_from = (
        Round.objects.filter(stage=stage, number__gt=series.round.number, inputs__has_key=series.key).exists()
        if series.key
        else False
    )
    if (
        not ours
        or len(ours) != len(forfeits)
        or series.status != Series.Status.DECIDED
        or series.walkover
        or series.games.exists()
        or stage.status == Stage.Status.FINISHED
        or paired_from
    ):
        raise Conflict(
            code="series_moved_on",
            message=_("The tournament has moved on from this no-show: it stays recorded."),
        )
    names = sorted(Player.objects.filter(forfeits__in=ours).values_list("name", flat=True))
    Forfeit.objects.filter(pk__in=[f.pk for f in ours]).delete()
    _series_no_show_store(
        user,
        stage,
        series,
        placings={},
        decided_at=None,
        action=AuditEntry.Action.FORFEIT_WITHDRAWN,
        players=names,
        session=session_id,
    )
    return series


def _forfeit_record(
    *,
    user: AnyUser | None,
    stage: Stage,
    series_id: int,
    player_ids: Sequence[int],
    reason: str,
    session_id: int | None = None,
) -> Series:
    series = Series.objects.prefetch_related("seats").get(pk=series_id)
    seated = {s.player_id: s.seat for s in series.seats.all()}
    away = {int(p) for p in player_ids}
    if not away or not away <= set(seated):
        raise ApplicationError(
            code="invalid",
            message=_("Choose the players of this series who did not come."),
            fields={"players": [_("Choose at least one player seated in this series.")]},
        )
    if series.status == Series.Status.DECIDED and not series.games.exists():
        # A walkover, a forfeit already recorded, a withdrawal: no game was recorded to blame.
        raise Conflict(code="series_decided", message=_("This series is already decided."))
    if series.status != Series.Status.PENDING or series.games.exists():
        raise Conflict(
            code="series_started",
            message=_("Games of this series are already recorded: record the rest, or correct them."),
        )
    came = [pid for pid, _seat in sorted(seated.items(), key=lambda item: item[1]) if pid not in away]
    goes_on = max(series.advance, 1)
    if len(came) > goes_on:
        raise ApplicationError(
            code="forfeit_not_deciding",
            message=_(
                "%(n)s players are still here: they play the series. A no-show can be recorded when "
                "it leaves no more players than go on; otherwise withdraw the player from the stage."
            )
            % {"n": len(came)},
            fields={"players": [_("Choose the players who did not come.")]},
        )
    Forfeit.objects.bulk_create(
        Forfeit(
            series=series,
            player_id=pid,
            reason=reason.strip(),
            recorded_by=user if user is not None and user.is_authenticated else None,
            session_id=session_id,
        )
        for pid in sorted(away)
    )
    _series_no_show_store(
        user,
        stage,
        series,
        placings={str(pid): place for place, pid in enumerate(came, start=1)},
        decided_at=timezone.now(),
        action=AuditEntry.Action.FORFEIT,
        players=sorted(Player.objects.filter(pk__in=away).values_list("name", flat=True)),
        reason=reason.strip(),
    )
    return series


@transaction.atomic
def stage_online_set(*, user: AnyUser, stage_id: int, online: bool) -> Stage:
    """Mark a stage's series as played online (each game an online game; the seated players see
    "Play") or at the tables. Games already recorded stay as they are: a series can mix both."""
    stage = stage_by_id(stage_id=stage_id, lock=True)
    require_organiser(user, stage.tournament.club)
    if stage.status == Stage.Status.FINISHED:
        raise Conflict(code="stage_finished", message=_("This stage is finished."))
    stage.online_play = bool(online)
    stage.save(update_fields=["online_play"])
    audit(
        AuditEntry.Action.STAGE_ONLINE,
        user=user,
        tournament=stage.tournament_id,
        stage=stage,
        online=stage.online_play,
    )
    return stage


def preview_rows(preview: Preview) -> list[dict[str, Any]]:
    """The preview as plain rows for a page or the API: round, table, key, phase, players' names."""
    rows = []
    for rnd in preview.rounds:
        for s in rnd.series:
            rows.append(
                {
                    "round": rnd.number,
                    "table": s.table,
                    "key": s.key,
                    "phase": s.phase.value,
                    "group": s.group,
                    "players": [None if p is None else preview.names.get(str(p), str(p)) for p in s.seats],
                    "walkover": s.walkover,
                }
            )
        for bye in rnd.byes:
            rows.append(
                {
                    "round": rnd.number,
                    "table": None,
                    "key": "",
                    "phase": "bye",
                    "group": None,
                    "players": [preview.names.get(str(bye), str(bye))],
                    "walkover": False,
                }
            )
    return rows
