from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_POST
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from snapleague import outbox, views

handler400 = "snapleague.request_size.bad_request"
# allauth's rate limits answer with this (429, Retry-After).
handler429 = "snapleague.login_throttle.rate_limited"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Accounts: one's own pages (tournaments/accounts/), then allauth's (log-in, sign-up, e-mail,
    # password, second factors; docs/accounts.md).
    path("accounts/", include("tournaments.accounts.urls")),
    path("accounts/", include("allauth.urls")),
    # The mails written under var/outbox/ (only with OUTBOX_PAGE: DEBUG or the demo).
    path("outbox/", outbox.outbox, name="outbox"),
    path("outbox/<str:name>/", outbox.outbox_mail, name="outbox-mail"),
    # The footer's language switcher; POST only (Django's view also answers a GET, changing nothing).
    path("i18n/setlang/", require_POST(set_language), name="set_language"),
    # One's notifications and their settings (docs/notifications.md).
    path("notifications/", include("tournaments.notifications.urls")),
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
