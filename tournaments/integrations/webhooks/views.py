"""The organiser's webhook pages: a club's endpoints (and a new one), an endpoint with its
delivery log, and its buttons (test event, new secret, delete, redeliver). docs/webhooks.md."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from snapleague.errors import ApplicationError
from tournaments.integrations.webhooks import selectors, services
from tournaments.integrations.webhooks.forms import WebhookEndpointForm
from tournaments.integrations.webhooks.models import WebhookEndpoint
from tournaments.pages import apply_service_error, refusal_told


def _endpoint_page(
    request: HttpRequest,
    endpoint_id: int,
    *,
    form: WebhookEndpointForm | None = None,
    secret: str = "",
    status: int = 200,
) -> HttpResponse:
    page = selectors.webhook_endpoint_page_get(user=request.user, endpoint_id=endpoint_id)
    endpoint = page.endpoint
    form = form or WebhookEndpointForm(
        initial={
            "url": endpoint.url,
            "description": endpoint.description,
            "events": endpoint.events,
            "active": endpoint.active,
        }
    )
    context: dict[str, Any] = {
        "page": page,
        "endpoint": endpoint,
        "form": form,
        "secret": secret,
        "waiting": any(d.status == "pending" for d in page.deliveries),
    }
    return render(request, "tournaments/webhook.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's endpoints; POST registers one and shows its secret, this once."""
    club, endpoints = selectors.club_webhooks_get(user=request.user, slug=slug)
    form = WebhookEndpointForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                endpoint, secret = services.webhook_endpoint_create(
                    user=request.user, club=club, **form.cleaned_data
                )
            except ApplicationError as exc:
                apply_service_error(form, exc)
                status = exc.status
            else:
                messages.success(
                    request, _("Webhook endpoint added. Copy its secret now: it is shown only once.")
                )
                return _endpoint_page(request, endpoint.pk, secret=secret)
    context = {"club": club, "endpoints": endpoints, "form": form}
    return render(request, "tournaments/webhooks.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def webhook(request: HttpRequest, endpoint_id: int) -> HttpResponse:
    """An endpoint: its settings (POST changes them) and its delivery log."""
    if request.method == "GET":
        return _endpoint_page(request, endpoint_id)
    selectors.webhook_endpoint_by_id(user=request.user, endpoint_id=endpoint_id)  # who asks, first
    form = WebhookEndpointForm(request.POST)
    if form.is_valid():
        try:
            services.webhook_endpoint_update(user=request.user, endpoint_id=endpoint_id, **form.cleaned_data)
        except ApplicationError as exc:
            apply_service_error(form, exc)
            return _endpoint_page(request, endpoint_id, form=form, status=exc.status)
        messages.success(request, _("Webhook endpoint saved."))
        return redirect("tournaments:webhook", endpoint_id=endpoint_id)
    return _endpoint_page(request, endpoint_id, form=form, status=400)


@login_required
@require_POST
def webhook_secret(request: HttpRequest, endpoint_id: int) -> HttpResponse:
    _endpoint, secret = services.webhook_endpoint_secret_regenerate(
        user=request.user, endpoint_id=endpoint_id
    )
    messages.success(
        request, _("New secret made: the old one no longer signs. Copy it now: it is shown only once.")
    )
    return _endpoint_page(request, endpoint_id, secret=secret)


@login_required
@require_POST
def webhook_test(request: HttpRequest, endpoint_id: int) -> HttpResponse:
    services.webhook_endpoint_test(user=request.user, endpoint_id=endpoint_id)
    messages.success(request, _("Test event queued: its attempts show in the log below."))
    return redirect("tournaments:webhook", endpoint_id=endpoint_id)


@login_required
@require_POST
def webhook_delete(request: HttpRequest, endpoint_id: int) -> HttpResponse:
    endpoint: WebhookEndpoint = selectors.webhook_endpoint_by_id(user=request.user, endpoint_id=endpoint_id)
    slug = endpoint.club.slug
    services.webhook_endpoint_delete(user=request.user, endpoint_id=endpoint_id)
    messages.success(request, _("Webhook endpoint deleted, with its delivery log."))
    return redirect("tournaments:webhooks", slug=slug)


@login_required
@require_POST
def webhook_redeliver(request: HttpRequest, delivery_id: int) -> HttpResponse:
    delivery = selectors.webhook_delivery_by_id(user=request.user, delivery_id=delivery_id)
    try:
        services.webhook_delivery_redeliver(user=request.user, delivery_id=delivery_id)
    except ApplicationError as exc:
        refusal_told(request, exc)
    else:
        messages.success(request, _("Delivery queued to be sent again."))
    return redirect("tournaments:webhook", endpoint_id=delivery.endpoint_id)
