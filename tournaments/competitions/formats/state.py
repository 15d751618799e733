"""Reading the stage state, for every format: the entrants in seeding order, the results checked,
the placings that count (withdrawals applied), what a round still waits for, and the refusal of a
round asked for too early. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.competitions.formats.base import (
    FormatError,
    FormatErrorCode,
    PlannedRound,
    PlannedSeries,
    Seeding,
    StageState,
)
from tournaments.competitions.formats.round_robin import PlayerId, seeded_order


def stage_entrants(state: StageState, options: Mapping[str, object]) -> tuple[PlayerId, ...]:
    """The entrants in the stage's seeding order, without those withdrawn from round 1 (once round
    1 is published: the players drawn into it).

    Raises PairingError("duplicate_entrant") and FormatError("not_an_entrant") for a withdrawal
    or handed-in standing naming someone who is not entered.
    """
    players = list(state.entrants)
    if len(set(players)) != len(players):
        seeded_order(players, state.seed)  # raises the shared "duplicate_entrant"
    known = set(players)
    strangers = sorted({str(p) for p in state.withdrawals if p not in known})
    if strangers:
        raise FormatError(
            FormatErrorCode.NOT_AN_ENTRANT,
            "A withdrawal names a player who is not entered.",
            {"field": "withdrawals", "players": strangers},
        )
    if state.rounds and state.seeding:  # the draw is made and stored: it is the seeding order
        return tuple(state.seeding)
    if state.rounds:  # the draw is made: a withdrawal from round 1 recorded since changes nothing
        first = state.rounds[0]
        drawn = {p for s in first.series for p in s.players} | set(first.byes)
        present = [p for p in players if p in drawn]
    else:
        present = [p for p in players if not state.withdrawn(p, 1)]
    if options.get("seeding") == Seeding.RANDOM:
        return seeded_order(present, state.seed)
    return tuple(present)


def checked_results(state: StageState, *, draws: bool) -> dict[str, tuple[int | None, ...]]:
    """Every given result, checked against its published series: the right number of seats,
    ``None`` at empty seats, a competition ranking of the rest, no tie across the cut of a series
    that advances players (and no draw unless ``draws``). Results for walkovers are ignored.

    Raises FormatError: "unknown_series", "invalid_result", "tied_at_cut".
    """
    published = state.series()
    checked: dict[str, tuple[int | None, ...]] = {}
    for key in sorted(state.results):
        if key not in published:
            raise FormatError(
                FormatErrorCode.UNKNOWN_SERIES,
                "A result names a series that is not published.",
                {"series": key},
            )
        _round, series = published[key]
        placings = tuple(state.results[key].placings)
        if series.walkover:
            continue
        places = [p for p in placings if p is not None]
        shape_ok = len(placings) == len(series.seats) and all(
            place is None or (not isinstance(place, bool) and isinstance(place, int)) for place in placings
        )
        if (
            not shape_ok
            or any(p is None and q is not None for p, q in zip(series.seats, placings, strict=True))
            or not _competition_ranking(places)
        ):
            raise FormatError(
                FormatErrorCode.INVALID_RESULT,
                "The placings do not rank the players of the series.",
                {"series": key, "result": [_shown(p) for p in placings]},
            )
        cut = series.advance or (0 if draws else 1)
        ranked = sorted(places)
        if cut and len(ranked) > cut and ranked[cut - 1] == ranked[cut]:
            raise FormatError(
                FormatErrorCode.TIED_AT_CUT,
                "Players are tied across the places that go on; break the tie with the table's standings.",
                {"series": key, "result": [_shown(p) for p in placings], "advance": cut},
            )
        checked[key] = placings
    return checked


def _competition_ranking(places: Sequence[int]) -> bool:
    ordered = sorted(places)
    return all(place == ordered.index(place) + 1 for place in ordered) and all(p >= 1 for p in places)


def effective_placings(
    state: StageState,
    results: Mapping[str, tuple[int | None, ...]],
    round_number: int,
    series: PlannedSeries,
) -> tuple[int | None, ...] | None:
    """The placings a series is decided by, or None while it is undecided: its result; for a
    walkover, its players in seat order; without a result, a walkover for the players not withdrawn
    by its round when they are no more than ``advance`` (or fewer than 2)."""
    if series.walkover:
        return _in_seat_order(series.seats, set(series.players))
    if series.key in results:
        return results[series.key]
    staying = {p for p in series.players if not state.withdrawn(p, round_number)}
    if len(staying) < 2 or (series.advance and len(staying) <= series.advance):
        return _in_seat_order(series.seats, staying)
    return None


def _in_seat_order(seats: Sequence[PlayerId | None], staying: set[PlayerId]) -> tuple[int | None, ...]:
    placings: list[int | None] = []
    place = 1
    for player in seats:
        if player is not None and player in staying:
            placings.append(place)
            place += 1
        else:
            placings.append(None)
    return tuple(placings)


def finishing_order(series: PlannedSeries, placings: Sequence[int | None]) -> list[PlayerId]:
    """The players who played, best first (ties by seat order); forfeits and empty seats left out."""
    ranked = sorted(
        (place, seat)
        for seat, place in enumerate(placings)
        if place is not None and series.seats[seat] is not None
    )
    return [p for _place, seat in ranked if (p := series.seats[seat]) is not None]


def undecided(
    state: StageState, results: Mapping[str, tuple[int | None, ...]], rnd: PlannedRound
) -> list[str]:
    """The keys of ``rnd``'s series that are not decided yet."""
    return [s.key for s in rnd.series if effective_placings(state, results, rnd.number, s) is None]


def generate_request(
    state: StageState, due: tuple[PlannedRound, ...], waiting: Sequence[str], round_number: int | None
) -> tuple[PlannedRound, ...]:
    """``due`` after checking an explicit request for round ``round_number`` (None: no request).

    ``waiting`` are the undecided series the next round waits for. Raises FormatError:
    "round_already_generated", "round_not_due" (the round before is undecided), "round_not_next"
    (the request skips a round), "no_more_rounds" (nothing is waited for and nothing is due: the
    stage is over).
    """
    if round_number is None:
        return due
    published = len(state.rounds)
    if round_number <= published:
        raise FormatError(
            FormatErrorCode.ROUND_ALREADY_GENERATED,
            f"Round {round_number} has already been generated.",
            {"round": round_number},
        )
    if due and due[0].number == round_number:
        return due
    if due:
        raise FormatError(
            FormatErrorCode.ROUND_NOT_NEXT,
            f"The next round is {due[0].number}, not {round_number}.",
            {"round": round_number, "next": due[0].number},
        )
    if not waiting:
        raise FormatError(
            FormatErrorCode.NO_MORE_ROUNDS,
            "The stage has no more rounds.",
            {"round": round_number, "rounds": published},
        )
    raise FormatError(
        FormatErrorCode.ROUND_NOT_DUE,
        f"Round {round_number} cannot be generated yet.",
        {"round": round_number, "waiting": list(waiting)},
    )


def _shown(place: object) -> str:
    """A placing as a person reads it in a message: a dash for nobody."""
    return "—" if place is None else repr(place)
