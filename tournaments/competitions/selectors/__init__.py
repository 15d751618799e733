"""The competitions' reads, one module per page or purpose (import from the owning module):

- ``tournaments.py``: who may see which tournament, stage, round, series, game, result; the by-id
  fetches services write through; roles; the club and tournament pages; the organisers' form
  fetches; the audit log page.
- ``series.py``: the series page (games, versions, status) and its record, manage and correction forms.
- ``standings.py``: stored standings, the standings page and groups' own tables, the stage version.
- ``stages.py``: the stage page, its rounds, the bracket, scores, the champion, withdrawals.
- ``players.py``: a player's page: their tournaments and series history.
"""
