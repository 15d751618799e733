"""Import a club's players from CSV (issue 15): a preview with a verdict per row, then the import
of the rows that are fine, in one transaction. docs/web.md, "Importing players".

The file is what a club secretary exports from a spreadsheet: one player per line, the name in the
first column (or in the column headed "name" in any of the five languages), comma, semicolon or tab
separated, UTF-8 (with or without a byte-order mark) or, failing that, Windows-1252. Nothing is
trusted from the preview: the import plans the same text again.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError
from snapleague.users import AnyUser
from tournaments.access import require_organiser
from tournaments.models import Club, Player

MAX_BYTES = 256 * 1024
MAX_ROWS = 2000
NAME_MAX = Player._meta.get_field("name").max_length or 120
# A first row whose first cell is one of these is a header, not a player.
NAME_HEADERS = {
    "name",
    "player",
    "nome",
    "giocatore",
    "nombre",
    "jugador",
    "jogador",
    "név",
    "nev",
    "játékos",
}


class RowStatus(StrEnum):
    NEW = "new"
    EXISTS = "exists"  # already a player of the club: left as it is
    ERROR = "error"


@dataclass(frozen=True)
class ImportRow:
    line: int
    name: str
    status: RowStatus
    message: str = ""


@dataclass(frozen=True)
class ImportPlan:
    rows: list[ImportRow]

    @property
    def new(self) -> list[ImportRow]:
        return [r for r in self.rows if r.status == RowStatus.NEW]

    @property
    def errors(self) -> list[ImportRow]:
        return [r for r in self.rows if r.status == RowStatus.ERROR]

    @property
    def existing(self) -> list[ImportRow]:
        return [r for r in self.rows if r.status == RowStatus.EXISTS]


def _refuse(message: str) -> ApplicationError:
    return ApplicationError(code="invalid_import", message=message, fields={"file": [message]})


def text_of(data: bytes) -> str:
    """The uploaded bytes as text: UTF-8 (a byte-order mark dropped), else Windows-1252."""
    if len(data) > MAX_BYTES:
        raise _refuse(str(_("The file is larger than 256 KB: split it, or keep only the names.")))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _cells(text: str) -> list[list[str]]:
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    return list(csv.reader(io.StringIO(text), dialect))


def _clean(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split())


def players_import_plan(*, user: AnyUser, club: Club, text: str) -> ImportPlan:
    """What importing ``text`` would do, row by row. Raises PermissionDenied (not an organiser),
    ApplicationError ``invalid_import`` (empty, too many rows)."""
    require_organiser(user, club)
    numbered = [(n, row) for n, row in enumerate(_cells(text), start=1) if any(cell.strip() for cell in row)]
    if not numbered:
        raise _refuse(str(_("The file has no names: put one player's name on each line.")))
    column = 0
    lowered = [_clean(cell).casefold() for cell in numbered[0][1]]
    if any(cell in NAME_HEADERS for cell in lowered):
        column = next(i for i, cell in enumerate(lowered) if cell in NAME_HEADERS)
        numbered = numbered[1:]
    if len(numbered) > MAX_ROWS:
        raise _refuse(str(_("The file has more than %(n)s players: import it in parts.") % {"n": MAX_ROWS}))
    known = {name.casefold() for name in Player.objects.filter(club=club).values_list("name", flat=True)}
    seen: dict[str, int] = {}
    rows = []
    for line, cells in numbered:
        name = _clean(cells[column]) if column < len(cells) else ""
        key = name.casefold()
        if not name:
            rows.append(ImportRow(line, name, RowStatus.ERROR, str(_("No name in this row's name column."))))
        elif len(name) > NAME_MAX:
            rows.append(
                ImportRow(
                    line,
                    name[:40] + "…",
                    RowStatus.ERROR,
                    str(_("Longer than %(n)s characters.") % {"n": NAME_MAX}),
                )
            )
        elif any(unicodedata.category(ch).startswith("C") for ch in name):
            rows.append(ImportRow(line, name, RowStatus.ERROR, str(_("Contains control characters."))))
        elif key in seen:
            rows.append(
                ImportRow(
                    line, name, RowStatus.ERROR, str(_("The same name as line %(n)s.") % {"n": seen[key]})
                )
            )
        elif key in known:
            rows.append(
                ImportRow(
                    line, name, RowStatus.EXISTS, str(_("Already a player of the club: left as it is."))
                )
            )
        else:
            rows.append(ImportRow(line, name, RowStatus.NEW))
        seen.setdefault(key, line)
    return ImportPlan(rows)


def players_import(*, user: AnyUser, club: Club, text: str) -> list[Player]:
    """Create the players the plan of ``text`` marks new, all or none. Rows with errors and
    players the club has already are left out. Raises ApplicationError ``conflict`` (409) when
    someone added one of them meanwhile: nothing is created, the preview says what changed."""
    plan = players_import_plan(user=user, club=club, text=text)
    try:
        with transaction.atomic():
            return Player.objects.bulk_create(Player(club=club, name=row.name) for row in plan.new)
    except IntegrityError:
        raise ApplicationError(
            code="conflict",
            status=409,
            message=_(
                "Someone added some of these players meanwhile: nothing was imported. Look at the preview again."
            ),
        ) from None
