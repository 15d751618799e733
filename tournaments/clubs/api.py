"""REST entry points of clubs, people and their players (docs/people.md): parse -> one service -> serialise.

``clubs/`` (anyone reads; a signed-in user creates one), ``clubs/{id}/``, ``clubs/{id}/invitations/``
(an organiser invites another), ``invitations/accept/``, ``players/`` (organisers add one),
``players/{id}/``; ``players/{id}/claims/`` (an organiser makes a claim link), ``claims/accept/`` (the signed-in
person takes the player), ``players/{id}/unlink/`` (an organiser unlinks the account),
``clubs/{id}/players/`` (many players at once, all or none) and ``clubs/{id}/players/import/`` (the
CSV import of the club's page, through the API: ``tournaments/clubs/player_import.py`` for both).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import MAX_ID, validated_input
from snapleague.api_schema import refusals
from snapleague.errors import ApplicationError
from tournaments.access import require_organiser
from tournaments.clubs import player_import, services
from tournaments.clubs.selectors import club_get_by_id
from tournaments.clubs.services import (
    club_create,
    organiser_invitation_accept,
    organiser_invitation_create,
    player_create,
)
from tournaments.competitions.selectors.tournaments import tournaments_visible
from tournaments.models import Club, Player


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
        club = club_create(user=request.user, name=data["name"])
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
        club = club_get_by_id(club_id=club_id)
        invitation, token = organiser_invitation_create(user=request.user, club=club)
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
        club = organiser_invitation_accept(user=request.user, token=data["token"])
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
        if tournament and not tournaments_visible(user=self.request.user).filter(pk=tournament).exists():
            return queryset.none()
        return queryset

    @extend_schema(request=InputSerializer, responses={201: PlayerOutputSerializer})
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        club = club_get_by_id(club_id=data["club"])
        player = player_create(user=request.user, club=club, name=data["name"])
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(RetrieveAPIView[Player]):
    serializer_class = PlayerOutputSerializer
    queryset = Player.objects.all()
    lookup_url_kwarg = "player_id"


class PlayerLinkOutputSerializer(serializers.ModelSerializer[Player]):
    username = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "username"]

    def get_username(self, player: Player) -> str:
        return player.user.get_username() if player.user is not None else ""


class ClaimOutputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    token = serializers.CharField()
    url = serializers.CharField(help_text="The page that accepts it (sign in first).")
    expires_at = serializers.DateTimeField()


class PlayerClaimCreateApi(APIView):
    """An organiser invites a person to claim the player: a link, valid once, until it expires
    (earlier open links for the player stop working)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: ClaimOutputSerializer,
            **refusals(s403="not_organiser", s404="player_not_found", s409="player_claimed"),
        },
    )
    def post(self, request: Request, player_id: int) -> Response:
        claim, token = services.player_claim_create(user=request.user, player_id=player_id)
        body = {
            "player": claim.player_id,
            "token": token,
            "url": request.build_absolute_uri(reverse("tournaments:claim", args=[token])),
            "expires_at": claim.expires_at,
        }
        return Response(ClaimOutputSerializer(body).data, status=status.HTTP_201_CREATED)


class PlayerClaimAcceptApi(APIView):
    """The signed-in user takes the player a claim link names."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        token = serializers.CharField(max_length=500)

        class Meta:
            ref_name = "PlayerClaimAcceptInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            200: PlayerLinkOutputSerializer,
            **refusals(
                s400="claim_invalid, invalid (no token)",
                s409="claim_used, claim_withdrawn, already_yours, player_claimed, one_player_per_club",
                s410="claim_expired",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request)
        player = services.player_claim_accept(user=request.user, token=data["token"])
        return Response(PlayerLinkOutputSerializer(player).data)


class PlayerUnlinkApi(APIView):
    """An organiser unlinks the player from its account (results and ratings stay the player's)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: PlayerLinkOutputSerializer,
            **refusals(s403="not_organiser", s404="player_not_found", s409="not_linked"),
        },
    )
    def post(self, request: Request, player_id: int) -> Response:
        player = services.player_unlink(user=request.user, player_id=player_id)
        return Response(PlayerLinkOutputSerializer(player).data)


# --- Many players at once (issue 23 item 6) -------------------------------------------------------


class PlayerItemInputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(allow_blank=True, trim_whitespace=False, help_text="The player's name.")

    class Meta:
        ref_name = "ClubPlayersCreateItem"


class ClubPlayersCreateApi(APIView):
    """Create many players of the club in one request (organisers): all or none, in one
    transaction, answered in the order given. Each name is checked as a row of the CSV import is
    (spaces tidied; not empty, at most 120 characters, no control characters, not twice in the
    list, not a name the club has already, case aside); any item at fault refuses the whole list:
    400 ``invalid_players`` with ``fields`` ``players.<index>.name`` (0-based) and ``extra.items``
    the indexes at fault. At most 2,000 players a request (``too_many_players``)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        players = serializers.ListField(
            child=PlayerItemInputSerializer(),
            allow_empty=False,
            help_text="The players to create, in order (at most 2,000).",
        )

        class Meta:
            ref_name = "ClubPlayersCreateInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            201: PlayerOutputSerializer(many=True),
            **refusals(
                s400="invalid_players (``fields``: ``players.<index>.name``; ``extra.items``), "
                "too_many_players, invalid (no list, an item without a name)",
                s403="not_organiser",
                s404="club_not_found",
                s409="conflict (someone added one of them meanwhile: nothing was created)",
            ),
        },
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = club_get_by_id(club_id=club_id)
        require_organiser(request.user, club)  # before the body
        data = validated_input(self.InputSerializer, request)
        created = player_import.players_create_many(
            user=request.user, club=club, names=[item["name"] for item in data["players"]]
        )
        return Response(PlayerOutputSerializer(created, many=True).data, status=status.HTTP_201_CREATED)


class ImportRowOutputSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField(help_text="The line of the text (1 is the first; blank lines count).")
    name = serializers.CharField(help_text="The name as it will be saved (spaces tidied).")
    status = serializers.ChoiceField(
        choices=[s.value for s in player_import.RowStatus],
        help_text="new (created, or would be), exists (the club has the player: left as it is), "
        "error (left out; ``message`` says why).",
    )
    message = serializers.CharField(help_text="Why, for exists and error (translated); empty for new.")


class PlayersImportOutputSerializer(serializers.Serializer[Any]):
    dry_run = serializers.BooleanField()
    rows = ImportRowOutputSerializer(many=True)
    created = PlayerOutputSerializer(many=True, help_text="The players created (none in a dry run).")


class ClubPlayersImportApi(APIView):
    """The club page's CSV import, through the API (organisers; docs/web.md, "Importing players"):
    ``text`` is the file's content (one player a line, the name in the first column or the column
    headed "name"; comma, semicolon or tab). ``dry_run`` answers the preview (200, nothing saved);
    otherwise the rows marked new are created in one transaction (201) and the others left out, as
    on the page. At most 256 KB and 2,000 rows."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer[Any]):
        text = serializers.CharField(
            allow_blank=True, trim_whitespace=False, help_text="The CSV file's content, as text."
        )
        dry_run = serializers.BooleanField(
            required=False, default=False, help_text="Only say what would happen (the preview)."
        )

        class Meta:
            ref_name = "ClubPlayersImportInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            200: PlayersImportOutputSerializer,
            201: PlayersImportOutputSerializer,
            **refusals(
                s400="invalid_import (field ``text``: no names, over 256 KB or 2,000 rows), invalid",
                s403="not_organiser",
                s404="club_not_found",
                s409="conflict (someone added one of them meanwhile: nothing was imported)",
            ),
        },
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = club_get_by_id(club_id=club_id)
        require_organiser(request.user, club)  # before the body
        data = validated_input(self.InputSerializer, request)
        try:
            text = player_import.text_pasted(data["text"])
            if data["dry_run"]:
                plan = player_import.players_import_plan(user=request.user, club=club, text=text)
                body = {"dry_run": True, "rows": plan.rows, "created": []}
                return Response(PlayersImportOutputSerializer(body).data)
            plan, created = player_import.players_import_done(user=request.user, club=club, text=text)
        except ApplicationError as exc:
            if "file" in exc.fields:  # the page's upload field is the API's ``text``
                exc.fields["text"] = exc.fields.pop("file")
            raise
        body = {"dry_run": False, "rows": plan.rows, "created": created}
        return Response(PlayersImportOutputSerializer(body).data, status=status.HTTP_201_CREATED)
