"""Snap statistics of one game (games/snap_stats/measure.py) on timed logs built by hand, with the
numbers worked out in the comments, and on whole bot games (the counts agree with the events)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.engine.snap import CallKind, PairClaim
from games.engine.snap.bots import LEVELS, play_bot_game
from games.engine.snap.contract import game_rules
from games.engine.snap.playout import shuffled_deal
from games.engine.snap.timing import TimedCall, TimedFlip, TimingRules, timed_input_to_dict
from games.snap_stats.measure import median, percentile, snap_game_stats, summarise
from tests.games.engine.snap.helpers import CLASSIC, stacked

# Seat 0 flips first (dealer 2). 7H/7S make pair (0, 1); 3C/3H later make pair (1, 2).
PILES = {0: ["7H", "2C", "4D"], 1: ["7S", "3C", "5H"], 2: ["9D", "3H"]}
DEAL = stacked(CLASSIC, 3, PILES, dealer=2)
TIMING = TimingRules()  # no round trip measured: a call is compensated by at most 50 ms (S33)


def flip(at: int, seat: int) -> dict[str, Any]:
    return timed_input_to_dict(TimedFlip(at, seat))


def call(at: int, caller: int, seq: int, reaction: int, claim: PairClaim | None) -> dict[str, Any]:
    return timed_input_to_dict(TimedCall(at, caller, CallKind.SNAP, claim, seq, reaction))


# seq 1: 7H at 1000; seq 2: 7S at 2000, the pair (0, 1) is revealed at 2000.
# Seat 2 calls at 2400 saying it reacted in 100 ms: lag 2400 - 2000 - 100 = 300, compensated by
# at most 50, so its effective time is 2350 and its reaction 350 (not the 100 it claimed).
# It is decided at 2350 + 30 + 50 = 2430: seat 2 wins (seq 3).
# Seat 0 calls at 2500 on seq 2 with 480 ms: lag 20, effective 2480, reaction 480: late.
# After the 600 ms pause (until 3030): seat 2 flips 9D (seq 4), seat 0 2C (seq 5); seat 1 calls
# (0, 2) wrongly at 3300 (2C against 9D; no face-up pile to lose: still a false call, seq 6).
# Seat 1 flips 3C at 3400 (seq 7), seat 2 3H at 3500 (seq 8): pair (1, 2) from 3500; seat 0 flips
# 4D at 3600 (seq 9), seat 1 covers 3C with 5H at 3700 (seq 10): nobody called, the chance passed.
ADVANCE = {"type": "advance", "at": 3000}
LOG = [
    flip(1000, 0),
    flip(2000, 1),
    call(2400, 2, 2, 100, PairClaim(0, 1)),
    call(2500, 0, 2, 480, PairClaim(0, 1)),
    flip(3100, 2),
    flip(3200, 0),
    call(3300, 1, 5, 250, PairClaim(0, 2)),
    flip(3400, 1),
    flip(3500, 2),
    flip(3600, 0),
    flip(3700, 1),
]


def test_a_game_built_by_hand_gives_the_numbers_worked_out() -> None:
    stats = snap_game_stats(CLASSIC, DEAL, 2, TIMING, LOG)

    s0, s1, s2 = stats.seats
    assert [(c.reaction_ms, c.outcome, c.revealed_ms, c.effective_ms) for c in s2.calls] == [
        (350, "won", 2000, 2350)
    ]
    assert s2.calls[0].device_ms == 100
    assert [(c.reaction_ms, c.outcome) for c in s0.calls] == [(480, "late")]
    assert s1.calls == []
    assert (s0.chances, s0.won, s0.tied, s0.late, s0.not_called, s0.missed) == (2, 0, 0, 1, 1, 2)
    assert (s1.chances, s1.won, s1.late, s1.not_called, s1.missed, s1.false_calls) == (2, 0, 0, 2, 2, 1)
    assert (s2.chances, s2.won, s2.late, s2.not_called, s2.missed) == (2, 1, 0, 1, 1)
    assert (s0.false_calls, s2.false_calls) == (0, 0)
    assert stats.length_ms == 3700
    assert stats.winner is None  # still going: a log cut short measures what it holds


def test_a_bare_call_is_timed_from_the_claim_revealed_last() -> None:
    # "Snap!" naming no pair: (0, 1), revealed at 2000; decided when the timer fires (an advance).
    log = [*LOG[:2], call(2400, 2, 2, 400, None), ADVANCE]
    stats = snap_game_stats(CLASSIC, DEAL, 2, TIMING, log)
    assert [(c.reaction_ms, c.outcome) for c in stats.seats[2].calls] == [(400, "won")]


def test_a_tie_counts_for_both_callers() -> None:
    # Seats 0 and 2 call (0, 1) with effective times 2400 and 2420: within the 30 ms tie window.
    log = [*LOG[:2], call(2400, 2, 2, 400, PairClaim(0, 1)), call(2420, 0, 2, 420, PairClaim(0, 1)), ADVANCE]
    stats = snap_game_stats(CLASSIC, DEAL, 2, TIMING, log)
    s0, s1, s2 = stats.seats
    assert [(c.reaction_ms, c.outcome) for c in s2.calls] == [(400, "tied")]
    assert [(c.reaction_ms, c.outcome) for c in s0.calls] == [(420, "tied")]
    assert (s0.tied, s2.tied, s1.not_called, s0.won + s2.won) == (1, 1, 1, 0)


def test_a_seat_played_by_a_stand_in_bot_is_not_counted_while_it_is() -> None:
    stand_in = {"type": "stand_in", "seat": 2, "bot": "casual"}
    stats = snap_game_stats(CLASSIC, DEAL, 2, TIMING, [stand_in, *LOG])
    s2 = stats.seats[2]
    assert (s2.chances, s2.calls, s2.won, s2.stood_in) == (0, [], 0, True)
    assert stats.seats[0].chances == 2  # the others are measured as before


def test_summaries_use_the_median_and_the_nearest_rank_p90() -> None:
    assert median([300, 100, 200, 400]) == 250
    assert percentile(list(range(1, 11)), 90) == 9
    assert percentile([500], 90) == 500
    assert percentile([], 90) is None
    stats = snap_game_stats(CLASSIC, DEAL, 2, TIMING, LOG)
    summary = summarise([(stats, 0), (stats, 2)])
    assert summary.reactions == (480, 350)
    assert (summary.games, summary.chances, summary.missed, summary.median_ms, summary.p90_ms) == (
        2,
        4,
        3,
        415,
        480,
    )


@pytest.mark.parametrize("seed", range(4))
def test_a_bot_game_replayed_gives_counts_that_match_its_events(seed: int) -> None:
    rng = random.Random(seed)
    rules = game_rules({"profile": "classic", "max_game_seconds": 300})
    deal = shuffled_deal(rules, 4, rng)
    levels = [LEVELS[name] for name in ("beginner", "club", "strong", "expert")]
    game = play_bot_game(rules, levels, deal, 3, rng).game
    log = [timed_input_to_dict(inp) for inp in game.log]

    stats = snap_game_stats(rules, deal, 3, game.timing, log)

    captures = Counter(e.seat for _at, e in game.events if e.type == "capture" and e.kind != "last_player")
    ties = Counter(c for _at, e in game.events if e.type == "tie" for c in e.callers)
    late = Counter(e.caller for _at, e in game.events if e.type == "ignored_call" and e.reason == "late")
    result = game.state.result
    assert result is not None
    assert stats.winner == result.winner
    for s in stats.seats:
        assert s.won == captures[s.seat]
        assert s.tied == ties[s.seat]
        assert s.false_calls == result.wrong_calls[s.seat]
        assert len(s.calls) == s.won + s.tied + s.late  # every valid call is timed, once
        assert s.late <= late[s.seat]
        assert s.chances == s.won + s.tied + s.late + s.not_called
        assert all(c.reaction_ms >= 0 and c.effective_ms >= c.revealed_ms for c in s.calls)
    # The levels show: the beginner reacts slower than the expert (means 770 and 330 ms, 2 piles).
    b, e = median(stats.seats[0].reactions), median(stats.seats[3].reactions)
    assert b is not None and e is not None and b > e
