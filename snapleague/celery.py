"""The Celery application. Configuration comes from Django settings (``CELERY_*``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")

app = Celery("snapleague")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_finalize.connect
def _schedule_periodic_tasks(sender: Celery, **_kwargs: object) -> None:
    from django.conf import settings

    # Repairs any stage whose standings lag its results (a lost message, a crashed worker).
    sender.add_periodic_task(
        settings.STANDINGS_RECONCILE_SECONDS,
        sender.signature("tournaments.tasks.standings_reconcile_task"),
        name="standings reconcile",
    )
