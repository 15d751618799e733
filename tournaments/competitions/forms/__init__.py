"""The pages' forms of tournaments, stages, series and results: each parses what a browser sends
into the arguments of one service, nothing more (``tournaments.py``, ``stages.py``, ``results.py``)."""
