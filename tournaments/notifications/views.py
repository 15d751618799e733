"""One's notifications (the list, opening one), their settings, the browser's push subscription,
and the one-click unsubscription of mails (RFC 8058) (docs/notifications.md). The service worker
that shows pushes is the site's one, /record-sw.js (templates/tournaments/record_sw.js)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from snapleague.errors import ApplicationError
from tournaments.notifications import selectors, services
from tournaments.notifications.models import Event
from tournaments.notifications.push import application_server_key


@login_required
@require_http_methods(["GET", "POST"])
def notification_list(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        count = services.notifications_read(user=request.user)
        if count:
            messages.success(request, _("All your notifications are marked read."))
        return redirect("notifications:list")
    return render(
        request,
        "notifications/list.html",
        {"rows": selectors.notifications_list(user=request.user)},
    )


@login_required
@require_GET
def notification_open(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Mark it read and go where it points (one's own only: another's is a 404)."""
    notification = services.notification_open(user=request.user, notification_id=notification_id)
    target = notification.url
    if not target or not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect("notifications:list")
    return redirect(target)


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: HttpRequest) -> HttpResponse:
    status = 200
    errors: list[str] = []
    if request.method == "POST":
        try:
            services.preferences_set(user=request.user, enabled=request.POST.getlist("enabled"))
        except ApplicationError as exc:
            errors = [str(m) for ms in (exc.fields or {}).values() for m in ms] or [str(exc.message)]
            status = 400
        else:
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notifications:settings")
    return render(
        request,
        "notifications/settings.html",
        {
            "grid": selectors.preferences_grid(user=request.user),
            "errors": errors,
            "push_key": application_server_key(),
            "push_count": selectors.push_subscriptions_count(user=request.user),
        },
        status=status,
    )


@login_required
@require_http_methods(["POST", "DELETE"])
def push_subscription(request: HttpRequest) -> HttpResponse:
    """The browser's subscription as ``PushSubscription.toJSON()`` gives it: POST keeps it (201),
    DELETE forgets it (204). Bad input: 400 with field errors."""
    try:
        data = json.loads(request.body or b"{}")
        if not isinstance(data, dict):
            raise ValueError
    except ValueError:
        return JsonResponse({"detail": _("Send the subscription as a JSON object.")}, status=400)
    endpoint = str(data.get("endpoint") or "")
    if request.method == "DELETE":
        services.push_unsubscribe(user=request.user, endpoint=endpoint)
        return HttpResponse(status=204)
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    try:
        services.push_subscribe(
            user=request.user,
            endpoint=endpoint,
            p256dh=str(keys.get("p256dh") or ""),
            auth=str(keys.get("auth") or ""),
            user_agent=request.headers.get("User-Agent", ""),
        )
    except ApplicationError as exc:
        return JsonResponse(
            {
                "detail": str(exc.message),
                "fields": {k: [str(m) for m in v] for k, v in (exc.fields or {}).items()},
            },
            status=400,
        )
    return JsonResponse({"endpoint": endpoint}, status=201)


@csrf_exempt  # RFC 8058: the mail client POSTs with no session and no token; the link is signed
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows what the link stops and a button; POST (the button, or a mail client's one-click
    ``List-Unsubscribe=One-Click``) turns that e-mail off. A forged link is a 404 page."""
    if request.method == "POST":
        _user_id, event = services.unsubscribe(token)
        return render(request, "notifications/unsubscribed.html", {"event": Event(event).label})
    _user_id, event = services.unsubscribe_check(token)
    return render(request, "notifications/unsubscribe.html", {"event": Event(event).label, "token": token})
