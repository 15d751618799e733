"""Bracket stages' standings now follow the bracket (issue 23; docs/formats.md "Standings of a
bracket"). The rows stored before were ranked by depth and series won: mark every such stage with
stored standings as lagging (its results version one ahead), so beat's reconciler recomputes them
and the seasons that read them see the new order. No result changes."""

from django.db import migrations
from django.db.models import F

BRACKET_FORMATS = ("single_elimination", "double_elimination", "groups_playoff")


def mark_lagging(apps, schema_editor):
    Stage = apps.get_model("tournaments", "Stage")
    StandingRow = apps.get_model("tournaments", "StandingRow")
    with_rows = StandingRow.objects.filter(stage__format__in=BRACKET_FORMATS).values("stage_id")
    Stage.objects.filter(pk__in=with_rows).update(results_version=F("results_version") + 1)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0021_stage_task_coalescing"),
    ]

    operations = [migrations.RunPython(mark_lagging, migrations.RunPython.noop)]
