"""The ratings parts of pages: the club table and a player's plots, with every text translated
(the drawing itself is pure: ``plot.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import gettext as _

from games.engine.protocol import GameKind
from tournaments.models import Player
from tournaments.rankings.ratings.plot import PlotPoint, rating_plot_svg
from tournaments.rankings.ratings.selectors import PlayerRatingHistory, player_rating_histories


def rating_text(game: GameKind, value: float) -> str:
    """A rating as people read it: Glicko-2 whole numbers, OpenSkill one decimal."""
    return formats.number_format(value, 0 if game is GameKind.SNAPSZER else 1)


def change_text(game: GameKind, delta: float) -> str:
    text = rating_text(game, abs(delta))
    return f"+{text}" if delta >= 0 else f"\u2212{text}"


@dataclass(frozen=True)
class PlayerRatingsSection:
    history: PlayerRatingHistory
    svg: str  # built from escaped inputs: safe to put in the page as is

    @property
    def anchor_prefix(self) -> str:
        return f"rating-{self.history.game.value}"


def player_ratings_sections(*, player: Player) -> list[PlayerRatingsSection]:
    sections = []
    for history in player_rating_histories(player=player):
        game = history.game
        points = []
        for line in history.points:
            point = line.point
            title = _("%(date)s: %(rating)s (%(change)s)") % {
                "date": point.period,
                "rating": rating_text(game, point.value),
                "change": change_text(game, point.delta),
            }
            band = (point.mu - point.sigma, point.mu + point.sigma) if game is GameKind.SNAPSZER else None
            points.append(
                PlotPoint(
                    value=point.value,
                    label=point.period,
                    title=title,
                    anchor=f"rating-{game.value}-{point.seq}",
                    band=band,
                )
            )
        title = _("%(game)s rating of %(player)s, oldest first") % {
            "game": history.label,
            "player": player.name,
        }
        sections.append(
            PlayerRatingsSection(history, rating_plot_svg(points, title=title, ident=f"plot-{game.value}"))
        )
    return sections
