"""Results: a game's result as a value, parsed at the edge, and the one service that records it.

- ``values.py`` (pure): the frozen value per game kind, its stored JSON (format version 2) and
  ``from_engine``. The only module that knows the stored keys.
- ``payload.py``: what a referee or API client submits, read against the table into a value.
- ``services.py``: ``result_record``, a plain check that plans the write, then a short locked write.
- ``selectors.py``: what a result for a game is recorded against (players, rules, expected version).

This file imports nothing, so that ``tournaments.models`` can read values without an import cycle.
"""
