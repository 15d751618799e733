from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_safe

from tournaments.clubs.selectors import clubs_list
from tournaments.nights.selectors import user_next_table_get


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context = {
        "clubs": clubs_list(),
        "next_table": user_next_table_get(user=request.user),
        "mine": True,
    }
    return render(request, "home.html", context)


@require_safe  # a monitor may ask with HEAD
def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})
