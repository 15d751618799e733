"""REST entry points of ratings (docs/ratings.md): a club's ratings, a player's with their history."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine.protocol import GameKind
from snapleague.errors import ApplicationError
from tournaments.clubs import selectors as club_selectors
from tournaments.rankings.ratings.selectors import club_ratings_get, player_rating_histories


def _rating_game(request: Request) -> str | None:
    """The ``game`` query parameter: a game kind, or none for every game. Raises ApplicationError
    (400, field ``game``) for anything else."""
    game = request.query_params.get("game") or None
    if game is not None and game not in {kind.value for kind in GameKind}:
        message = _("Choose a game: %(games)s.") % {"games": ", ".join(kind.value for kind in GameKind)}
        raise ApplicationError(code="invalid", message=message, fields={"game": [message]})
    return game


class RatingOutputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    game = serializers.CharField()
    rating = serializers.FloatField(source="value", help_text="What tables show and seeding sorts by.")
    mu = serializers.FloatField(help_text="Glicko-2: the rating; OpenSkill: mu.")
    sigma = serializers.FloatField(help_text="Glicko-2: the rating deviation RD; OpenSkill: sigma.")
    volatility = serializers.FloatField(allow_null=True, help_text="Glicko-2 only.")
    played = serializers.IntegerField(help_text="Rated games: Snapszer series, Snap games.")


class ClubRatingsOutputSerializer(serializers.Serializer[Any]):
    club = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    stale = serializers.BooleanField(help_text="Results came in since; the ratings are being recomputed.")
    ratings = RatingOutputSerializer(many=True)


class ClubRatingsApi(APIView):
    """A club's current ratings, best first per game (``?game=snap`` or ``snapszer`` for one)."""

    permission_classes: list[Any] = []

    @extend_schema(
        parameters=[OpenApiParameter("game", str, enum=[kind.value for kind in GameKind])],
        responses=ClubRatingsOutputSerializer,
    )
    def get(self, request: Request, club_id: int) -> Response:
        game = _rating_game(request)
        club = club_selectors.club_get_by_id(club_id=club_id)
        page = club_ratings_get(club=club, game=game)
        body = {
            "club": club.pk,
            "computed_at": page.computed_at,
            "stale": page.stale,
            "ratings": [row for table in page.tables for row in table.rows],
        }
        return Response(ClubRatingsOutputSerializer(body).data)


class RatingMoveOutputSerializer(serializers.Serializer[Any]):
    series = serializers.IntegerField(allow_null=True, help_text="The series; null for a ladder match.")
    game = serializers.IntegerField(
        allow_null=True, help_text="The Snap game; null for a Snapszer series or a ladder match."
    )
    challenge = serializers.IntegerField(
        allow_null=True,
        default=None,
        help_text="The ladder challenge whose match this was; null for a series.",
    )
    opponents = serializers.ListField(child=serializers.IntegerField())
    placing = serializers.IntegerField()
    players = serializers.IntegerField()


class RatingPointOutputSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    period = serializers.CharField(help_text="The club day (YYYY-MM-DD).")
    rating = serializers.FloatField(source="value")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    change = serializers.FloatField(source="delta")
    moves = RatingMoveOutputSerializer(many=True)


class PlayerRatingHistoryOutputSerializer(serializers.Serializer[Any]):
    game = serializers.CharField()
    current = RatingOutputSerializer()
    history = RatingPointOutputSerializer(many=True)


class PlayerRatingsOutputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    ratings = PlayerRatingHistoryOutputSerializer(many=True)


class PlayerRatingsApi(APIView):
    """A player's ratings in their club, each with its history (oldest first) and the series or
    games that moved every point."""

    permission_classes: list[Any] = []

    @extend_schema(responses=PlayerRatingsOutputSerializer)
    def get(self, request: Request, player_id: int) -> Response:
        player = club_selectors.player_get(player_id=player_id)
        histories = player_rating_histories(player=player)
        body = {
            "player": player.pk,
            "ratings": [
                {"game": h.game.value, "current": h.current, "history": [line.point for line in h.points]}
                for h in histories
            ],
        }
        return Response(PlayerRatingsOutputSerializer(body).data)
