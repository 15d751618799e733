"""The formats by hand (rules/tournaments.md "Formats"; decisions in docs/formats.md): the interface,
the registry, each format's seating on small fields worked out in the comments, and every refusal."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tests.tournaments.competitions.formats.examples import (
    SNAP,
    SNAPSZER,
    decide,
    k33_swiss,
    play_out,
    publish,
    state,
)
from tournaments.competitions.formats.base import (
    Format,
    FormatError,
    FormatErrorCode,
    FormatKey,
    Phase,
    PlannedSeries,
    Slot,
)
from tournaments.competitions.formats.bracket import (
    FromSeries,
    double_elimination,
    single_elimination,
    tables_elimination,
)
from tournaments.competitions.formats.groups import group_label, playoff_seeds
from tournaments.competitions.formats.registry import FORMATS, format_for
from tournaments.competitions.formats.round_robin import round_robin_schedule, seeded_order, snap_tables
from tournaments.competitions.formats.seeding import bracket_order, drop_orderings, snake
from tournaments.competitions.formats.stored import rounds_from_json, rounds_to_json
from tournaments.competitions.formats.swiss import SwissHistory, swiss_pairing
from tournaments.competitions.standings.chain import Tiebreak, default_chain

K = FormatKey


def seats(stage_round: object) -> list[tuple[object, ...]]:
    return [s.seats for s in stage_round.series]  # type: ignore[attr-defined]


def code_of(call: object) -> FormatErrorCode:
    with pytest.raises(FormatError) as exc:
        call()  # type: ignore[operator]
    assert isinstance(exc.value.code, FormatErrorCode)
    return exc.value.code


# -- the interface and the registry ---------------------------------------------------------------


def test_the_registry_has_one_object_per_stage_format() -> None:
    assert set(FORMATS) == set(FormatKey)
    assert [str(k) for k in FormatKey] == [
        "round_robin",
        "swiss",
        "swiss_tables",
        "single_elimination",
        "double_elimination",
        "groups_playoff",
        "heats",
    ]
    for key, fmt in FORMATS.items():
        assert fmt.key is key
        assert isinstance(fmt, Format)  # the protocol's methods are all there
    assert format_for("swiss") is FORMATS[K.SWISS]
    assert code_of(lambda: format_for("knockout")) is FormatErrorCode.UNKNOWN_FORMAT


def test_the_stage_format_keys_are_the_models_values() -> None:
    from tournaments.models import StageFormat

    assert [k.value for k in FormatKey] == [f.value for f in StageFormat]


def test_options_are_checked_and_defaults_filled_in() -> None:
    assert FORMATS[K.SWISS].check_options({}, game=SNAP) == {
        "rounds": None,
        "bye": "win",
        "seeding": "random",
    }
    assert FORMATS[K.HEATS].check_options({"advance": 1}, game=SNAP) == {
        "table_size": 4,
        "advance": 1,
        "repechage": False,
        "seeding": "random",
    }
    with pytest.raises(FormatError) as exc:
        FORMATS[K.SWISS].check_options({"rounds": True}, game=SNAP)
    assert exc.value.extra["field"] == "rounds"  # a bool is not a number of rounds


@pytest.mark.parametrize(
    ("key", "options", "game", "entrants", "code", "field"),
    [
        (K.HEATS, {}, SNAPSZER, None, "format_not_for_game", "format"),
        (K.SWISS_TABLES, {}, SNAPSZER, None, "format_not_for_game", "format"),
        (K.SINGLE_ELIMINATION, {"table_size": 3}, SNAPSZER, None, "tables_not_for_game", "table_size"),
        (
            K.SINGLE_ELIMINATION,
            {"table_size": 4, "advance": 4},
            SNAP,
            None,
            "advance_not_below_table_size",
            "advance",
        ),
        (K.SINGLE_ELIMINATION, {"advance": 2}, SNAP, None, "advance_not_below_table_size", "advance"),
        (K.HEATS, {"table_size": 3, "advance": 3}, SNAP, None, "advance_not_below_table_size", "advance"),
        (
            K.SINGLE_ELIMINATION,
            {"table_size": 4, "advance": 2, "third_place": True},
            SNAP,
            None,
            "option_needs_two_seats",
            "third_place",
        ),
        (K.GROUPS_PLAYOFF, {"group_size": 4}, SNAP, 5, "groups_uneven", "group_size"),  # 3 + 2
        (
            K.GROUPS_PLAYOFF,
            {"group_size": 4, "advance": 3},
            SNAP,
            7,
            "advance_not_below_group_size",
            "advance",
        ),
        (K.GROUPS_PLAYOFF, {"group_size": 3, "advance": 1}, SNAP, 3, "not_enough_entrants", "advance"),
        (
            K.GROUPS_PLAYOFF,
            {"group_format": "swiss", "group_rounds": 4},
            SNAP,
            8,
            "too_many_rounds",
            "group_rounds",
        ),
        (K.SWISS, {"rounds": 8}, SNAP, 8, "too_many_rounds", "rounds"),  # 8 players: 7 rounds at most
        (K.SWISS, {"rounds": 10}, SNAP, 9, "too_many_rounds", "rounds"),  # 9: 9 rounds, a bye each
        (K.SWISS, {"swiss": 1}, SNAP, None, "unknown_option", "swiss"),
        (K.ROUND_ROBIN, {"table_size": 3}, SNAPSZER, None, "unknown_option", "table_size"),
        (K.DOUBLE_ELIMINATION, {"seeding": "elo"}, SNAP, None, "option_not_a_choice", "seeding"),
        (K.SWISS_TABLES, {"table_size": 7}, SNAP, None, "option_not_a_number", "table_size"),
        (K.SWISS, {}, SNAP, 1, "not_enough_entrants", "entrants"),
    ],
)
def test_bad_configurations_are_refused_naming_the_field(  # noqa: PLR0917
    key: FormatKey, options: dict[str, object], game: object, entrants: int | None, code: str, field: str
) -> None:
    with pytest.raises(FormatError) as exc:
        FORMATS[key].check_options(options, game=game, entrants=entrants)  # type: ignore[arg-type]
    assert exc.value.code == code
    assert exc.value.extra["field"] == field


def test_rounds_survive_json_and_their_json_is_canonical() -> None:
    stage = publish(state(K.DOUBLE_ELIMINATION, range(1, 6)), K.DOUBLE_ELIMINATION)
    text = rounds_to_json(stage.rounds)
    assert rounds_from_json(text) == stage.rounds
    assert " " not in text and text.startswith('[{"byes":[],"number":1,"series":[{"advance":1,"group":null,')


# -- generating rounds: once, in order ------------------------------------------------------------


def test_a_round_is_generated_once_and_only_when_due() -> None:
    swiss = FORMATS[K.SWISS]
    stage = state(K.SWISS, range(1, 7), SNAPSZER)
    assert code_of(lambda: swiss.next_rounds(stage, round_number=2)) is FormatErrorCode.ROUND_NOT_NEXT
    (first,) = swiss.next_rounds(stage, round_number=1)
    stage = replace(stage, rounds=(first,))
    assert swiss.next_rounds(stage) == ()  # waiting for results, nothing to generate
    assert (
        code_of(lambda: swiss.next_rounds(stage, round_number=1)) is FormatErrorCode.ROUND_ALREADY_GENERATED
    )
    with pytest.raises(FormatError) as exc:
        swiss.next_rounds(stage, round_number=2)
    assert exc.value.code is FormatErrorCode.ROUND_NOT_DUE
    assert exc.value.extra["waiting"] == ["R1-1", "R1-2", "R1-3"]
    stage = decide(stage, {"R1-1": (1, 2), "R1-2": (2, 1), "R1-3": (1, None)})
    (second,) = swiss.next_rounds(stage, round_number=2)
    assert second.number == 2


def test_the_same_state_gives_the_same_rounds() -> None:
    for key in FormatKey:
        game = SNAPSZER if key in (K.SWISS, K.DOUBLE_ELIMINATION) else SNAP
        stage = state(key, range(1, 14), game, seeding="random")
        assert rounds_to_json(FORMATS[key].next_rounds(stage)) == rounds_to_json(
            FORMATS[key].next_rounds(stage)
        )


def test_results_are_checked_against_the_published_series() -> None:
    se = FORMATS[K.SINGLE_ELIMINATION]
    stage = publish(state(K.SINGLE_ELIMINATION, [1, 2, 3, 4]), K.SINGLE_ELIMINATION)
    assert code_of(lambda: se.next_rounds(decide(stage, {"W7-1": (1, 2)}))) is FormatErrorCode.UNKNOWN_SERIES
    for bad in [(1,), (1, 3), (0, 1), (2, 2), ("1", 2)]:
        assert (
            code_of(lambda b=bad: se.next_rounds(decide(stage, {"W1-1": b})))
            is FormatErrorCode.INVALID_RESULT
        )
    assert code_of(lambda: se.next_rounds(decide(stage, {"W1-1": (1, 1)}))) is FormatErrorCode.TIED_AT_CUT
    swiss = publish(state(K.SWISS, [1, 2], SNAPSZER), K.SWISS)
    assert FORMATS[K.SWISS].finished(decide(swiss, {"R1-1": (1, 1)}))  # a draw is allowed in Swiss


# -- round robin behind the interface --------------------------------------------------------------


def test_round_robin_through_the_interface_is_the_circle_method() -> None:
    stage = state(K.ROUND_ROBIN, range(1, 6), SNAPSZER, double=True)
    rounds = FORMATS[K.ROUND_ROBIN].next_rounds(stage)
    schedule = round_robin_schedule(range(1, 6), double=True)
    assert [seats(r) for r in rounds] == [[p.seats for p in s.pairings] for s in schedule]
    assert [r.byes for r in rounds] == [(s.bye,) for s in schedule]
    assert FORMATS[K.ROUND_ROBIN].next_rounds(replace(stage, rounds=rounds)) == ()


def test_snap_round_robin_sits_at_snake_tables() -> None:
    stage = state(K.ROUND_ROBIN, range(1, 10), SNAP, table_size=4, seeding="random")
    (rnd,) = FORMATS[K.ROUND_ROBIN].next_rounds(stage)
    tables = snap_tables(seeded_order(range(1, 10), stage.seed), table_size=4)
    assert seats(rnd) == [t.seats for t in tables]
    assert FORMATS[K.ROUND_ROBIN].default_tiebreaks(SNAP, {}) == default_chain(SNAP, tables=True)


# -- Swiss ---------------------------------------------------------------------------------------


def test_swiss_round_1_pairs_top_half_against_bottom_half() -> None:
    (rnd,) = FORMATS[K.SWISS].next_rounds(state(K.SWISS, range(1, 9), SNAPSZER))
    assert sorted(tuple(sorted(s)) for s in seats(rnd)) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert [min(s) for s in seats(rnd)] == [1, 2, 3, 4]  # table 1 is the top board
    first_seats = [s[0] for s in seats(rnd)]
    # seat 0 alternates down the boards: the top seed deals first on every other board
    assert [p <= 4 for p in first_seats] in ([True, False, True, False], [False, True, False, True])


def test_swiss_gives_the_bye_to_the_lowest_ranked_player_without_one() -> None:
    swiss = FORMATS[K.SWISS]
    stage = publish(state(K.SWISS, range(1, 6), SNAPSZER), K.SWISS)
    assert stage.rounds[0].byes == (5,)  # round 1: the lowest seed
    # seeds 1 and 2 win; 5 has had a bye, so the bye goes to the lowest of the others on 0 points
    outcomes = {s.key: (1, 2) if min(s.seats) == s.seats[0] else (2, 1) for s in stage.rounds[0].series}
    stage = decide(stage, outcomes)
    (second,) = swiss.next_rounds(stage)
    assert second.byes == (4,)
    assert all(frozenset(s) not in {frozenset(t) for t in seats(stage.rounds[0])} for s in seats(second))


def test_swiss_pairs_by_score_groups() -> None:
    swiss = FORMATS[K.SWISS]
    stage = publish(state(K.SWISS, range(1, 9), SNAPSZER), K.SWISS)
    # the better seed wins every series: winners 1-4 (2 points), losers 5-8 (0)
    stage = decide(
        stage, {s.key: (1, 2) if s.seats[0] < s.seats[1] else (2, 1) for s in stage.rounds[0].series}
    )
    (second,) = swiss.next_rounds(stage)
    winners = {1, 2, 3, 4}
    assert all((a in winners) == (b in winners) for a, b in seats(second))  # no floater needed
    # first-dealer balance comes before "top half v bottom half": everyone who dealt first in
    # round 1 sits second now
    dealt_first = {s.seats[0] for s in stage.rounds[0].series}
    assert all(b in dealt_first and a not in dealt_first for a, b in seats(second))


def test_swiss_last_round_exempts_topscorers_from_the_seat_rules() -> None:
    # FIDE's Dutch system (C.04.3 A.7, C.3): in the last round a pair with a topscorer may break
    # the absolute colour rules. Leaders 1 and 2 (two wins) have both sat second twice: whoever
    # sits second again does so a third time running. Before the last round they float apart to
    # the one-win players; in the last round they meet, so that they cannot both finish unbeaten.
    history = SwissHistory(
        score={1: 4, 2: 4, 3: 2, 4: 2, 5: 2, 6: 2},
        seats={1: [1, 1], 2: [1, 1], 3: [0, 1], 4: [1, 0], 5: [0, 1], 6: [1, 0]},
    )
    order = {p: p for p in history.score}

    def leaders_meet(last_round: bool) -> bool:
        pairs, _bye = swiss_pairing(
            list(order), order, history, round_number=3, seed="s", last_round=last_round
        )
        return frozenset((1, 2)) in {frozenset(pair) for pair in pairs}

    assert leaders_meet(last_round=True)
    assert not leaders_meet(last_round=False)


def test_swiss_refuses_a_round_it_cannot_pair_without_a_rematch() -> None:
    with pytest.raises(FormatError) as exc:
        FORMATS[K.SWISS].next_rounds(k33_swiss())
    assert exc.value.code is FormatErrorCode.NO_PAIRING_WITHOUT_REMATCH
    assert exc.value.extra == {"field": "rounds", "round": 4}


def test_swiss_default_rounds_and_withdrawals() -> None:
    stage = state(K.SWISS, range(1, 11), SNAPSZER)
    done = play_out(stage, K.SWISS)
    assert len(done.rounds) == math.ceil(math.log2(10))
    withdrawn = play_out(replace(stage, withdrawals={3: 2}), K.SWISS)
    later = [p for rnd in withdrawn.rounds[1:] for s in rnd.series for p in s.seats] + [
        p for rnd in withdrawn.rounds[1:] for p in rnd.byes
    ]
    assert 3 not in later and 3 in [p for s in withdrawn.rounds[0].series for p in s.seats]


def test_swiss_default_tiebreaks_follow_fide() -> None:
    assert FORMATS[K.SWISS].default_tiebreaks(SNAPSZER, {})[:3] == (
        Tiebreak.SERIES_WON,
        Tiebreak.MEDIAN_BUCHHOLZ,
        Tiebreak.BUCHHOLZ,
    )


# -- single elimination --------------------------------------------------------------------------


def test_standard_bracket_order() -> None:
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert bracket_order(2) == [1, 2]


def test_single_elimination_of_16_by_hand() -> None:
    (rnd,) = FORMATS[K.SINGLE_ELIMINATION].next_rounds(state(K.SINGLE_ELIMINATION, range(1, 17)))
    assert seats(rnd) == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]
    assert rnd.series[0].to == (Slot("W2-1", 0),) and rnd.series[1].to == (Slot("W2-1", 1),)


def test_byes_go_to_the_top_seeds() -> None:
    (rnd,) = FORMATS[K.SINGLE_ELIMINATION].next_rounds(state(K.SINGLE_ELIMINATION, range(1, 6)))
    assert seats(rnd) == [(1, None), (4, 5), (2, None), (3, None)]
    assert [s.walkover for s in rnd.series] == [True, False, True, True]


def test_the_winner_goes_to_its_slot_and_the_champion_is_the_finals_winner() -> None:
    se = FORMATS[K.SINGLE_ELIMINATION]
    stage = publish(state(K.SINGLE_ELIMINATION, range(1, 6)), K.SINGLE_ELIMINATION)
    stage = decide(stage, {"W1-2": (2, 1)})  # 5 beats 4
    (second,) = se.next_rounds(stage)
    assert seats(second) == [(1, 5), (2, 3)]
    stage = decide(replace(stage, rounds=(*stage.rounds, second)), {"W2-1": (2, 1), "W2-2": (1, 2)})
    (final,) = se.next_rounds(stage)
    assert seats(final) == [(5, 2)]
    stage = decide(replace(stage, rounds=(*stage.rounds, final)), {"W3-1": (1, 2)})
    assert se.next_rounds(stage) == () and se.finished(stage)
    assert se.champion(stage) == 5  # type: ignore[attr-defined]


def test_third_place_series_for_the_semi_final_losers() -> None:
    stage = play_out(state(K.SINGLE_ELIMINATION, range(1, 9), third_place=True), K.SINGLE_ELIMINATION)
    last = stage.rounds[-1]
    assert [s.phase for s in last.series] == [Phase.WINNERS, Phase.THIRD_PLACE]
    assert seats(last) == [(1, 2), (4, 3)]  # seat 0 always wins; 4 lost semi-final 1 (1 v 4), 3 the other
    assert single_elimination(3, third_place=True)[-1].phase is Phase.THIRD_PLACE
    assert all(node.phase is Phase.WINNERS for node in single_elimination(2, third_place=True))


def test_a_withdrawn_players_opponent_gets_a_walkover() -> None:
    se = FORMATS[K.SINGLE_ELIMINATION]
    stage = publish(state(K.SINGLE_ELIMINATION, range(1, 9)), K.SINGLE_ELIMINATION)
    assert seats(stage.rounds[0]) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    stage = replace(stage, withdrawals={4: 2})  # 4 withdraws after winning round 1
    stage = decide(stage, {s.key: (1, 2) for s in stage.rounds[0].series})
    (second,) = se.next_rounds(stage)
    assert seats(second) == [(1, None), (2, 3)]
    assert second.series[0].walkover


def test_a_double_forfeit_advances_nobody() -> None:
    se = FORMATS[K.SINGLE_ELIMINATION]
    stage = publish(state(K.SINGLE_ELIMINATION, range(1, 5)), K.SINGLE_ELIMINATION)
    stage = decide(stage, {"W1-1": (None, None), "W1-2": (1, None)})
    (final,) = se.next_rounds(stage)
    assert seats(final) == [(None, 2)] and final.series[0].walkover
    assert se.next_rounds(replace(stage, rounds=(*stage.rounds, final))) == ()
    assert se.champion(replace(stage, rounds=(*stage.rounds, final))) == 2  # type: ignore[attr-defined]


def test_tables_with_the_top_k_advancing() -> None:
    bracket = tables_elimination(10, table_size=4, advance=2)
    first = [n for n in bracket if n.round == 1]
    assert [len(n.sources) for n in first] == [3, 3, 4]  # ceil(10 / 4) = 3 tables by snake seeding
    assert [n.advance for n in first] == [2, 2, 2]
    final = bracket[-1]
    # 6 go on; the line (winners of tables 1-3, then seconds of tables 3-1) goes to 2 tables of 3,
    # whose top 2 make the final table of 4
    assert [len(n.sources) for n in bracket if n.round == 2] == [3, 3]
    assert final.key == "F" and len(final.sources) == 4 and final.phase is Phase.FINAL
    assert tables_elimination(5, table_size=6, advance=2)[0].key == "F"  # one table: the final


# -- double elimination --------------------------------------------------------------------------


def test_double_elimination_of_8_by_hand() -> None:
    bracket = {n.key: n for n in double_elimination(8)}
    # losers of winners' round 1 meet in pairs; winners' round 2 losers drop in reverse order
    assert bracket["L1-1"].sources == (FromSeries("W1-1", 2), FromSeries("W1-2", 2))
    assert bracket["L2-1"].sources == (FromSeries("L1-1", 1), FromSeries("W2-2", 2))
    assert bracket["L2-2"].sources == (FromSeries("L1-2", 1), FromSeries("W2-1", 2))
    assert bracket["L4-1"].sources == (FromSeries("L3-1", 1), FromSeries("W3-1", 2))
    assert bracket["GF1"].sources == (FromSeries("W3-1", 1), FromSeries("L4-1", 1))
    assert bracket["W2-1"].to == (Slot("W3-1", 0), Slot("L2-2", 1))
    rounds = {key: node.round for key, node in bracket.items()}
    assert (rounds["W2-1"], rounds["L1-1"], rounds["L4-1"], rounds["GF1"], rounds["GF2"]) == (2, 2, 5, 6, 7)


def test_the_grand_final_is_reset_only_when_the_losers_side_wins() -> None:
    de = FORMATS[K.DOUBLE_ELIMINATION]
    winners_side = play_out(state(K.DOUBLE_ELIMINATION, range(1, 5)), K.DOUBLE_ELIMINATION)
    assert winners_side.rounds[-1].series[0].key == "GF1" and de.champion(winners_side) == 1  # type: ignore[attr-defined]

    def losers_side_wins_the_final(series: PlannedSeries) -> int:
        return 1 if series.key == "GF1" else 0

    reset = play_out(
        state(K.DOUBLE_ELIMINATION, range(1, 5)), K.DOUBLE_ELIMINATION, losers_side_wins_the_final
    )
    assert [s.key for s in reset.rounds[-1].series] == ["GF2"]
    # the losers' champion (4: beat 3, then 2, the winners' final loser) beat 1; seats swap
    assert seats(reset.rounds[-1]) == [(4, 1)]
    no_reset = state(K.DOUBLE_ELIMINATION, range(1, 5), grand_final_reset=False)
    no_reset = play_out(no_reset, K.DOUBLE_ELIMINATION, losers_side_wins_the_final)
    assert no_reset.rounds[-1].series[0].key == "GF1" and de.champion(no_reset) == 4  # type: ignore[attr-defined]


def test_two_players_double_elimination_is_a_final_and_a_grand_final() -> None:
    stage = play_out(state(K.DOUBLE_ELIMINATION, [1, 2]), K.DOUBLE_ELIMINATION)
    assert [s.key for r in stage.rounds for s in r.series] == ["W1-1", "GF1", "GF2"][:2]


def test_a_correction_never_moves_a_published_player() -> None:
    """The winners' round 1 result is corrected after the winner played round 2: the winner stays
    where published, and the other player drops to the losers' bracket (rules: published pairings
    never change)."""
    de = FORMATS[K.DOUBLE_ELIMINATION]
    stage = publish(state(K.DOUBLE_ELIMINATION, range(1, 5)), K.DOUBLE_ELIMINATION)
    assert seats(stage.rounds[0]) == [(1, 4), (2, 3)]
    stage = publish(decide(stage, {"W1-1": (1, 2), "W1-2": (1, 2)}), K.DOUBLE_ELIMINATION)
    assert seats(stage.rounds[1]) == [(1, 2), (4, 3)]
    # corrected: 3 had beaten 2. 2 already plays the winners' final and 3 the losers' round 1
    stage = decide(stage, {"W1-2": (2, 1), "W2-1": (1, 2), "L1-1": (1, 2)})
    (third,) = de.next_rounds(stage)
    assert seats(third) == [(4, 2)]  # 2 drops from the winners' final; 3 does not come back
    assert de.stale_series(stage) == ("W2-1", "L1-1")  # type: ignore[attr-defined]  # for the organiser


@pytest.mark.parametrize("rounds", range(2, 12))
def test_a_dropped_player_cannot_meet_a_past_opponent_in_their_first_losers_series(rounds: int) -> None:
    """Structurally: whoever drops from winners' round r could have met only players of that
    series' half-bracket block; the losers' series they drop into is fed from elsewhere (except
    the losers' final, fed by the winners' final loser)."""
    bracket = double_elimination(2**rounds)
    by_key = {n.key: n for n in bracket}
    block: dict[str, frozenset[int]] = {}  # who could have reached each series

    def reach(key: str) -> frozenset[int]:
        if key not in block:
            node = by_key[key]
            found: set[int] = set()
            for source in node.sources:
                found |= {source.index} if not isinstance(source, FromSeries) else reach(source.series)
            block[key] = frozenset(found)
        return block[key]

    last_losers = max(n.phase_round for n in bracket if n.phase is Phase.LOSERS)
    for node in bracket:
        if node.phase is not Phase.LOSERS or node.phase_round == last_losers:
            continue
        drops = [s for s in node.sources if isinstance(s, FromSeries) and s.series.startswith("W")]
        others = [s for s in node.sources if s not in drops]
        for drop in drops:
            met = reach(drop.series)  # everyone the dropped player could have met
            against = set().union(*(reach(s.series) for s in others)) if others else set()
            if node.phase_round == 1:
                (other,) = [s for s in drops if s != drop]
                against = set(reach(other.series))
            assert not met & against, f"{node.key}: {drop.series} may meet a past opponent"
    assert drop_orderings(rounds)[0] == "natural"


# -- groups -> playoff ---------------------------------------------------------------------------


def test_groups_are_snake_seeded_and_labelled() -> None:
    options, groups = FORMATS[K.GROUPS_PLAYOFF].groups(state(K.GROUPS_PLAYOFF, range(1, 13)))  # type: ignore[attr-defined]
    assert groups == {"A": [1, 6, 7, 12], "B": [2, 5, 8, 11], "C": [3, 4, 9, 10]}
    assert options["group_size"] == 4
    assert [group_label(i) for i in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]


@pytest.mark.parametrize(
    ("groups", "expected"),
    [
        (2, [("A1", "B2"), ("B1", "A2")]),
        (4, [("A1", "B2"), ("D1", "C2"), ("B1", "A2"), ("C1", "D2")]),
    ],
)
def test_playoff_crosses_over(groups: int, expected: list[tuple[str, str]]) -> None:
    rankings = [[f"{group_label(g)}{place}" for place in (1, 2, 3)] for g in range(groups)]
    seeds = playoff_seeds(rankings, 2)
    order = bracket_order(2 * groups)
    pairs = [(seeds[order[i] - 1], seeds[order[i + 1] - 1]) for i in range(0, len(order), 2)]
    assert pairs == expected


def test_groups_then_playoff_end_to_end() -> None:
    stage = state(K.GROUPS_PLAYOFF, range(1, 9), group_size=4, advance=2, third_place=True)
    done = play_out(stage, K.GROUPS_PLAYOFF)  # seat 0 always wins
    group_phase = [r for r in done.rounds if r.series[0].phase is Phase.GROUP]
    assert len(group_phase) == 3  # groups of 4: 3 rounds
    playoff = done.rounds[len(group_phase) :]
    first = seats(playoff[0])
    groups = {"A": {1, 4, 5, 8}, "B": {2, 3, 6, 7}}
    for a, b in first:
        assert not any({a, b} <= members for members in groups.values())  # no group meets itself
    assert playoff[-1].series[1].phase is Phase.THIRD_PLACE
    assert FORMATS[K.GROUPS_PLAYOFF].champion(done) is not None  # type: ignore[attr-defined]


def test_handed_in_group_standings_seed_the_playoff() -> None:
    stage = state(K.GROUPS_PLAYOFF, range(1, 9), group_size=4, advance=1)
    stage = publish(stage, K.GROUPS_PLAYOFF)
    stage = decide(stage, {s.key: (1, 2) for r in stage.rounds for s in r.series})
    stage = replace(stage, standings={"A": (8, 5, 4, 1), "B": (7, 6, 3, 2)})
    (final,) = FORMATS[K.GROUPS_PLAYOFF].next_rounds(stage)
    assert seats(final) == [(8, 7)]


# -- heats ----------------------------------------------------------------------------------------


def test_heats_seat_by_snake_and_send_the_top_k_on() -> None:
    heats = FORMATS[K.HEATS]
    stage = publish(state(K.HEATS, range(1, 13), table_size=4, advance=2), K.HEATS)
    assert seats(stage.rounds[0]) == [(1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10)]
    stage = decide(stage, {"H1-1": (4, 3, 2, 1), "H1-2": (1, 2, 3, 4), "H1-3": (2, 1, 4, 3)})
    (second,) = heats.next_rounds(stage)
    # going on, by place then seed: firsts 2, 4, 12; seconds 3, 5, 7; 6 > 4: two heats, snake
    assert seats(second) == [(2, 3, 5), (4, 12, 7)]
    stage = decide(replace(stage, rounds=(*stage.rounds, second)), {"H2-1": (1, 2, 3), "H2-2": (3, 2, 1)})
    (final,) = heats.next_rounds(stage)
    assert final.series[0].phase is Phase.FINAL
    assert seats(final) == [(2, 7, 3, 12)]  # firsts 2, 7; seconds 3, 12


def test_heats_repechage_after_the_first_round() -> None:
    heats = FORMATS[K.HEATS]
    stage = publish(state(K.HEATS, range(1, 13), table_size=4, advance=1, repechage=True), K.HEATS)
    stage = decide(stage, {s.key: (1, 2, 3, 4) for s in stage.rounds[0].series})
    (repechage,) = heats.next_rounds(stage)
    assert {s.phase for s in repechage.series} == {Phase.REPECHAGE}
    assert seats(repechage) == [(4, 9, 10), (5, 8, 11), (6, 7, 12)]  # by place then seed, snake
    stage = decide(
        replace(stage, rounds=(*stage.rounds, repechage)), {s.key: (1, 2, 3) for s in repechage.series}
    )
    (third,) = heats.next_rounds(stage)
    # the heat winners 1, 2, 3, then the repechage winners 4, 5, 6: two heats of 3
    assert seats(third) == [(1, 4, 5), (2, 3, 6)]


def test_snake_sizes_differ_by_at_most_one() -> None:
    for n in range(1, 40):
        for count in range(1, n + 1):
            sizes = [len(line) for line in snake(list(range(n)), count)]
            assert max(sizes) - min(sizes) <= 1 and sum(sizes) == n


# -- Swiss tables ---------------------------------------------------------------------------------


def test_swiss_tables_keep_scores_together_and_avoid_repeat_table_mates() -> None:
    swiss_tables = FORMATS[K.SWISS_TABLES]
    stage = publish(state(K.SWISS_TABLES, range(1, 17), table_size=4), K.SWISS_TABLES)
    assert seats(stage.rounds[0]) == [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)]
    outcomes = {s.key: (1, 2, 3, 4) for s in stage.rounds[0].series}
    outcomes["R1-1"] = (1, 1, 3, 4)  # 1 and 2 share first place
    stage = decide(stage, outcomes)
    (second,) = swiss_tables.next_rounds(stage)
    # rank: 1, 2, 5, 9, 13 (3 points), 6, 10, 14 (2) …: the rank order would seat 1 with 2 and
    # 13 with 14 again; swapping 13 with 1 or 2 between the two top tables seats nobody with a
    # table-mate, and everyone stays within one table of their rank
    top, second_table = (set(t) for t in seats(second)[:2])
    assert top | second_table == {1, 2, 5, 9, 13, 6, 10, 14} and 13 in top
    tables = [set(t) for t in seats(second)]
    before = [set(s.seats) for s in stage.rounds[0].series]
    assert all(len(t & old) <= 1 for t in tables for old in before)
