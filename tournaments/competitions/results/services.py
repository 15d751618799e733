"""Recording a result: the one service every source of results uses (a referee's form, the API,
an organiser's correction, a finished online game).

Check, then do. :func:`check_result_record` reads the series and decides everything a write would
do (who may, which version, which game and players, the series after it, which later games a
correction voids) and returns it as a :class:`ResultPlan`, writing nothing; it raises every refusal.
:func:`do_result_record` writes a plan, under the stage's row lock. :func:`result_record` runs the
two: the check without the lock, then, under the lock, the check again only if a result of the
stage came in meanwhile (the stage's ``results_version`` moved), then the write.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.users import Account, AnyUser, signed_in
from tournaments.access import require_organiser, require_recorder
from tournaments.audit import audit
from tournaments.competitions import outcomes
from tournaments.competitions.messages import GAME_VOID_CONFLICT, void_later_games_messages
from tournaments.competitions.results.payload import ResultInvalid
from tournaments.competitions.results.selectors import (
    GameDue,
    SeriesResults,
    game_due,
    series_problem,
    series_results_get,
)
from tournaments.competitions.results.values import PlayedResult, VoidResult
from tournaments.competitions.selectors.tournaments import series_by_id, stage_by_id
from tournaments.integrations.webhooks.events import result_confirmed_data, webhook_event_emit
from tournaments.integrations.webhooks.models import WebhookEvent
from tournaments.models import AuditEntry, Game, GameResult, Series, Stage

# --- Sources ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UserSource:
    """A referee or an organiser records (or an organiser corrects) the result."""

    user: AnyUser


@dataclass(frozen=True)
class EngineSource:
    """A finished online game records its result for its players: no user, no corrections, and
    idempotent by the game's id (recording it again returns the first row)."""

    game_id: int


@dataclass(frozen=True)
class PlayersSource:
    """A seated player's report (``report_id``), confirmed by another seat (``confirmed_by``; None:
    it confirmed itself after the tournament's minutes). Who may report and confirm is decided by
    the reporting service (results/reporting.py); idempotent by the report (a retried confirmation
    returns the first row); never a correction."""

    reported_by: Account
    confirmed_by: Account | None
    report_id: int

    @property
    def client_key(self) -> str:
        return f"report-{self.report_id}"


ResultSource = UserSource | EngineSource | PlayersSource


# --- The plan -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResultRequest:
    """What was asked: record ``result`` as game ``game_number`` of a series."""

    source: ResultSource
    series_id: int
    game_number: int
    result: PlayedResult
    expected_version: int = 0
    client_key: str | None = None
    reason: str = ""
    void_later_games: bool = False


@dataclass(frozen=True)
class ResultPlan:
    """What recording a result writes, as :func:`check_result_record` decided it."""

    stage_id: int
    results_version: int  # the stage's version the plan was made from
    series: Series
    due: GameDue  # the game (created when it has no row yet) and who plays it
    value: PlayedResult  # in the game's seat order
    version: int  # the new version: the current one + 1
    replaces: GameResult | None  # the confirmed version a correction unconfirms
    source: str  # GameResult.Source
    recorded_by: Account | None
    engine_game: int | None
    reason: str
    confirmed_by: Account | None
    client_key: str | None
    voids: tuple[GameResult, ...]  # later games' confirmed versions that get a void version
    after: outcomes.SeriesView  # the series once the result is in


def check_result_record(request: ResultRequest) -> ResultPlan:
    """Decide what recording ``request`` writes, from the rows as they are now; write nothing.

    Raises ApplicationError: permission errors; ``result_conflict`` (409, ``extra.version``: the
    current version) when ``expected_version`` is not the game's current version;
    ``reason_required``; ``series_inconsistent``, ``game_void``, ``series_decided``, ``wrong_game``
    (409, :func:`~tournaments.competitions.results.selectors.game_due`); ``result_invalid`` when the result is not
    for the players of the game; ``correction_breaks_series`` (with ``extra.void_games`` when
    voiding them would let it be saved).
    """
    series = series_by_id(series_id=request.series_id)
    # The version first, then the rows: a result that lands in between makes the plan stale, and
    # result_record decides again under the lock.
    results_version = Stage.objects.values_list("results_version", flat=True).get(pk=series.stage_id)
    results = series_results_get(series=series)
    current = results.confirmed.get(request.game_number)
    _check_may_record(request.source, results)
    _check_version(request, current)
    correcting = current is not None
    if correcting:
        _check_may_correct(request, results)
    due = game_due(results, request.game_number)
    value = _check_players(request.result, due, results)
    after, void_games = _series_after(results, due, value, request)
    source, recorded_by, engine_game = _source_fields(request.source, correcting=correcting)
    return ResultPlan(
        stage_id=series.stage_id,
        results_version=results_version,
        series=series,
        due=due,
        value=value,
        version=(current.version if current is not None else 0) + 1,
        replaces=current,
        source=source,
        recorded_by=recorded_by,
        engine_game=engine_game,
        reason=request.reason,
        confirmed_by=request.source.confirmed_by if isinstance(request.source, PlayersSource) else None,
        client_key=_client_key(request),
        voids=tuple(results.confirmed[n] for n in void_games),
        after=after,
    )


def _client_key(request: ResultRequest) -> str | None:
    if isinstance(request.source, PlayersSource):
        return request.source.client_key
    return request.client_key if isinstance(request.source, UserSource) else None


def _check_may_record(source: ResultSource, results: SeriesResults) -> None:
    """A referee of the tournament or an organiser of its club records; an online game records
    for its players, with no user; a players' report was allowed by the reporting service."""
    if isinstance(source, UserSource):
        require_recorder(source.user, results.tournament)


def _check_may_correct(request: ResultRequest, results: SeriesResults) -> None:
    """An organiser corrects, with a reason; an online game never does."""
    source = request.source
    if isinstance(source, EngineSource):
        raise PermissionDenied(
            code="permission_denied",
            message=_("An online game records a new result; only an organiser corrects one."),
        )
    if isinstance(source, PlayersSource):
        raise PermissionDenied(
            code="permission_denied",
            message=_("Players report new results; only an organiser corrects one."),
        )
    require_organiser(source.user, results.tournament.club)
    if not request.reason:
        raise ApplicationError(
            code="reason_required",
            message=_("Say why the result is corrected: the reason is kept in the history."),
            fields={"reason": [_("Required for a correction.")]},
        )


def _check_version(request: ResultRequest, current: GameResult | None) -> None:
    current_version = current.version if current else 0
    if request.expected_version == current_version:
        return
    if current is not None and current.void:
        message = GAME_VOID_CONFLICT % {"n": request.game_number}
    elif current_version:
        message = _(
            "This game's result was recorded meanwhile. Reload to see it; an organiser can correct it."
        )
    else:
        message = _("This game has no result yet: there is nothing to correct.")
    raise Conflict(code="result_conflict", message=message, extra={"version": current_version})


def _check_players(value: PlayedResult, due: GameDue, results: SeriesResults) -> PlayedResult:
    """``value`` in the game's seat order. Raises ResultInvalid when it is for other players."""
    if value.kind != results.tournament.game:
        raise ResultInvalid({"result": [_("This is not a result of this tournament's game.")]})
    if sorted(value.players) != sorted(due.players):
        names = results.names
        raise ResultInvalid(
            {
                "result": [
                    _("This result is for %(given)s, but game %(n)s is played by %(due)s.")
                    % {
                        "given": ", ".join(names.get(p, f"#{p}") for p in value.players),
                        "n": due.number,
                        "due": ", ".join(names.get(p, f"#{p}") for p in due.players),
                    }
                ]
            }
        )
    return value.in_seat_order(due.players)


def _series_after(
    results: SeriesResults, due: GameDue, value: PlayedResult, request: ResultRequest
) -> tuple[outcomes.SeriesView, list[int]]:
    """The series once ``value`` is game ``due.number``, and the later games a correction voids.
    Raises ApplicationError ``correction_breaks_series``."""
    games = outcomes.series_games(results.confirmed.values())
    games[due.number] = outcomes.SeriesGame(value, due.sudden_death)
    try:
        after, after_decision = outcomes.series_status_counted(results.series, games)
    except outcomes.SeriesInconsistent as exc:
        raise ApplicationError(
            code="correction_breaks_series",
            message=_("This correction does not fit the games recorded after it. %(problem)s")
            % {"problem": series_problem(exc)},
        ) from None
    if after_decision and not request.void_later_games:
        counted = [n for n, game in games.items() if not isinstance(game.value, VoidResult)]
        raise _void_needed(results, after, after_decision, counted=counted)
    return after, after_decision


def _void_needed(
    results: SeriesResults, after: outcomes.SeriesView, void_games: list[int], *, counted: list[int]
) -> ApplicationError:
    """The refusal of a correction that decides the series before games already recorded: it
    names them, the winner, and how to confirm that they are voided."""
    winner = after.status.winner
    message, field = void_later_games_messages(
        deciding_game=max(n for n in counted if n not in void_games),
        winner=results.names.get(after.player_ids[winner], "?") if winner is not None else "?",
        decided_by=after.status.decided_by,
        games=void_games,
    )
    return ApplicationError(
        code="correction_breaks_series",
        message=message,
        fields={"void_later_games": [field]},
        extra={"void_games": void_games},
    )


def _source_fields(source: ResultSource, *, correcting: bool) -> tuple[str, Account | None, int | None]:
    """``GameResult.source``, ``recorded_by`` and ``engine_game`` of the new version."""
    if isinstance(source, EngineSource):
        return GameResult.Source.ENGINE, None, source.game_id
    if isinstance(source, PlayersSource):
        return GameResult.Source.PLAYERS, source.reported_by, None
    user = source.user if signed_in(source.user) else None
    return (GameResult.Source.ORGANISER if correcting else GameResult.Source.REFEREE), user, None


# --- The write ----------------------------------------------------------------------------------


def do_result_record(plan: ResultPlan) -> GameResult:
    """Write ``plan``: the game (created, or reseated when a void game is recorded again), the new
    confirmed version (unconfirming the one it corrects), a void version of each later game it
    voids, the series' status, ``results_version + 1``, and the standings recompute on commit.

    Call inside a transaction holding the stage's row lock, with the stage still at
    ``plan.results_version``.
    """
    due = plan.due
    game = due.game or Game.objects.create(
        series=plan.series, number=due.number, sudden_death=due.sudden_death, seats=list(due.players)
    )
    if due.reseat:
        game.sudden_death = due.sudden_death
        game.seats = list(due.players)
        game.save(update_fields=["sudden_death", "seats"])
    if plan.replaces is not None:
        GameResult.objects.filter(pk=plan.replaces.pk).update(confirmed=False)
    record = GameResult.objects.create(
        game=game,
        version=plan.version,
        confirmed=True,
        data=plan.value.to_json(),
        source=plan.source,
        recorded_by=plan.recorded_by,
        confirmed_by=plan.confirmed_by,
        reason=plan.reason,
        client_key=plan.client_key,
        engine_game=plan.engine_game,
    )
    # "Reported by A, confirmed by B" (source "players"; no confirmer: it confirmed itself).
    reported = (
        {
            "reported_by": plan.recorded_by.get_username() if plan.recorded_by else "",
            "confirmed_by": plan.confirmed_by.get_username() if plan.confirmed_by else "",
        }
        if plan.source == GameResult.Source.PLAYERS
        else {}
    )
    audit(
        AuditEntry.Action.RESULT_CORRECTED
        if plan.replaces is not None
        else AuditEntry.Action.RESULT_RECORDED,
        user=plan.recorded_by,
        tournament=plan.series.stage.tournament_id,
        stage=plan.stage_id,
        series=plan.series,
        before=plan.version - 1,
        after=plan.version,
        game=due.number,
        source=plan.source,
        reason=plan.reason,
        online_game=plan.engine_game,
        **reported,
    )
    for voided in plan.voids:
        void = _game_void(voided, corrected=due.number, user=plan.recorded_by, reason=plan.reason)
        audit(
            AuditEntry.Action.GAME_VOIDED,
            user=plan.recorded_by,
            tournament=plan.series.stage.tournament_id,
            stage=plan.stage_id,
            series=plan.series,
            before=voided.version,
            after=void.version,
            game=voided.game.number,
            corrected_game=due.number,
            reason=plan.reason,
        )
    _series_store(plan.series, plan.after)
    # Under the stage's row lock (_write): a task already sent and not started yet will read this
    # result, so only a stage without one sends it (docs/reliability.md, "Queues").
    advance_sent, standings_sent = (
        Stage.objects.filter(pk=plan.stage_id).values_list("advance_pending", "standings_pending").get()
    )
    Stage.objects.filter(pk=plan.stage_id).update(
        results_version=plan.results_version + 1, advance_pending=True, standings_pending=True
    )
    # The outbox: a delivery for each endpoint that wants it, in this transaction (docs/webhooks.md).
    webhook_event_emit(
        WebhookEvent.RESULT_CONFIRMED,
        club_id=plan.series.stage.tournament.club_id,
        data=lambda: result_confirmed_data(record.pk),
    )
    stage_id, version = plan.stage_id, plan.results_version + 1
    if not (advance_sent and standings_sent):
        transaction.on_commit(
            lambda: _enqueue_standings(
                stage_id, version, advance=not advance_sent, standings=not standings_sent
            )
        )
    return record


def _game_void(current: GameResult, *, corrected: int, user: Account | None, reason: str) -> GameResult:
    """Give a game a void version on top of ``current``: it stays in the history and counts for
    nothing."""
    GameResult.objects.filter(pk=current.pk).update(confirmed=False)
    return GameResult.objects.create(
        game=current.game,
        version=current.version + 1,
        confirmed=True,
        void=True,
        data=VoidResult(corrected).to_json(),
        source=GameResult.Source.ORGANISER,
        recorded_by=user,
        reason=reason,
    )


def _series_store(series: Series, after: outcomes.SeriesView) -> None:
    decided = after.decided
    series.status = Series.Status.DECIDED if decided else Series.Status.PLAYING
    series.placings = {str(pid): place for pid, place in after.placings_by_player.items()} if decided else {}
    series.decided_at = (series.decided_at or timezone.now()) if decided else None
    series.save(update_fields=["status", "placings", "decided_at"])


def _enqueue_standings(stage_id: int, version: int, *, advance: bool = True, standings: bool = True) -> None:
    """The stage task (the next round, flags after a correction), then the standings, each unless
    one is already waiting (it will read this result), for the ``results_version`` this result
    committed (docs/reliability.md, "Queues")."""
    from snapleague.celery import enqueue
    from tournaments.tasks import stage_advance_task, stage_standings_recompute_task

    # A broker that is down must not fail a result that is already committed: enqueue logs it and
    # the beat reconciler sends the work once the broker is back. The flags go down with a failed
    # send, so the next result tries again instead of waiting for the reconciler.
    # Each task claims its flag (clears it when it starts): it is the one the flag stands for.
    if advance and not enqueue(stage_advance_task, stage_id, version, True):
        Stage.objects.filter(pk=stage_id).update(advance_pending=False, standings_pending=False)
        return
    if standings and not enqueue(stage_standings_recompute_task, stage_id, version, True):
        Stage.objects.filter(pk=stage_id).update(standings_pending=False)


# --- The service --------------------------------------------------------------------------------


def result_record(
    *,
    source: ResultSource,
    series_id: int,
    game_number: int,
    result: PlayedResult,
    expected_version: int = 0,
    client_key: str | None = None,
    reason: str = "",
    void_later_games: bool = False,
) -> tuple[GameResult, bool]:
    """Record (or correct) ``result`` as game ``game_number`` of a series. Returns
    ``(result, created)``.

    ``result`` is a value (parsed at the edge, or built from an engine game). ``expected_version``
    is the confirmed version the submitter saw: 0 for a game without a result. A correction
    (expected_version ≥ 1) is for organisers and needs a reason; it adds version n+1 and unconfirms
    n in one transaction. A correction that decides the series before games already recorded is
    saved only with ``void_later_games``: each of those games then gets a void version (same
    organiser and reason) and counts for nothing. A void game is recorded again as a correction of
    it, once a correction of an earlier game makes it the series' next game.

    Idempotent: a user's ``client_key`` again, or an :class:`EngineSource` with the same game id
    again, returns the first result and records nothing (``created`` False).

    Raises what :func:`check_result_record` raises, and ``result_conflict`` (409) when two
    submissions race past the row lock (where the database's is weaker than the constraint).
    """
    request = ResultRequest(
        source=source,
        series_id=series_id,
        game_number=game_number,
        result=result,
        expected_version=expected_version,
        client_key=client_key or None,
        reason=reason.strip(),
        void_later_games=void_later_games,
    )
    if (replayed := _replayed(request)) is not None:
        return replayed, False
    try:
        plan = check_result_record(request)
    except ApplicationError:
        # The same submission may have landed since the look-up above: it is a replay, not a conflict.
        if (replayed := _replayed(request)) is not None:
            return replayed, False
        raise
    try:
        return _write(request, plan)
    except IntegrityError:
        # Only reachable where row locks are weaker than the constraint (a race the lock lost):
        # the database kept one confirmed version, the loser is told to reload.
        if (replayed := _replayed(request)) is not None:
            return replayed, False
        raise Conflict(
            code="result_conflict",
            message=_("Someone else recorded this game at the same moment. Reload to see their result."),
        ) from None


@transaction.atomic
def _write(request: ResultRequest, plan: ResultPlan) -> tuple[GameResult, bool]:
    """Under the stage's row lock: the replay if the submission landed meanwhile; else the plan,
    made again if a result of the stage came in since it was made; then the write."""
    # Every result of a stage is written under its row lock: results_version rises one at a
    # time, and a second submission for the same game waits here, then sees the first one.
    stage = stage_by_id(stage_id=plan.stage_id, lock=True)
    if (replayed := _replayed(request)) is not None:
        return replayed, False
    if stage.results_version != plan.results_version:
        plan = check_result_record(request)
    return do_result_record(plan), True


def _replayed(request: ResultRequest) -> GameResult | None:
    """The version this submission already recorded: by the engine game's id, or by the user's
    idempotency key."""
    source = request.source
    results = GameResult.objects.select_related("game")
    if isinstance(source, EngineSource):
        return results.filter(engine_game=source.game_id).first()
    if isinstance(source, PlayersSource):
        return results.filter(recorded_by=source.reported_by, client_key=source.client_key).first()
    if not request.client_key or not signed_in(source.user):
        return None
    return results.filter(recorded_by=source.user, client_key=request.client_key).first()
