"""REST entry points of results and games: record a game's result (``series/{id}/results/``), the
result versions (``results/``) and the games (``games/``). Parse -> one service or selector -> serialise."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine.sixtysix import Reason
from snapleague.api_inputs import MAX_NUMBER
from tournaments.competitions.results.payload import SNAP_ENDINGS, ResultInvalid, result_payload
from tournaments.competitions.results.selectors import ResultTarget, result_target_get
from tournaments.competitions.results.services import UserSource, result_record
from tournaments.competitions.results.values import PlayedResult
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.models import Game, GameResult

_PER_PLAYER = {
    "type": "object",
    "additionalProperties": {"type": "integer", "minimum": 0},
    "description": "By player id (as a JSON key).",
}


_SNAP_RESULT = {
    "type": "object",
    "title": "Snap game",
    "description": (
        "rules/snap.md S19-S21, S28, S42. Placings use competition ranking; equal top card counts at "
        "an adjudication are a draw."
    ),
    "properties": {
        "ending": {"type": "string", "enum": list(SNAP_ENDINGS)},
        "eliminated": {
            "type": "array",
            "description": (
                "Who went out, first out first; a list of ids went out together. Last player standing: "
                "everyone but the winner. Draw: everyone, the last ones as one group. Adjudicated: "
                "those already out."
            ),
            "items": {"oneOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]},
        },
        "card_counts": {**_PER_PLAYER, "description": "Adjudicated only: the cards of each player still in."},
        "wrong_calls": {
            **_PER_PLAYER,
            "description": "Optional: each player's wrong calls (S42); 0 if left out.",
        },
    },
    "required": ["ending"],
}


_SCORE = {**_PER_PLAYER, "description": "Each player's final game points, by player id."}


_POT = {
    "type": "integer",
    "minimum": 0,
    "default": 0,
    "description": "The pot carried into the deciding hand (X29, X33).",
}


_SNAPSZER_SCORE = {
    "type": "object",
    "title": "Snapszer match score",
    "properties": {"score": _SCORE, "pot_carried": _POT},
    "required": ["score"],
}


_SNAPSZER_GAMES = {
    "type": "object",
    "title": "Snapszer match, game by game",
    "description": "Profiles of several games to the target (snapszer-hu: two games of 7), X32.",
    "properties": {"games": {"type": "array", "items": _SCORE, "minItems": 1}, "pot_carried": _POT},
    "required": ["games"],
}


_SNAPSZER_HANDS = {
    "type": "object",
    "title": "Snapszer match, hand by hand",
    "properties": {
        "hands": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {
                    "winner": {"type": "integer", "nullable": True, "description": "null: nobody (X29)"},
                    "points": {"type": "integer", "minimum": 0},
                    "reason": {
                        "type": "string",
                        "enum": [str(r) for r in Reason],
                        "description": "Optional: the first reason the points allow under the profile.",
                    },
                },
            },
        }
    },
    "required": ["hands"],
}


@extend_schema_field(
    {
        "oneOf": [_SNAP_RESULT, _SNAPSZER_SCORE, _SNAPSZER_GAMES, _SNAPSZER_HANDS],
        "description": "The game's result: a Snap game, or a Snapszer match (see docs/results.md).",
    }
)
class ResultField(serializers.Field):  # type: ignore[type-arg]
    """A game's result, read into a value (``tournaments/competitions/results/values.py``) against the table of
    the game it is for: ``context["result_target"]``, a :class:`ResultTarget`. What does not fit is
    a validation error keyed by the result's own fields (``eliminated``, ``score``, ``hands.2`` …)."""

    def to_internal_value(self, data: Any) -> PlayedResult:
        target: ResultTarget = self.context["result_target"]
        try:
            return target.parse(data)
        except ResultInvalid as exc:
            raise serializers.ValidationError(
                {name: [str(message) for message in messages] for name, messages in exc.fields.items()}
            ) from None

    def to_representation(self, value: PlayedResult) -> dict[str, Any]:
        return result_payload(value)


def _result_input(serializer: serializers.Serializer[Any]) -> dict[str, Any]:
    """The validated input; a bad result alone is 400 ``result_invalid`` with the result's field
    names (as the service and the pages say it), anything else DRF's 400 ``invalid``."""
    if serializer.is_valid():
        return dict(serializer.validated_data)
    errors = dict(serializer.errors)
    if set(errors) == {"result"} and isinstance(errors["result"], dict):
        raise ResultInvalid({name: list(messages) for name, messages in errors["result"].items()})
    raise serializers.ValidationError(serializer.errors)


def _game_number(body: Any) -> int | None:
    try:
        return int(body.get("game"))
    except (AttributeError, TypeError, ValueError):
        return None


class GameResultOutputSerializer(serializers.ModelSerializer[GameResult]):
    game = serializers.IntegerField(source="game.number")
    series = serializers.IntegerField(source="game.series_id")
    sudden_death = serializers.BooleanField(source="game.sudden_death")
    series_status = serializers.CharField(source="game.series.status")
    recorded_by = serializers.CharField(
        source="recorded_by.username",
        default=None,
        allow_null=True,
        help_text="Who recorded it; null for a result the engine recorded (a game played online).",
    )

    class Meta:
        model = GameResult
        fields = [
            "id",
            "series",
            "game",
            "sudden_death",
            "version",
            "confirmed",
            "void",
            "data",
            "source",
            "recorded_by",
            "reason",
            "engine_game",
            "created_at",
            "series_status",
        ]
        extra_kwargs = {"data": {"help_text": "The result as stored: format version 2 (docs/results.md)."}}


class ResultCreateApi(APIView):
    """Record the result of a game of a series (referees and organisers).

    Send an ``Idempotency-Key`` header: the same key again returns the first response and records
    nothing new. ``expected_version`` is the version you saw (0 for a new result; a correction by an
    organiser sends the current version and a reason). A stale version answers 409 with the current one.
    """

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        game = serializers.IntegerField(
            min_value=1, max_value=MAX_NUMBER, help_text=_("The game's number in the series.")
        )
        result = ResultField(help_text=_("The outcome: a Snap game or a Snapszer match."))
        expected_version = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, default=0)
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
        client_key = serializers.CharField(required=False, allow_blank=True, max_length=80)
        void_later_games = serializers.BooleanField(
            default=False,
            help_text=_(
                "A correction that decides the series before games already recorded voids them "
                "only when this is true; otherwise it is refused and names them."
            ),
        )

        class Meta:
            ref_name = "ResultCreateInput"

    @extend_schema(
        request=InputSerializer,
        responses={201: GameResultOutputSerializer, 200: GameResultOutputSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
    )
    def post(self, request: Request, series_id: int) -> Response:
        # Who may record is decided before the body is read (a refusal does not depend on it); the
        # result is read against the game it is for, before anything is locked or stored.
        tournament_selectors.series_record_get(user=request.user, series_id=series_id)
        target = result_target_get(
            user=request.user, series_id=series_id, game_number=_game_number(request.data)
        )
        data = _result_input(self.InputSerializer(data=request.data, context={"result_target": target}))
        key = request.headers.get("Idempotency-Key") or data.get("client_key") or None
        record, created = result_record(
            source=UserSource(request.user),
            series_id=series_id,
            game_number=data["game"],
            result=data["result"],
            expected_version=data["expected_version"],
            reason=data["reason"],
            client_key=key,
            void_later_games=data["void_later_games"],
        )
        response = Response(GameResultOutputSerializer(record).data, status=status.HTTP_201_CREATED)
        if not created:
            response["Idempotent-Replayed"] = "true"
        return response


class GameVoidOutputSerializer(serializers.Serializer[Any]):
    """Who voided a game, when and why (the void result version)."""

    version = serializers.IntegerField()
    recorded_by = serializers.CharField(
        source="recorded_by.username",
        default=None,
        allow_null=True,
        help_text="Who recorded it; null for a result the engine recorded (a game played online).",
    )
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()
    corrected_game = serializers.IntegerField(source="value.corrected_game", default=None)


class GameOutputSerializer(serializers.ModelSerializer[Game]):
    voided = serializers.SerializerMethodField()
    void = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = ["id", "series", "number", "sudden_death", "seats", "voided", "void", "created_at"]

    @staticmethod
    def _current(game: Game) -> GameResult | None:
        current = getattr(game, "current_results", None)  # prefetched by GameListApi
        if current is None:
            current = list(GameResult.objects.filter(game=game, confirmed=True).select_related("recorded_by"))
        return current[0] if current else None

    def get_voided(self, game: Game) -> bool:
        current = self._current(game)
        return current is not None and current.void

    @extend_schema_field(GameVoidOutputSerializer(allow_null=True))
    def get_void(self, game: Game) -> dict[str, Any] | None:
        current = self._current(game)
        if current is None or not current.void:
            return None
        return dict(GameVoidOutputSerializer(current).data)


class GameListApi(ListAPIView[Game]):
    """Games of series (``?series=``); a game exists once its first result is recorded. A game
    played after its series was decided (a correction voided it) has ``voided`` true and ``void``
    saying who voided it, when and why; it counts for nothing."""

    serializer_class = GameOutputSerializer
    filterset_fields = {"series": ["exact"], "series__stage": ["exact"], "sudden_death": ["exact"]}

    def get_queryset(self) -> QuerySet[Game]:
        current = GameResult.objects.filter(confirmed=True).select_related("recorded_by")
        return (
            tournament_selectors.games_visible(user=self.request.user)
            .prefetch_related(Prefetch("results", queryset=current, to_attr="current_results"))
            .order_by("series_id", "number")
        )


class ResultListApi(ListAPIView[GameResult]):
    """Every result version (``?series=``, ``?confirmed=true`` for the current ones only). A version
    with ``void`` true voided its game (``reason`` and ``recorded_by`` say why and who); ``?void=``
    filters on it."""

    serializer_class = GameResultOutputSerializer
    filterset_fields = {
        "game__series": ["exact"],
        "game": ["exact"],
        "confirmed": ["exact"],
        "void": ["exact"],
        "game__series__stage": ["exact"],
    }

    def get_queryset(self) -> QuerySet[GameResult]:
        return (
            tournament_selectors.results_visible(user=self.request.user)
            .select_related("game__series")
            .order_by("game__series_id", "game__number", "version")
        )
