"""A season's page form (docs/seasons.md)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import GAME_KIND_CHOICES


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
