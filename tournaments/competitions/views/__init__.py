"""The pages of tournaments, stages, series and results, one module each (``tournaments.py``,
``stages.py``, ``series.py``, ``results.py``, ``screen.py``): parse the request -> one selector or
service -> render (``tournaments/pages.py``)."""
