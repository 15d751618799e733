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
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.db import IntegrityError, transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from snapleague.errors import ApplicationError
from snapleague.names import name_clean, name_problem
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


def _verdicts(club: Club, named: list[tuple[int, str]], *, item: bool = False) -> list[ImportRow]:
    """Each ``(line, name)``'s verdict against ``club`` and the names before it: new, already a
    player of the club (the same name, case aside), or an error and why. The CSV import's rows and
    the API's list of players (``item``: numbered from 0, "item n" in the messages) both go here."""
    known = {name.casefold() for name in Player.objects.filter(club=club).values_list("name", flat=True)}
    seen: dict[str, int] = {}
    rows = []
    for line, raw in named:
        name = name_clean(raw)
        key = name.casefold()
        if not name:
            message = _("No name in this item.") if item else _("No name in this row's name column.")
            rows.append(ImportRow(line, name, RowStatus.ERROR, str(message)))
        elif len(name) > NAME_MAX:
            rows.append(
                ImportRow(
                    line,
                    name[:40] + "…",
                    RowStatus.ERROR,
                    str(_("Longer than %(n)s characters.") % {"n": NAME_MAX}),
                )
            )
        elif problem := name_problem(name):
            rows.append(ImportRow(line, name, RowStatus.ERROR, problem))
        elif key in seen:
            same = _("The same name as item %(n)s.") if item else _("The same name as line %(n)s.")
            rows.append(ImportRow(line, name, RowStatus.ERROR, str(same % {"n": seen[key]})))
        elif key in known:
            rows.append(
                ImportRow(
                    line, name, RowStatus.EXISTS, str(_("Already a player of the club: left as it is."))
                )
            )
        else:
            rows.append(ImportRow(line, name, RowStatus.NEW))
        seen.setdefault(key, line)
    return rows


def players_import_plan(*, user: AnyUser, club: Club, text: str) -> ImportPlan:
    """What importing ``text`` would do, row by row. Raises PermissionDenied (not an organiser),
    ApplicationError ``invalid_import`` (empty, too many rows)."""
    require_organiser(user, club)
    numbered = [(n, row) for n, row in enumerate(_cells(text), start=1) if any(cell.strip() for cell in row)]
    if not numbered:
        raise _refuse(str(_("The file has no names: put one player's name on each line.")))
    column = 0
    lowered = [name_clean(cell).casefold() for cell in numbered[0][1]]
    if any(cell in NAME_HEADERS for cell in lowered):
        column = next(i for i, cell in enumerate(lowered) if cell in NAME_HEADERS)
        numbered = numbered[1:]
    if len(numbered) > MAX_ROWS:
        raise _refuse(str(_("The file has more than %(n)s players: import it in parts.") % {"n": MAX_ROWS}))
    return ImportPlan(
        _verdicts(club, [(line, cells[column] if column < len(cells) else "") for line, cells in numbered])
    )


def text_pasted(text: str) -> str:
    """Pasted (or API) text, refused as a file is when it is over :data:`MAX_BYTES` in UTF-8."""
    if len(text.encode()) > MAX_BYTES:
        return text_of(text.encode())  # refuses it, with the message
    return text


def players_import(*, user: AnyUser, club: Club, text: str) -> list[Player]:
    """Create the players the plan of ``text`` marks new, all or none. Rows with errors and
    players the club has already are left out. Raises ApplicationError ``conflict`` (409) when
    someone added one of them meanwhile: nothing is created, the preview says what changed."""
    return players_import_done(user=user, club=club, text=text)[1]


def players_import_done(*, user: AnyUser, club: Club, text: str) -> tuple[ImportPlan, list[Player]]:
    """:func:`players_import`, with the plan it followed (each row's verdict)."""
    plan = players_import_plan(user=user, club=club, text=text)
    created = _create(
        club,
        [row.name for row in plan.new],
        _("Someone added some of these players meanwhile: nothing was imported. Look at the preview again."),
    )
    return plan, created


def _create(club: Club, names: list[str], conflict: str | Promise) -> list[Player]:
    """Create ``names`` in ``club`` in one transaction, all or none (a 409 ``conflict`` saying
    ``conflict`` when someone added one of them meanwhile)."""
    try:
        with transaction.atomic():
            return Player.objects.bulk_create(Player(club=club, name=name) for name in names)
    except IntegrityError:
        raise ApplicationError(code="conflict", status=409, message=conflict) from None


def players_create_many(*, user: AnyUser, club: Club, names: Sequence[str]) -> list[Player]:
    """Create the players ``names`` (the API's list) in ``club``, all or none, in the order given.
    Each name is checked as a CSV row is (the same rules and messages); here a name the club has
    already is an error too, since nothing may be left out. Raises PermissionDenied (not an
    organiser), ApplicationError ``invalid_players`` (400: ``fields`` by item, ``players.<i>.name``,
    and ``extra.items`` the indexes at fault; nothing is created), ``too_many_players`` (400) or
    ``conflict`` (409: someone added one of them meanwhile)."""
    require_organiser(user, club)
    if len(names) > MAX_ROWS:
        message = _("More than %(n)s players at once: send them in parts.") % {"n": MAX_ROWS}
        raise ApplicationError(code="too_many_players", message=message, fields={"players": [message]})
    rows = _verdicts(club, list(enumerate(names)), item=True)
    wrong = [row for row in rows if row.status != RowStatus.NEW]
    if wrong:
        raise ApplicationError(
            code="invalid_players",
            message=ngettext(
                "%(n)s player cannot be created as given: nothing was created.",
                "%(n)s players cannot be created as given: nothing was created.",
                len(wrong),
            )
            % {"n": len(wrong)},
            fields={f"players.{row.line}.name": [row.message] for row in wrong},
            extra={"items": [row.line for row in wrong]},
        )
    return _create(
        club,
        [row.name for row in rows],
        _("Someone added some of these players meanwhile: nothing was created. Send the list again."),
    )
