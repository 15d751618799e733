"""Comparing views."""

from __future__ import annotations

from dataclasses import replace

from games.engine.sixtysix import PlayerView


def same_view(a: PlayerView, b: PlayerView) -> bool:
    """Equal views, the legal actions compared as a set (their order follows the order of the
    cards in hand, which a seat does not choose and no bot relies on: bots/base.py sorts them)."""

    def canonical(v: PlayerView) -> PlayerView:
        key = tuple(sorted(tuple(sorted(d.items())) for d in v.legal_actions))
        return replace(v, legal_actions=tuple(dict(k) for k in key))

    return canonical(a) == canonical(b)
