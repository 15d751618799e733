"""A tournament's forms: creating it (on its club's page), entering players, adding a referee."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.sixtysix import PROFILES as SIXTY_SIX_PROFILES
from tournaments.models import GAME_KIND_CHOICES, GameKind, Player, ResultMode, SeriesFormat


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


class ResultModeForm(forms.Form):
    """Who records results at the table (docs/results.md, "Who records results")."""

    result_mode = forms.ChoiceField(
        label=_("Who records results"), choices=ResultMode.choices, widget=forms.RadioSelect
    )
    auto_confirm_minutes = forms.IntegerField(
        label=_("A report confirms itself after (minutes)"), min_value=1, max_value=1440, initial=15
    )
    report_deadline_minutes = forms.IntegerField(
        label=_("Report deadline after the round starts (minutes; blank: none)"),
        required=False,
        min_value=5,
        max_value=10080,
    )
    no_show_at_deadline = forms.BooleanField(
        label=_("Nothing reported by the deadline: both players forfeit"), required=False
    )

    def service_kwargs(self) -> dict[str, Any]:
        return dict(self.cleaned_data)
