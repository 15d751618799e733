"""A club's JSON export and import (manage.py club_export / club_import): a round trip gives back the
same club, results and standings; an import that would clash with this install's rows is refused
before anything is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournaments.models import (
    AuditEntry,
    Club,
    GameResult,
    Player,
    Season,
    Series,
    Session,
    Stage,
    StandingRow,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(django_capture_on_commit_callbacks: Any) -> Club:
    """The demo club, its standings computed (tasks run eagerly on commit)."""
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_data")
    return Club.objects.get(slug="demo")


def _picture(club: Club) -> dict[str, Any]:
    """Everything a person sees of the club, by names rather than ids."""
    stages = Stage.objects.filter(tournament__club=club).order_by("tournament__name", "order")
    return {
        "players": sorted(Player.objects.filter(club=club).values_list("name", "user__username")),
        "organisers": sorted(club.organisers.values_list("username", flat=True)),
        "standings": {
            f"{stage.tournament.name} / {stage.name}": (
                stage.results_version,
                stage.standings_version,
                [
                    (row.position, row.player.name, row.values)
                    for row in StandingRow.objects.filter(stage=stage).order_by("group", "position")
                ],
            )
            for stage in stages
        },
        "series": sorted(
            (s.stage.name, s.key, s.status, json.dumps(s.placings, sort_keys=True))
            for s in Series.objects.filter(stage__tournament__club=club)
        ),
        "results": GameResult.objects.filter(game__series__stage__tournament__club=club).count(),
        "audit": sorted(
            (
                e.action,
                e.user.username if e.user else "",
                e.series_id or 0,
                json.dumps(e.detail, sort_keys=True),
            )
            for e in AuditEntry.objects.filter(tournament__club=club)
        ),
        # The club nights: sessions with their rounds, tables at the series, check-ins; the seasons.
        "sessions": sorted(
            (
                s.name,
                s.starts_at.isoformat(),
                s.check_in,
                sorted(str(st) for st in s.stations.all()),
                sorted(c.player.name for c in s.check_ins.all()),
                sorted(str(r) for r in s.rounds.all()),
            )
            for s in Session.objects.filter(tournament__club=club)
        ),
        "stations": sorted(
            (s.key, str(s.station))
            for s in Series.objects.filter(stage__tournament__club=club, station__isnull=False)
        ),
        "seasons": sorted(
            (s.name, str(s.starts_on), str(s.ends_on)) for s in Season.objects.filter(club=club)
        ),
    }


def _wipe(club: Club) -> None:
    for tournament in club.tournaments.all():
        tournament.delete()
    club.players.all().delete()
    club.delete()


def test_export_wipe_import_gives_the_same_club_and_standings(demo: Club, tmp_path: Path) -> None:
    before = _picture(demo)
    assert before["results"] > 10 and any(rows for *_v, rows in before["standings"].values())
    assert len(before["audit"]) >= before["results"]  # every result write is in the audit log
    assert before["sessions"] and before["stations"] and before["seasons"]
    file = tmp_path / "demo.json"
    call_command("club_export", "demo", output=str(file))
    _wipe(demo)
    get_user_model().objects.all().delete()  # a fresh install: not even the accounts

    call_command("club_import", str(file))

    club = Club.objects.get(slug="demo")
    assert _picture(club) == before
    referee = get_user_model().objects.get(username="referee")
    assert referee.check_password("referee-demo")  # the accounts can log in again
    assert not referee.is_staff and not referee.is_superuser
    # the next row gets a fresh id (on PostgreSQL the sequences were moved past the imported ids)
    assert Player.objects.create(club=club, name="Zsófi").pk > max(
        p["pk"] for p in _rows(file, "tournaments.player")
    )


def _rows(file: Path, model: str) -> list[dict[str, Any]]:
    return [row for row in json.loads(file.read_text())["objects"] if row["model"] == model]


def test_an_import_whose_ids_are_taken_is_refused_and_writes_nothing(demo: Club, tmp_path: Path) -> None:
    file = tmp_path / "demo.json"
    call_command("club_export", "demo", output=str(file))
    data = json.loads(file.read_text())
    data["club"] = "copy"
    data["objects"][0]["fields"]["slug"] = "copy"
    file.write_text(json.dumps(data))
    counts = (Club.objects.count(), GameResult.objects.count())

    with pytest.raises(CommandError, match="fresh install"):
        call_command("club_import", str(file))

    assert (Club.objects.count(), GameResult.objects.count()) == counts


def test_an_existing_club_or_another_schema_is_refused(demo: Club, tmp_path: Path) -> None:
    file = tmp_path / "demo.json"
    call_command("club_export", "demo", output=str(file), without_passwords=True)
    with pytest.raises(CommandError, match="exists already"):
        call_command("club_import", str(file))

    data = json.loads(file.read_text())
    assert {u["password"] for u in data["users"]} == {""}
    data["schema"]["tournaments"] = "0099_future"
    file.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="schema"):
        call_command("club_import", str(file))

    file.write_text("{not json")
    with pytest.raises(CommandError, match="cannot read it as JSON"):
        call_command("club_import", str(file))


def test_an_unknown_club_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="There is no club nowhere"):
        call_command("club_export", "nowhere")
