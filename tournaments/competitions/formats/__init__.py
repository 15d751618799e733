"""Stage formats (pure: plain values in, plain values out): the format interface and registry
(``base.py``, ``registry.py``; ``options.py``, ``state.py``, ``round_by_round.py`` and ``stored.py``
what formats share), round robin, Swiss, Swiss tables, single and double elimination,
groups -> playoff and heats. docs/formats.md describes them."""
