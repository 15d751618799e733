"""Live pages by push: a page's fragment is told over a websocket when its version changes.

``topics.py`` names what a page follows (``stage:<id>``, ``series:<id>``); ``selectors.py`` reads
versions (one visibility-checked topic for a subscriber, many at once for the watcher);
``watcher.py`` is each web process's version watcher; ``consumers.py`` the websocket entry point and
``routing.py`` its URL. The design and its measured cost: docs/architecture.md, "Live updates".
"""
