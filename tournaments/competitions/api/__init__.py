"""The competitions' REST API, a module per kind of object: tournaments, stages, rounds, series,
results (and games), standings, brackets. ``tournaments/competitions/api_urls.py`` routes them."""
