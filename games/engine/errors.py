"""Errors shared by every engine."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An input the rules do not allow in this state.

    ``code`` is a stable machine-readable string (``"not_your_turn"``, ``"not_legal"`` …) that the
    service layer maps to a translated message; ``detail`` is for logs and developers, never shown
    to players as is.
    """

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


class InvalidRules(ValueError):
    """A rules/options object that cannot be played (unknown or contradictory options)."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors
