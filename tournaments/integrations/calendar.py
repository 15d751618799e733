"""Calendar feeds (iCal, RFC 5545, with the ``icalendar`` library): a tournament's and a club's
sessions, and a player's sessions and series. docs/sessions.md, "Calendars".

- **Public or private.** A tournament's and a club's feeds are as public as their pages (a
  calendar app cannot sign in, so a draft is never in them). A player's feed names their series,
  so its address carries a secret token (``CalendarToken``), shown on the player's own page only.
- **Stable UIDs.** ``session-<id>@<host>`` and ``series-<id>@<host>``: a calendar app updates the
  event it already has when a time or a table changes, instead of adding another.
- **Times** in the club's time zone (``settings.TIME_ZONE``) with its VTIMEZONE, so every app shows
  the wall-clock time of the club; DTSTAMP is when the feed was made.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from snapleague.errors import NotFound, PermissionDenied
from snapleague.users import AnyUser, signed_in
from tournaments.audit import audit
from tournaments.models import AuditEntry, CalendarToken, Club, Player, Series, Session, Tournament
from tournaments.nights import planning

PUBLIC_TOURNAMENTS = Tournament.objects.exclude(status=Tournament.Status.DRAFT)


def _calendar(name: str) -> Calendar:
    cal = Calendar()
    cal.add("prodid", "-//snapleague//club nights//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", timezone.get_current_timezone_name())
    return cal


def _local(moment: datetime) -> datetime:
    return timezone.localtime(moment)


def _session_event(session: Session, *, host: str, url: str, stamp: datetime) -> Event:
    event = Event()
    event.add("uid", f"session-{session.pk}@{host}")
    event.add("dtstamp", stamp)
    event.add("dtstart", _local(session.starts_at))
    starts = [r.starts_at.timestamp() for r in session.rounds.all() if r.starts_at]
    end = datetime.fromtimestamp(planning.session_end(session.starts_at.timestamp(), starts), tz=UTC)
    event.add("dtend", _local(end))
    event.add("summary", f"{session.tournament.name}: {session.name}")
    where = _("Online") if session.online else session.venue
    if where:
        event.add("location", where)
    event.add("url", url)
    event.add("description", url)
    return event


def _series_event(series: Series, player: Player, *, host: str, url: str, stamp: datetime) -> Event | None:
    start = series.round.starts_at or (series.round.session.starts_at if series.round.session else None)
    if start is None:
        return None
    opponents = ", ".join(s.player.name for s in series.seats.all() if s.player_id != player.pk)
    table = str(series.station) if series.station else _("Table %(n)s") % {"n": series.table}
    event = Event()
    event.add("uid", f"series-{series.pk}@{host}")
    event.add("dtstamp", stamp)
    event.add("dtstart", _local(start))
    event.add("dtend", _local(start + timedelta(minutes=planning.SERIES_MINUTES)))
    event.add(
        "summary",
        _("%(table)s: %(player)s vs %(opponents)s")
        % {"table": table, "player": player.name, "opponents": opponents or "—"},
    )
    if series.round.session and series.round.session.venue:
        event.add("location", series.round.session.venue)
    event.add("description", f"{series.stage.tournament.name} · {series.stage.name} · {series.round}\n{url}")
    event.add("url", url)
    if series.status == Series.Status.DECIDED:
        event.add(
            "status", "CANCELLED" if player.pk not in {int(k) for k in series.placings} else "CONFIRMED"
        )
    return event


def _finish(cal: Calendar) -> bytes:
    cal.add_missing_timezones()
    return cal.to_ical()


# The absolute address of a page: ("session" | "series", id) -> URL (the view knows the host).
UrlOf = Callable[[str, int], str]


def _session_events(
    cal: Calendar, sessions: Iterable[Session], *, host: str, url_of: UrlOf, stamp: datetime
) -> None:
    for session in sessions:
        cal.add_component(_session_event(session, host=host, url=url_of("session", session.pk), stamp=stamp))


def _sessions_of(tournaments: Iterable[Tournament] | object) -> list[Session]:
    return list(
        Session.objects.filter(tournament__in=tournaments)  # type: ignore[misc]
        .select_related("tournament")
        .prefetch_related("rounds")
        .order_by("starts_at", "pk")
    )


def tournament_feed(*, tournament_id: int) -> tuple[list[Session], Tournament]:
    """The sessions of a public tournament (a draft is not found: a feed is read signed out)."""
    tournament = PUBLIC_TOURNAMENTS.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(code="tournament_not_found", message=_("No such tournament."))
    return _sessions_of([tournament]), tournament


def club_feed(*, slug: str) -> tuple[list[Session], Club]:
    """The sessions of a club's public tournaments."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotFound(code="club_not_found", message=_("No such club."))
    return _sessions_of(PUBLIC_TOURNAMENTS.filter(club=club)), club


def calendar_of_sessions(name: str, sessions: list[Session], *, host: str, url_of: UrlOf) -> bytes:
    cal = _calendar(name)
    _session_events(cal, sessions, host=host, url_of=url_of, stamp=timezone.now())
    return _finish(cal)


def player_by_calendar_token(*, token: str) -> Player:
    """Raises NotFound (a clear message: the link was replaced or mistyped)."""
    found = (
        CalendarToken.objects.select_related("player__club").filter(token=token).first() if token else None
    )
    if found is None:
        raise NotFound(
            code="calendar_not_found",
            message=_(
                "No calendar at this address: the link may have been replaced. Copy it again from your player page."
            ),
        )
    return found.player


def calendar_of_player(player: Player, *, host: str, url_of: UrlOf) -> bytes:
    """The sessions of the player's tournaments and their series that have a time."""
    cal = _calendar(_("%(name)s · snapleague") % {"name": player.name})
    stamp = timezone.now()
    tournaments = PUBLIC_TOURNAMENTS.filter(entries__player=player, entries__withdrawn=False)
    _session_events(cal, _sessions_of(tournaments), host=host, url_of=url_of, stamp=stamp)
    for series in player_series(player):
        event = _series_event(series, player, host=host, url=url_of("series", series.pk), stamp=stamp)
        if event is not None:
            cal.add_component(event)
    return _finish(cal)


def player_series(player: Player) -> list[Series]:
    """The player's series with a time (their round's or its session's), walkovers left out."""
    return list(
        Series.objects.filter(seats__player=player, stage__tournament__in=PUBLIC_TOURNAMENTS, walkover=False)
        .filter(round__session__isnull=False)
        .select_related("round__session", "station", "stage__tournament")
        .prefetch_related("seats__player")
        .order_by("round__starts_at", "pk")
    )


@transaction.atomic
def calendar_token_get_or_create(*, user: AnyUser, player: Player) -> CalendarToken | None:
    """The token of ``player``'s private feed, made on first use; None unless ``user`` is that
    player (nobody else is shown the address)."""
    if not getattr(user, "is_authenticated", False) or player.user_id != user.pk:
        return None
    existing = CalendarToken.objects.filter(player=player).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return CalendarToken.objects.create(player=player, token=secrets.token_urlsafe(24))
    except IntegrityError:  # made by a request at the same moment
        return CalendarToken.objects.get(player=player)


@transaction.atomic
def calendar_token_replace(*, user: AnyUser, player_id: int) -> CalendarToken:
    """A new address for ``player_id``'s private feed, for the user linked to that player alone
    (a link that was shared, or leaked): the old address is then unknown (the feed's 404 with its
    explanation). Audited. Raises NotFound (no such player), PermissionDenied (not their own)."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(code="player_not_found", message=_("No such player."))
    if not signed_in(user) or player.user_id != user.pk:
        raise PermissionDenied(
            code="not_your_calendar",
            message=_("Only the player may replace the address of their own calendar."),
        )
    token = secrets.token_urlsafe(24)
    replaced, _created = CalendarToken.objects.update_or_create(
        player=player, defaults={"token": token, "created_at": timezone.now()}
    )
    audit(AuditEntry.Action.CALENDAR_REPLACED, user=user, player=player.name, club=player.club_id)
    return replaced
