"""Who is told what, event by event: each function makes the notices of one event and hands them
to ``notify_many`` in the caller's transaction (docs/notifications.md, "Events")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import reverse

from tournaments.notifications.models import Event
from tournaments.notifications.services import Notice, notify_many


def round_published(round_ids: Sequence[int]) -> int:
    """Every seated player with an account, for each new round: their table (or station) and
    opponents. Walkovers are left out (nothing to play). Reads plain columns only (a round's plan
    is large JSON: a 1,024-player round must not decode it once per seat)."""
    from tournaments.competitions.models import Round, SeriesSeat
    from tournaments.nights.models import Station

    rounds = {
        pk: (number, tournament)
        for pk, number, tournament in Round.objects.filter(pk__in=list(round_ids)).values_list(
            "pk", "number", "stage__tournament__name"
        )
    }
    rows = (
        SeriesSeat.objects.filter(series__round_id__in=list(rounds), series__walkover=False)
        .order_by("series__round_id", "series__table", "seat")
        .values_list(
            "series_id",
            "series__round_id",
            "series__table",
            "series__station_id",
            "player__name",
            "player__user_id",
        )
    )
    by_series: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_series.setdefault(row[0], []).append(row)
    stations = {
        s.pk: str(s)
        for s in Station.objects.filter(pk__in={r[0][3] for r in by_series.values() if r[0][3] is not None})
    }
    notices = []
    for series_id, seats in by_series.items():
        _series, round_id, table, station_id, _name, _user = seats[0]
        number, tournament = rounds[round_id]
        url = reverse("tournaments:series", args=[series_id])
        for seat in seats:
            if seat[5] is None:
                continue
            notices.append(
                Notice(
                    user_id=seat[5],
                    event=Event.ROUND_PUBLISHED,
                    key=f"round:{round_id}",
                    params={
                        "tournament": tournament,
                        "round": number,
                        "table": table,
                        "station": stations.get(station_id, "") if station_id else "",
                        "opponents": [other[4] for other in seats if other is not seat],
                    },
                    url=url,
                )
            )
    return notify_many(notices)


def check_in_open(session: Any, *, reopened_at: Any = None) -> int:
    """The tournament's entrants with an account: check-in for ``session`` is open (a new session;
    or reopened at ``reopened_at``, which tells them again)."""
    from tournaments.competitions.models import Entry

    users = (
        Entry.objects.filter(tournament_id=session.tournament_id, withdrawn=False, player__user__isnull=False)
        .values_list("player__user_id", flat=True)
        .distinct()
    )
    tournament = session.tournament
    key = f"session:{session.pk}" + (f":{reopened_at:%Y%m%dT%H%M%S}" if reopened_at else "")
    return notify_many(
        Notice(
            user_id=user_id,
            event=Event.CHECK_IN_OPEN,
            key=key[:80],
            params={
                "tournament": tournament.name,
                "session": session.name,
                "starts_at": session.starts_at.isoformat(),
            },
            url=reverse("tournaments:session", args=[session.pk]),
        )
        for user_id in users
    )


def registration_accepted(registration: Any, *, moved_up: bool) -> int:
    tournament = registration.tournament
    return notify_many(
        [
            Notice(
                user_id=registration.user_id,
                event=Event.MOVED_UP if moved_up else Event.REGISTRATION_ACCEPTED,
                key=f"registration:{registration.pk}",
                params={"tournament": tournament.name},
                url=reverse("tournaments:registration", args=[tournament.pk]),
            )
        ]
    )


def join_decided(join_request: Any, *, approved: bool) -> int:
    club = join_request.club
    return notify_many(
        [
            Notice(
                user_id=join_request.user_id,
                event=Event.JOIN_DECIDED,
                key=f"join:{join_request.pk}",
                params={
                    "club": club.name,
                    "approved": approved,
                    "reason": getattr(join_request, "reason", ""),
                },
                url=reverse("tournaments:club", args=[club.slug]),
            )
        ]
    )


def your_move(*, user_id: int, game_id: int, turn: int, opponents: Sequence[str]) -> int:
    """A player away from their online game whose move it is (the game's owner asks, once per
    absence). ``turn``: which of their turns, so a later absence tells them again."""
    return notify_many(
        [
            Notice(
                user_id=user_id,
                event=Event.YOUR_MOVE,
                key=f"game:{game_id}:{turn}",
                params={"opponents": list(opponents)},
                url=reverse("games:table", args=[game_id]),
            )
        ]
    )


def _series_label(series: Any) -> str:
    names = [seat.player.name for seat in series.seats.select_related("player").order_by("seat")]
    return f"{series.stage.tournament.name}: " + " – ".join(names)


def _officials(tournament: Any) -> list[int]:
    ids = set(tournament.club.organisers.values_list("pk", flat=True))
    ids |= set(tournament.referees.values_list("pk", flat=True))
    return sorted(ids)


def result_to_confirm(report: Any) -> int:
    """The other seats of the series: a report of theirs waits for their confirmation."""
    from tournaments.templatetags.league import result_summary

    series = report.series
    seats = list(series.seats.select_related("player"))
    names = {seat.player_id: seat.player.name for seat in seats}
    reporter = report.reported_by.get_username()
    return notify_many(
        Notice(
            user_id=seat.player.user_id,
            event=Event.RESULT_TO_CONFIRM,
            key=f"report:{report.pk}",
            params={
                "series": _series_label(series),
                "reporter": next(
                    (s.player.name for s in seats if s.player.user_id == report.reported_by_id), reporter
                ),
                "result": result_summary(report.value, names),
                "game": report.game_number,
            },
            url=reverse("tournaments:series", args=[series.pk]),
        )
        for seat in seats
        if seat.player.user_id is not None and seat.player.user_id != report.reported_by_id
    )


def dispute_opened(dispute: Any) -> int:
    """The tournament's officials: a dispute waits in their queue."""
    tournament = dispute.series.stage.tournament
    return notify_many(
        Notice(
            user_id=user_id,
            event=Event.RESULT_DISPUTED,
            key=f"dispute:{dispute.pk}",
            params={"series": _series_label(dispute.series), "game": dispute.game_number},
            url=reverse("tournaments:disputes", args=[tournament.pk]),
        )
        for user_id in _officials(tournament)
    )


def dispute_decided(dispute: Any, user_ids: Sequence[int]) -> int:
    """Everyone who reported a version: what was decided."""
    from tournaments.templatetags.league import result_summary

    series = dispute.series
    names = {seat.player_id: seat.player.name for seat in series.seats.select_related("player")}
    summary = result_summary(dispute.result.value, names) if dispute.result is not None else ""
    return notify_many(
        Notice(
            user_id=user_id,
            event=Event.DISPUTE_DECIDED,
            key=f"dispute:{dispute.pk}",
            params={"series": _series_label(series), "game": dispute.game_number, "result": summary},
            url=reverse("tournaments:series", args=[series.pk]),
        )
        for user_id in sorted(set(user_ids))
    )


def report_overdue(series: Any) -> int:
    """The club's organisers: a series has nothing reported by its deadline (once per series)."""
    tournament = series.stage.tournament
    return notify_many(
        Notice(
            user_id=user_id,
            event=Event.REPORT_OVERDUE,
            key=f"overdue:{series.pk}",
            params={"series": _series_label(series)},
            url=reverse("tournaments:series", args=[series.pk]),
        )
        for user_id in sorted(tournament.club.organisers.values_list("pk", flat=True))
    )
