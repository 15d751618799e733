"""A series: the games one set of seats plays to produce one result (rules/snap.md S39-S43).

Pure: no Django, no clock, no randomness except the coin flip, which is a hash of the series seed
(S42: its hash is published when the series starts, the seed when it ends).

Vocabulary
- A **series** is played by 2-6 seats (Snap) or 2 seats (Snapszer). Seats are positions
  ``0 .. seat_count - 1`` in the series' seat order; the caller maps them to players.
- A **game** is one Snap game or, for Snapszer, one match (rules/snapszer.md "Tournament series":
  a Snapszer series is counted in matches, and a match always has a winner).
- A game's outcome lists a placing per seat in competition ranking (1 = winner; tied seats share a
  place and the next place is skipped: ``1, 1, 3``). A game with more than one seat at place 1 is a
  **draw** (S19/S20 adjudication): it counts as a game without a winner (S40).

The status of a series is a fold of its games: :func:`series_status` replays them from
:func:`series_start` with :func:`series_advance`; :func:`check_outcome` and
:func:`check_game_allowed` say, in plain English with a stable code, why a game may not be recorded.

Rule decisions (where the rules leave room; also in docs/tournaments.md)
- S40 is read literally: a best-of-N series stops at more than N/2 wins or after N games, even if
  a leader could no longer be caught earlier (the remaining games still count for S43 placings).
- S41: after 2K+1 games a single leader wins on wins; only level leaders play sudden death.
- S42: a sudden-death game whose first place is shared is a draw; it is replayed among the seats
  that shared first place only (the others lost that game and are placed below them by it). After
  two drawn replays, fewer wrong calls over the whole series decides (every remaining contender
  played every game, so the totals compare like with like; games without recorded wrong calls add
  nothing). If they are level too, a coin flip picks the winner among those level; it does not
  order the others, who fall to the next key of S43.
- S43 "sum of game placings" sums the normal series games only (every seat played all of them);
  sudden-death games rank the tied leaders through "the sudden-death result".
- Seats with equal wins, equal sudden-death result and equal sums share a series placing.
- A Snapszer series that ends level (only possible with an even best-of or the first-to cap)
  is settled by one sudden-death match, which always has a winner.

Modules (import from the owning one):
- ``values.py``: a series' length, a game's outcome, the status, the problems and their codes.
- ``checks.py``: why a game may not be recorded now (``check_game_allowed``, ``check_outcome``).
- ``fold.py``: the fold (``series_start``, ``series_advance``, ``series_status``), the seed's
  commitment and the coin flip.
"""
