"""The organiser's endpoint form (the service checks the URL and the events again)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.integrations.webhooks.models import SUBSCRIBABLE_EVENTS, WebhookEvent


class WebhookEndpointForm(forms.Form):
    url = forms.CharField(
        label=_("URL"),
        max_length=2000,
        help_text=_("Where the events are posted: https://, on a public address."),
        widget=forms.URLInput(attrs={"placeholder": "https://example.com/snapleague", "inputmode": "url"}),
    )
    description = forms.CharField(label=_("Description"), max_length=200, required=False)
    events = forms.MultipleChoiceField(
        label=_("Events"),
        choices=[(e, WebhookEvent(e).label) for e in SUBSCRIBABLE_EVENTS],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one event.")},
    )
    active = forms.BooleanField(label=_("Active: send events to it"), required=False, initial=True)
