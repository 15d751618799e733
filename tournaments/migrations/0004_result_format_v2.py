"""Every stored result rewritten to format version 2 (tournaments/results/values.py).

Version 1 (no ``v``) kept the normalised result without its players, without wrong calls, with
``card_counts`` null unless adjudicated, a Snapszer match's ``games`` null for a one-game match
(``score`` was then its score), and a void version as ``{"voided_by_correction_of": n}``. Version 2
adds ``"v": 2``, ``players`` (seat order), ``wrong_calls`` (0 each: version 1 had none), always
gives ``card_counts`` and ``games``, and marks void versions ``"void": true``.

The conversion is written out here rather than imported, so that this migration keeps meaning what
it meant when the values change later. The reverse writes version 1 back (wrong calls are lost:
version 1 could not hold them).
"""

from typing import Any

from django.db import migrations

BATCH = 500


def v1_to_v2(data: dict[str, Any], seat_order: list[int]) -> dict[str, Any]:
    """A version-1 result as version 2; ``seat_order`` is the series' players by seat."""
    if data.get("v") == 2:
        return data
    if "voided_by_correction_of" in data:
        return {"v": 2, "void": True, "voided_by_correction_of": data["voided_by_correction_of"]}
    placings = {int(key): place for key, place in data["placings"].items()}
    players = [p for p in seat_order if p in placings] + sorted(set(placings) - set(seat_order))
    keyed = {str(p): placings[p] for p in players}
    if data.get("game") == "snap":
        wrong = data.get("wrong_calls") or {}
        return {
            "v": 2,
            "game": "snap",
            "players": players,
            "ending": data["ending"],
            "eliminated": [g if isinstance(g, list) else [g] for g in data.get("eliminated") or []],
            "card_counts": dict(data.get("card_counts") or {}),
            "wrong_calls": {str(p): int(wrong.get(str(p), 0)) for p in players},
            "winner": data.get("winner"),
            "placings": keyed,
        }
    a, b = (str(p) for p in players)
    games = data.get("games") or [data["score"]]
    return {
        "v": 2,
        "game": "snapszer",
        "players": players,
        "games": [{a: game[a], b: game[b]} for game in games],
        "pot_carried": data.get("pot_carried") or 0,
        "hands": data.get("hands"),
        "winner": data["winner"],
        "score": {a: sum(g[a] for g in games), b: sum(g[b] for g in games)},
        "placings": keyed,
    }


def v2_to_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version-2 result as version 1 had it (for migrating back)."""
    if data.get("v") != 2:
        return data
    if data.get("void"):
        return {"voided_by_correction_of": data["voided_by_correction_of"]}
    if data["game"] == "snap":
        return {
            "game": "snap",
            "ending": data["ending"],
            "winner": data["winner"],
            "eliminated": data["eliminated"],
            "card_counts": data["card_counts"] or None,
            "placings": data["placings"],
        }
    return {
        "game": "snapszer",
        "winner": data["winner"],
        "score": data["score"],
        "games": data["games"] if len(data["games"]) > 1 else None,
        "pot_carried": data["pot_carried"],
        "hands": data["hands"],
        "placings": data["placings"],
    }


def _rewrite(apps: Any, convert: Any) -> None:
    GameResult = apps.get_model("tournaments", "GameResult")
    SeriesSeat = apps.get_model("tournaments", "SeriesSeat")
    seats: dict[int, list[int]] = {}
    for series_id, player_id in SeriesSeat.objects.order_by("series_id", "seat").values_list(
        "series_id", "player_id"
    ):
        seats.setdefault(series_id, []).append(player_id)
    changed = []
    for result in GameResult.objects.select_related("game").order_by("pk").iterator(chunk_size=BATCH):
        data = convert(result.data, seats.get(result.game.series_id, []))
        if data != result.data:
            result.data = data
            changed.append(result)
        if len(changed) >= BATCH:
            GameResult.objects.bulk_update(changed, ["data"])
            changed = []
    GameResult.objects.bulk_update(changed, ["data"])


def forwards(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, v1_to_v2)


def backwards(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, lambda data, _seats: v2_to_v1(data))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_gameresult_engine_game"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
