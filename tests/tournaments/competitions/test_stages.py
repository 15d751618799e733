"""Stages driven by their format, through the services: publish, advance after results, byes,
walkovers, withdrawals, forfeits, flags after a correction, and idempotent advancing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from snapleague.errors import ApplicationError, Conflict
from tests.conftest import play_open_series, record_result, snapszer_win
from tournaments.competitions.formats.stored import rounds_from_json
from tournaments.competitions.services import stage_standings_recompute
from tournaments.competitions.stages.advance import stage_advance
from tournaments.competitions.stages.create import stage_create
from tournaments.competitions.stages.publish import stage_preview, stage_round_publish
from tournaments.competitions.stages.state import stage_state
from tournaments.competitions.stages.withdrawals import series_forfeit, stage_withdraw
from tournaments.models import (
    BracketSlot,
    Forfeit,
    GameKind,
    Player,
    Round,
    Series,
    Stage,
    StandingRow,
    Tournament,
    Withdrawal,
)

pytestmark = pytest.mark.django_db


def test_a_sixteen_player_swiss_runs_to_the_end_from_results_alone(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(16)
    tournament.referees.add(referee)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    assert stage.options["rounds"] is None  # the default: ceil(log2 16) = 4 when paired
    with django_capture_on_commit_callbacks(execute=True):
        stage_round_publish(user=organiser, stage_id=stage.pk)
    for expected_round in range(1, 5):
        assert Round.objects.filter(stage=stage).count() == expected_round
        with django_capture_on_commit_callbacks(execute=True):
            assert play_open_series(stage.pk, referee) == 8
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    pairs = [
        frozenset(s.seats.values_list("player_id", flat=True)) for s in Series.objects.filter(stage=stage)
    ]
    assert len(pairs) == len(set(pairs)) == 32  # no rematch
    stage_standings_recompute(stage_id=stage.pk)
    # P001 wins every series it plays. Seat rules may float the round-3 leaders apart, so another
    # player can finish unbeaten too (never having met P001); the tiebreaks then order the two.
    rows = list(StandingRow.objects.filter(stage=stage).order_by("position").select_related("player"))
    unbeaten = [row for row in rows if row.values["series_won"] == 4]
    assert "P001" in {row.player.name for row in unbeaten} and rows[0] in unbeaten and len(unbeaten) <= 2
    assert frozenset(row.player_id for row in unbeaten) not in pairs
    # The stored plans are the rounds the format published, read back exactly.
    state = stage_state(stage)
    assert [r.number for r in state.rounds] == [1, 2, 3, 4]
    assert (
        rounds_from_json(
            __import__("json").dumps([r.plan for r in Round.objects.filter(stage=stage).order_by("number")])
        )
        == state.rounds
    )


def test_a_sixteen_player_double_elimination_reaches_a_champion(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(16)
    tournament.referees.add(referee)
    stage = stage_create(
        user=organiser,
        tournament=tournament,
        name="Cup",
        format="double_elimination",
        options={"seeding": "manual"},
    )
    with django_capture_on_commit_callbacks(execute=True):
        stage_round_publish(user=organiser, stage_id=stage.pk)
    assert BracketSlot.objects.filter(series__stage=stage, place=2, to_key__startswith="L").exists()
    for _ in range(40):
        with django_capture_on_commit_callbacks(execute=True):
            if not play_open_series(stage.pk, referee):
                break
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    grand_final = Series.objects.get(stage=stage, key="GF1")
    assert grand_final.placings[str(Player.objects.get(name="P001").pk)] == 1
    # Everyone but the champion lost twice (or once in the grand final's losing side).
    assert Series.objects.filter(stage=stage, status=Series.Status.PENDING).count() == 0


def test_a_bye_in_an_odd_swiss_and_bracket_walkovers(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(5)
    tournament.referees.add(referee)
    swiss = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    rounds = stage_round_publish(user=organiser, stage_id=swiss.pk)
    assert rounds[0].bye_id is not None and rounds[0].series.count() == 2
    cup_stage = stage_create(
        user=organiser,
        tournament=tournament,
        name="Cup",
        format="single_elimination",
        options={"seeding": "manual"},
    )
    first = stage_round_publish(user=organiser, stage_id=cup_stage.pk)
    walkovers = Series.objects.filter(round__in=first, walkover=True)
    assert walkovers.count() == 3  # 5 in a bracket of 8: the top three seeds have a bye
    assert all(s.status == Series.Status.DECIDED for s in walkovers)


def test_previewing_stores_nothing_and_publishing_twice_is_refused(
    cup: Callable[..., Tournament], organiser: Any
) -> None:
    tournament = cup(8)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    preview = stage_preview(user=organiser, stage_id=stage.pk)
    assert len(preview.rounds) == 1 and len(preview.rounds[0].series) == 4
    assert not Round.objects.filter(stage=stage).exists()
    published = stage_round_publish(user=organiser, stage_id=stage.pk)
    assert [s.key for s in published[0].series.order_by("table")] == [s.key for s in preview.rounds[0].series]
    with pytest.raises(Conflict) as refused:
        stage_round_publish(user=organiser, stage_id=stage.pk, round_number=1)
    assert refused.value.code == "round_already_generated"
    with pytest.raises(Conflict) as waiting:
        stage_round_publish(user=organiser, stage_id=stage.pk)
    assert waiting.value.code == "round_not_due" and len(waiting.value.extra["waiting"]) == 4


@pytest.mark.parametrize(
    "case",
    [
        ("groups_playoff", {"group_size": 4}, "group_size", "groups_uneven"),
        ("heats", {"table_size": 4, "advance": 4}, "advance", "advance_not_below_table_size"),
        ("swiss", {"rounds": 6}, "rounds", "too_many_rounds"),  # 5 players: at most 5
        ("swiss", {"rounds": "many"}, "rounds", "option_not_a_number"),
        ("bracket", {}, "format", "unknown_format"),
    ],
)
def test_impossible_configurations_name_the_field_and_create_nothing(
    cup: Callable[..., Tournament], organiser: Any, case: tuple[str, dict[str, Any], str, str]
) -> None:
    format, options, field, code = case
    tournament = cup(5, game=GameKind.SNAP if format == "heats" else GameKind.SNAPSZER)
    with pytest.raises(ApplicationError) as refused:
        stage_create(user=organiser, tournament=tournament, name="Stage", format=format, options=options)
    assert refused.value.code == code
    assert list(refused.value.fields) == [field] and refused.value.fields[field][0]
    assert not Stage.objects.filter(tournament=tournament).exists()


def test_a_withdrawn_player_is_never_paired_again_and_their_series_is_a_walkover(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(6)
    tournament.referees.add(referee)
    stage = stage_create(
        user=organiser, tournament=tournament, name="Swiss", format="swiss", options={"rounds": 3}
    )
    stage_round_publish(user=organiser, stage_id=stage.pk)
    gone = Player.objects.get(name="P006")
    with django_capture_on_commit_callbacks(execute=True):
        withdrawal = stage_withdraw(user=organiser, stage_id=stage.pk, player_id=gone.pk, reason="ill")
    assert withdrawal.from_round == 1
    their = Series.objects.get(stage=stage, round__number=1, seats__player=gone)
    assert their.status == Series.Status.DECIDED and str(gone.pk) not in their.placings
    with django_capture_on_commit_callbacks(execute=True):
        play_open_series(stage.pk, referee)
    later = Series.objects.filter(stage=stage, round__number__gt=1)
    assert later.exists() and not later.filter(seats__player=gone).exists()
    with pytest.raises(Conflict):
        stage_withdraw(user=organiser, stage_id=stage.pk, player_id=gone.pk)
    assert Withdrawal.objects.filter(stage=stage).count() == 1


def test_a_no_show_forfeits_and_the_opponent_goes_on(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(4)
    tournament.referees.add(referee)
    stage = stage_create(
        user=organiser,
        tournament=tournament,
        name="Cup",
        format="single_elimination",
        options={"seeding": "manual"},
    )
    stage_round_publish(user=organiser, stage_id=stage.pk)
    semi = Series.objects.get(stage=stage, key="W1-1")
    seated = list(semi.seats.order_by("seat").values_list("player_id", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        series_forfeit(user=organiser, series_id=semi.pk, player_ids=[seated[0]], reason="did not come")
    semi.refresh_from_db()
    assert semi.placings == {str(seated[1]): 1} and Forfeit.objects.filter(series=semi).count() == 1
    with pytest.raises(Conflict):
        series_forfeit(user=organiser, series_id=semi.pk, player_ids=[seated[1]])
    with django_capture_on_commit_callbacks(execute=True):
        play_open_series(stage.pk, referee)
    final = Series.objects.get(stage=stage, key="W2-1")
    assert seated[1] in set(final.seats.values_list("player_id", flat=True))
    assert seated[0] not in set(final.seats.values_list("player_id", flat=True))


def test_a_correction_flags_the_rounds_paired_from_it_and_advancing_twice_changes_nothing(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(8)
    tournament.referees.add(referee)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    with django_capture_on_commit_callbacks(execute=True):
        stage_round_publish(user=organiser, stage_id=stage.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play_open_series(stage.pk, referee)
    assert Round.objects.filter(stage=stage).count() == 2
    again = stage_advance(stage_id=stage.pk)
    assert again.published == () and Round.objects.filter(stage=stage).count() == 2
    assert not Series.objects.filter(stage=stage, flagged=True).exists()
    # Game 2 of a round-1 series is corrected: the other player won the series after all.
    series = Series.objects.filter(stage=stage, round__number=1).first()
    assert series is not None
    seated = [s.player for s in series.seats.order_by("seat")]
    loser = min(seated, key=lambda p: p.name)
    winner = next(p for p in seated if p != loser)
    with django_capture_on_commit_callbacks(execute=True):
        for number in (1, 2):
            record_result(
                user=organiser,
                series_id=series.pk,
                game_number=number,
                result=snapszer_win(winner, loser),
                expected_version=1,
                reason="the scores were swapped",
            )
    flagged = Series.objects.filter(stage=stage, flagged=True)
    assert set(flagged.values_list("round__number", flat=True)) == {2}
    assert flagged.count() == 4
    # Published pairings never change.
    assert Round.objects.filter(stage=stage).count() == 2


def test_the_beat_reconciler_publishes_a_round_whose_stage_task_was_lost(
    cup: Callable[..., Tournament], organiser: Any, referee: Any
) -> None:
    from tournaments.tasks import standings_reconcile_task

    tournament = cup(4)
    tournament.referees.add(referee)
    stage = stage_create(user=organiser, tournament=tournament, name="Swiss", format="swiss")
    stage_round_publish(user=organiser, stage_id=stage.pk)
    play_open_series(stage.pk, referee)  # on-commit tasks never ran: as if the messages were lost
    assert Round.objects.filter(stage=stage).count() == 1
    standings_reconcile_task()  # eager: the tasks it sends run inline
    assert Round.objects.filter(stage=stage).count() == 2
    assert StandingRow.objects.filter(stage=stage).exists()


def test_review_mode_waits_for_the_organiser(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(4)
    tournament.referees.add(referee)
    stage = stage_create(
        user=organiser, tournament=tournament, name="Swiss", format="swiss", publishing="review"
    )
    stage_round_publish(user=organiser, stage_id=stage.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play_open_series(stage.pk, referee)
    assert stage_advance(stage_id=stage.pk).due_for_review
    assert Round.objects.filter(stage=stage).count() == 1
    preview = stage_preview(user=organiser, stage_id=stage.pk)
    assert [r.number for r in preview.rounds] == [2]
    stage_round_publish(user=organiser, stage_id=stage.pk)
    assert Round.objects.filter(stage=stage).count() == 2


def test_a_playoff_seeded_from_the_groups_standings(
    cup: Callable[..., Tournament], organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = cup(6)
    tournament.referees.add(referee)
    league = stage_create(user=organiser, tournament=tournament, name="League", format="round_robin")
    with django_capture_on_commit_callbacks(execute=True):
        stage_round_publish(user=organiser, stage_id=league.pk)
    early = stage_create(
        user=organiser, tournament=tournament, name="Early", format="single_elimination", seeded_from=league
    )
    with pytest.raises(Conflict) as not_final:
        stage_round_publish(user=organiser, stage_id=early.pk)
    assert (
        not_final.value.code == "seeding_stage_not_final" and not Round.objects.filter(stage=early).exists()
    )
    for _ in range(6):
        with django_capture_on_commit_callbacks(execute=True):
            play_open_series(league.pk, referee)
    league.refresh_from_db()
    assert league.status == Stage.Status.FINISHED
    order = list(
        StandingRow.objects.filter(stage=league).order_by("position").values_list("player_id", flat=True)
    )
    with pytest.raises(ApplicationError) as too_many:
        stage_create(
            user=organiser,
            tournament=tournament,
            name="Playoff",
            format="single_elimination",
            seeded_from=league,
            seeded_take=8,
        )
    assert too_many.value.fields == {"seeded_take": [too_many.value.fields["seeded_take"][0]]}
    playoff = stage_create(
        user=organiser,
        tournament=tournament,
        name="Playoff",
        format="single_elimination",
        seeded_from=league,
        seeded_take=4,
    )
    assert playoff.options["seeding"] == "standings"
    stage_round_publish(user=organiser, stage_id=playoff.pk)
    playoff.refresh_from_db()
    assert playoff.entrants == order[:4]
    semis = {
        frozenset(s.seats.values_list("player_id", flat=True)) for s in Series.objects.filter(stage=playoff)
    }
    assert semis == {frozenset({order[0], order[3]}), frozenset({order[1], order[2]})}  # 1 v 4, 2 v 3
