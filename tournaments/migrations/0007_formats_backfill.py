"""Give round robin stages published before the formats their keys, plans and entrants."""

from django.db import migrations


def backfill(apps, schema_editor):
    """Round robin stages published before formats: every series gets its key ("R<round>-<table>"),
    seat count and phase round, every round the plan the format would have stored, and every
    stage with rounds its entrants (the players it seated, by first seat)."""
    Round = apps.get_model("tournaments", "Round")
    Series = apps.get_model("tournaments", "Series")
    SeriesSeat = apps.get_model("tournaments", "SeriesSeat")
    Stage = apps.get_model("tournaments", "Stage")
    for rnd in Round.objects.order_by("stage_id", "number"):
        planned = []
        two_seats = True
        for series in Series.objects.filter(round=rnd).order_by("table"):
            seats = list(
                SeriesSeat.objects.filter(series=series).order_by("seat").values_list("player_id", flat=True)
            )
            two_seats = two_seats and len(seats) == 2
            series.key = f"R{rnd.number}-{series.table}"
            series.seat_count = len(seats)
            series.phase_round = rnd.number if len(seats) == 2 else 1
            series.save(update_fields=["key", "seat_count", "phase_round"])
            planned.append(
                {
                    "advance": 0,
                    "group": None,
                    "key": series.key,
                    "phase": "round_robin",
                    "phase_round": series.phase_round,
                    "seats": seats,
                    "table": series.table,
                    "to": [],
                }
            )
        rnd.plan = {
            "byes": [] if rnd.bye_id is None else [rnd.bye_id],
            "number": rnd.number,
            "series": planned,
        }
        rnd.save(update_fields=["plan"])
    for stage in Stage.objects.filter(rounds__isnull=False).distinct():
        seen: list[int] = []
        for rnd in Round.objects.filter(stage=stage).order_by("number"):
            for series in rnd.plan["series"]:
                seen += [p for p in series["seats"] if p not in seen]
            seen += [p for p in rnd.plan["byes"] if p not in seen]
        stage.entrants = seen
        stage.save(update_fields=["entrants"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_formats")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
