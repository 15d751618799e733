"""Stage formats (pure: plain values in, plain values out): the format interface and registry
(``base.py``, ``registry.py``), round robin, Swiss, Swiss tables, single and double elimination,
groups -> playoff and heats. docs/formats.md describes them."""
