"""The client seed field of every form that seats a player (docs/online.md, "Fair dealing")."""

from __future__ import annotations

import secrets
from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("games/_seed_field.html")
def seed_field(prefix: str = "") -> dict[str, Any]:
    """The "Fairness" field. Its value is the server's fallback for a browser without JavaScript
    (static/js/seed.js replaces it with one the browser draws, and says so)."""
    return {"field_id": f"{prefix}client-seed", "fallback": secrets.token_hex(32)}
