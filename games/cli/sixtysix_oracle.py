"""Differential test of the 66 engine's `schnapsen-lite` profile against the `schnapsen` package.

Run it from the oracle venv (scripts/oracle-venv.sh builds it), which has the package but not our
dependencies; this file puts the repository root on sys.path so our pure engine imports:

    var/oracle-venv/bin/python games/cli/sixtysix_oracle.py --hands 10000

Each hand: the package shuffles its deck with ``random.Random(seed + i)``; the same order is mapped
onto our deal (the package deals alternately, leader first, and keeps the trump as the talon's
last card; our X5 deals 3, 3, trump, 2, 2, stock). Both engines then play the hand in lockstep:
at every decision the package's valid moves are compared with our legal actions (and hands, talon,
trump card and scores are compared too), one move is picked at random and played in both, and at
the end the winner and game points are compared. Exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from schnapsen.deck import Card as PCard
from schnapsen.deck import Rank as PRank
from schnapsen.deck import Suit as PSuit
from schnapsen.game import (
    Bot,
    Move,
    PlayerPerspective,
    SchnapsenGamePlayEngine,
)

from games.engine.cards import Suit
from games.engine.sixtysix import (
    PROFILES,
    Action,
    Card,
    Exchange,
    LeadMarriage,
    PlayCard,
    Rank,
    SixtySixState,
    apply,
    card,
    legal_actions,
    new_hand,
)

RULES = PROFILES["schnapsen-lite"]
_RANKS = {PRank.ACE: Rank.ACE, PRank.TEN: Rank.TEN, PRank.KING: Rank.KING, PRank.QUEEN: Rank.QUEEN}
_RANKS[PRank.JACK] = Rank.JACK
_SUITS = {PSuit.CLUBS: Suit.CLUBS, PSuit.DIAMONDS: Suit.DIAMONDS, PSuit.HEARTS: Suit.HEARTS}
_SUITS[PSuit.SPADES] = Suit.SPADES
# The package's first player (bot1) leads the first trick: our non-dealer. We make seat 1 the dealer.
DEALER = 1


def ours(c: PCard) -> Card:
    return card(_RANKS[c.rank], _SUITS[c.suit])


def map_deal(order: list[PCard]) -> list[Card]:
    """The package's shuffled order as our X5 deal (dealer seat 1).

    The package gives cards 0, 2, 4, 6, 8 to the leader, 1, 3, 5, 7, 9 to the other player, and
    cards 10-19 form the talon, top first, the last one being the face-up trump.
    """
    p = [ours(c) for c in order]
    leader, follower, talon = p[0:10:2], p[1:10:2], p[10:]
    return leader[0:3] + follower[0:3] + [talon[-1]] + leader[3:5] + follower[3:5] + talon[:-1]


def move_key(move: Move) -> tuple[str, str]:
    if move.is_trump_exchange():
        return ("exchange", "")
    if move.is_marriage():
        return ("marriage", ours(move.as_marriage().king_card).name)
    return ("play", ours(move.as_regular_move().card).name)


def action_key(action: Action) -> tuple[str, str]:
    if isinstance(action, Exchange):
        return ("exchange", "")
    if isinstance(action, LeadMarriage):
        return ("marriage", action.card.name)
    if isinstance(action, PlayCard):
        return ("play", action.card.name)
    return (type(action).__name__.lower(), "")


class Mismatch(Exception):
    pass


class Lockstep:
    """Holds our state and checks it against the package's view at every decision."""

    def __init__(self, state: SixtySixState, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.decisions = 0

    def decide(self, seat: int, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        s = self.state
        self.decisions += 1
        where = f"decision {self.decisions} (seat {seat}, trick {len(s.tricks) + 1}, phase {s.phase})"
        theirs = {move_key(m): m for m in perspective.valid_moves()}
        mine = {action_key(a): a for a in legal_actions(s, seat)}
        if set(theirs) != set(mine):
            raise Mismatch(f"{where}: legal moves differ: package {sorted(theirs)} vs engine {sorted(mine)}")
        if legal_actions(s, 1 - seat):
            raise Mismatch(f"{where}: the other seat also has legal actions in the engine")
        hand = sorted(ours(c).name for c in perspective.get_hand().get_cards())
        if hand != sorted(c.name for c in s.hands[seat]):
            raise Mismatch(
                f"{where}: hands differ: package {hand} vs engine {sorted(map(str, s.hands[seat]))}"
            )
        if perspective.get_talon_size() != s.talon_size:
            raise Mismatch(f"{where}: talon {perspective.get_talon_size()} vs {s.talon_size}")
        trump = perspective.get_trump_card()
        if (None if trump is None else ours(trump)) is not s.trump_card:
            raise Mismatch(f"{where}: trump card {trump} vs {s.trump_card}")
        for who, score in ((seat, perspective.get_my_score()), (1 - seat, perspective.get_opponent_score())):
            pending = s.pending_marriage[who]
            if s.lead_marriage and who == s.leader:
                # The package books a marriage only when its trick is scored; we book it when shown.
                pending -= s.marriages[-1].points
            if (score.direct_points, score.pending_points) != (s.points(who), pending):
                raise Mismatch(
                    f"{where}: seat {who} score {score} vs points {s.points(who)} pending {pending}"
                )
        key = self.rng.choice(sorted(mine))
        self.state, _ = apply(s, mine[key])
        return theirs[key]


class MirrorBot(Bot):
    def __init__(self, seat: int, lockstep: Lockstep) -> None:
        super().__init__(f"seat{seat}")
        self.seat = seat
        self.lockstep = lockstep

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        return self.lockstep.decide(self.seat, perspective, leader_move)


def play_one(engine: SchnapsenGamePlayEngine, seed: int) -> tuple[int, dict[str, Any]]:
    """Play hand ``seed`` in both engines; returns (decisions compared, our result as a dict)."""
    order = list(
        engine.deck_generator.shuffle_deck(engine.deck_generator.get_initial_deck(), random.Random(seed))
    )
    lockstep = Lockstep(new_hand(RULES, map_deal(order), DEALER), random.Random(seed ^ 0x5EED))
    bots = (MirrorBot(0, lockstep), MirrorBot(1, lockstep))
    winner_bot, game_points, _score = engine.play_game(bots[0], bots[1], random.Random(seed))
    result = lockstep.state.result
    if result is None:
        raise Mismatch(f"the package ended the hand ({winner_bot}, {game_points}) but the engine did not")
    winner = bots.index(winner_bot)  # type: ignore[arg-type]
    if (winner, game_points) != (result.winner, result.game_points):
        raise Mismatch(f"result: package seat {winner} +{game_points} vs engine {result.to_dict()}")
    return lockstep.decisions, result.to_dict()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0, help="hand i uses seed + i")
    parser.add_argument("--max-failures", type=int, default=5)
    args = parser.parse_args(argv)
    engine = SchnapsenGamePlayEngine()
    failures: list[str] = []
    decisions = 0
    reasons: dict[str, int] = {}
    for i in range(args.hands):
        seed = args.seed + i
        try:
            n, result = play_one(engine, seed)
        except Mismatch as exc:
            failures.append(f"hand seed {seed}: {exc}")
            if len(failures) >= args.max_failures:
                break
            continue
        decisions += n
        reasons[result["reason"]] = reasons.get(result["reason"], 0) + 1
        if (i + 1) % 1000 == 0:
            print(f"... {i + 1} hands", file=sys.stderr, flush=True)
    for line in failures:
        print("MISMATCH", line)
    played = sum(reasons.values())
    print(
        f"oracle: {played + len(failures)} hands, {decisions} decisions compared, "
        f"{len(failures)} mismatches; "
        f"results {dict(sorted(reasons.items()))}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
