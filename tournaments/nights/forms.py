"""A club night's page forms: a session's creation and edit, scheduling a round into it, its tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


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
