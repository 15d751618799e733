"""Every write of ladders: one transaction each, the ladder's row locked first, permission checks
inside (docs/ladder.md). The order of places comes from the pure rules in ``rules.py``."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from snapleague.errors import ApplicationError, Conflict, PermissionDenied
from snapleague.users import AnyUser, signed_in
from tournaments.access import require_organiser, user_is_organiser
from tournaments.clubs.names import club_name_checked, name_taken_on_clash
from tournaments.models import Club, GameKind, Ladder, LadderChallenge, LadderRung, Player, Season
from tournaments.rankings.ladder import rules
from tournaments.rankings.ladder.selectors import (
    challenge_by_id,
    challenges_overdue,
    ladder_by_id,
    ladder_order,
    open_challenges,
    rematch_blocked,
    user_player,
)
from tournaments.rankings.ratings.services import club_ratings_enqueue_on_commit


def _invalid(message: str | Promise, fields: dict[str, list[str | Promise]]) -> ApplicationError:
    return ApplicationError(code="invalid", message=message, fields=fields)


def _checked(
    *,
    club: Club,
    name: str,
    game: str,
    season_id: int | None,
    reach: int,
    reply_days: int,
    best_of: int,
    rematch_days: int,
    ladder: Ladder | None = None,
) -> dict[str, Any]:
    fields: dict[str, list[str | Promise]] = {}
    name = club_name_checked(
        name,
        club=club,
        model=Ladder,
        instance=ladder,
        fields=fields,
        missing=_("A ladder needs a name."),
        taken=_("The club has a ladder of that name already."),
    )
    if game not in GameKind:
        fields["game"] = [_("Choose Snap or Snapszer.")]
    season = None
    if season_id is not None:
        season = Season.objects.filter(pk=season_id, club=club).first()
        if season is None:
            fields["season"] = [_("Choose one of the club’s seasons.")]
    if not 1 <= reach <= rules.REACH_MAX:
        fields["reach"] = [_("From 1 to %(max)s places.") % {"max": rules.REACH_MAX}]
    if not 1 <= reply_days <= rules.REPLY_DAYS_MAX:
        fields["reply_days"] = [_("From 1 to %(max)s days.") % {"max": rules.REPLY_DAYS_MAX}]
    if not (1 <= best_of <= rules.BEST_OF_MAX and best_of % 2 == 1):
        fields["best_of"] = [_("An odd number of games from 1 to %(max)s.") % {"max": rules.BEST_OF_MAX}]
    if not 0 <= rematch_days <= rules.REMATCH_DAYS_MAX:
        fields["rematch_days"] = [_("From 0 to %(max)s days.") % {"max": rules.REMATCH_DAYS_MAX}]
    if fields:
        raise _invalid(_("The ladder cannot be saved as it is."), fields)
    return {
        "name": name,
        "game": game,
        "season": season,
        "reach": reach,
        "reply_days": reply_days,
        "best_of": best_of,
        "rematch_days": rematch_days,
    }


def _name_taken() -> ApplicationError:
    return _invalid(
        _("The ladder cannot be saved as it is."),
        {"name": [_("The club has a ladder of that name already.")]},
    )


@transaction.atomic
def ladder_create(
    *,
    user: AnyUser,
    club: Club,
    name: str,
    game: str,
    season_id: int | None = None,
    reach: int = rules.REACH_DEFAULT,
    reply_days: int = rules.REPLY_DAYS_DEFAULT,
    best_of: int = rules.BEST_OF_DEFAULT,
    rematch_days: int = rules.REMATCH_DAYS_DEFAULT,
) -> Ladder:
    """A new, empty ladder of ``club`` (its organisers). Raises PermissionDenied, ApplicationError
    ``invalid`` with field errors."""
    require_organiser(user, club)
    values = _checked(
        club=club,
        name=name,
        game=game,
        season_id=season_id,
        reach=reach,
        reply_days=reply_days,
        best_of=best_of,
        rematch_days=rematch_days,
    )
    with name_taken_on_clash(_name_taken):
        return Ladder.objects.create(club=club, created_by=user if signed_in(user) else None, **values)


@transaction.atomic
def ladder_update(
    *,
    user: AnyUser,
    ladder_id: int,
    name: str,
    game: str,
    season_id: int | None,
    reach: int,
    reply_days: int,
    best_of: int,
    rematch_days: int,
) -> Ladder:
    """Change a ladder's settings. They apply to challenges issued from now on (an open challenge
    keeps its day). The game cannot change once a challenge was made. Raises NotFound,
    PermissionDenied, ApplicationError ``invalid``."""
    ladder = ladder_by_id(ladder_id=ladder_id, lock=True)
    require_organiser(user, ladder.club)
    values = _checked(
        club=ladder.club,
        name=name,
        game=game,
        season_id=season_id,
        reach=reach,
        reply_days=reply_days,
        best_of=best_of,
        rematch_days=rematch_days,
        ladder=ladder,
    )
    if values["game"] != ladder.game and LadderChallenge.objects.filter(ladder=ladder).exists():
        raise _invalid(
            _("The ladder cannot be saved as it is."),
            {"game": [_("Challenges were played for this game: the game stays.")]},
        )
    for name_, value in values.items():
        setattr(ladder, name_, value)
    with name_taken_on_clash(_name_taken):
        ladder.save()
    return ladder


def _store_order(ladder: Ladder, order: Sequence[int]) -> None:
    """Make the ladder's places ``order`` (player ids, top first): rows that move are first parked
    out of the way so the one-player-per-place constraint holds at every statement."""
    rungs = {rung.player_id: rung for rung in LadderRung.objects.filter(ladder=ladder)}
    assert set(rungs) == set(order) and len(order) == len(rungs), "the order must be the ladder's players"
    moved = [rungs[player] for place, player in enumerate(order, 1) if rungs[player].place != place]
    if not moved:
        return
    park = len(order) + max(r.place for r in rungs.values()) + 1
    LadderRung.objects.filter(pk__in=[r.pk for r in moved]).update(place=F("place") + park)
    for place, player in enumerate(order, 1):
        rung = rungs[player]
        if rung in moved:
            LadderRung.objects.filter(pk=rung.pk).update(place=place)


def _club_player(ladder: Ladder, player_id: int, field: str) -> Player:
    player = Player.objects.filter(pk=player_id, club=ladder.club).first()
    if player is None:
        raise _invalid(
            _("That player is not one of %(club)s’s.") % {"club": ladder.club.name},
            {field: [_("Choose one of the club’s players.")]},
        )
    return player


@transaction.atomic
def ladder_player_add(*, user: AnyUser, ladder_id: int, player_id: int) -> LadderRung:
    """The club's player joins the ladder at the bottom (organisers). Raises NotFound,
    PermissionDenied, ApplicationError ``invalid`` (field ``player``: not the club's, already on)."""
    ladder = ladder_by_id(ladder_id=ladder_id, lock=True)
    require_organiser(user, ladder.club)
    player = _club_player(ladder, player_id, "player")
    order = ladder_order(ladder=ladder)
    if player.pk in order:
        raise _invalid(
            _("%(player)s is on the ladder already.") % {"player": player.name},
            {"player": [_("%(player)s is on the ladder already.") % {"player": player.name}]},
        )
    new = rules.after_join(order, player.pk)
    return LadderRung.objects.create(ladder=ladder, player=player, place=len(new))


@transaction.atomic
def ladder_player_remove(*, user: AnyUser, ladder_id: int, player_id: int) -> None:
    """The player leaves the ladder (organisers): their open challenges are cancelled, everyone
    below moves up one. Raises NotFound, PermissionDenied, ApplicationError ``invalid``."""
    ladder = ladder_by_id(ladder_id=ladder_id, lock=True)
    require_organiser(user, ladder.club)
    player = _club_player(ladder, player_id, "player")
    order = ladder_order(ladder=ladder)
    if player.pk not in order:
        raise _invalid(
            _("%(player)s is not on the ladder.") % {"player": player.name},
            {"player": [_("%(player)s is not on the ladder.") % {"player": player.name}]},
        )
    now = timezone.now()
    open_challenges(ladder=ladder).filter(challenger=player).update(
        status=LadderChallenge.Status.CANCELLED, decided_at=now
    )
    open_challenges(ladder=ladder).filter(challenged=player).update(
        status=LadderChallenge.Status.CANCELLED, decided_at=now
    )
    LadderRung.objects.filter(ladder=ladder, player=player).delete()
    _store_order(ladder, rules.after_leave(order, player.pk))


def _challenge_refused(code: str, message: str | Promise, field: str = "challenged") -> ApplicationError:
    return ApplicationError(code=code, message=message, fields={field: [message]})


@transaction.atomic
def challenge_create(
    *, user: AnyUser, ladder_id: int, challenged_id: int, challenger_id: int | None = None
) -> LadderChallenge:
    """``user``'s player challenges ``challenged_id`` (an organiser may name the challenger: a
    challenge recorded for two players). Refused (ApplicationError, HTTP 400 unless said): not a
    player of the ladder's club (``no_player``, 403), ``self``, ``challenger_not_in_ladder``,
    ``challenged_not_in_ladder``, ``below``, ``too_far``, ``challenger_busy`` / ``challenged_busy``
    (one open challenge each), ``rematch_too_soon``. Each names its field: ``challenged``, or
    ``challenger`` for a refusal about a challenger the organiser named."""
    ladder = ladder_by_id(ladder_id=ladder_id, lock=True)
    on_behalf = challenger_id is not None and challenger_id != getattr(
        user_player(user=user, club=ladder.club), "pk", None
    )
    if on_behalf:
        assert challenger_id is not None
        require_organiser(user, ladder.club)
        challenger = _club_player(ladder, challenger_id, "challenger")
    else:
        found = user_player(user=user, club=ladder.club)
        if found is None:
            raise PermissionDenied(
                code="no_player",
                message=_("Only a player of %(club)s linked to your account may challenge.")
                % {"club": ladder.club.name},
            )
        challenger = found
    challenged = _club_player(ladder, challenged_id, "challenged")
    order = ladder_order(ladder=ladder)
    problem = rules.challenge_problem(order, challenger.pk, challenged.pk, reach=ladder.reach)
    messages = {
        "self": _("A player cannot challenge themselves."),
        "challenger_not_in_ladder": _("%(player)s is not on this ladder.") % {"player": challenger.name},
        "challenged_not_in_ladder": _("%(player)s is not on this ladder.") % {"player": challenged.name},
        "below": _("Challenge a player above you on the ladder."),
        "too_far": _("You may challenge at most %(count)s places above you.") % {"count": ladder.reach},
    }
    if on_behalf:  # the organiser is not the challenger: name the player
        messages["below"] = _("%(player)s may only challenge a player above them on the ladder.") % {
            "player": challenger.name
        }
        messages["too_far"] = ngettext(
            "%(player)s may challenge at most %(count)s place above them.",
            "%(player)s may challenge at most %(count)s places above them.",
            ladder.reach,
        ) % {"player": challenger.name, "count": ladder.reach}
    challenger_field = "challenger" if on_behalf else "challenged"
    if problem is not None:
        field = challenger_field if problem == "challenger_not_in_ladder" else "challenged"
        raise _challenge_refused(problem, messages[problem], field)
    opens = open_challenges(ladder=ladder)
    if opens.filter(Q(challenger=challenger) | Q(challenged=challenger)).exists():
        raise _challenge_refused(
            "challenger_busy",
            _("%(player)s has an open challenge already: one at a time.") % {"player": challenger.name},
            challenger_field,
        )
    if opens.filter(Q(challenger=challenged) | Q(challenged=challenged)).exists():
        raise _challenge_refused(
            "challenged_busy",
            _("%(player)s has an open challenge already: one at a time.") % {"player": challenged.name},
        )
    now = timezone.now()
    blocked = rematch_blocked(ladder=ladder, challenger_id=challenger.pk, now=now)
    if challenged.pk in blocked:
        raise _challenge_refused(
            "rematch_too_soon",
            _("%(player)s beat this challenge lately: challenge them again from %(day)s.")
            % {
                "player": challenged.name,
                "day": timezone.localtime(blocked[challenged.pk]).strftime("%Y-%m-%d %H:%M"),
            },
        )
    return LadderChallenge.objects.create(
        ladder=ladder,
        challenger=challenger,
        challenged=challenged,
        challenger_place=order.index(challenger.pk) + 1,
        challenged_place=order.index(challenged.pk) + 1,
        due_at=now + datetime.timedelta(days=ladder.reply_days),
    )


def _locked_challenge(challenge_id: int) -> tuple[Ladder, LadderChallenge]:
    """The challenge's ladder locked, then the challenge. Raises NotFound."""
    ladder = ladder_by_id(ladder_id=challenge_by_id(challenge_id=challenge_id).ladder_id, lock=True)
    challenge = LadderChallenge.objects.select_related("challenger", "challenged").get(pk=challenge_id)
    challenge.ladder = ladder
    return ladder, challenge


def _require_open(challenge: LadderChallenge, *statuses: str) -> None:
    if challenge.status not in (statuses or (LadderChallenge.Status.OPEN, LadderChallenge.Status.ACCEPTED)):
        raise Conflict(
            code="challenge_closed",
            message=_("This challenge is %(status)s: it cannot change now.")
            % {"status": challenge.get_status_display()},
        )


def _side(user: AnyUser, challenge: LadderChallenge) -> str | None:
    """``challenger``, ``challenged`` or None: which player of the challenge ``user`` is."""
    if not signed_in(user):
        return None
    if challenge.challenger.user_id == user.pk:
        return "challenger"
    if challenge.challenged.user_id == user.pk:
        return "challenged"
    return None


def _acted_on(
    user: AnyUser, challenge_id: int, *, by: str, statuses: Sequence[str] = ()
) -> tuple[Ladder, LadderChallenge]:
    """The challenge (locked, with its ladder) that its ``by`` player, or an organiser of the club,
    acts on while it is in one of ``statuses`` (default: open or accepted). Raises NotFound,
    PermissionDenied, Conflict."""
    ladder, challenge = _locked_challenge(challenge_id)
    if _side(user, challenge) != by:
        require_organiser(user, ladder.club)
    _require_open(challenge, *statuses)
    return ladder, challenge


def _decide(
    ladder: Ladder,
    challenge: LadderChallenge,
    *,
    challenger_won: bool,
    how: str,
    user: AnyUser | None,
    score: tuple[int, int] | None = None,
) -> LadderChallenge:
    """Close the challenge; a challenger who won takes the challenged's place (rules.after_win).
    A played match counts in the club's ratings: it raises the ladder's ``results_version`` (the
    ladder's row is locked) and sends the club's recomputation once this commits, as a confirmed
    series result does through its stage. A forfeit is no game and touches neither."""
    if how == LadderChallenge.How.PLAYED:
        ladder.results_version += 1
        ladder.save(update_fields=["results_version"])
        club_ratings_enqueue_on_commit(club_id=ladder.club_id)
    if challenger_won:
        order = ladder_order(ladder=ladder)
        _store_order(ladder, rules.after_win(order, challenge.challenger_id, challenge.challenged_id))
    challenge.status = LadderChallenge.Status.DECIDED
    challenge.how = how
    challenge.challenger_won = challenger_won
    if score is not None:
        challenge.challenger_wins, challenge.challenged_wins = score
    challenge.decided_at = timezone.now()
    challenge.recorded_by = user if user is not None and signed_in(user) else None
    challenge.save()
    return challenge


@transaction.atomic
def challenge_accept(*, user: AnyUser, challenge_id: int) -> LadderChallenge:
    """The challenged (or an organiser) accepts: the match is to be played by the same day.
    Raises NotFound, PermissionDenied, Conflict (no longer open)."""
    _ladder, challenge = _acted_on(
        user, challenge_id, by="challenged", statuses=(LadderChallenge.Status.OPEN,)
    )
    challenge.status = LadderChallenge.Status.ACCEPTED
    challenge.accepted_at = timezone.now()
    challenge.save(update_fields=["status", "accepted_at"])
    return challenge


@transaction.atomic
def challenge_decline(*, user: AnyUser, challenge_id: int) -> LadderChallenge:
    """The challenged declines (or, accepted, gives up): a forfeit, the challenger takes the place.
    Raises NotFound, PermissionDenied, Conflict."""
    ladder, challenge = _acted_on(user, challenge_id, by="challenged")
    return _decide(ladder, challenge, challenger_won=True, how=LadderChallenge.How.DECLINED, user=user)


@transaction.atomic
def challenge_withdraw(*, user: AnyUser, challenge_id: int) -> LadderChallenge:
    """The challenger (or an organiser) takes back a challenge not yet accepted: nothing changes.
    Raises NotFound, PermissionDenied, Conflict."""
    _ladder, challenge = _acted_on(
        user, challenge_id, by="challenger", statuses=(LadderChallenge.Status.OPEN,)
    )
    challenge.status = LadderChallenge.Status.CANCELLED
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["status", "decided_at"])
    return challenge


@transaction.atomic
def challenge_result(
    *, user: AnyUser, challenge_id: int, challenger_wins: int, challenged_wins: int
) -> LadderChallenge:
    """The match's score (games won by each, a finished best-of-N). An organiser of the club (the
    ladder's referee) records it at once; a player of the challenge reports it, and it is recorded
    when the other player has reported the same score (a different report replaces theirs and
    waits for agreement). Raises NotFound, PermissionDenied, Conflict, ApplicationError
    ``invalid`` (field ``score``)."""
    ladder, challenge = _locked_challenge(challenge_id)
    side = _side(user, challenge)
    organiser = user_is_organiser(user, ladder.club)
    if side is None and not organiser:
        raise PermissionDenied(
            code="not_in_challenge",
            message=_("Only the two players or an organiser of %(club)s may record this result.")
            % {"club": ladder.club.name},
        )
    _require_open(challenge)
    problem = rules.best_of_problem(ladder.best_of, challenger_wins, challenged_wins)
    if problem is not None:
        need = ladder.best_of // 2 + 1
        message = _(
            "A best-of-%(n)s match ends when a player has won %(need)s games: give a finished score."
        ) % {
            "n": ladder.best_of,
            "need": need,
        }
        raise _invalid(message, {"score": [message]})
    score = (challenger_wins, challenged_wins)
    if organiser and side is None:
        return _decide(
            ladder,
            challenge,
            challenger_won=score[0] > score[1],
            how=LadderChallenge.How.PLAYED,
            user=user,
            score=score,
        )
    assert side is not None
    reports = dict(challenge.reports)
    reports[side] = list(score)
    other = "challenged" if side == "challenger" else "challenger"
    if reports.get(other) == list(score) or organiser:
        challenge.reports = reports
        return _decide(
            ladder,
            challenge,
            challenger_won=score[0] > score[1],
            how=LadderChallenge.How.PLAYED,
            user=user,
            score=score,
        )
    challenge.reports = reports
    if challenge.status == LadderChallenge.Status.OPEN:  # playing is accepting
        challenge.status = LadderChallenge.Status.ACCEPTED
        challenge.accepted_at = timezone.now()
    challenge.save(update_fields=["reports", "status", "accepted_at"])
    return challenge


@transaction.atomic
def challenge_expire(*, challenge_id: int, now: datetime.datetime | None = None) -> bool:
    """An open or accepted challenge past its day: the challenged forfeits, the challenger takes
    the place. False (nothing done) when it was decided meanwhile or is not yet due: safe twice."""
    ladder, challenge = _locked_challenge(challenge_id)
    now = now or timezone.now()
    if not challenge.is_open or challenge.due_at >= now:
        return False
    _decide(ladder, challenge, challenger_won=True, how=LadderChallenge.How.EXPIRED, user=None)
    return True


def challenges_expire(*, now: datetime.datetime | None = None) -> list[int]:
    """Expire every overdue challenge, each in its own transaction; the ids expired."""
    now = now or timezone.now()
    return [pk for pk in challenges_overdue(now=now) if challenge_expire(challenge_id=pk, now=now)]
