"""REST entry points of stages: the list (organisers create one of any format), one stage, the
preview of what publishing would store, and withdrawals."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import MAX_ID, MAX_NUMBER, validated_input
from snapleague.api_schema import refusals
from tournaments.competitions.selectors import stages as stage_selectors
from tournaments.competitions.selectors import tournaments as tournament_selectors
from tournaments.competitions.selectors.tournaments import stage_get
from tournaments.competitions.stages import create as stages_create
from tournaments.competitions.stages import publish as stages_publish
from tournaments.competitions.stages import withdrawals as stages_withdrawals
from tournaments.competitions.standings.chain import Tiebreak
from tournaments.models import Stage, StageFormat, Withdrawal


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
            **refusals(
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
            **refusals(s403="not_organiser", s404="stage_not_found"),
        }
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_get(user=request.user, stage_id=stage_id)
        preview = stages_publish.stage_preview(user=request.user, stage_id=stage.pk)
        return Response(StagePreviewOutputSerializer(preview).data)


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

    @extend_schema(responses={200: WithdrawalOutputSerializer(many=True), **refusals(s404="stage_not_found")})
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_get(user=request.user, stage_id=stage_id)
        withdrawals = stage_selectors.stage_withdrawals_list(stage=stage)
        return Response(WithdrawalOutputSerializer(withdrawals, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: WithdrawalOutputSerializer,
            **refusals(
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
