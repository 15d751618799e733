"""The registration forms: an organiser opens sign-ups; a person answers the question."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class RegistrationWindowForm(forms.Form):
    opens_at = forms.DateTimeField(label=_("Opens"), widget=DATETIME)
    closes_at = forms.DateTimeField(label=_("Closes"), widget=DATETIME)
    cap = forms.IntegerField(label=_("Places"), required=False, min_value=1, help_text=_("Empty: no limit."))
    waiting_list = forms.BooleanField(
        label=_("A waiting list takes sign-ups once it is full"), required=False
    )
    approval = forms.BooleanField(label=_("An organiser approves each sign-up"), required=False)
    question = forms.CharField(
        label=_("A question every person answers (optional)"),
        max_length=200,
        required=False,
        help_text=_("E.g. “Which club night suits you?”"),
    )

    def service_kwargs(self) -> dict[str, Any]:
        return dict(self.cleaned_data)


class RegisterForm(forms.Form):
    answer = forms.CharField(label=_("Your answer"), max_length=300, required=False)

    def __init__(self, *args: Any, question: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["answer"].label = question or _("Your answer")
        self.fields["answer"].required = bool(question)
        if not question:
            self.fields["answer"].widget = forms.HiddenInput()
