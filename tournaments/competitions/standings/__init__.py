"""Standings by an ordered, configurable tiebreak chain (rules/tournaments.md "Standings and
tiebreaks"). Pure: plain values in, plain values out. Import from the owning module:

- ``chain.py``: the tiebreaks, the records and rows, and the ordering both kinds of standings
  share (the chain's decisions are in its docstring).
- ``stage.py``: a stage's standings, any format (``round_robin_standings``, ``stage_standings``).
- ``tables.py``: one Snap table's standings (``table_standings``).
"""
