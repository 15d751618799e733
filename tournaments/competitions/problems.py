"""The codes and the error the pure tournament modules report inputs they cannot work with by.

Pure: no Django. Each code declares the ``extra`` values every error of that code carries, so the
Django side can word a translated message from them (``tournaments/competitions/messages.py``); the
English ``message`` stays here for logs, the shell and tests.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.errors import Code


class TournamentErrorCode(Code):
    """Base of the pure modules' codes (``SeriesErrorCode``, ``StandingsErrorCode``,
    ``PairingErrorCode``): a :class:`~games.engine.errors.Code` like the engines' codes, so one
    vocabulary (and one test that every code has a message) covers both.

    A member is ``NAME = "code", ("extra", ...)``: the stable code and the names of the ``extra``
    values every error of that code carries (its ``param_names``). A code names one problem
    wherever it is used: two enums may share a code only for the same problem with the same extras
    (a test checks it), since the Django side words its message by the code.
    """


def checked_extra(code: Code, extra: Mapping[str, object] | None) -> dict[str, object]:
    """``extra`` as a dict, after checking it holds exactly what ``code`` declares.

    Raises TypeError (a bug in the pure module, not bad input) when it does not.
    """
    given = dict(extra or {})
    if set(given) != set(code.param_names):
        raise TypeError(f"{code.value!r} carries {sorted(code.param_names)}, was given {sorted(given)}")
    return given


class TournamentInputError(ValueError):
    """A stable ``code`` (the Django layer translates by it), a plain-English ``message`` a person can
    act on (logs, the shell), and ``extra`` values naming what was wrong: exactly the names
    ``code.param_names`` declares. Raises TypeError when ``extra`` does not match the code."""

    def __init__(
        self, code: TournamentErrorCode, message: str, extra: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.extra = checked_extra(code, extra)
