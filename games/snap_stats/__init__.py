"""Snap statistics (issue 17): reaction times, chances, missed and false calls from the timed log
of finished online Snap games. ``measure.py`` is pure (no Django); ``selectors.py`` reads the
games; ``chart.py`` draws the server-side SVG. docs/snap-stats.md."""
