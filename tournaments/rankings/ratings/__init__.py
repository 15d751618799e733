"""Ratings: Glicko-2 for Snapszer, OpenSkill (Plackett–Luce) for Snap, per club (docs/ratings.md).

- ``glicko2.py`` (pure): one Glicko-2 rating period, Glickman's steps 1–8.
- ``history.py`` (pure): a club's whole history -> current ratings and every rating point; the
  order of play and the rating periods; ordering players by rating (seeding).
- ``plot.py`` (pure): a player's rating history as an SVG.
- ``services.py``: the recomputation stamped with the stage versions it read, stored only if they
  are still current; the stale-club check of the reconciler.
- ``selectors.py``: the club ratings table, a player's history, the values seeding sorts by.
"""
