"""A ladder's page forms (docs/ladder.md): its settings, and an organiser recording a challenge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import GAME_KIND_CHOICES


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
