from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from tournaments.models import Club


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"clubs": Club.objects.all()})


def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})
