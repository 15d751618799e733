"""Page forms: they parse what a browser sends into the arguments of one service, nothing more.

The result form turns taps into the result shapes of ``tournaments/results.py`` and shows the
service's field errors next to the fields they are about (``error_fields``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.sixtysix import PROFILES as SIXTY_SIX_PROFILES
from snapleague.errors import ApplicationError
from tournaments.models import GAME_KIND_CHOICES, GameKind, GameResult, Player, SeriesFormat, Tournament

SNAP_ENDINGS = [
    ("last_player_standing", _("Last player standing")),
    ("draw", _("Draw")),
    ("adjudicated", _("Adjudicated (card counts)")),
]
HAND_POINTS = [("", "—"), ("1", "1"), ("2", "2"), ("3", "3"), ("6", "6")]
HAND_ROWS = 13  # a match to 7 needs at most 7 scoring hands; ties add a few


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    game = forms.ChoiceField(label=_("Game"), choices=GAME_KIND_CHOICES, widget=forms.RadioSelect)
    series_format = forms.ChoiceField(
        label=_("Series"), choices=SeriesFormat.choices, initial=SeriesFormat.BEST_OF_3
    )
    rules_profile = forms.ChoiceField(
        label=_("Rules profile"),
        required=False,
        choices=[
            ("", _("The game's default")),
            ("classic", "classic (Snap)"),
            *((name, f"{name} (Snapszer)") for name in SIXTY_SIX_PROFILES),
        ],
    )
    target = forms.IntegerField(
        label=_("Snapszer: match to (blank: the profile's)"), required=False, min_value=1, max_value=21
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        options = {"match": data["target"]} if data["game"] == GameKind.SNAPSZER and data["target"] else {}
        return {
            "name": data["name"],
            "game": data["game"],
            "series_format": data["series_format"],
            "rules_profile": data["rules_profile"],
            "rules_options": options,
            "starts_at": data["starts_at"],
        }


class PlayersAddForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        label=_("Club players"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    new_names = forms.CharField(
        label=_("New players, one per line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, addable: Sequence[Player] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = self.fields["players"]
        assert isinstance(players, forms.ModelMultipleChoiceField)
        players.queryset = Player.objects.filter(pk__in=[p.pk for p in addable])

    def service_kwargs(self) -> dict[str, Any]:
        names = [line.strip() for line in self.cleaned_data["new_names"].splitlines() if line.strip()]
        return {"players": list(self.cleaned_data["players"]), "new_names": names}


class RefereeAddForm(forms.Form):
    username = forms.CharField(label=_("Referee's username"), max_length=150)


class StageCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, initial=_("League"))
    table_size = forms.IntegerField(
        label=_("Snap: players per table"), required=False, min_value=2, max_value=6, initial=4
    )
    double = forms.BooleanField(label=_("Snapszer: play everyone twice"), required=False)
    bye = forms.ChoiceField(
        label=_("Snapszer: a bye counts as"),
        required=False,
        choices=[("win", _("a series won")), ("draw", _("half a series")), ("nothing", _("nothing"))],
    )

    def __init__(self, *args: Any, game: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only the options of the tournament's game.
        drop = ("double", "bye") if game == GameKind.SNAP else ("table_size",) if game else ()
        for name in drop:
            del self.fields[name]

    def service_kwargs(self, tournament: Tournament) -> dict[str, Any]:
        data = self.cleaned_data
        if tournament.game == GameKind.SNAP:
            options: dict[str, Any] = {"table_size": data.get("table_size") or 4}
        else:
            options = {"double": data.get("double", False), "bye": data.get("bye") or "win"}
        return {"name": data["name"], "format": "round_robin", "options": options}


@dataclass(frozen=True)
class PlayerInputs:
    player: Player
    out: forms.BoundField
    cards: forms.BoundField
    score: forms.BoundField


class ResultForm(forms.Form):
    """One game's result, as a referee taps it in (or an organiser corrects it).

    Snap: ``out_<player>`` is the order a player went out in (1 = first; equal numbers went out
    together; blank = still in), ``cards_<player>`` the card count at an adjudication.
    Snapszer: ``score_<player>`` (mode ``score``), or ``hand_<i>_winner`` / ``hand_<i>_points``
    (mode ``hands``; winner ``tie`` = a hand nobody won, X29).
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

    def __init__(
        self,
        *args: Any,
        game_kind: str,
        players: Sequence[Player],
        correcting: bool = False,
        games_to_win: int = 1,
        **kwargs: Any,
    ) -> None:
        initial = kwargs.setdefault("initial", {})
        initial.setdefault("client_key", uuid.uuid4().hex)
        if games_to_win > 1:
            initial.setdefault("mode", "games")
        super().__init__(*args, **kwargs)
        # A match of several games to the target (snapszer-hu: two games of 7) is entered game by game.
        self.match_games = 2 * games_to_win - 1 if games_to_win > 1 else 0
        if self.match_games:
            mode = self.fields["mode"]
            assert isinstance(mode, forms.ChoiceField)
            mode.choices = [("games", _("Game by game")), ("hands", _("Hand by hand"))]
        self.game_kind = game_kind
        self.players = list(players)
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
            self.fields[f"cards_{player.pk}"] = forms.IntegerField(
                label=player.name,
                **number,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
            self.fields[f"score_{player.pk}"] = forms.IntegerField(
                label=player.name,
                **number,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
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
        return cleaned

    # --- what the template walks over -----------------------------------------------------------

    @property
    def is_snap(self) -> bool:
        return self.game_kind == GameKind.SNAP

    @property
    def player_inputs(self) -> list[PlayerInputs]:
        return [
            PlayerInputs(
                player=p, out=self[f"out_{p.pk}"], cards=self[f"cards_{p.pk}"], score=self[f"score_{p.pk}"]
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

    @property
    def order_errors(self) -> list[str]:
        found = self.errors_for("order")
        for player in self.players:
            found += [f"{player.name}: {e}" for e in self.errors_for(f"out_{player.pk}")]
        return found

    @property
    def cards_errors(self) -> list[str]:
        found = self.errors_for("cards")
        for player in self.players:
            found += [f"{player.name}: {e}" for e in self.errors_for(f"cards_{player.pk}")]
        return found

    @property
    def score_errors(self) -> list[str]:
        found = self.errors_for("score")
        for player in self.players:
            found += [f"{player.name}: {e}" for e in self.errors_for(f"score_{player.pk}")]
        return found

    # --- parsing ---------------------------------------------------------------------------------

    def result_payload(self) -> dict[str, Any]:
        """The result in the shape ``result_record`` takes. Call after ``is_valid()``."""
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
        """Show a refusal of ``result_record`` next to the fields it is about."""
        where = {
            "eliminated": "order",
            "ending": "ending",
            "card_counts": "cards",
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
    def initial_from(result: GameResult) -> dict[str, Any]:
        data: Mapping[str, Any] = result.data
        initial: dict[str, Any] = {"game": result.game.number, "expected_version": result.version}
        if data.get("game") == "snap":
            initial["ending"] = data.get("ending")
            for position, group in enumerate(data.get("eliminated") or [], start=1):
                for pid in group if isinstance(group, list) else [group]:
                    initial[f"out_{pid}"] = position
            if data.get("ending") == "draw" and data.get("eliminated"):
                for pid in data["eliminated"][-1]:
                    initial.pop(f"out_{pid}", None)  # the form adds the untapped as the last group
            for pid, count in (data.get("card_counts") or {}).items():
                initial[f"cards_{pid}"] = count
        elif data.get("games"):
            initial["mode"] = "games"
            for index, game in enumerate(data["games"]):
                for pid, score in game.items():
                    initial[f"game_{index}_{pid}"] = score
            initial["pot_carried"] = data.get("pot_carried") or 0
        else:
            initial["mode"] = "score"
            for pid, score in (data.get("score") or {}).items():
                initial[f"score_{pid}"] = score
            initial["pot_carried"] = data.get("pot_carried") or 0
        return initial
