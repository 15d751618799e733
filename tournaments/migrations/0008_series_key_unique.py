from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0007_formats_backfill")]

    operations = [
        migrations.AddConstraint(
            model_name="series",
            constraint=models.UniqueConstraint(fields=("stage", "key"), name="series_key_unique_in_stage"),
        ),
    ]
