"""A stage's forms: creating it in any format the tournament's game can play (its options and
tiebreaks), withdrawing a player, a series' no-show."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.competitions.formats.base import FormatKey
from tournaments.competitions.formats.options import OptionSpec, Whole, YesNo
from tournaments.competitions.formats.registry import FORMATS
from tournaments.competitions.problems import TournamentInputError
from tournaments.competitions.standings.chain import Tiebreak
from tournaments.models import GameKind, Player, Stage, StageFormat, Tournament
from tournaments.templatetags.league import TIEBREAKS as TIEBREAK_LABELS

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
