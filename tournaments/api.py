"""REST entry points: parse input -> one service or selector -> serialise."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine.protocol import GameKind
from games.engine.sixtysix import Reason
from snapleague.errors import ApplicationError
from tournaments.clubs import selectors as club_selectors
from tournaments.clubs import services as club_services
from tournaments.competitions import services as competition_services
from tournaments.competitions.results.payload import SNAP_ENDINGS, ResultInvalid, result_payload
from tournaments.competitions.results.selectors import ResultTarget, result_target_get
from tournaments.competitions.results.services import UserSource, result_record
from tournaments.competitions.results.values import PlayedResult
from tournaments.competitions.selectors import stages as stage_selectors
from tournaments.competitions.selectors import standings as standings_selectors
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.competitions.selectors.tournaments import series_visible, stage_get
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.competitions.stages import withdrawals as stages_withdrawals
from tournaments.competitions.standings.chain import Tiebreak
from tournaments.integrations import exports
from tournaments.models import (
    BracketSlot,
    Club,
    Game,
    GameResult,
    Ladder,
    LadderChallenge,
    Player,
    Round,
    Season,
    Series,
    Stage,
    StageFormat,
    Tournament,
    Withdrawal,
)
from tournaments.rankings.ladder import selectors as ladder_selectors
from tournaments.rankings.ladder import services as ladder_services
from tournaments.rankings.ratings.selectors import club_ratings_get, player_rating_histories
from tournaments.rankings.seasons import selectors as season_selectors
from tournaments.rankings.seasons import services as season_services

# The largest id (a BigAutoField) and the largest number (a PositiveIntegerField: 2**31 - 1 is safe on
# every database) a body may carry. A bigger one was a 500 (found by tests/test_api_schema_fuzz.py):
# SQLite cannot bind an integer past 64 bits (OverflowError), PostgreSQL refuses to store a number
# past its column's range; now it is a 400 naming the field.
MAX_ID = 2**63 - 1
MAX_NUMBER = 2**31 - 1

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


class StandingRowOutputSerializer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    rank = serializers.IntegerField()
    position = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    values = serializers.JSONField()
    separated_by = serializers.CharField()


class GroupTableRowOutputSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    values = serializers.JSONField(help_text="By tiebreak name (the group's ``chain``), with series_played.")
    separated_by = serializers.CharField(
        help_text="The first tiebreak that puts the row below the one above."
    )
    qualified = serializers.BooleanField(
        help_text="Goes to the playoff (while the group plays: would, if it ended now; see ``complete``)."
    )
    withdrawn = serializers.BooleanField(
        help_text="Withdrawn by the playoff: does not qualify, the next does."
    )
    reason = serializers.CharField(
        help_text="Why (translated): “Through: top 2 of group A.”, in place of a player who withdrew, "
        "in line so far, withdrawn; empty for the others."
    )


class GroupTableOutputSerializer(serializers.Serializer[Any]):
    label = serializers.CharField(help_text="A, B, …")
    advance = serializers.IntegerField(help_text="How many of each group go to the playoff (the top k).")
    complete = serializers.BooleanField(help_text="Every group series is decided: the qualifiers are final.")
    chain = serializers.ListField(
        child=serializers.CharField(), help_text="The group's tiebreaks, in order (the format's own)."
    )
    qualifiers = serializers.ListField(
        child=serializers.IntegerField(), help_text="Player ids who go on from this group, best first."
    )
    rows = GroupTableRowOutputSerializer(many=True)


class StandingsOutputSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    results_version = serializers.IntegerField()
    standings_version = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    stale = serializers.BooleanField()
    rows = StandingRowOutputSerializer(many=True, help_text="The stage's table(s) as last computed.")
    groups = GroupTableOutputSerializer(
        many=True,
        help_text="Groups → playoff: each group's own table with who goes to the playoff and why, "
        "from the results now (empty for the other formats and before round 1).",
    )


class StageStandingsApi(APIView):
    """A stage's standings as last computed, with the results version they reflect; for groups →
    playoff also each group's own table (``groups``) with its qualifiers."""

    permission_classes: list[Any] = []

    @extend_schema(responses=StandingsOutputSerializer)
    def get(self, request: Request, stage_id: int) -> Response:
        page = standings_selectors.stage_standings_page_get(user=request.user, stage_id=stage_id)
        return Response(StandingsOutputSerializer(standings_selectors.standings_body(page)).data)


class SeriesSeatOutputSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


# The one shape of a series' seats, wherever the API or an export gives them (docs/formats.md,
# "Empty seats"): ``seat_count`` entries by seat index, null for an empty one.
SEATS_HELP = (
    "Every seat by its index (seat 0 deals first), ``seat_count`` of them; null: an empty seat "
    "(a bye in a bracket, or nobody through yet). The same shape in series/, bracket/, the publish "
    "answer, the export and the webhooks."
)


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "object",
            "nullable": True,
            "properties": {
                "seat": {"type": "integer"},
                "player": {"type": "integer"},
                "name": {"type": "string"},
            },
            "required": ["seat", "player", "name"],
        },
    }
)
class SeatsField(serializers.ListField):
    """A series' seats by index, ``null`` for an empty one (the schema says each item may be null;
    drf-spectacular leaves ``nullable`` off a list's child serializer)."""


def seats_field(**kwargs: Any) -> serializers.ListField:
    return SeatsField(child=SeriesSeatOutputSerializer(allow_null=True), help_text=SEATS_HELP, **kwargs)


class SeriesOutputSerializer(serializers.ModelSerializer[Series]):
    stage = serializers.IntegerField(source="stage_id")
    round = serializers.IntegerField(source="round.number")
    game = serializers.CharField(source="stage.tournament.game")
    seats = seats_field(source="seats_in_order")

    class Meta:
        model = Series
        fields = [
            "id",
            "stage",
            "round",
            "table",
            "key",
            "phase",
            "phase_round",
            "group",
            "game",
            "format",
            "status",
            "walkover",
            "flagged",
            "seed_hash",
            "placings",
            "seat_count",
            "seats",
        ]
        extra_kwargs = {
            "key": {"help_text": "Stable within the stage: R3-2, W2-1, L4-1, GF1, 3P …"},
            "seat_count": {"help_text": "How many seats the series has, empty ones included."},
            "walkover": {"help_text": "Not played: its players are no more than those who go on (a bye)."},
            "flagged": {
                "help_text": "A correction changed a result this series was paired from; it stays as published."
            },
        }


class SeriesListApi(ListAPIView[Series]):
    """Series, filterable by stage, status and game (``?status=pending&game=snap``)."""

    serializer_class = SeriesOutputSerializer
    permission_classes: list[Any] = []
    filterset_fields = {"stage": ["exact"], "status": ["exact"], "stage__tournament__game": ["exact"]}

    def get_queryset(self) -> QuerySet[Series]:
        queryset = series_visible(user=self.request.user)
        if game := self.request.query_params.get("game"):
            queryset = queryset.filter(stage__tournament__game=game)
        return queryset.order_by("stage_id", "round__number", "table")


# --- Clubs and players --------------------------------------------------------------------------


class ClubOutputSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]


class ClubListApi(ListAPIView[Club]):
    """Clubs (anyone may read). A signed-in user creates one with POST and becomes its organiser;
    a few an hour per account (429 with ``extra.retry_after_s`` beyond)."""

    serializer_class = ClubOutputSerializer
    filterset_fields = {"slug": ["exact"], "name": ["icontains"]}

    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=120)

        class Meta:
            ref_name = "ClubCreateInput"

    def get_queryset(self) -> QuerySet[Club]:
        return Club.objects.order_by("name")

    @extend_schema(request=InputSerializer, responses={201: ClubOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_services.club_create(user=request.user, name=data["name"])
        return Response(ClubOutputSerializer(club).data, status=status.HTTP_201_CREATED)


class InvitationOutputSerializer(serializers.Serializer[Any]):
    club = serializers.IntegerField()
    token = serializers.CharField()
    url = serializers.CharField(help_text="The page that accepts it (sign in first).")
    expires_at = serializers.DateTimeField()


class ClubInvitationCreateApi(APIView):
    """An organiser invites someone to organise the club too: a link, valid once, for a week."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: InvitationOutputSerializer})
    def post(self, request: Request, club_id: int) -> Response:
        club = club_selectors.club_get_by_id(club_id=club_id)
        invitation, token = club_services.organiser_invitation_create(user=request.user, club=club)
        body = {
            "club": club.pk,
            "token": token,
            "url": request.build_absolute_uri(reverse("tournaments:invitation", args=[token])),
            "expires_at": invitation.expires_at,
        }
        return Response(InvitationOutputSerializer(body).data, status=status.HTTP_201_CREATED)


class InvitationAcceptApi(APIView):
    """The signed-in user accepts an invitation (its token) and becomes an organiser of its club.
    A bad token is a 400, an expired one 410, a used one 409."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        token = serializers.CharField(max_length=500)

        class Meta:
            ref_name = "InvitationAcceptInput"

    @extend_schema(request=InputSerializer, responses={200: ClubOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_services.organiser_invitation_accept(user=request.user, token=data["token"])
        return Response(ClubOutputSerializer(club).data)


class ClubDetailApi(RetrieveAPIView[Club]):
    serializer_class = ClubOutputSerializer
    queryset = Club.objects.all()
    lookup_url_kwarg = "club_id"


class PlayerOutputSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "created_at"]


class PlayerListCreateApi(ListAPIView[Player]):
    """A club's players (``?club=``, ``?tournament=``); organisers add one with POST."""

    serializer_class = PlayerOutputSerializer
    filterset_fields = {"club": ["exact"], "name": ["icontains"], "entries__tournament": ["exact"]}

    class InputSerializer(serializers.Serializer[Any]):
        club = serializers.IntegerField(max_value=MAX_ID)
        name = serializers.CharField(max_length=120)

        class Meta:
            ref_name = "PlayerCreateInput"

    def get_queryset(self) -> QuerySet[Player]:
        return Player.objects.order_by("club_id", "name")

    def filter_queryset(self, queryset: QuerySet[Player]) -> QuerySet[Player]:
        queryset = super().filter_queryset(queryset)  # a tournament id that is no number: 400
        # A draft's entrants are the draft's: filtering on a tournament the user may not see finds
        # nobody, as if it did not exist.
        tournament = self.request.query_params.get("entries__tournament")
        if (
            tournament
            and not tournament_selectors.tournaments_visible(user=self.request.user)
            .filter(pk=tournament)
            .exists()
        ):
            return queryset.none()
        return queryset

    @extend_schema(request=InputSerializer, responses={201: PlayerOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_selectors.club_get_by_id(club_id=data["club"])
        player = club_services.player_create(user=request.user, club=club, name=data["name"])
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(RetrieveAPIView[Player]):
    serializer_class = PlayerOutputSerializer
    queryset = Player.objects.all()
    lookup_url_kwarg = "player_id"


# --- Tournaments and stages ---------------------------------------------------------------------


class TournamentOutputSerializer(serializers.ModelSerializer[Tournament]):
    players = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "name",
            "game",
            "rules_profile",
            "rules_options",
            "series_format",
            "status",
            "starts_at",
            "players",
            "created_at",
        ]

    def get_players(self, tournament: Tournament) -> list[int]:
        return [e.player_id for e in tournament.entries.all()]


class TournamentListCreateApi(ListAPIView[Tournament]):
    """Tournaments you may see (drafts only for their organisers and referees); organisers create one."""

    serializer_class = TournamentOutputSerializer
    filterset_fields = {"club": ["exact"], "game": ["exact"], "status": ["exact"]}

    class InputSerializer(serializers.Serializer[Any]):
        club = serializers.IntegerField(max_value=MAX_ID)
        name = serializers.CharField(max_length=160)
        game = serializers.CharField()
        series_format = serializers.CharField(required=False, default="best_of_3")
        rules_profile = serializers.CharField(required=False, allow_blank=True, default="")
        rules_options = serializers.JSONField(required=False, default=dict)
        starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)

        class Meta:
            ref_name = "TournamentCreateInput"

    def get_queryset(self) -> QuerySet[Tournament]:
        return tournament_selectors.tournaments_visible(user=self.request.user).prefetch_related("entries")

    @extend_schema(request=InputSerializer, responses={201: TournamentOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_selectors.club_get_by_id(club_id=data.pop("club"))
        tournament = competition_services.tournament_create(user=request.user, club=club, **data)
        return Response(TournamentOutputSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    @extend_schema(responses=TournamentOutputSerializer)
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_selectors.tournament_get(user=request.user, tournament_id=tournament_id)
        return Response(TournamentOutputSerializer(tournament).data)


class TournamentPlayersAddApi(APIView):
    """Enter club players into a tournament (organisers)."""

    class InputSerializer(serializers.Serializer[Any]):
        players = serializers.ListField(child=serializers.IntegerField(max_value=MAX_ID), allow_empty=False)

        class Meta:
            ref_name = "TournamentPlayersAddInput"

    @extend_schema(request=InputSerializer, responses={200: TournamentOutputSerializer})
    def post(self, request: Request, tournament_id: int) -> Response:
        # Who may is decided before the body is read (a refusal does not depend on it).
        tournament = tournament_selectors.tournament_manage_get(
            user=request.user, tournament_id=tournament_id
        )
        data = validated_input(self.InputSerializer, request)
        players = club_selectors.players_by_ids(player_ids=data["players"])
        competition_services.tournament_players_add(user=request.user, tournament=tournament, players=players)
        return Response(TournamentOutputSerializer(tournament).data)


class ErrorOutputSerializer(serializers.Serializer[Any]):
    """Every refusal (snapleague/api_errors.py), in the request's language."""

    code = serializers.CharField(help_text="Stable, for programs: round_not_due, not_organiser …")
    message = serializers.CharField(help_text="Translated, for people.")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Messages by the input field at fault (an option's name for a stage option).",
    )
    extra = serializers.DictField(help_text="The values the code carries (e.g. ``waiting``: series keys).")

    class Meta:
        ref_name = "Error"


def validated_input(
    serializer_class: type[serializers.Serializer[Any]], request: Request, *, partial: bool = False
) -> dict[str, Any]:
    """The request's body as ``serializer_class`` reads it (``partial``: only the fields sent are
    required), a new dict the caller may change. Raises ValidationError: a 400 with field errors."""
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _refusals(**described: str) -> dict[int, OpenApiResponse]:
    """The error responses of an operation, by status, each described by the codes it can carry."""
    return {
        int(code.removeprefix("s")): OpenApiResponse(ErrorOutputSerializer, description=text)
        for code, text in described.items()
    }


class StageOutputSerializer(serializers.ModelSerializer[Stage]):
    entrants = serializers.ListField(
        child=serializers.IntegerField(),
        source="seeding",
        read_only=True,
        help_text=(
            "Player ids in seeding order (seed 1 first), fixed when round 1 is published (empty "
            "before): for random seeding the draw of ``draw_entrants`` by ``seed``; without anyone "
            "withdrawn from round 1."
        ),
    )
    draw_entrants = serializers.ListField(
        child=serializers.IntegerField(),
        read_only=True,
        help_text=(
            "The draw's input: the player ids in the order handed to the seeding (entry list, "
            "ratings or an earlier stage's standings), fixed when round 1 is published (empty "
            'before). docs/formats.md, "Checking a random draw".'
        ),
    )
    seed_commitment = serializers.SerializerMethodField(
        help_text=(
            "SHA-256 (hex) of the stage seed's UTF-8 bytes, published from the stage's creation; "
            "null for a stage created before draws could be verified."
        )
    )
    seed = serializers.CharField(
        source="seed_revealed",
        read_only=True,
        allow_null=True,
        help_text=(
            "The stage seed, once round 1 is published (null before, and for a stage without a "
            "commitment): sha256(seed) == seed_commitment, and the random draw of "
            "``draw_entrants`` by it is ``entrants``."
        ),
    )

    class Meta:
        model = Stage
        fields = [
            "id",
            "tournament",
            "order",
            "name",
            "format",
            "options",
            "publishing",
            "tiebreaks",
            "seeded_from",
            "seeded_take",
            "players",
            "online_play",
            "status",
            "entrants",
            "draw_entrants",
            "seed_commitment",
            "seed",
            "results_version",
            "standings_version",
            "standings_computed_at",
        ]
        extra_kwargs = {
            "options": {"help_text": "The format's options with their defaults filled in (docs/formats.md)."},
            "players": {
                "help_text": "The tournament's players chosen for the stage (ids); empty: all of them."
            },
        }

    def get_seed_commitment(self, stage: Stage) -> str | None:
        return stage.seed_commitment or None


class StageListCreateApi(ListAPIView[Stage]):
    """Stages (``?tournament=``); organisers create one of any format.

    ``options`` are the format's (docs/formats.md: e.g. Swiss ``rounds``, ``seeding``, ``bye``;
    single elimination ``third_place``; double elimination ``grand_final_reset``; groups
    ``group_size``, ``advance``; heats ``table_size``, ``advance``). An impossible configuration
    (5 players in groups of 4, top k not below the table size, more Swiss rounds than can be paired
    without rematches) is a 400 naming the option, and nothing is created.
    """

    serializer_class = StageOutputSerializer
    filterset_fields = {"tournament": ["exact"], "status": ["exact"], "format": ["exact"]}

    class InputSerializer(serializers.Serializer[Any]):
        tournament = serializers.IntegerField(max_value=MAX_ID)
        name = serializers.CharField(max_length=120)
        format = serializers.ChoiceField(choices=StageFormat.choices, default=StageFormat.ROUND_ROBIN)
        options = serializers.JSONField(
            required=False, default=dict, help_text=_("The format's options by name (docs/formats.md).")
        )
        publishing = serializers.ChoiceField(
            choices=Stage.Publishing.choices,
            default=Stage.Publishing.AUTOMATIC,
            help_text=_(
                "How the rounds after the first are published: as soon as they are due, or when the "
                "organiser publishes them (POST rounds/)."
            ),
        )
        tiebreaks = serializers.ListField(
            child=serializers.ChoiceField(choices=[(str(t), str(t)) for t in Tiebreak]),
            required=False,
            default=list,
            help_text=_("The standings' tiebreaks in order; empty: the format's default list."),
        )
        seeded_from = serializers.PrimaryKeyRelatedField(
            queryset=Stage.objects.all(),
            required=False,
            allow_null=True,
            default=None,
            help_text=_(
                "An earlier stage of the tournament whose standings seed this one (groups → playoff)."
            ),
        )
        seeded_take = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            min_value=2,
            max_value=MAX_NUMBER,
            help_text=_("How many of the earlier stage's top players go on; empty: all of them."),
        )
        online_play = serializers.BooleanField(
            required=False,
            default=False,
            help_text=_("Its games are played online: the seated players get “Play” on their series."),
        )
        players = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
            required=False,
            allow_null=True,
            default=None,
            max_length=10_000,
            help_text=_(
                "The tournament's players the stage is over (player ids, each once, at least as "
                "many as the format needs); left out or null: all of them, those entered later too. "
                "Not with seeded_from."
            ),
        )

        class Meta:
            ref_name = "StageCreateInput"

    def get_queryset(self) -> QuerySet[Stage]:
        return tournament_selectors.stages_visible(user=self.request.user).order_by("tournament_id", "order")

    @extend_schema(
        request=InputSerializer,
        responses={
            201: StageOutputSerializer,
            **_refusals(
                s400="A field or an option at fault (``fields`` names it): invalid, unknown_option, "
                "option_not_a_number, option_not_a_choice, too_many_rounds, groups_uneven, "
                "advance_not_below_table_size, format_not_for_game, invalid_tiebreaks …",
                s403="not_organiser",
                s404="tournament_not_found",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        tournament = tournament_selectors.tournament_get(
            user=request.user, tournament_id=data.pop("tournament")
        )
        stage = stages_create.stage_create(user=request.user, tournament=tournament, **data)
        return Response(StageOutputSerializer(stage).data, status=status.HTTP_201_CREATED)


class StageDetailApi(APIView):
    @extend_schema(responses=StageOutputSerializer)
    def get(self, request: Request, stage_id: int) -> Response:
        return Response(StageOutputSerializer(stage_get(user=request.user, stage_id=stage_id)).data)


class PreviewRowOutputSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="None for a bye.")
    key = serializers.CharField(help_text="Empty for a bye.")
    phase = serializers.CharField(help_text="The series' phase (swiss, winners, losers …), or bye.")
    group = serializers.CharField(allow_null=True)
    players = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="Names by seat index; null: an empty seat (a bye), as ``seats`` everywhere else.",
    )
    walkover = serializers.BooleanField()


class StagePreviewOutputSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField(source="stage.pk")
    rounds = serializers.SerializerMethodField()
    rows = serializers.SerializerMethodField()
    problem = serializers.CharField(
        help_text="Why nothing can be paired now (translated); empty when rows are given."
    )

    def get_rounds(self, preview: stages_publish.Preview) -> list[int]:
        return [r.number for r in preview.rounds]

    @extend_schema_field(PreviewRowOutputSerializer(many=True))
    def get_rows(self, preview: stages_publish.Preview) -> list[dict[str, Any]]:
        return list(PreviewRowOutputSerializer(stages_publish.preview_rows(preview), many=True).data)


class StagePreviewApi(APIView):
    """What publishing would store now (organisers): the first round, or in review mode the round
    due, as rows (nothing is stored); ``problem`` says why nothing can be paired."""

    @extend_schema(
        responses={
            200: StagePreviewOutputSerializer,
            **_refusals(s403="not_organiser", s404="stage_not_found"),
        }
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_get(user=request.user, stage_id=stage_id)
        preview = stages_publish.stage_preview(user=request.user, stage_id=stage.pk)
        return Response(StagePreviewOutputSerializer(preview).data)


class RoundOutputSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["id", "stage", "number", "starts_at", "published_at", "bye"]


class PublishedRoundOutputSerializer(serializers.ModelSerializer[Round]):
    series = SeriesOutputSerializer(many=True)

    class Meta:
        model = Round
        fields = ["id", "stage", "number", "starts_at", "published_at", "bye", "series"]


class StageRoundsPublishApi(APIView):
    """Publish the rounds due (organisers): a round robin all at once, the other formats the first
    round, and later rounds of a stage set to "review before publishing" (an automatic stage
    publishes them itself after the last result). ``round`` asks for that round."""

    class InputSerializer(serializers.Serializer[Any]):
        round = serializers.IntegerField(
            min_value=1,
            max_value=MAX_NUMBER,
            required=False,
            allow_null=True,
            default=None,
            help_text=_("The round to publish; empty: whatever is due."),
        )

        class Meta:
            ref_name = "StageRoundsPublishInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            201: PublishedRoundOutputSerializer(many=True),
            **_refusals(
                s400="round_not_next (``extra.next``), or the stage's players cannot fill it "
                "(not_enough_entrants …)",
                s403="not_organiser",
                s404="stage_not_found",
                s409="round_already_generated; round_not_due (``extra.waiting``: the series keys "
                "still to be decided); no_more_rounds; no_pairing_without_rematch; stage_finished",
            ),
        },
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_selectors.stage_manage_get(user=request.user, stage_id=stage_id)  # before the body
        data = validated_input(self.InputSerializer, request)
        rounds = stages_publish.stage_round_publish(
            user=request.user, stage_id=stage.pk, round_number=data["round"]
        )
        published = (
            Round.objects.filter(pk__in=[r.pk for r in rounds])
            .prefetch_related(
                Prefetch(
                    "series",
                    queryset=Series.objects.select_related("round", "stage__tournament")
                    .prefetch_related("seats__player")
                    .order_by("table"),
                )
            )
            .order_by("number")
        )
        return Response(
            PublishedRoundOutputSerializer(published, many=True).data, status=status.HTTP_201_CREATED
        )


class RoundListApi(ListAPIView[Round]):
    serializer_class = RoundOutputSerializer
    filterset_fields = {"stage": ["exact"], "stage__tournament": ["exact"], "number": ["exact"]}

    def get_queryset(self) -> QuerySet[Round]:
        return tournament_selectors.rounds_visible(user=self.request.user).order_by("stage_id", "number")


# --- Withdrawals, forfeits, the bracket -----------------------------------------------------------


class WithdrawalOutputSerializer(serializers.ModelSerializer[Withdrawal]):
    player_name = serializers.CharField(source="player.name")
    recorded_by = serializers.CharField(
        source="recorded_by.username",
        default=None,
        allow_null=True,
        help_text="Who recorded it; null for a result the engine recorded (a game played online).",
    )

    class Meta:
        model = Withdrawal
        fields = ["id", "stage", "player", "player_name", "from_round", "reason", "recorded_by", "created_at"]


class StageWithdrawalsApi(APIView):
    """A stage's withdrawals (anyone who may see the stage); organisers withdraw a player from
    round ``from_round`` on (default: the first round in which they have a series not decided yet,
    or the next round). Their series from then on are walkovers; later rounds leave them out."""

    class InputSerializer(serializers.Serializer[Any]):
        player = serializers.IntegerField(max_value=MAX_ID, help_text=_("The player's id."))
        from_round = serializers.IntegerField(
            min_value=1, max_value=MAX_NUMBER, required=False, allow_null=True, default=None
        )
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)

        class Meta:
            ref_name = "StageWithdrawInput"

    @extend_schema(
        responses={200: WithdrawalOutputSerializer(many=True), **_refusals(s404="stage_not_found")}
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_get(user=request.user, stage_id=stage_id)
        withdrawals = stage_selectors.stage_withdrawals_list(stage=stage)
        return Response(WithdrawalOutputSerializer(withdrawals, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: WithdrawalOutputSerializer,
            **_refusals(
                s400="not_an_entrant (field ``player``), invalid (field ``from_round``)",
                s403="not_organiser",
                s404="stage_not_found",
                s409="already_withdrawn",
            ),
        },
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_selectors.stage_manage_get(user=request.user, stage_id=stage_id)  # before the body
        data = validated_input(self.InputSerializer, request)
        withdrawal = stages_withdrawals.stage_withdraw(
            user=request.user,
            stage_id=stage.pk,
            player_id=data["player"],
            from_round=data["from_round"],
            reason=data["reason"],
        )
        return Response(WithdrawalOutputSerializer(withdrawal).data, status=status.HTTP_201_CREATED)


class SeriesForfeitApi(APIView):
    """Record that ``players`` did not come to a series (organisers), while none of its games is
    recorded and when it decides the series (the players who came are no more than those who go
    on: two seats, the opponent wins; everyone away, a double forfeit). Answers the series."""

    class InputSerializer(serializers.Serializer[Any]):
        players = serializers.ListField(
            child=serializers.IntegerField(max_value=MAX_ID),
            allow_empty=False,
            help_text=_("The ids of the players who did not come."),
        )
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)

        class Meta:
            ref_name = "SeriesForfeitInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            201: SeriesOutputSerializer,
            **_refusals(
                s400="invalid, forfeit_not_deciding (field ``players``)",
                s403="not_organiser",
                s404="series_not_found",
                s409="series_started",
            ),
        },
    )
    def post(self, request: Request, series_id: int) -> Response:
        series = tournament_selectors.series_manage_get(
            user=request.user, series_id=series_id
        )  # before the body
        data = validated_input(self.InputSerializer, request)
        stages_withdrawals.series_forfeit(
            user=request.user,
            series_id=series.pk,
            player_ids=data["players"],
            reason=data["reason"],
        )
        return Response(
            SeriesOutputSerializer(
                tournament_selectors.series_get(user=request.user, series_id=series.pk)
            ).data,
            status=status.HTTP_201_CREATED,
        )


class BracketSlotOutputSerializer(serializers.ModelSerializer[BracketSlot]):
    class Meta:
        model = BracketSlot
        fields = ["place", "to_key", "to_seat"]


class BracketSeriesOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="series.pk")
    key = serializers.CharField(source="series.key")
    phase = serializers.CharField(source="series.phase")
    phase_round = serializers.IntegerField(source="series.phase_round")
    group = serializers.CharField(source="series.group")
    round = serializers.IntegerField(source="series.round.number")
    table = serializers.IntegerField(source="series.table")
    seats = seats_field()
    advance = serializers.IntegerField(source="series.advance", help_text="How many of its players go on.")
    walkover = serializers.BooleanField(source="series.walkover")
    flagged = serializers.BooleanField(source="series.flagged")
    status = serializers.CharField(source="series.status")
    placings = serializers.JSONField(source="series.placings", help_text="By player id, once decided.")
    score = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Games won so far by seat; None before the first game and for a walkover.",
    )
    slots = BracketSlotOutputSerializer(
        many=True, help_text="Where the player finishing ``place``-th goes: seat ``to_seat`` of ``to_key``."
    )


class ChampionOutputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class StageBracketOutputSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField(source="stage.pk")
    format = serializers.CharField(source="stage.format")
    status = serializers.CharField(source="stage.status")
    results_version = serializers.IntegerField(source="stage.results_version")
    series = BracketSeriesOutputSerializer(source="lines", many=True)
    champion = ChampionOutputSerializer(
        allow_null=True,
        help_text="Once the stage is finished: the final's winner, or the top of the standings "
        "(Swiss, round robin) once they follow every result.",
    )


class StageBracketApi(APIView):
    """Every series of a stage as a bracket draws it (any format), in round and table order, and
    the champion once the stage is finished."""

    @extend_schema(responses={200: StageBracketOutputSerializer, **_refusals(s404="stage_not_found")})
    def get(self, request: Request, stage_id: int) -> Response:
        bracket = stage_selectors.stage_bracket_get(user=request.user, stage_id=stage_id)
        return Response(StageBracketOutputSerializer(bracket).data)


class SeriesDetailApi(APIView):
    @extend_schema(responses=SeriesOutputSerializer)
    def get(self, request: Request, series_id: int) -> Response:
        return Response(
            SeriesOutputSerializer(
                tournament_selectors.series_get(user=request.user, series_id=series_id)
            ).data
        )


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


# --- Export --------------------------------------------------------------------------------------


class ExportSeriesOutputSerializer(serializers.Serializer[Any]):
    series = SeriesOutputSerializer()
    results = GameResultOutputSerializer(
        many=True, help_text="The confirmed version of each game, in game order (a void one says so)."
    )


class ExportRoundOutputSerializer(serializers.Serializer[Any]):
    round = RoundOutputSerializer()
    series = ExportSeriesOutputSerializer(many=True)


class ExportStageOutputSerializer(serializers.Serializer[Any]):
    stage = StageOutputSerializer()
    rounds = ExportRoundOutputSerializer(many=True)
    standings = StandingsOutputSerializer()


class TournamentExportOutputSerializer(serializers.Serializer[Any]):
    format = serializers.CharField(help_text="Always snapleague.tournament.")
    version = serializers.IntegerField(help_text="The export's own version (1); docs/exports.md.")
    tournament = TournamentOutputSerializer()
    players = PlayerOutputSerializer(many=True)
    stages = ExportStageOutputSerializer(many=True)


class TournamentExportApi(APIView):
    """The whole tournament in one document (docs/exports.md): the tournament, its players, and
    each stage with its rounds, series, confirmed results and standings. ``?download=1`` names it
    as a file."""

    permission_classes: list[Any] = []

    @extend_schema(responses=TournamentExportOutputSerializer)
    def get(self, request: Request, tournament_id: int) -> Response:
        data = exports.tournament_export_data(user=request.user, tournament_id=tournament_id)
        response = Response(TournamentExportOutputSerializer(data).data)
        if request.query_params.get("download"):
            name = slugify(data["tournament"].name) or "tournament"
            response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return response


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


# --- Ratings (docs/ratings.md) --------------------------------------------------------------------


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


# --- Seasons (docs/seasons.md) -------------------------------------------------------------------


class SeasonOutputSerializer(serializers.ModelSerializer[Season]):
    class Meta:
        model = Season
        fields = [
            "id",
            "club",
            "name",
            "starts_on",
            "ends_on",
            "game",
            "points_scale",
            "best_results",
            "created_at",
        ]


class SeasonInputSerializer(serializers.Serializer[Any]):
    """A season's fields. Whether they make a season (dates in order, a scale that falls from 1st
    place, best results ≥ 1, a free name) is the service's check: a 400 naming the field."""

    name = serializers.CharField(max_length=120)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    game = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="snap, snapszer or blank: both"
    )
    points_scale = serializers.ListField(
        child=serializers.IntegerField(min_value=-MAX_NUMBER, max_value=MAX_NUMBER),
        required=False,
        help_text="Points for 1st, 2nd, … place; default 25, 18, 15, 12, 10, 8, 6, 4, 2, 1.",
    )
    best_results = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=-MAX_NUMBER,
        max_value=MAX_NUMBER,
        help_text="How many of a player's best results count; null: all.",
    )

    class Meta:
        ref_name = "SeasonInput"


class SeasonListCreateApi(ListAPIView[Season]):
    """Seasons (``?club=``); a club's organisers create one with POST."""

    serializer_class = SeasonOutputSerializer
    filterset_fields = {"club": ["exact"]}

    class InputSerializer(SeasonInputSerializer):
        club = serializers.IntegerField(max_value=MAX_ID)

        class Meta:
            ref_name = "SeasonCreateInput"

    def get_queryset(self) -> QuerySet[Season]:
        return Season.objects.order_by("club_id", "-starts_on", "name")

    @extend_schema(request=InputSerializer, responses={201: SeasonOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_selectors.club_get_by_id(club_id=data.pop("club"))
        season = season_services.season_create(user=request.user, club=club, **data)
        return Response(SeasonOutputSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDetailApi(APIView):
    """A season; its club's organisers change it with PATCH (the fields sent; the others stay)."""

    class InputSerializer(SeasonInputSerializer):
        class Meta:
            ref_name = "SeasonUpdateInput"

    @extend_schema(responses=SeasonOutputSerializer)
    def get(self, request: Request, season_id: int) -> Response:
        return Response(SeasonOutputSerializer(season_selectors.season_by_id(season_id=season_id)).data)

    @extend_schema(request=InputSerializer, responses={200: SeasonOutputSerializer})
    def patch(self, request: Request, season_id: int) -> Response:
        # Who may is decided before the body is read (a refusal does not depend on it).
        season = season_selectors.season_manage_get(user=request.user, season_id=season_id)
        data = validated_input(self.InputSerializer, request, partial=True)
        current = season_selectors.season_fields(season)
        sent = {k: v for k, v in data.items() if k in request.data}
        season = season_services.season_update(user=request.user, season_id=season.pk, **{**current, **sent})
        return Response(SeasonOutputSerializer(season).data)


class SeasonResultOutputSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    counted = serializers.BooleanField(help_text="Among the player's best results.")
    provisional = serializers.BooleanField(help_text="The tournament has not finished.")


class SeasonRowOutputSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(source="row.rank")
    position = serializers.IntegerField(source="row.position")
    player = serializers.IntegerField(source="player.pk")
    player_name = serializers.CharField(source="player.name")
    points = serializers.IntegerField(source="row.points")
    counted = serializers.IntegerField(source="row.counted")
    played = serializers.IntegerField(source="row.played")
    wins = serializers.IntegerField(source="row.wins")
    countback = serializers.ListField(
        child=serializers.IntegerField(),
        source="row.countback",
        help_text="Counted results placed 1st, 2nd, …",
    )
    head_to_head = serializers.IntegerField(source="row.head_to_head", allow_null=True)
    separated_by = serializers.CharField(
        source="row.separated_by",
        help_text="points, places_<n>, head_to_head; empty: first row or shared rank.",
    )
    provisional = serializers.BooleanField(source="row.provisional")
    results = SeasonResultOutputSerializer(many=True, source="row.results")


class SeasonColumnOutputSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField(source="tournament.pk")
    name = serializers.CharField(source="tournament.name")
    day = serializers.DateField()
    provisional = serializers.BooleanField()


class SeasonTableOutputSerializer(serializers.Serializer[Any]):
    season = SeasonOutputSerializer()
    provisional = serializers.BooleanField()
    tournaments = SeasonColumnOutputSerializer(many=True, source="columns")
    rows = SeasonRowOutputSerializer(many=True, source="lines")


class SeasonTableApi(APIView):
    """The season table, worked out from the tournaments' stored standings when asked."""

    permission_classes: list[Any] = []

    @extend_schema(responses=SeasonTableOutputSerializer)
    def get(self, request: Request, season_id: int) -> Response:
        page = season_selectors.season_page_get(user=request.user, season_id=season_id)
        return Response(SeasonTableOutputSerializer(page).data)


class SeasonCandidateOutputSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField(source="tournament.pk")
    name = serializers.CharField(source="tournament.name")
    day = serializers.DateField()
    by_date = serializers.BooleanField()
    choice = serializers.CharField(source="choice_value", help_text="auto (by date), in or out")
    included = serializers.BooleanField()


class SeasonTournamentsApi(APIView):
    """The club's tournaments and whether each is in the season (organisers), and the organiser's
    choice for one: ``in`` whatever its date, ``out``, or ``auto`` (by date)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        tournament = serializers.IntegerField(max_value=MAX_ID)
        choice = serializers.ChoiceField(choices=["auto", "in", "out"])

        class Meta:
            ref_name = "SeasonTournamentInput"

    @extend_schema(responses=SeasonCandidateOutputSerializer(many=True))
    def get(self, request: Request, season_id: int) -> Response:
        season = season_selectors.season_manage_get(user=request.user, season_id=season_id)
        candidates = season_selectors.season_candidates(season=season)
        return Response(SeasonCandidateOutputSerializer(candidates, many=True).data)

    @extend_schema(request=InputSerializer, responses={200: SeasonCandidateOutputSerializer(many=True)})
    def post(self, request: Request, season_id: int) -> Response:
        season = season_selectors.season_manage_get(user=request.user, season_id=season_id)
        data = validated_input(self.InputSerializer, request)
        season = season_services.season_tournament_set(
            user=request.user, season_id=season.pk, tournament_id=data["tournament"], choice=data["choice"]
        )
        candidates = season_selectors.season_candidates(season=season)
        return Response(SeasonCandidateOutputSerializer(candidates, many=True).data)


# --- Ladders (docs/ladder.md) --------------------------------------------------------------------


class LadderOutputSerializer(serializers.ModelSerializer[Ladder]):
    class Meta:
        model = Ladder
        fields = [
            "id",
            "club",
            "season",
            "name",
            "game",
            "reach",
            "reply_days",
            "best_of",
            "rematch_days",
            "created_at",
        ]


class LadderInputSerializer(serializers.Serializer[Any]):
    """A ladder's settings; whether they make a ladder is the service's check (a 400 naming the field)."""

    name = serializers.CharField(max_length=120)
    game = serializers.CharField(help_text="snap or snapszer")
    season = serializers.IntegerField(required=False, allow_null=True, default=None, max_value=MAX_ID)
    reach = serializers.IntegerField(required=False, default=3, min_value=-MAX_NUMBER, max_value=MAX_NUMBER)
    reply_days = serializers.IntegerField(
        required=False, default=7, min_value=-MAX_NUMBER, max_value=MAX_NUMBER
    )
    best_of = serializers.IntegerField(required=False, default=3, min_value=-MAX_NUMBER, max_value=MAX_NUMBER)
    rematch_days = serializers.IntegerField(
        required=False, default=7, min_value=-MAX_NUMBER, max_value=MAX_NUMBER
    )

    class Meta:
        ref_name = "LadderInput"


def _ladder_fields(data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data)
    data["season_id"] = data.pop("season", None)
    return data


class LadderRungOutputSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(source="rung.place")
    player = serializers.IntegerField(source="rung.player_id")
    player_name = serializers.CharField(source="rung.player.name")
    open_challenge = serializers.IntegerField(source="busy.pk", allow_null=True, default=None)
    can_challenge = serializers.BooleanField(
        help_text="The requesting user's player may challenge this one now."
    )


class LadderDetailOutputSerializer(serializers.Serializer[Any]):
    ladder = LadderOutputSerializer()
    my_place = serializers.IntegerField(allow_null=True)
    rungs = LadderRungOutputSerializer(many=True, source="lines")


class LadderChallengeOutputSerializer(serializers.ModelSerializer[LadderChallenge]):
    class Meta:
        model = LadderChallenge
        fields = [
            "id",
            "ladder",
            "challenger",
            "challenged",
            "status",
            "how",
            "challenger_place",
            "challenged_place",
            "challenger_won",
            "challenger_wins",
            "challenged_wins",
            "due_at",
            "created_at",
            "accepted_at",
            "decided_at",
        ]


class LadderListCreateApi(ListAPIView[Ladder]):
    """Ladders (``?club=``); a club's organisers create one with POST."""

    serializer_class = LadderOutputSerializer
    filterset_fields = {"club": ["exact"]}

    class InputSerializer(LadderInputSerializer):
        club = serializers.IntegerField(max_value=MAX_ID)

        class Meta:
            ref_name = "LadderCreateInput"

    def get_queryset(self) -> QuerySet[Ladder]:
        return Ladder.objects.order_by("club_id", "name")

    @extend_schema(request=InputSerializer, responses={201: LadderOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_selectors.club_get_by_id(club_id=data.pop("club"))
        ladder = ladder_services.ladder_create(user=request.user, club=club, **_ladder_fields(data))
        return Response(LadderOutputSerializer(ladder).data, status=status.HTTP_201_CREATED)


class LadderDetailApi(APIView):
    """The ladder with its places (and whom the requesting user may challenge); its club's
    organisers change the settings with PATCH (the fields sent; the others stay)."""

    class InputSerializer(LadderInputSerializer):
        class Meta:
            ref_name = "LadderUpdateInput"

    @extend_schema(responses=LadderDetailOutputSerializer)
    def get(self, request: Request, ladder_id: int) -> Response:
        page = ladder_selectors.ladder_page_get(user=request.user, ladder_id=ladder_id)
        return Response(LadderDetailOutputSerializer(page).data)

    @extend_schema(request=InputSerializer, responses={200: LadderOutputSerializer})
    def patch(self, request: Request, ladder_id: int) -> Response:
        ladder = ladder_selectors.ladder_manage_get(user=request.user, ladder_id=ladder_id)
        data = validated_input(self.InputSerializer, request, partial=True)
        current = ladder_selectors.ladder_fields(ladder)
        sent = {k: v for k, v in data.items() if k in request.data}
        ladder = ladder_services.ladder_update(
            user=request.user, ladder_id=ladder.pk, **_ladder_fields({**current, **sent})
        )
        return Response(LadderOutputSerializer(ladder).data)


class LadderPlayersApi(APIView):
    """Organisers: a club player joins at the bottom (``add``) or leaves (``remove``)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        player = serializers.IntegerField(max_value=MAX_ID)
        action = serializers.ChoiceField(choices=["add", "remove"], default="add")

        class Meta:
            ref_name = "LadderPlayersInput"

    @extend_schema(request=InputSerializer, responses={200: LadderDetailOutputSerializer})
    def post(self, request: Request, ladder_id: int) -> Response:
        ladder = ladder_selectors.ladder_manage_get(user=request.user, ladder_id=ladder_id)
        data = validated_input(self.InputSerializer, request)
        service = (
            ladder_services.ladder_player_remove
            if data["action"] == "remove"
            else ladder_services.ladder_player_add
        )
        service(user=request.user, ladder_id=ladder.pk, player_id=data["player"])
        page = ladder_selectors.ladder_page_get(user=request.user, ladder_id=ladder.pk)
        return Response(LadderDetailOutputSerializer(page).data)


class LadderChallengesApi(APIView):
    """The ladder's challenges, newest first; POST: the requesting user's player challenges
    ``challenged`` (an organiser may name the ``challenger``)."""

    class InputSerializer(serializers.Serializer[Any]):
        challenged = serializers.IntegerField(max_value=MAX_ID)
        challenger = serializers.IntegerField(required=False, allow_null=True, default=None, max_value=MAX_ID)

        class Meta:
            ref_name = "LadderChallengeInput"

    @extend_schema(responses=LadderChallengeOutputSerializer(many=True))
    def get(self, request: Request, ladder_id: int) -> Response:
        ladder = ladder_selectors.ladder_by_id(ladder_id=ladder_id)
        return Response(
            LadderChallengeOutputSerializer(ladder_selectors.challenges_list(ladder=ladder), many=True).data
        )

    @extend_schema(request=InputSerializer, responses={201: LadderChallengeOutputSerializer})
    def post(self, request: Request, ladder_id: int) -> Response:
        if not request.user.is_authenticated:
            self.permission_denied(request)
        ladder_selectors.challenger_check(
            user=request.user, ladder=ladder_selectors.ladder_by_id(ladder_id=ladder_id)
        )
        data = validated_input(self.InputSerializer, request)
        challenge = ladder_services.challenge_create(
            user=request.user,
            ladder_id=ladder_id,
            challenged_id=data["challenged"],
            challenger_id=data["challenger"],
        )
        return Response(LadderChallengeOutputSerializer(challenge).data, status=status.HTTP_201_CREATED)


class LadderChallengeAnswerApi(APIView):
    """The challenged accepts or declines (a forfeit); the challenger withdraws an open one."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        action = serializers.ChoiceField(choices=["accept", "decline", "withdraw"])

        class Meta:
            ref_name = "LadderAnswerInput"

    @extend_schema(request=InputSerializer, responses={200: LadderChallengeOutputSerializer})
    def post(self, request: Request, challenge_id: int) -> Response:
        ladder_selectors.challenge_party_get(user=request.user, challenge_id=challenge_id)
        data = validated_input(self.InputSerializer, request)
        service = {
            "accept": ladder_services.challenge_accept,
            "decline": ladder_services.challenge_decline,
            "withdraw": ladder_services.challenge_withdraw,
        }[data["action"]]
        challenge = service(user=request.user, challenge_id=challenge_id)
        return Response(LadderChallengeOutputSerializer(challenge).data)


class LadderChallengeResultApi(APIView):
    """The match's score: recorded by an organiser, or reported by each player (recorded when the
    two reports agree)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        challenger_wins = serializers.IntegerField(min_value=0, max_value=99)
        challenged_wins = serializers.IntegerField(min_value=0, max_value=99)

        class Meta:
            ref_name = "LadderResultInput"

    @extend_schema(request=InputSerializer, responses={200: LadderChallengeOutputSerializer})
    def post(self, request: Request, challenge_id: int) -> Response:
        ladder_selectors.challenge_party_get(user=request.user, challenge_id=challenge_id)
        data = validated_input(self.InputSerializer, request)
        challenge = ladder_services.challenge_result(user=request.user, challenge_id=challenge_id, **data)
        return Response(LadderChallengeOutputSerializer(challenge).data)
