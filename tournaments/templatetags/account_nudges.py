"""``{% mfa_nudge %}``: on organiser pages, urge an organiser without a second factor to set one up."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.accounts.selectors import mfa_urged

register = template.Library()


@register.inclusion_tag("tournaments/_mfa_nudge.html", takes_context=True)
def mfa_nudge(context: Any) -> dict[str, Any]:
    request = context.get("request")
    return {"mfa_urged": request is not None and mfa_urged(request.user)}
