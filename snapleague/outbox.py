"""/outbox/: the mails written to var/outbox/ (the embedded default, snapleague/mail.py), so a person
on a fresh machine can open a confirmation link. Only while ``OUTBOX_PAGE`` is on (DEBUG's value
unless set): elsewhere these pages do not exist (404), as anyone could read anyone's links."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from snapleague.mail import mailer_is_outbox, outbox_get, outbox_list


def _require_outbox() -> None:
    if not settings.OUTBOX_PAGE:
        raise Http404


@require_GET
def outbox(request: HttpRequest) -> HttpResponse:
    _require_outbox()
    return render(
        request,
        "outbox.html",
        {"mails": outbox_list(), "smtp": not mailer_is_outbox()},
    )


@require_GET
def outbox_mail(request: HttpRequest, name: str) -> HttpResponse:
    _require_outbox()
    mail = outbox_get(name)
    if mail is None:
        raise Http404
    return render(request, "outbox_mail.html", {"mail": mail})
