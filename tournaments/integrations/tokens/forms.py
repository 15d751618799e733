"""The "new API token" form (the service checks the name, scope and expiry again)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.integrations.tokens.models import ApiToken

ON_A_DATE = "date"


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=100,
        help_text=_("What will use it, e.g. “results script”."),
        error_messages={"required": _("Name the token after what will use it, e.g. “results script”.")},
    )
    scope = forms.ChoiceField(
        label=_("Scope"),
        choices=ApiToken.Scope.choices,
        initial=ApiToken.Scope.READ,
        widget=forms.RadioSelect,
    )
    expires = forms.ChoiceField(
        label=_("Expires"),
        choices=[
            ("30", _("in 30 days")),
            ("90", _("in 90 days")),
            ("365", _("in a year")),
            (ON_A_DATE, _("on a date")),
        ],
        initial="90",
    )
    expires_on = forms.DateField(
        label=_("Last day it works"),
        required=False,
        help_text=_("Only with “on a date”: up to a year ahead."),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (
            data.get("expires") == ON_A_DATE
            and not data.get("expires_on")
            and "expires_on" not in self.errors
        ):
            self.add_error("expires_on", _("Choose the last day the token works."))
        return data

    def service_arguments(self) -> dict[str, Any]:
        """The cleaned form as ``services.api_token_create`` takes it."""
        data = self.cleaned_data
        chosen = data["expires"]
        return {
            "name": data["name"],
            "scope": data["scope"],
            "expires_in_days": None if chosen == ON_A_DATE else int(chosen),
            "expires_on": data["expires_on"] if chosen == ON_A_DATE else None,
        }
