"""Page forms: they parse what a browser sends into the arguments of one service, nothing more.

The result form turns taps into a result value (through the submitted shapes of
``tournaments/competitions/results/payload.py``, as the API) and shows field errors next to the fields they are
about.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.engine.sixtysix import PROFILES as SIXTY_SIX_PROFILES
from snapleague.errors import ApplicationError
from tournaments.competitions.formats.base import FormatKey
from tournaments.competitions.formats.options import OptionSpec, Whole, YesNo
from tournaments.competitions.formats.registry import FORMATS
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.results.payload import ResultInvalid
from tournaments.competitions.results.selectors import ResultTarget
from tournaments.competitions.results.values import SnapEnding, SnapszerMatchResult, SnapTableResult
from tournaments.competitions.standings.chain import Tiebreak
from tournaments.models import (
    GAME_KIND_CHOICES,
    GameKind,
    Player,
    SeriesFormat,
    Stage,
    StageFormat,
    Tournament,
)
from tournaments.templatetags.league import TIEBREAKS as TIEBREAK_LABELS

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


class ClubCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Club name"),
        max_length=120,
        help_text=_("Its address is made from the name; you become its organiser."),
    )


class RefereeAddForm(forms.Form):
    username = forms.CharField(label=_("Referee's username"), max_length=150)


# What each stage format is, in a line (the format choice's help).
FORMAT_HELP: dict[str, Any] = {
    "round_robin": _("Everyone plays everyone (Snap: everyone at one table of the size chosen)."),
    "swiss": _("Rounds of pairs by score; nobody meets twice; a bye for an odd player out."),
    "swiss_tables": _("Snap: rounds of tables by score, with the fewest repeat table-mates."),
    "single_elimination": _(
        "A knockout bracket: lose once and you are out. Tables of 3–6 with the top k going on for Snap."
    ),
    "double_elimination": _("A knockout with a losers' bracket: out after two lost series; a grand final."),
    "groups_playoff": _("Snake-seeded groups, then a knockout of the top of each group (A1 v B2 …)."),
    "heats": _("Snap free-for-all: tables, the top k of each go on, to a final table."),
}

# Every format option a form can ask, with its label and help (the format decides which it takes).
OPTION_TEXT: dict[str, tuple[Any, Any]] = {
    "table_size": (_("Players per table"), _("2 for pairs; Snap tables seat 3 to 6.")),
    "rounds": (_("Rounds"), _("Empty: ceil(log2 of the players), e.g. 4 rounds for 16.")),
    "advance": (_("Going on from each table or group"), _("The top k who go on.")),
    "third_place": (_("Play a third-place series"), ""),
    "grand_final_reset": (
        _("Grand final reset"),
        _("If the losers' bracket player wins the grand final, play it again."),
    ),
    "double": (_("Play everyone twice"), ""),
    "bye": (_("A bye counts as"), ""),
    "seeding": (
        _("Seeding"),
        _(
            "Random is drawn from the stage's recorded seed; manual follows the entry list; by rating "
            "uses the club's current ratings when the first round is published."
        ),
    ),
    "group_size": (_("Players per group"), _("The largest group; the others have one fewer at most.")),
    "group_format": (_("Groups play"), ""),
    "group_rounds": (_("Swiss rounds in each group"), _("Empty: the default for the group's size.")),
    "playoff": (_("Playoff"), ""),
    "repechage": (_("Repechage"), _("A second chance for the players just below the cut.")),
}
CHOICE_TEXT: dict[str, Any] = {
    "win": _("a series won"),
    "draw": _("half a series"),
    "nothing": _("nothing"),
    "random": _("random"),
    "manual": _("manual (entry list order)"),
    "standings": _("by the earlier stage's standings"),
    "rating": _("by rating (unrated players last)"),
    "round_robin": _("a round robin"),
    "swiss": _("Swiss rounds"),
    "single_elimination": _("single elimination"),
    "double_elimination": _("double elimination"),
}


TIEBREAK_FIELDS = 6


class StageCreateForm(forms.Form):
    """A stage of any format the tournament's game can play. The options of every format are
    fields, each marked with the formats that take it (``data-formats``; the page shows only the
    chosen format's); only the chosen format's options are sent to the service, which checks them."""

    name = forms.CharField(label=_("Name"), max_length=120, initial=_("League"))
    # Not required: a form sent without them makes a round robin published automatically.
    format = forms.ChoiceField(label=_("Format"), widget=forms.RadioSelect, required=False)
    publishing = forms.ChoiceField(
        label=_("Later rounds are published"),
        choices=Stage.Publishing.choices,
        initial=Stage.Publishing.AUTOMATIC,
        widget=forms.RadioSelect,
        required=False,
    )
    online_play = forms.BooleanField(
        label=_("Played online"),
        required=False,
        help_text=_(
            "Each game is played on the players' phones or computers; they see “Play” on their series."
        ),
    )
    seeded_from = forms.ModelChoiceField(
        label=_("Players from an earlier stage"),
        queryset=Stage.objects.none(),
        required=False,
        empty_label=_("— no: everyone entered —"),
        help_text=_("Seeds the stage from that stage's standings."),
    )
    seeded_take = forms.IntegerField(
        label=_("How many of them"), required=False, min_value=2, help_text=_("Empty: all.")
    )
    # The tournament's players, all checked: the stage is over those left checked. ``players_listed``
    # tells a form that showed the list (nothing checked: too few) from one sent without it (all).
    players = forms.ModelMultipleChoiceField(
        label=_("Players"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "The stage is over the players checked. All checked: every player of the tournament, "
            "those entered later too."
        ),
    )
    players_listed = forms.BooleanField(required=False, initial=True, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, game: str = GameKind.SNAP, tournament: Tournament | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = GameKind(game)
        playable = [key for key in FormatKey if _playable(key, self.game)]
        labels = dict(StageFormat.choices)
        self.fields["format"].choices = [(str(k), labels[str(k)]) for k in playable]
        self.fields["format"].initial = FormatKey.ROUND_ROBIN.value
        self.fields["format"].help_text = " ".join(
            f"{labels[str(k)]}: {FORMAT_HELP[str(k)]}" for k in playable
        )
        self.entered: list[int] = []
        if tournament is not None:
            self.fields["seeded_from"].queryset = tournament.stages.all()
            entered = Player.objects.filter(
                entries__tournament=tournament, entries__withdrawn=False
            ).order_by("entries__seed", "name")
            self.fields["players"].queryset = entered
            self.entered = [p.pk for p in entered]
            self.fields["players"].initial = self.entered
        if not self.entered:
            del self.fields["players"], self.fields["players_listed"]
        takers: dict[str, list[str]] = {}
        specs: dict[str, OptionSpec] = {}
        defaults: dict[str, list[str]] = {}
        for key in playable:
            for name, spec in FORMATS[key].option_specs(self.game).items():
                takers.setdefault(name, []).append(str(key))
                specs.setdefault(name, spec)
                if isinstance(spec, Whole) and spec.default is not None:
                    defaults.setdefault(name, []).append(f"{spec.default} ({labels[str(key)]})")
        self.option_names = list(specs)
        for name, spec in specs.items():
            self.fields[name] = _option_field(name, spec, takers[name], defaults.get(name, []))
        # The tiebreak list, in order (empty: the format's own list; the service checks that each
        # one applies to the chosen format).
        labels_of = {str(t): f"{TIEBREAK_LABELS[str(t)][1]}" for t in Tiebreak}
        for index in range(1, TIEBREAK_FIELDS + 1):
            self.fields[f"tiebreak_{index}"] = forms.ChoiceField(
                label=_("Tiebreak %(n)s") % {"n": index},
                choices=[("", _("— the format's own list —") if index == 1 else "—"), *labels_of.items()],
                required=False,
                help_text=_("Leave empty to use the format's tiebreaks.") if index == 1 else "",
            )

    def service_kwargs(self, tournament: Tournament) -> dict[str, Any]:
        data = self.cleaned_data
        data["format"] = data.get("format") or FormatKey.ROUND_ROBIN.value
        data["publishing"] = data.get("publishing") or Stage.Publishing.AUTOMATIC
        chosen = FORMATS[FormatKey(data["format"])].option_specs(self.game)
        options = {name: data[name] for name in chosen if data.get(name) not in (None, "")}
        return {
            "name": data["name"],
            "format": data["format"],
            "options": options,
            "publishing": data["publishing"],
            "seeded_from": data.get("seeded_from"),
            "seeded_take": data.get("seeded_take"),
            "online_play": bool(data.get("online_play")),
            "players": self._chosen_players(),
            "tiebreaks": [
                data[f"tiebreak_{i}"] for i in range(1, TIEBREAK_FIELDS + 1) if data.get(f"tiebreak_{i}")
            ],
        }

    def _chosen_players(self) -> list[int] | None:
        """The players checked, in entry order; None when all are (or the list was not shown)."""
        data = self.cleaned_data
        if "players" not in self.fields or not data.get("players_listed"):
            return None
        chosen = {p.pk for p in data.get("players") or []}
        if chosen == set(self.entered):
            return None
        return [pk for pk in self.entered if pk in chosen]


def _playable(key: FormatKey, game: GameKind) -> bool:
    """Can ``game`` be played in format ``key`` at all (Snapszer: not at tables)?"""
    try:
        FORMATS[key].check_options({}, game=game)
    except TournamentInputError:
        return False
    return True


def _option_field(name: str, spec: OptionSpec, formats: list[str], defaults: list[str]) -> forms.Field:
    label, help_text = OPTION_TEXT.get(name, (name, ""))
    attrs = {"data-formats": " ".join(formats)}
    if isinstance(spec, Whole):
        # Formats differ in this option's default: the field starts empty (the chosen format's
        # default) and says each format's default.
        if defaults:
            help_text = format_lazy(
                "{} {}", help_text, _("Empty: %(defaults)s.") % {"defaults": ", ".join(defaults)}
            )
        return forms.IntegerField(
            label=label,
            help_text=help_text,
            required=False,
            min_value=spec.minimum,
            max_value=spec.maximum,
            widget=forms.NumberInput(attrs=attrs),
        )
    if isinstance(spec, YesNo):
        return forms.BooleanField(
            label=label,
            help_text=help_text,
            required=False,
            initial=spec.default,
            widget=forms.CheckboxInput(attrs=attrs),
        )
    return forms.ChoiceField(
        label=label,
        help_text=help_text,
        choices=[(value, CHOICE_TEXT.get(value, value)) for value in spec.allowed],
        initial=spec.default,
        required=False,
        widget=forms.Select(attrs=attrs),
    )


class WithdrawForm(forms.Form):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    from_round = forms.IntegerField(
        label=_("From round"),
        required=False,
        min_value=1,
        help_text=_("Empty: their next series not decided yet."),
    )
    reason = forms.CharField(label=_("Reason"), required=False, max_length=200)

    def __init__(self, *args: Any, players: Sequence[Player] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(p.pk, p.name) for p in players]


class ForfeitForm(forms.Form):
    players = forms.TypedMultipleChoiceField(
        label=_("Did not come"), coerce=int, widget=forms.CheckboxSelectMultiple
    )
    reason = forms.CharField(label=_("Reason"), required=False, max_length=200)

    def __init__(self, *args: Any, players: Sequence[Player] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(p.pk, p.name) for p in players]


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


# --- Club nights (tournaments/nights/) ------------------------------------------------------------


class SessionCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, help_text=_("e.g. Thursday club night"))
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    online = forms.BooleanField(label=_("Online slot (played on the site)"), required=False)
    rounds_planned = forms.IntegerField(
        label=_("Rounds planned"),
        min_value=0,
        max_value=50,
        required=False,
        help_text=_(
            "Rounds published later go into the earliest session with room, by themselves. Empty: schedule them by hand."
        ),
    )


class SessionEditForm(SessionCreateForm):
    """A session's name, venue, online slot and rounds planned (its start stays)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["starts_at"]


class RoundScheduleForm(forms.Form):
    round = forms.TypedChoiceField(label=_("Round"), coerce=int)
    starts_at = forms.DateTimeField(
        label=_("Starts at (blank: when the session starts)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )

    def __init__(self, *args: Any, rounds: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round"].choices = [(r.pk, f"{r.stage.name} · {r}") for r in rounds]


class StationsForm(forms.Form):
    stations = forms.CharField(
        label=_("Tables, one a line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("A number, a name, or both (“3 Window table”). Empty: the club’s tables."),
    )


class PointsScaleField(forms.CharField):
    """Season points per place, written "25, 18, 15, 12 …" (commas or spaces): a list of whole
    numbers. Whether the list is a scale at all is the service's check (the API sends a list)."""

    def to_python(self, value: Any) -> list[int] | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        try:
            return [int(part) for part in text.replace(",", " ").replace(";", " ").split()]
        except ValueError:
            raise forms.ValidationError(
                _("Write whole numbers separated by commas, e.g. 25, 18, 15."), code="invalid"
            ) from None

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    starts_on = forms.DateField(label=_("Starts on"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Ends on"), widget=forms.DateInput(attrs={"type": "date"}))
    game = forms.ChoiceField(
        label=_("Game"), required=False, choices=[("", _("Both games")), *GAME_KIND_CHOICES]
    )
    points_scale = PointsScaleField(
        label=_("Points for 1st, 2nd, 3rd … place"),
        required=False,
        help_text=_("Blank: 25, 18, 15, 12, 10, 8, 6, 4, 2, 1. Places below the list score nothing."),
    )
    best_results = forms.IntegerField(
        label=_("Best results counting"),
        required=False,
        help_text=_("Blank: every result counts."),
    )

    def service_kwargs(self) -> dict[str, Any]:
        return dict(self.cleaned_data)


class LadderForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=GAME_KIND_CHOICES, widget=forms.RadioSelect)
    season = forms.TypedChoiceField(label=_("Season"), required=False, coerce=int, empty_value=None)
    reach = forms.IntegerField(
        label=_("A player may challenge up to this many places above"), initial=3, min_value=1, max_value=50
    )
    reply_days = forms.IntegerField(
        label=_("Days to play a challenge (then the challenged forfeits)"),
        initial=7,
        min_value=1,
        max_value=90,
    )
    best_of = forms.IntegerField(label=_("Games per match (best of)"), initial=3, min_value=1, max_value=9)
    rematch_days = forms.IntegerField(
        label=_("Days before a lost challenge may be repeated against the same player"),
        initial=7,
        min_value=0,
        max_value=365,
    )

    def __init__(self, *args: Any, seasons: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["season"].choices = [("", _("No season")), *((s.pk, s.name) for s in seasons)]  # type: ignore[attr-defined]

    def service_kwargs(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["season_id"] = data.pop("season")
        return data


class LadderChallengeRecordForm(forms.Form):
    """An organiser records a challenge for two players of the ladder (``challenge_create`` naming
    the challenger). The choices are the ladder's places; whether the ladder's rules allow the
    challenge is the service's check, shown next to the field it names."""

    challenger = forms.TypedChoiceField(label=_("Challenger"), coerce=int, empty_value=None)
    challenged = forms.TypedChoiceField(label=_("Challenged (above)"), coerce=int, empty_value=None)

    def __init__(self, *args: Any, rungs: Sequence[Any] = (), **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "record-%s")
        super().__init__(*args, **kwargs)
        choices = [("", _("Choose a player")), *((r.player_id, f"{r.place}. {r.player.name}") for r in rungs)]
        for name in ("challenger", "challenged"):
            self.fields[name].choices = choices  # type: ignore[attr-defined]

    def service_kwargs(self) -> dict[str, Any]:
        return {
            "challenger_id": self.cleaned_data["challenger"],
            "challenged_id": self.cleaned_data["challenged"],
        }
