"""Celery entry points of online play: thin, idempotent, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from games.analysis import analysis_run


@shared_task(name="games.tasks.analyse_game_task")
def analyse_game_task(game_id: int) -> str:
    """The expert's analysis of a finished Snapszer game (docs/analysis.md): the hands not stored
    yet at the current analysis version; a second run only finds them done."""
    return analysis_run(game_id=game_id)
