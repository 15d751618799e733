"""Table sheets (issue 15): one printable card per table of a round — the players in seat order,
who deals first, the series' length with a line per game for the referee's pencil, and a QR code
that opens the result form of that series on a referee's phone. docs/web.md, "Table sheets".
"""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.utils.safestring import SafeString, mark_safe

from tournaments.competitions.series import values as series_values
from tournaments.models import Series

PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class TableSheet:
    series: Series
    record_url: str
    qr_svg: SafeString
    games: range  # the numbered lines for the games, 1 …


def qr_svg(url: str, *, title: str) -> SafeString:
    """The QR code of ``url`` as inline SVG (error correction M: a sheet survives a coffee ring).
    ``url`` is ours (an absolute URL Django built) and ``title`` a table number: nothing to escape."""
    code = segno.make(url, error="m", micro=False)
    return mark_safe(code.svg_inline(scale=3, title=title, svgclass="qr", lineclass="qr-line"))


def game_lines(series: Series) -> int:
    """How many games the series can need (best of N: N; first to K between n players: n(K−1)+1),
    for the lines the referee fills in; a sudden death gets one more."""
    length = series_values.series_length(series.format)
    seats = max(2, series.seat_count or 2)
    if length.kind == series_values.SeriesKind.BEST_OF:
        return length.number
    return seats * (length.number - 1) + 1


def table_sheets(series_list: list[Series], record_url: dict[int, str]) -> list[TableSheet]:
    return [
        TableSheet(
            series=one,
            record_url=record_url[one.pk],
            qr_svg=qr_svg(record_url[one.pk], title=str(one.table)),
            games=range(1, game_lines(one) + 1),
        )
        for one in series_list
        if not one.walkover and one.table is not None
    ]
