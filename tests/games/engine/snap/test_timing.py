"""The online timing layer (rules/snap.md S32-S38) with simulated connections.

Times are in ms. A player's one-way delay is half its round trip; a call made ``r`` ms after the
state appeared on screen arrives at ``shown + rtt/2 + r + rtt/2``. Expected effective times are
worked out by hand in the comments (S33: ``arrival - min(lag, min(300, rtt + 50))``).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.errors import ActionCode, IllegalAction, InvalidAction, InvalidRules
from games.engine.snap import CallKind, EmptyFacedown, PairClaim, SnapRules, replay
from games.engine.snap.actions import Call, CapReached, Tie
from games.engine.snap.playout import correct_claims, shuffled_deal
from games.engine.snap.state import CALL_WINDOW
from games.engine.snap.timing import (
    Advance,
    CallRefused,
    LiveGame,
    ReactionFlagged,
    RoundTrip,
    TimedCall,
    TimedFlip,
    TimedInput,
    TimingRules,
    replay_timed,
    reveal_delay,
    timed_input_from_dict,
    timed_input_to_dict,
)
from tests.games.engine.snap.helpers import CLASSIC, down, stacked, up

PILES = {0: ["7H", "2C"], 1: ["7S", "3C"], 2: ["9D", "4C"], 3: ["KD", "5C"]}
TIMING = TimingRules()
PAIR01 = PairClaim(0, 1)


def table(
    rtts: list[int | None],
    piles: dict[int, list[str]] = PILES,
    timing: TimingRules = TIMING,
    rules: SnapRules = CLASSIC,
) -> LiveGame:
    """A game dealt at time 0 (seat 0 flips first) with the given measured round trips."""
    n = len(rtts)
    game = LiveGame(rules, stacked(rules, n, piles, dealer=n - 1), n - 1, timing)
    for seat, rtt in enumerate(rtts):
        if rtt is not None:
            game.feed(RoundTrip(0, seat, rtt))
    return game


def matched(rtts: list[int | None], **kw: object) -> LiveGame:
    """Seat 0 flips 7H at 1000 (seq 1), seat 1 flips 7S at 2000 (seq 2): pair (0, 1) matches."""
    game = table(rtts, **kw)  # type: ignore[arg-type]
    game.feed(TimedFlip(1000, 0))
    game.feed(TimedFlip(2000, 1))
    assert game.state.seq == 2
    return game


def call(at: int, caller: int, reaction: int, seq: int = 2, claim: PairClaim | None = PAIR01) -> TimedCall:
    return TimedCall(at, caller, CallKind.SNAP, claim, seq, reaction)


def types(game: LiveGame) -> list[str]:
    return [event.type for _at, event in game.events]


def engine_inputs(game: LiveGame) -> list[object]:
    return [action for _at, action in game.engine_log]


# S32 ----------------------------------------------------------------------------------------


def test_S32_every_state_has_a_seq_and_a_server_time() -> None:
    game = matched([40, 40, 40, 40])
    assert game.shown_at == [0, 1000, 2000]
    assert game.view(3).seq == 2


def test_S32_inputs_that_cannot_be_placed_are_rejected_and_not_logged() -> None:
    game = matched([40, 40, 40, 40])
    logged = len(game.log)
    with pytest.raises(InvalidAction) as bad:
        game.feed(call(2100, 2, 50, seq=3))  # no state 3 yet
    assert bad.value.code is ActionCode.NO_SUCH_STATE
    with pytest.raises(IllegalAction) as exc:
        game.feed(TimedFlip(1500, 2))  # before the last input
    assert exc.value.code is ActionCode.TIME_BACKWARDS
    with pytest.raises(InvalidAction) as bad:
        game.feed(call(2100, 2, -5))
    assert bad.value.code is ActionCode.MALFORMED
    assert len(game.log) == logged


# S33 ----------------------------------------------------------------------------------------


def test_S33_fast_player_on_slow_link_beats_slow_player_on_fast_link() -> None:
    game = matched([40, 40, 200, 20])
    # Seat 3: fast link (rtt 20), slow hands (400): arrives 2000+10+400+10 = 2420, effective 2400.
    game.feed(call(2420, 3, 400))
    # Seat 2: slow link (rtt 200), fast hands (250): arrives 2000+100+250+100 = 2450, i.e. after
    # seat 3, but lag 200 <= min(300, 250) is compensated: effective 2250.
    game.feed(call(2450, 2, 250))
    assert game.effective_time(call(2420, 3, 400)) == 2400
    assert game.effective_time(call(2450, 2, 250)) == 2250
    game.feed(Advance(5000))
    captures = [e for _at, e in game.events if e.type == "capture"]
    assert [(c.seat, c.seats) for c in captures] == [(2, (0, 1))]  # type: ignore[attr-defined]
    late = [e for _at, e in game.events if e.type == "ignored_call"]
    assert [(e.caller, e.reason) for e in late] == [(3, "late")]  # type: ignore[attr-defined]
    assert "wrong_call" not in types(game)  # S15: a late call is never punished


def test_S33_compensation_is_bounded_by_the_cap_and_the_measured_round_trip() -> None:
    game = matched([500, 100, None, 40])
    # rtt 500: the bound is max_lag_compensation_ms = 300, not the 500 it implies.
    assert game.effective_time(call(2800, 0, 300)) == 2800 - 300
    # rtt 100: bound 150; implied lag 2600-2000-250 = 350 -> compensated 150.
    assert game.effective_time(call(2600, 1, 250)) == 2600 - 150
    # never measured: only lag_jitter_ms (50).
    assert game.effective_time(call(2600, 2, 250)) == 2600 - 50
    # a reaction longer than arrival - shown (an impossible claim) gets no compensation.
    assert game.effective_time(call(2300, 3, 400)) == 2300
    casual = matched([500, 40, 40, 40], timing=TimingRules(max_lag_compensation_ms=500))
    assert casual.effective_time(call(2800, 0, 300)) == 2800 - 500


@given(
    rtt=st.integers(0, 800),
    reaction=st.integers(100, 1500),
    reported=st.integers(0, 1500),
)
def test_S33_a_client_lying_about_its_reaction_gains_at_most_lag_jitter(
    rtt: int, reaction: int, reported: int
) -> None:
    game = matched([40, 40, rtt, 40])
    arrival = 2000 + rtt + reaction  # the link's true delay, as measured
    honest = game.effective_time(call(arrival, 2, reaction))
    liar = game.effective_time(call(arrival, 2, reported))
    assert honest - liar <= TimingRules().lag_jitter_ms


def test_S33_a_liar_loses_to_an_honest_player_faster_by_more_than_jitter_and_window() -> None:
    game = matched([40, 40, 100, 100])
    # Seat 2 really reacts in 300 ms but claims 0: arrival 2000+50+300+50 = 2400; implied lag 400
    # is capped at 100+50: effective 2250 (honest would be 2300: the lie gains exactly 50).
    game.feed(call(2310, 3, 210))  # honest, 90 ms faster: 2000+50+210+50 = 2310 -> 2210
    game.feed(call(2400, 2, 0))
    game.feed(Advance(5000))
    captures = [e for _at, e in game.events if e.type == "capture"]
    assert [c.seat for c in captures] == [3]  # type: ignore[attr-defined]
    assert "reaction_flagged" in types(game)  # S37: 0 ms is recorded for review


# S34 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("second", "tie"), [(320, True), (330, True), (331, False)])
def test_S34_calls_within_the_tie_window_tie(second: int, tie: bool) -> None:
    game = matched([40, 40, 40, 40])
    game.feed(call(2340, 2, 300))  # effective 2300
    game.feed(call(2340 + second - 300, 3, second))  # effective 2000 + second
    game.feed(Advance(5000))
    if tie:
        assert engine_inputs(game)[-1] == Tie(2, ((2, PairClaim(0, 1)), (3, PairClaim(0, 1))))
        assert "tie" in types(game)
        assert [len(p.cards) for p in game.state.pools] == [2]  # S13: both piles to a new pool
    else:
        assert "tie" not in types(game)
        assert [e.seat for _at, e in game.events if e.type == "capture"] == [2]  # type: ignore[attr-defined]


def test_S34_overlapping_claims_in_the_window_tie_disjoint_ones_are_each_honoured() -> None:
    piles = {0: ["7H"], 1: ["7S"], 2: ["9D"], 3: ["9C"]}
    game = table([40, 40, 40, 40], piles)
    for at, seat in [(1000, 0), (2000, 1), (3000, 2), (4000, 3)]:
        game.feed(TimedFlip(at, seat))
    game.feed(call(4340, 0, 300, seq=4, claim=PairClaim(0, 1)))
    game.feed(call(4350, 1, 310, seq=4, claim=PairClaim(2, 3)))  # disjoint: not a tie
    game.feed(Advance(6000))
    captures = [(e.seat, e.seats) for _at, e in game.events if e.type == "capture"]  # type: ignore[attr-defined]
    assert captures == [(0, (0, 1)), (1, (2, 3))]
    assert "tie" not in types(game)


def test_S34_flips_are_frozen_while_a_decision_is_pending_then_paused() -> None:
    game = matched([40, 40, 40, 40])
    game.feed(call(2340, 3, 300))  # effective 2300: decided at 2300 + 30 + max bound 90 = 2420
    game.feed(TimedFlip(2400, 2))  # seat 2 is on turn
    assert [e.reason for _at, e in game.events if e.type == "flip_refused"] == ["frozen"]  # type: ignore[attr-defined]
    game.feed(TimedFlip(2500, 2))  # decided at 2420: paused until 3020
    game.feed(TimedFlip(3019, 2))
    game.feed(TimedFlip(3020, 2))
    reasons = [e.reason for _at, e in game.events if e.type == "flip_refused"]  # type: ignore[attr-defined]
    assert reasons == ["frozen", "paused", "paused"]
    assert game.shown_at[-1] == 3020 and game.state.flips == 3


def test_S34_a_wrong_call_waits_in_order_but_does_not_freeze_flips() -> None:
    game = matched([40, 40, 40, 40])
    game.feed(TimedCall(2340, 3, CallKind.SNAP, PairClaim(1, 2), 2, 300))  # 7S vs nothing: wrong
    game.feed(TimedFlip(2350, 2))
    assert game.state.flips == 3
    game.feed(Advance(5000))
    assert "wrong_call" in types(game)


# S35 ----------------------------------------------------------------------------------------

S35_PILES = {0: ["7H", "KC"], 1: ["7S", "2D"], 2: ["9D"]}


def covered(reaction: int) -> LiveGame:
    """3 seats: 7H (seq 1, 1000), 7S (seq 2, 2000), 9D (seq 3, 2100), then seat 0's KC covers
    the 7H at 2300 (seq 4). Seat 2 (rtt 250, bound 300) called on seq 2 and the call arrives at
    2450, after the covering flip: effective 2450 - min(2450 - 2000 - reaction, 300)."""
    game = table([40, 40, 250], S35_PILES)
    for at, seat in [(1000, 0), (2000, 1), (2100, 2), (2300, 0)]:
        game.feed(TimedFlip(at, seat))
    game.feed(call(2450, 2, reaction))
    game.feed(Advance(6000))
    return game


def test_S35_a_covering_flip_that_arrives_after_an_earlier_call_loses() -> None:
    game = covered(200)  # effective 2200 < 2300: the call was first
    last = engine_inputs(game)[-1]
    assert isinstance(last, Call) and last.as_they_stand
    assert up(game.state, 0) == [] and up(game.state, 1) == []
    # Piles as they stand, covering card included; the pile with the older top (7S) first (S24).
    assert down(game.state, 2)[-3:] == ["7S", "7H", "KC"]


def test_S35_a_call_later_than_the_covering_flip_is_late_and_unpunished() -> None:
    game = covered(400)  # effective 2400 > 2300
    assert [e.reason for _at, e in game.events if e.type == "ignored_call"] == ["late"]  # type: ignore[attr-defined]
    assert up(game.state, 0) == ["KC", "7H"] and up(game.state, 2) == ["9D"]
    assert game.state.wrong_calls == (0, 0, 0)


def test_S35_the_engine_refuses_as_they_stand_when_the_piles_were_taken() -> None:
    game = matched([40, 40, 40, 40])
    game.feed(call(2340, 3, 300))
    game.feed(Advance(2500))
    state = game.state  # seat 3 took piles 0 and 1
    from games.engine.snap import apply

    _state, events = apply(state, Call(2, CallKind.SNAP, PairClaim(0, 1), 2, as_they_stand=True))
    assert [(e.type, e.reason) for e in events] == [("ignored_call", "late")]  # type: ignore[attr-defined]


# S15, S14, S37 ------------------------------------------------------------------------------


def test_S15_a_late_call_is_ignored_never_punished_and_locks_nothing() -> None:
    game = matched([40, 40, 40, 40])
    game.feed(call(2340, 2, 300))
    game.feed(call(4000, 3, 1000))  # on seq 2, long after seat 2 took the piles
    game.feed(Advance(6000))
    assert [(e.caller, e.reason) for _at, e in game.events if e.type == "ignored_call"] == [(3, "late")]  # type: ignore[attr-defined]
    assert game.state.wrong_calls == (0, 0, 0, 0)
    game.feed(call(6100, 3, 300, seq=game.state.seq, claim=None))
    assert not [e for _at, e in game.events if isinstance(e, CallRefused)]


def test_S14_a_wrong_call_locks_the_caller_out() -> None:
    game = matched([40, 40, 40, 40])
    game.feed(TimedCall(2340, 3, CallKind.SNAP, PairClaim(2, 3), 2, 300))  # nothing there: wrong
    game.feed(TimedCall(3339, 3, CallKind.SNAP, PairClaim(0, 1), 2, 300))
    game.feed(TimedCall(3340, 3, CallKind.SNAP, PairClaim(0, 1), 2, 300))
    refused = [(at, e.reason) for at, e in game.events if isinstance(e, CallRefused)]
    assert refused == [(3339, "locked_out")]
    assert game.state.wrong_calls[3] == 1


def test_S32_a_call_older_than_the_engines_call_window_is_refused_as_stale() -> None:
    game = table([40, 40, 40, 40])
    at = 0
    for _ in range(CALL_WINDOW + 1):
        at += 500
        turn = game.state.turn
        assert turn is not None
        game.feed(TimedFlip(at, turn))
    assert game.state.seq == CALL_WINDOW + 1
    game.feed(TimedCall(at + 100, 2, CallKind.SNAP, PAIR01, 0, 300))  # a screen stuck at the deal
    game.feed(TimedCall(at + 100, 3, CallKind.SNAP, PAIR01, 1, 300))  # CALL_WINDOW states old
    refused = [(e.caller, e.reason) for _at, e in game.events if isinstance(e, CallRefused)]
    assert refused == [(2, "stale")]
    assert [e.caller for _at, e in game.events if e.type == "call_queued"] == [3]  # type: ignore[attr-defined]
    game.feed(Advance(at + 2000))
    assert [a.caller for a in engine_inputs(game) if isinstance(a, Call)] == [3]  # type: ignore[attr-defined]
    assert game.state.wrong_calls == (0, 0, 0, 1)  # the stale call was never judged


def test_S37_a_spammer_is_locked_out() -> None:
    game = matched([40, 40, 40, 40])
    for at in range(2100, 5100, 50):  # 60 presses in 3 s, each claiming a pair that is not there
        game.feed(TimedCall(at, 3, CallKind.SNAP, PairClaim(2, 3), game.state.seq, 200))
    accepted = [at for at, e in game.events if e.type == "call_queued"]
    assert accepted == [2100, 3100, 4100]  # one per wrong_call_lockout_ms (S14)
    assert sum(isinstance(e, CallRefused) for _at, e in game.events) == 57
    assert game.state.wrong_calls[3] == 3


def test_S37_calls_are_rate_limited_and_one_may_be_pending() -> None:
    rules = replace(CLASSIC, wrong_call_lockout_ms=0)
    game = matched([40, 40, 40, 40], rules=rules)
    for at in range(2100, 4100, 20):
        game.feed(TimedCall(at, 3, CallKind.SNAP, PairClaim(2, 3), game.state.seq, 200))
    accepted = [at for at, e in game.events if e.type == "call_queued"]
    reasons = {e.reason for _at, e in game.events if isinstance(e, CallRefused)}  # type: ignore[attr-defined]
    assert reasons == {"pending_call", "rate_limited"}
    for at in accepted:  # at most max_calls_per_s in any second
        assert sum(at <= other < at + 1000 for other in accepted) <= 4
    assert len(accepted) == 8


def test_S37_a_reaction_under_100_ms_is_flagged_not_punished() -> None:
    game = matched([40, 40, 40, 40])
    game.feed(call(2120, 2, 80))
    game.feed(Advance(3000))
    flagged = [e for _at, e in game.events if isinstance(e, ReactionFlagged)]
    assert [(e.caller, e.reaction_ms) for e in flagged] == [(2, 80)]
    assert [e.seat for _at, e in game.events if e.type == "capture"] == [2]  # type: ignore[attr-defined]


# S36 ----------------------------------------------------------------------------------------


def test_S36_a_missing_flip_is_made_after_the_turn_timeout() -> None:
    game = table([40, 40, 40, 40])
    game.feed(Advance(2999))
    assert game.state.flips == 0
    game.feed(Advance(3000))
    assert game.state.flips == 1 and types(game)[-2:] == ["turn_timeout", "flip"]
    game.feed(TimedFlip(4000, 1))
    game.feed(Advance(7000))  # seat 2's turn began at 4000
    assert [at for at, e in game.events if e.type == "turn_timeout"] == [3000, 7000]


def test_S36_the_turn_timeout_counts_from_the_end_of_a_pause() -> None:
    game = matched([40, 40, 40, 40])
    game.feed(call(2340, 3, 300))  # decided at 2420, play resumes at 3020
    game.feed(Advance(10_000))
    assert next(at for at, e in game.events if e.type == "turn_timeout") == 3020 + 3000


def test_S36_reveal_jitter_delays_the_flip_by_the_recorded_amount() -> None:
    timing = TimingRules(reveal_jitter_ms=200)
    game = table([40, 40, 40, 40], timing=timing)
    game.feed(TimedFlip(1000, 0, reveal_delay_ms=120))
    assert game.state.flips == 0
    game.feed(TimedFlip(1050, 0))
    game.feed(Advance(1120))
    assert game.state.flips == 1 and game.shown_at[-1] == 1120
    assert [e.reason for _at, e in game.events if e.type == "flip_refused"] == ["flip_pending"]  # type: ignore[attr-defined]
    with pytest.raises(InvalidAction):
        game.feed(TimedFlip(2000, 1, reveal_delay_ms=201))
    assert {reveal_delay(u / 100, timing) for u in range(100)} <= set(range(201))
    assert reveal_delay(0.0, timing) == 0 and reveal_delay(0.9999, timing) == 200


def test_S20_max_game_seconds_sends_cap_reached() -> None:
    game = table([40, 40, 40, 40], rules=replace(CLASSIC, max_game_seconds=5))
    game.feed(Advance(5000))
    assert CapReached() in engine_inputs(game)
    assert "cap" in types(game)


def test_timed_play_refuses_recycle_shuffle_and_bad_numbers() -> None:
    with pytest.raises(InvalidRules):
        table([40, 40], {}, rules=replace(CLASSIC, empty_facedown=EmptyFacedown.RECYCLE_SHUFFLE))
    with pytest.raises(InvalidRules):
        table([40, 40], {}, timing=TimingRules(tie_window_ms=-1))


# S38 ----------------------------------------------------------------------------------------


def scripted() -> LiveGame:
    game = matched([40, 40, 200, 20])
    game.feed(call(2420, 3, 400))
    game.feed(call(2450, 2, 250))
    game.feed(TimedCall(2460, 1, CallKind.SNAP, None, 2, 300))
    game.feed(Advance(20_000))
    return game


def test_S38_replaying_the_timed_log_gives_the_identical_game() -> None:
    game = scripted()
    text = json.dumps([timed_input_to_dict(i) for i in game.log])
    log = [timed_input_from_dict(d) for d in json.loads(text)]
    again = replay_timed(game.rules, game.deal, game.dealer, log)
    assert [(at, e.to_dict()) for at, e in again.events] == [(at, e.to_dict()) for at, e in game.events]
    assert again.engine_log == game.engine_log
    assert again.state.cs == game.state.cs and again.state.seq == game.state.seq


def test_S38_the_engine_inputs_produced_replay_through_the_bare_engine() -> None:
    game = scripted()
    state, _events = replay(game.rules, game.deal, game.dealer, engine_inputs(game))  # type: ignore[arg-type]
    assert state.cs == game.state.cs and state.pools == game.state.pools and state.seq == game.state.seq


# Random timed inputs -----------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), jitter=st.sampled_from([0, 80]))
def test_S34_S38_random_timed_inputs_keep_the_invariants(seed: int, players: int, jitter: int) -> None:
    """Random presses from every seat (right, wrong, stale, bare), round trips and pauses:
    flips never happen while a valid call waits, time never runs backwards, and both the timed
    log and the engine inputs replay to the same game."""
    rng = random.Random(seed)
    timing = TimingRules(reveal_jitter_ms=jitter)
    deal = shuffled_deal(CLASSIC, players, rng)
    game = LiveGame(CLASSIC, deal, 0, timing)
    at = 0
    for _ in range(250):
        if game.state.result is not None:
            break
        at += rng.choice([0, 1, 5, 20, 60, 200, 700])
        seat = rng.randrange(players)
        roll = rng.random()
        if roll < 0.45:
            inp: TimedInput = TimedFlip(at, seat, rng.randint(0, jitter))
        elif roll < 0.85:
            seq = max(0, game.state.seq - rng.choice([0, 0, 0, 1, 2]))
            claims = correct_claims(game.state, seat, CallKind.SNAP) if rng.random() < 0.7 else []
            claim = (
                rng.choice(claims) if claims else rng.choice([None, PairClaim.of(seat, (seat + 1) % players)])
            )
            inp = TimedCall(at, seat, CallKind.SNAP, claim, seq, rng.randint(0, 900))
        elif roll < 0.92:
            inp = RoundTrip(at, seat, rng.randint(0, 600))
        else:
            inp = Advance(at)
        game.feed(inp)
    times = [t for t, _e in game.events]
    assert times == sorted(times)
    waiting: set[int] = set()
    for _t, event in game.events:
        if event.type == "call_queued" and event.valid:  # type: ignore[attr-defined]
            waiting.add(event.caller)  # type: ignore[attr-defined]
        elif event.type == "decided":
            waiting.difference_update(event.callers)  # type: ignore[attr-defined]
        elif event.type == "flip":
            assert not waiting, "a flip while a valid call was waiting (S34)"
    again = replay_timed(CLASSIC, deal, 0, game.log, timing=timing)
    assert [(t, e.to_dict()) for t, e in again.events] == [(t, e.to_dict()) for t, e in game.events]
    state, _ = replay(CLASSIC, deal, 0, engine_inputs(game))  # type: ignore[arg-type]
    assert state.cs == game.state.cs and state.result == game.state.result
