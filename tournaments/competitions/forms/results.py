"""The result form: it turns taps into a result value (through the submitted shapes of
``tournaments/competitions/results/payload.py``, as the API) and shows field errors next to the
fields they are about.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError
from tournaments.competitions.results.payload import ResultInvalid
from tournaments.competitions.results.selectors import ResultTarget
from tournaments.competitions.results.values import SnapEnding, SnapszerMatchResult, SnapTableResult
from tournaments.models import GameKind

SNAP_ENDINGS = [
    ("last_player_standing", _("Last player standing")),
    ("draw", _("Draw")),
    ("adjudicated", _("Adjudicated (card counts)")),
]
HAND_POINTS = [("", "—"), ("1", "1"), ("2", "2"), ("3", "3"), ("6", "6")]
HAND_ROWS = 13  # a match to 7 needs at most 7 scoring hands; ties add a few


@dataclass(frozen=True)
class ResultPlayer:
    """A player the result form asks about."""

    pk: int
    name: str


@dataclass(frozen=True)
class PlayerInputs:
    player: ResultPlayer
    out: forms.BoundField
    cards: forms.BoundField
    score: forms.BoundField
    wrong: forms.BoundField


class ResultForm(forms.Form):
    """One game's result, as a referee taps it in (or an organiser corrects it), read into a value.

    Snap: ``out_<player>`` is the order a player went out in (1 = first; equal numbers went out
    together; blank = still in), ``cards_<player>`` the card count at an adjudication,
    ``wrong_<player>`` the player's wrong calls (S42; blank = 0).
    Snapszer: ``score_<player>`` (mode ``score``), ``game_<i>_<player>`` (mode ``games``), or
    ``hand_<i>_winner`` / ``hand_<i>_points`` (mode ``hands``; winner ``tie`` = a hand nobody won,
    X29). The form turns them into the submitted shape (``tournaments/competitions/results/payload.py``) and
    reads that against the game's table, as the API does: ``cleaned_data["result"]`` is the value.
    """

    game = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, initial=0)
    client_key = forms.CharField(widget=forms.HiddenInput, max_length=80)
    reason = forms.CharField(
        label=_("Reason for the correction"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    void_later_games = forms.BooleanField(
        label=_("Void the games played after the decision"),
        required=False,
        help_text=_(
            "If this correction decides the series before games already recorded, they are voided: "
            "kept in the history, counted for nothing."
        ),
    )
    ending = forms.ChoiceField(
        label=_("How did the game end?"),
        choices=SNAP_ENDINGS,
        required=False,
        initial="last_player_standing",
        widget=forms.RadioSelect,
    )
    mode = forms.ChoiceField(
        label=_("Enter"),
        choices=[("score", _("Match score")), ("hands", _("Hand by hand"))],
        required=False,
        initial="score",
        widget=forms.RadioSelect,
    )
    pot_carried = forms.IntegerField(
        label=_("Pot carried into the last hand"), required=False, min_value=0, initial=0
    )

    def __init__(self, *args: Any, target: ResultTarget, correcting: bool = False, **kwargs: Any) -> None:
        initial = kwargs.setdefault("initial", {})
        initial.setdefault("client_key", uuid.uuid4().hex)
        table = target.table
        rules = table.rules
        games_to_win = rules.match.games_to_win if rules is not None and rules.match is not None else 1
        if games_to_win > 1:
            initial.setdefault("mode", "games")
        super().__init__(*args, **kwargs)
        self.target = target
        # A match of several games to the target (snapszer-hu: two games of 7) is entered game by game.
        self.match_games = 2 * games_to_win - 1 if games_to_win > 1 else 0
        if self.match_games:
            mode = self.fields["mode"]
            assert isinstance(mode, forms.ChoiceField)
            mode.choices = [("games", _("Game by game")), ("hands", _("Hand by hand"))]
        self.game_kind = table.kind
        self.players = [ResultPlayer(pk, table.name(pk)) for pk in table.players]
        self.correcting = correcting
        number = {"min_value": 0, "required": False}
        for player in self.players:
            self.fields[f"out_{player.pk}"] = forms.IntegerField(
                label=player.name,
                min_value=1,
                max_value=len(self.players),
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "out-order"}),
            )
            for prefix in ("cards", "score", "wrong"):
                self.fields[f"{prefix}_{player.pk}"] = forms.IntegerField(
                    label=player.name, **number, widget=forms.NumberInput(attrs={"inputmode": "numeric"})
                )
        for index in range(self.match_games):
            for player in self.players:
                self.fields[f"game_{index}_{player.pk}"] = forms.IntegerField(
                    label=player.name, **number, widget=forms.NumberInput(attrs={"inputmode": "numeric"})
                )
        winners = [("", "—"), *((str(p.pk), p.name) for p in self.players), ("tie", _("nobody (pot)"))]
        for index in range(HAND_ROWS):
            self.fields[f"hand_{index}_winner"] = forms.ChoiceField(choices=winners, required=False)
            self.fields[f"hand_{index}_points"] = forms.ChoiceField(choices=HAND_POINTS, required=False)
        if correcting:
            self.fields["reason"].required = True

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.is_snap and cleaned.get("mode") == "hands":
            for index in range(HAND_ROWS):
                if cleaned.get(f"hand_{index}_points") and not cleaned.get(f"hand_{index}_winner"):
                    self._errors.setdefault("hands", self.error_class()).append(
                        _("Hand %(n)s: choose the winner.") % {"n": index + 1}
                    )
        if not self._errors:
            try:
                cleaned["result"] = self.target.parse(self.result_payload())
            except ResultInvalid as exc:
                self.add_service_error(exc)
        return cleaned

    # --- what the template walks over -----------------------------------------------------------

    @property
    def is_snap(self) -> bool:
        return self.game_kind == GameKind.SNAP

    @property
    def player_inputs(self) -> list[PlayerInputs]:
        return [
            PlayerInputs(
                player=p,
                out=self[f"out_{p.pk}"],
                cards=self[f"cards_{p.pk}"],
                score=self[f"score_{p.pk}"],
                wrong=self[f"wrong_{p.pk}"],
            )
            for p in self.players
        ]

    @property
    def hand_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(i + 1, self[f"hand_{i}_winner"], self[f"hand_{i}_points"]) for i in range(HAND_ROWS)]

    @property
    def game_rows(self) -> list[tuple[int, list[forms.BoundField]]]:
        return [(i + 1, [self[f"game_{i}_{p.pk}"] for p in self.players]) for i in range(self.match_games)]

    def errors_for(self, name: str) -> list[str]:
        return [str(e) for e in self.errors.get(name, [])]

    def _errors_by_player(self, name: str, prefix: str) -> list[str]:
        found = self.errors_for(name)
        for player in self.players:
            found += [f"{player.name}: {e}" for e in self.errors_for(f"{prefix}_{player.pk}")]
        return found

    @property
    def order_errors(self) -> list[str]:
        return self._errors_by_player("order", "out")

    @property
    def cards_errors(self) -> list[str]:
        return self._errors_by_player("cards", "cards")

    @property
    def score_errors(self) -> list[str]:
        return self._errors_by_player("score", "score")

    @property
    def wrong_errors(self) -> list[str]:
        return self._errors_by_player("wrong_calls", "wrong")

    @property
    def wrong_calls_open(self) -> bool:
        """Show the wrong-calls inputs: some were given, or they have errors."""
        return bool(self.wrong_errors) or any(self[f"wrong_{p.pk}"].value() for p in self.players)

    # --- parsing ---------------------------------------------------------------------------------

    def result_payload(self) -> dict[str, Any]:
        """The result in the submitted shape (as an API client sends it)."""
        return self._snap_payload() if self.is_snap else self._snapszer_payload()

    def _snap_payload(self) -> dict[str, Any]:
        data = self.cleaned_data
        ending = data.get("ending") or "last_player_standing"
        out: dict[int, list[int]] = {}
        still_in = []
        for player in self.players:
            position = data.get(f"out_{player.pk}")
            if position is None:
                still_in.append(player.pk)
            else:
                out.setdefault(position, []).append(player.pk)
        groups: list[Any] = [
            members[0] if len(members) == 1 else members for _n, members in sorted(out.items())
        ]
        if ending == "last_player_standing" and not still_in and groups and not isinstance(groups[-1], list):
            groups.pop()  # every player tapped: the last one tapped is the winner, who never went out
        elif ending == "draw" and still_in:
            groups.append(still_in)  # a draw: everyone not tapped went out together at the end
        payload: dict[str, Any] = {"ending": ending, "eliminated": groups}
        if ending == "adjudicated":
            payload["card_counts"] = {
                str(p.pk): data[f"cards_{p.pk}"]
                for p in self.players
                if data.get(f"cards_{p.pk}") is not None
            }
        payload["wrong_calls"] = {
            str(p.pk): data[f"wrong_{p.pk}"] for p in self.players if data.get(f"wrong_{p.pk}") is not None
        }
        return payload

    def _snapszer_payload(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data.get("mode") == "games" and self.match_games:
            games = []
            for index in range(self.match_games):
                row = {p.pk: data.get(f"game_{index}_{p.pk}") for p in self.players}
                if any(v is not None for v in row.values()):
                    games.append({str(pid): v for pid, v in row.items() if v is not None})
            return {"games": games, "pot_carried": data.get("pot_carried") or 0}
        if data.get("mode") == "hands":
            hands = []
            for index in range(HAND_ROWS):
                winner = data.get(f"hand_{index}_winner") or ""
                points = data.get(f"hand_{index}_points") or ""
                if not winner and not points:
                    continue
                if winner == "tie":
                    hands.append({"winner": None})
                else:
                    hands.append({"winner": winner or None, "points": int(points) if points else None})
            return {"hands": hands}
        scores = {p.pk: data.get(f"score_{p.pk}") for p in self.players}
        return {
            "score": {str(pid): score for pid, score in scores.items() if score is not None},
            "pot_carried": data.get("pot_carried") or 0,
        }

    def add_service_error(self, exc: ApplicationError) -> None:
        """Show a refusal (of reading the result, or of ``result_record``) next to the fields it is
        about."""
        where = {
            "eliminated": "order",
            "ending": "ending",
            "card_counts": "cards",
            "wrong_calls": "wrong_calls",
            "score": "score",
            "pot_carried": "pot_carried",
            "reason": "reason",
            "void_later_games": "void_later_games",
        }
        placed = False
        for name, messages in exc.fields.items():
            target = name.split(".")[0] if name.startswith(("hands", "games")) else where.get(name)
            for message in messages:
                if target in self.fields:
                    self.add_error(target, str(message))
                else:
                    self._errors.setdefault(target or "__all__", self.error_class()).append(str(message))
                placed = True
        if not placed or exc.code != "result_invalid":
            self.add_error(None, str(exc.message))

    # --- an organiser's correction starts from the current result --------------------------------

    @staticmethod
    def initial_from(target: ResultTarget) -> dict[str, Any]:
        """The form's fields for correcting game ``target.game_number``: its current result (for a
        void game, the result it had before it was voided), entered as it was."""
        initial: dict[str, Any] = {"game": target.game_number, "expected_version": target.expected_version}
        value = target.start
        if isinstance(value, SnapTableResult):
            initial["ending"] = str(value.ending)
            groups = value.eliminated[:-1] if value.ending is SnapEnding.DRAW else value.eliminated
            for position, group in enumerate(groups, start=1):  # a draw's last group: the untapped
                for pid in group:
                    initial[f"out_{pid}"] = position
            for pid, count in value.card_counts.items():
                initial[f"cards_{pid}"] = count
            for pid, wrong in value.wrong_calls.items():
                if wrong:
                    initial[f"wrong_{pid}"] = wrong
        elif isinstance(value, SnapszerMatchResult):
            initial.update(_snapszer_initial(value))
        return initial


def _snapszer_initial(value: SnapszerMatchResult) -> dict[str, Any]:
    if value.hands is not None and len(value.hands) <= HAND_ROWS:
        initial: dict[str, Any] = {"mode": "hands"}
        for index, hand in enumerate(value.hands):
            initial[f"hand_{index}_winner"] = "tie" if hand.winner is None else str(hand.winner)
            initial[f"hand_{index}_points"] = str(hand.points) if hand.winner is not None else ""
        return initial
    a, b = value.players
    initial = {"pot_carried": value.pot_carried}
    if len(value.games) > 1:
        initial["mode"] = "games"
        for index, (x, y) in enumerate(value.games):
            initial.update({f"game_{index}_{a}": x, f"game_{index}_{b}": y})
    else:
        initial["mode"] = "score"
        initial.update({f"score_{a}": value.games[0][0], f"score_{b}": value.games[0][1]})
    return initial
