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


class JoinRequestForm(forms.Form):
    message = forms.CharField(
        label=_("A message for the organisers (optional)"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("E.g. who you are, or which player of the club you are."),
    )


class JoinApproveForm(forms.Form):
    """Approve a join request: link the person to one of the club's unclaimed players, or to a new
    player (named after them unless another name is given)."""

    player = forms.TypedChoiceField(label=_("Link to"), coerce=int, required=False, empty_value=None)
    name = forms.CharField(
        label=_("New player's name"),
        max_length=120,
        required=False,
        help_text=_("Used when “a new player” is chosen; empty: their display name."),
    )

    def __init__(self, *args: object, players: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["player"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", _("a new player")), *players]


class JoinRefuseForm(forms.Form):
    reason = forms.CharField(label=_("Reason (the person sees it)"), max_length=300, required=False)


class JoinRequestsOpenForm(forms.Form):
    open = forms.BooleanField(label=_("Let people ask to join from the club page"), required=False)
