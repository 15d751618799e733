from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_POST
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from snapleague import views

handler400 = "snapleague.request_size.bad_request"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    # The footer's language switcher; POST only (Django's view also answers a GET, changing nothing).
    path("i18n/setlang/", require_POST(set_language), name="set_language"),
    path("play/", include("games.urls")),
    path("", include("tournaments.page_urls")),
    path("api/", include("tournaments.urls")),
    path("api/games/", include("games.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/docs/",
        csp_override(settings.API_DOCS_CSP)(SpectacularSwaggerView.as_view(url_name="schema")),
        name="api-docs",
    ),
    path(
        "api/redoc/",
        csp_override(settings.API_DOCS_CSP)(SpectacularRedocView.as_view(url_name="schema")),
        name="api-redoc",
    ),
]
