from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_safe

from tournaments.models import Club


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"clubs": Club.objects.all()})


@require_safe  # a monitor may ask with HEAD
def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})
