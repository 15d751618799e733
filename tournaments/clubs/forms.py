"""The clubs' page forms."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ClubCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Club name"),
        max_length=120,
        help_text=_("Its address is made from the name; you become its organiser."),
    )
