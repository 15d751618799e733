"""REST entry points of a club night: parse -> one service or selector -> serialise.

``tournaments/{id}/sessions/`` (list; organisers create), ``sessions/{id}/`` (with its rounds and
tables), ``sessions/{id}/rounds/`` (schedule a round), ``sessions/{id}/checkins/`` (the desk's list;
check in: the desk or the player), ``sessions/{id}/close/`` (close check-in: the no-shows), ``sessions/{id}/reopen/`` (reopen it: the
no-shows taken back), ``players/{id}/calendar/`` (the player replaces their calendar's address).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from snapleague.api_inputs import MAX_ID, validated_input
from snapleague.api_schema import refusals
from tournaments.competitions.selectors import tournaments as tournament_selectors_module
from tournaments.integrations import calendar
from tournaments.models import CheckIn, Round, Session, Station
from tournaments.nights import checkin, selectors, services


class StationOutputSerializer(serializers.ModelSerializer[Station]):
    class Meta:
        model = Station
        fields = ["id", "number", "name", "session"]


class ScheduledRoundOutputSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["id", "stage", "number", "starts_at", "session"]


class SessionOutputSerializer(serializers.ModelSerializer[Session]):
    class Meta:
        model = Session
        fields = [
            "id",
            "tournament",
            "name",
            "starts_at",
            "venue",
            "online",
            "check_in",
            "check_in_closed_at",
            "rounds_planned",
        ]


class SessionDetailOutputSerializer(SessionOutputSerializer):
    rounds = serializers.SerializerMethodField()
    stations = serializers.SerializerMethodField()

    class Meta(SessionOutputSerializer.Meta):
        fields = [*SessionOutputSerializer.Meta.fields, "rounds", "stations"]

    @extend_schema(responses=ScheduledRoundOutputSerializer(many=True))
    def get_rounds(self, session: Session) -> list[dict[str, Any]]:
        rounds = session.rounds.order_by("starts_at", "number")
        return ScheduledRoundOutputSerializer(rounds, many=True).data  # type: ignore[return-value]

    @extend_schema(responses=StationOutputSerializer(many=True))
    def get_stations(self, session: Session) -> list[dict[str, Any]]:
        return StationOutputSerializer(selectors.session_stations(session=session), many=True).data  # type: ignore[return-value]


class CheckInOutputSerializer(serializers.ModelSerializer[CheckIn]):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = CheckIn
        fields = ["id", "session", "player", "player_name", "created_at"]


class TournamentSessionsApi(APIView):
    """A tournament's sessions (anyone who sees the tournament); its organisers add one, never in
    the past."""

    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=120)
        starts_at = serializers.DateTimeField()
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
        online = serializers.BooleanField(required=False, default=False)
        rounds_planned = serializers.IntegerField(
            min_value=0,
            max_value=50,
            required=False,
            allow_null=True,
            default=None,
            help_text=_(
                "How many rounds published later go into this session by themselves (none: by hand)."
            ),
        )

        class Meta:
            ref_name = "SessionCreateInput"

    @extend_schema(
        responses={200: SessionOutputSerializer(many=True), **refusals(s404="tournament_not_found")}
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_selectors_module.tournament_get(
            user=request.user, tournament_id=tournament_id
        )
        sessions = selectors.tournament_sessions_list(tournament=tournament)
        return Response(SessionOutputSerializer(sessions, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: SessionOutputSerializer,
            **refusals(
                s400="invalid (field ``name``, ``venue``), session_in_past (field ``starts_at``)",
                s403="not_organiser",
                s404="tournament_not_found",
            ),
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_selectors_module.tournament_manage_get(
            user=request.user, tournament_id=tournament_id
        )
        data = validated_input(self.InputSerializer, request)
        session = services.session_create(user=request.user, tournament=tournament, **data)
        return Response(SessionOutputSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailApi(APIView):
    """A session with its rounds and tables; its organisers change it with PATCH (name, venue,
    online, rounds_planned: the fields sent; the others stay)."""

    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=120)
        venue = serializers.CharField(max_length=200, allow_blank=True)
        online = serializers.BooleanField()
        rounds_planned = serializers.IntegerField(min_value=0, max_value=50, allow_null=True)

        class Meta:
            ref_name = "SessionUpdateInput"

    @extend_schema(responses={200: SessionDetailOutputSerializer, **refusals(s404="session_not_found")})
    def get(self, request: Request, session_id: int) -> Response:
        session = selectors.session_get(user=request.user, session_id=session_id)
        return Response(SessionDetailOutputSerializer(session).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: SessionDetailOutputSerializer,
            **refusals(
                s400="invalid (field ``name``, ``venue``, ``rounds_planned``)",
                s403="not_organiser",
                s404="session_not_found",
            ),
        },
    )
    def patch(self, request: Request, session_id: int) -> Response:
        session = selectors.session_manage_get(user=request.user, session_id=session_id)  # before the body
        data = validated_input(self.InputSerializer, request, partial=True)
        sent = {k: v for k, v in data.items() if k in request.data}
        session = services.session_update(
            user=request.user, session_id=session.pk, **{**selectors.session_fields(session), **sent}
        )
        return Response(SessionDetailOutputSerializer(session).data)


class SessionRoundScheduleApi(APIView):
    """Schedule a published round of the tournament into the session (organisers); its series get
    the session's tables in table order."""

    class InputSerializer(serializers.Serializer[Any]):
        round = serializers.IntegerField(max_value=MAX_ID, help_text=_("The round's id."))
        starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)

        class Meta:
            ref_name = "SessionRoundScheduleInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            200: ScheduledRoundOutputSerializer,
            **refusals(s400="invalid (field ``round``)", s403="not_organiser", s404="session_not_found"),
        },
    )
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_manage_get(user=request.user, session_id=session_id)  # before the body
        data = validated_input(self.InputSerializer, request)
        scheduled = services.session_round_schedule(
            user=request.user,
            session_id=session.pk,
            round_id=data["round"],
            starts_at=data["starts_at"],
        )
        return Response(ScheduledRoundOutputSerializer(scheduled).data)


class SessionCheckInsApi(APIView):
    """Who is checked in (the desk: organisers and referees); check a player in (the desk, or the
    player on their own account). Checking in twice is answered 200 with the first check-in and
    ``created: false``: nothing changes."""

    class InputSerializer(serializers.Serializer[Any]):
        player = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=_("The player's id."))

        class Meta:
            ref_name = "SessionCheckInInput"

    class CreatedOutputSerializer(CheckInOutputSerializer):
        created = serializers.BooleanField()

        class Meta(CheckInOutputSerializer.Meta):
            fields = [*CheckInOutputSerializer.Meta.fields, "created"]
            ref_name = "SessionCheckInCreated"

    @extend_schema(
        responses={
            200: CheckInOutputSerializer(many=True),
            **refusals(s403="not_referee", s404="session_not_found"),
        }
    )
    def get(self, request: Request, session_id: int) -> Response:
        page = selectors.session_desk_get(user=request.user, session_id=session_id)
        check_ins = [row.check_in for row in page.rows if row.check_in is not None]
        return Response(CheckInOutputSerializer(check_ins, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: CreatedOutputSerializer,
            201: CreatedOutputSerializer,
            **refusals(
                s400="not_entered (field ``player``)",
                s403="not_allowed",
                s404="session_not_found",
                s409="check_in_closed",
            ),
        },
    )
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_check_in_get(user=request.user, session_id=session_id)  # before the body
        data = validated_input(self.InputSerializer, request)
        check_in, created = checkin.session_check_in(
            user=request.user, session_id=session.pk, player_id=data["player"]
        )
        body = {**CheckInOutputSerializer(check_in).data, "created": created}
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class SessionCloseApi(APIView):
    """Close check-in (organisers): every series of the session's rounds not started yet with a
    player not checked in is a no-show (both away: a double forfeit). Answers the series decided so
    and those left to the organiser (more players here than go on)."""

    class OutputSerializer(serializers.Serializer[Any]):
        session = SessionOutputSerializer()
        forfeited = serializers.ListField(child=serializers.IntegerField())
        left = serializers.ListField(child=serializers.IntegerField())

        class Meta:
            ref_name = "SessionCloseOutput"

    @extend_schema(
        request=None,
        responses={
            200: OutputSerializer,
            **refusals(s403="not_organiser", s404="session_not_found", s409="check_in_closed"),
        },
    )
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_manage_get(user=request.user, session_id=session_id)
        report = checkin.session_check_in_close(user=request.user, session_id=session.pk)
        return Response(
            {
                "session": SessionOutputSerializer(report.session).data,
                "forfeited": [s.pk for s in report.forfeited],
                "left": [s.pk for s in report.left],
            }
        )


class SessionReopenApi(APIView):
    """Reopen check-in (organisers): the no-shows the close recorded are taken back (their series
    are to be played; the stage's standings follow), except those the tournament has moved on
    from (a round paired from the result, the stage finished), which are kept and listed."""

    class OutputSerializer(serializers.Serializer[Any]):
        session = SessionOutputSerializer()
        withdrawn = serializers.ListField(child=serializers.IntegerField())
        kept = serializers.ListField(child=serializers.IntegerField())

        class Meta:
            ref_name = "SessionReopenOutput"

    @extend_schema(
        request=None,
        responses={
            200: OutputSerializer,
            **refusals(s403="not_organiser", s404="session_not_found", s409="check_in_open"),
        },
    )
    def post(self, request: Request, session_id: int) -> Response:
        session = selectors.session_manage_get(user=request.user, session_id=session_id)
        report = checkin.session_check_in_reopen(user=request.user, session_id=session.pk)
        return Response(
            {
                "session": SessionOutputSerializer(report.session).data,
                "withdrawn": [s.pk for s in report.withdrawn],
                "kept": [s.pk for s in report.kept],
            }
        )


class PlayerCalendarReplaceApi(APIView):
    """The player (the account linked to it, nobody else) replaces the address of their private
    calendar feed: the old address answers 404 from then on. Answers the new address."""

    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer[Any]):
        player = serializers.IntegerField()
        url = serializers.URLField()

        class Meta:
            ref_name = "PlayerCalendarReplaceOutput"

    @extend_schema(
        request=None,
        responses={200: OutputSerializer, **refusals(s403="not_your_calendar", s404="player_not_found")},
    )
    def post(self, request: Request, player_id: int) -> Response:
        token = calendar.calendar_token_replace(user=request.user, player_id=player_id)
        url = request.build_absolute_uri(reverse("tournaments:player-calendar", args=[token.token]))
        return Response({"player": token.player_id, "url": url})
