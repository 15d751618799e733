"""Pure game engines: rules only.

Nothing in this package imports Django, reads the clock or uses global randomness: a game is
``rules + deal + ordered inputs`` and its state is a fold of those inputs (see docs/architecture.md).
"""
