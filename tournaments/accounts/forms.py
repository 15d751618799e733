"""The account forms: log-in (the field keeps its old name), the profile, deleting the account."""

from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournaments.accounts.signup_form import DISPLAY_NAME_MAX


class LoginForm(AllauthLoginForm):
    """allauth's log-in form whose name field is posted as ``username`` (as the log-in page always
    did: bookmarks, password managers, scripts and tests keep working); it takes a user name or an
    e-mail address. allauth's own ``login`` is accepted too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        data = kwargs.get("data") if "data" in kwargs else (args[0] if args else None)
        if data is not None and "username" in data and "login" not in data:
            data = data.copy()
            data["login"] = data["username"]
            if "data" in kwargs:
                kwargs["data"] = data
            else:
                args = (data, *args[1:])
        super().__init__(*args, **kwargs)


class ProfileForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=DISPLAY_NAME_MAX, required=False)
    language = forms.ChoiceField(
        label=_("Language of your mails"),
        choices=[("", _("The page's language")), *settings.LANGUAGES],
        required=False,
    )


class AccountDeleteForm(forms.Form):
    confirm = forms.CharField(
        label=_("Type DELETE to confirm"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def clean_confirm(self) -> str:
        value = str(self.cleaned_data["confirm"]).strip()
        if value.upper() != "DELETE":
            raise forms.ValidationError(_("Type DELETE to confirm."))
        return value
