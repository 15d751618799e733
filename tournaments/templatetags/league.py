"""Small presentation helpers for the league pages (labels, values, one-line results)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from tournaments.competitions.messages import DECIDED_BY
from tournaments.competitions.results.values import ResultValue, SnapEnding, SnapszerMatchResult, VoidResult

register = template.Library()

TIEBREAKS = {
    "series_won": (_("Series"), _("Series won (a bye counts as the stage says)")),
    "series_placing": (_("Place"), _("Placing in the table's series (S43)")),
    "games_won": (_("Games"), _("Games won, sudden-death games included")),
    "head_to_head": (_("H2H"), _("Head to head among the players tied at that point")),
    "placing_sum": (_("Σ place"), _("Sum of game placings (lower is better)")),
    "game_point_difference": (_("+/−"), _("Game points won minus game points lost")),
    "buchholz": (_("Buch."), _("Buchholz: sum of the opponents' scores")),
    "sonneborn_berger": (_("SB"), _("Sonneborn-Berger")),
    "coin_flip": (_("Coin"), _("The recorded coin flip from the stage seed (lowest first)")),
    "median_buchholz": (_("Med."), _("Median Buchholz: Buchholz without the best and the worst opponent")),
    "placement_points": (_("Pts"), _("Placement points: at a table of n, 1st n − 1 … last 0")),
    "firsts": (_("1st"), _("Series finished first")),
    "average_placing": (_("Avg."), _("Average placing (lower is better)")),
    "table_mates_points": (
        _("Mates"),
        _("Table-mates' points: the placement points of everyone you sat with"),
    ),
    "depth": (_("Rd."), _("Depth: the last round reached")),
    "finish": (
        _("Finish"),
        _("Place by the bracket: champion, runner-up, third-place series, then the round of elimination"),
    ),
}
# Why a row is below the one above it (StandingRow.separated_by names the tiebreak).
WHY_BELOW = {
    "series_won": _("fewer series won"),
    "series_placing": _("lower series placing"),
    "games_won": _("fewer games won"),
    "head_to_head": _("lost head to head"),
    "placing_sum": _("higher placing sum"),
    "game_point_difference": _("worse game points"),
    "buchholz": _("lower Buchholz"),
    "sonneborn_berger": _("lower Sonneborn-Berger"),
    "coin_flip": _("coin flip"),
    "median_buchholz": _("lower median Buchholz"),
    "placement_points": _("fewer placement points"),
    "firsts": _("fewer firsts"),
    "average_placing": _("worse average placing"),
    "table_mates_points": _("weaker table-mates"),
    "depth": _("went out earlier"),
    "finish": _("went out earlier in the bracket"),
}


@register.filter
def get(mapping: Mapping[Any, Any] | Sequence[Any] | None, key: Any) -> Any:
    """``mapping[key]`` (also by ``str(key)``, as JSON keys are strings), or a sequence's item."""
    if not mapping:
        return None
    if not isinstance(mapping, Mapping):
        try:
            return mapping[int(key)]
        except (IndexError, TypeError, ValueError):
            return None
    if key in mapping:
        return mapping[key]
    return mapping.get(str(key))


@register.filter
def tiebreak_short(name: str) -> str:
    return str(TIEBREAKS.get(name, (name, name))[0])


@register.filter
def tiebreak_long(name: str) -> str:
    return str(TIEBREAKS.get(name, (name, name))[1])


@register.filter
def tiebreak_why(name: str) -> str:
    return str(WHY_BELOW.get(name, name))


@register.filter
def standing_why(row: Any) -> str:
    """Why a standings row is below the one above: its ``separated_by`` tiebreak, and for a
    bracket's finish how the player went out (runner-up, third-place series, eliminated in round
    n; ``StandingRow.values`` keeps ``finish_how`` and ``finish_round``)."""
    name = str(getattr(row, "separated_by", "") or "")
    values = getattr(row, "values", None) or {}
    if name != "finish":
        return tiebreak_why(name)
    how, round_number = values.get("finish_how"), values.get("finish_round")
    if how is None:
        return str(_("out before the bracket"))
    if how == "third_place":
        if values.get("finish") == 3:
            return str(_("third place: lost a semi-final"))
        return str(_("lost the third-place series"))
    if how == "out" and values.get("finish") == 2:
        return str(_("runner-up"))
    if how == "out":
        return str(_("eliminated in round %(round)s") % {"round": round_number})
    return str(_("still in, fewer rounds played"))


@register.filter
def decided_by_label(value: Any) -> str:
    return str(DECIDED_BY.get(str(value), value or ""))


@register.filter
def tiebreak_value(value: Any, name: str = "") -> str:
    if value is None:
        return "—"
    if name == "coin_flip" and isinstance(value, str):
        return value[:6]
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if name == "game_point_difference" and isinstance(value, int) and value > 0:
        return f"+{value}"
    return str(value)


@register.filter
def ordinal_place(value: Any) -> str:
    """A placing as an ordinal ("1st", "22nd"), marked for translation: each ending is its own
    message with a context saying which numbers take it, so a language writes "1.", "1er" or "1º"."""
    if value in (None, ""):
        return ""
    n = int(value)
    if 11 <= n % 100 <= 13:
        pattern = pgettext("ordinal 11, 12, 13", "{}th")
    else:
        pattern = {
            1: pgettext("ordinal 1", "{}st"),
            2: pgettext("ordinal 2", "{}nd"),
            3: pgettext("ordinal 3", "{}rd"),
        }.get(n % 10) or pgettext("ordinal 0, 4-9", "{}th")
    return pattern.format(n)


def _name(names: Mapping[int, str], pid: Any) -> str:
    try:
        return names.get(int(pid), f"#{pid}")
    except (TypeError, ValueError):
        return str(pid)


@register.filter
def result_summary(value: ResultValue | None, names: Mapping[int, str]) -> str:
    """One line a referee recognises: "Anna won · out: Bence, Csilla+Dani" or "Anna 7–4 Bence";
    wrong calls (S42) when anyone made one: "· wrong calls: Bence 2"."""
    if value is None or isinstance(value, VoidResult):
        return ""
    if isinstance(value, SnapszerMatchResult):
        winner, loser = value.winner, value.loser
        score = value.score
        line = f"{_name(names, winner)} {score[winner]}–{score[loser]} {_name(names, loser)}"
        if value.hands is not None:
            line += " · " + str(_("%(n)s hands") % {"n": len(value.hands)})
        return line
    out = ", ".join("+".join(_name(names, p) for p in group) for group in value.eliminated)
    wrong = ", ".join(f"{_name(names, p)} {n}" for p, n in value.wrong_calls.items() if n)
    tail = (f" · {_('out')}: {out}" if out else "") + (f" · {_('wrong calls')}: {wrong}" if wrong else "")
    if value.ending is SnapEnding.DRAW:
        return str(_("Draw")) + tail
    head = (
        str(_("%(name)s won") % {"name": _name(names, value.winner)})
        if value.winner is not None
        else str(_("Shared first place"))
    )
    if value.ending is SnapEnding.ADJUDICATED:
        counts = ", ".join(f"{_name(names, p)} {c}" for p, c in value.card_counts.items())
        head += f" · {_('adjudicated')}: {counts}"
    return head + tail


@register.filter
def season_separated_by(name: str) -> str:
    """What put a season table row below the one above, in words (tournaments/rankings/seasons/table.py:
    ``points``, ``places_<n>``, ``head_to_head``)."""
    from tournaments.rankings.seasons.table import HEAD_TO_HEAD, PLACES_PREFIX, POINTS

    if name == POINTS:
        return str(_("on points"))
    if name == HEAD_TO_HEAD:
        return str(_("on head-to-head"))
    if name.startswith(PLACES_PREFIX):
        return str(_("fewer finishes in place %(place)s") % {"place": name.removeprefix(PLACES_PREFIX)})
    return name
