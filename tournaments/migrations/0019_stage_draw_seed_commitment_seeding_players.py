"""Verifiable draws and stages over a chosen subset (issue 23, items 3 and 6).

Stages get ``seed_commitment`` (empty for the stages that exist now: their draw predates
verification), ``seeding`` (the seeding order, stored when round 1 is published) and ``players``
(the players the organiser chose; empty: all of them).

A stage whose round 1 is already out gets its seeding order stored here, worked out exactly as it
was drawn: its entrants drawn into round 1 (in the stored order), sorted by
``sha256(f"{seed}|{player}")`` hex (then ``str(player)``) when the seeding is random. From now on a
stage reads its stored order instead of drawing again, so these stages go on as they were drawn
although new draws use another construction (docs/formats.md "Checking a random draw").
"""

import hashlib

from django.db import migrations, models


def _drawn_into(plan: dict) -> set:
    players = set(plan.get("byes") or [])
    for series in plan.get("series") or []:
        players |= {p for p in series.get("seats") or [] if p is not None}
    return players


def legacy_seeding(entrants: list, seed: str, options: dict, first_plan: dict) -> list:
    """The seeding order an existing stage was drawn in (before this migration)."""
    drawn = _drawn_into(first_plan)
    present = [p for p in entrants if p in drawn]
    if (options or {}).get("seeding", "random") == "random":
        present.sort(key=lambda p: (hashlib.sha256(f"{seed}|{p}".encode()).hexdigest(), str(p)))
    return present


def store_seeding(apps, schema_editor) -> None:
    Stage = apps.get_model("tournaments", "Stage")
    Round = apps.get_model("tournaments", "Round")
    for stage in Stage.objects.iterator():
        if not stage.entrants:
            continue
        first = Round.objects.filter(stage_id=stage.pk, number=1).values_list("plan", flat=True).first()
        if first is None:
            continue
        stage.seeding = legacy_seeding(list(stage.entrants), stage.seed, stage.options, first)
        stage.save(update_fields=["seeding"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_ladder_results_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="stage",
            name="players",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="stage",
            name="seed_commitment",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="stage",
            name="seeding",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(store_seeding, migrations.RunPython.noop),
    ]
