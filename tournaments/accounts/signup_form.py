"""Sign-up's extra field (ACCOUNT_SIGNUP_FORM_CLASS). allauth imports this module while it defines
its own forms, so it must not import ``allauth.account.forms``."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from snapleague.users import Account

DISPLAY_NAME_MAX = 80


class SignupExtraForm(forms.Form):
    """What sign-up asks beyond allauth's e-mail address and password (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX,
        required=False,
        help_text=_("The name others see. You can change it later."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )

    def signup(self, request: HttpRequest, user: Account) -> None:
        from tournaments.accounts.services import profile_create_at_signup

        profile_create_at_signup(
            user=user,
            display_name=self.cleaned_data.get("display_name", ""),
            language=getattr(request, "LANGUAGE_CODE", "") or settings.LANGUAGE_CODE,
            next_url=request.POST.get("next", "") or request.GET.get("next", ""),
        )
