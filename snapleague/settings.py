"""snapleague settings: one module, driven by environment variables.

With no configuration at all snapleague runs on the embedded default: SQLite under ``var/`` and a
Celery broker on kombu's ``filesystem://`` transport under ``var/``. ``DATABASE_URL``,
``CELERY_BROKER_URL`` and ``CHANNEL_LAYER_URL`` switch to PostgreSQL, Redis/RabbitMQ and a Redis
channel layer; nothing else changes between the two (docs/architecture.md).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def parallel_test_worker_environ(environ: dict[str, str] | os._Environ[str]) -> None:
    """The tests run in parallel (``bin/test``: pytest-xdist's worker processes gw0, gw1, …). Each
    worker has its own test database (pytest-django adds the worker's id to its name) and, set here
    in ``environ`` before anything reads it, its own Redis databases for the broker and the channel
    layer (the configured numbers minus 2 × the worker's number: gw0 keeps them, gw1 takes the two
    below) and its own var dir (``var/test-gw1``, …): workers never take each other's tasks, hear
    each other's groups or share the file broker. The processes a test starts (Celery workers,
    uvicorn, bin/run) inherit the result; SNAPLEAGUE_TEST_WORKER says it is done, so they keep it.
    Outside a test worker nothing changes."""
    worker = environ.get("PYTEST_XDIST_WORKER", "")
    if not worker or environ.get("SNAPLEAGUE_TEST_WORKER") == worker:
        return
    number = int(worker.removeprefix("gw"))
    for name in ("CELERY_BROKER_URL", "CHANNEL_LAYER_URL"):
        url = urlsplit(environ.get(name, ""))
        if url.scheme not in {"redis", "rediss"}:
            continue
        database = int(url.path.strip("/") or "0") - 2 * number
        if database < 0:
            raise RuntimeError(
                f"{name}={urlunsplit(url)}: test worker {worker} needs Redis database "
                f"{database}; configure higher database numbers or run fewer workers"
            )
        environ[name] = urlunsplit(url._replace(path=f"/{database}"))
    var_dir = Path(environ.get("SNAPLEAGUE_VAR_DIR") or BASE_DIR / "var")
    environ["SNAPLEAGUE_VAR_DIR"] = str(var_dir / f"test-{worker}")
    environ["SNAPLEAGUE_TEST_WORKER"] = worker


parallel_test_worker_environ(os.environ)
VAR_DIR = Path(os.environ.get("SNAPLEAGUE_VAR_DIR", BASE_DIR / "var")).resolve()


def get_bool_from_env(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"{name}={value!r}: expected one of 1/0, true/false, yes/no, on/off")


def get_list_from_env(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    return [item.strip() for item in value.split(",") if item.strip()] if value else default


DEBUG = get_bool_from_env("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"
ALLOWED_HOSTS = get_list_from_env("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = get_list_from_env("CSRF_TRUSTED_ORIGINS", [])

# --- HTTPS (docs/security.md) --------------------------------------------------------------------
# Off by default: bin/run and the tests serve plain http on 127.0.0.1. A club server behind a TLS
# proxy sets TLS_PROXY=1 (the proxy terminates TLS and says so in X-Forwarded-Proto, and adds the
# client's address to X-Forwarded-For); HTTPS=1 alone is for a server that terminates TLS itself.
TLS_PROXY = get_bool_from_env("TLS_PROXY", False)
HTTPS = get_bool_from_env("HTTPS", TLS_PROXY)
# Trust X-Forwarded-Proto / X-Forwarded-For only from a proxy that sets them: a client can send any.
TRUST_PROXY_HEADERS = TLS_PROXY
if TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if HTTPS:
    SECURE_SSL_REDIRECT = get_bool_from_env("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = get_bool_from_env("HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = get_bool_from_env("HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # "__Host-": the browser keeps the cookie only if it is Secure, for "/" and for this host alone
    # (no Domain), so a sibling subdomain cannot plant or override it.
    SESSION_COOKIE_NAME = "__Host-sessionid"
    CSRF_COOKIE_NAME = "__Host-csrftoken"
    LANGUAGE_COOKIE_SECURE = True
# /healthz is for the proxy or the process supervisor on plain http inside the machine.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # allauth.mfa's passkey list
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "channels",
    "axes",
    # Accounts (docs/accounts.md): sign-up, e-mail confirmation, password reset, MFA. The social
    # log-in app is installed only when a provider is configured (SOCIAL_PROVIDERS, below).
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "snapleague",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Before anything reads the body (the CSRF check reads forms in process_view, after this).
    "snapleague.request_size.RequestSizeLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Before ApplicationErrorMiddleware (sync only), so axes runs on its synchronous path.
    "axes.middleware.AxesMiddleware",
    "snapleague.middleware.ApplicationErrorMiddleware",
]

ROOT_URLCONF = "snapleague.urls"
WSGI_APPLICATION = "snapleague.wsgi.application"
ASGI_APPLICATION = "snapleague.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",  # LANGUAGE_CODE for <html lang>
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "tournaments.notifications.context_processors.notifications",
            ],
        },
    },
]

# --- Content-Security-Policy (Django's own; docs/security.md) -------------------------------------
# Our pages load scripts and styles from our own origin only: no inline scripts, event handlers,
# javascript: URLs, inline styles or eval (htmx runs with allowEval and its indicator styles off,
# templates/base.html). Inline <script>/<style> that must stay (the admin's, the API docs') carry
# the request's nonce. The API docs get a wider policy of their own (snapleague/urls.py).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],  # 'self' covers the same host's ws:// and wss:// (CSP level 3)
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
API_DOCS_CSP = {
    **SECURE_CSP,
    # Swagger UI and Redoc style themselves at run time (React, styled-components) and Redoc
    # searches in a worker made from a blob.
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "worker-src": [CSP.SELF, "blob:"],
}

# --- Database -----------------------------------------------------------------------------------
SQLITE_PATH = VAR_DIR / "snapleague.sqlite3"
DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL") or f"sqlite:///{SQLITE_PATH}")}
_db = DATABASES["default"]
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # One web process and a worker write at once: WAL, a busy timeout and IMMEDIATE transactions
    # avoid "database is locked" (select_for_update is a no-op here; IMMEDIATE serialises writers).
    _db["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # The worker test needs a database file another process can open (the default is in memory).
    _db["TEST"] = {"NAME": os.environ.get("SQLITE_TEST_NAME") or None}
elif _db["ENGINE"] == "django.db.backends.postgresql":
    from psycopg_pool import ConnectionPool

    # Under ASGI persistent connections leak; psycopg's pool needs CONN_MAX_AGE = 0.
    _db["CONN_MAX_AGE"] = 0
    if get_bool_from_env("DATABASE_POOL", True):
        _db.setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("DATABASE_POOL_MIN", "1")),
            "max_size": int(os.environ.get("DATABASE_POOL_MAX", "20")),
            "timeout": 10,
            # A pooled connection the server ended (a PostgreSQL restart, an administrator, a test
            # ending stray sessions) is found and replaced when it is taken, not used and failed.
            "check": ConnectionPool.check_connection,
        }
    # Statements are prepared only when one asks (psycopg's threshold, never reached otherwise; None
    # would refuse even those): the public pages' version reads (snapleague/compiled.py), planned
    # once per connection instead of each time. Django's own client-side cursors never prepare.
    # DATABASE_PREPARE=0 turns that off (a PgBouncer in transaction mode older than 1.21).
    if get_bool_from_env("DATABASE_PREPARE", True):
        _db.setdefault("OPTIONS", {}).setdefault("prepare_threshold", 1_000_000_000)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth, i18n ---------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # Refuses any log-in (page or API) during a cool-off before the password is even checked.
    "axes.backends.AxesStandaloneBackend",
    # Log-in by e-mail address or user name (allauth's), and passkeys (allauth.mfa).
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "account_login"
# Request bodies over this many bytes get 413 (snapleague/request_size.py); Django's default.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("REQUEST_BODY_MAX_BYTES", str(2_621_440)))
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
# The five languages of the club's players (issue 15): the seeds are Italian, Spanish and
# Portuguese, Snapszer is Hungarian. The browser's Accept-Language chooses by default
# (LocaleMiddleware); the switcher in every page's footer sets a cookie. Catalogues: locale/,
# compiled by bin/run and bin/test (snapleague/catalogues.py); docs/web.md, "Languages".
LANGUAGES = [
    ("en", _("English")),
    ("it", _("Italian")),
    ("es", _("Spanish")),
    ("pt", _("Portuguese")),
    ("hu", _("Hungarian")),
]
LANGUAGE_COOKIE_NAME = "snapleague_language"
LANGUAGE_COOKIE_SAMESITE = "Lax"
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Budapest")
USE_I18N = True
USE_TZ = True

# --- Clubs (tournaments/clubs/services.py) -------------------------------------------------------
CLUB_CREATE_PER_HOUR = int(os.environ.get("CLUB_CREATE_PER_HOUR", "3"))  # per account
ORGANISER_INVITATION_DAYS = float(os.environ.get("ORGANISER_INVITATION_DAYS", "7"))
# How long a link to claim a player stays good (tournaments/clubs/, docs/people.md).
PLAYER_CLAIM_DAYS = float(os.environ.get("PLAYER_CLAIM_DAYS", "14"))

# --- Accounts (django-allauth; tournaments/accounts/, docs/accounts.md) ---------------------------
ACCOUNT_ADAPTER = "tournaments.accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"email", "username"}
# Sign-up asks for an e-mail address and one password (and a display name: the form class).
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*"]
ACCOUNT_SIGNUP_FORM_CLASS = "tournaments.accounts.signup_form.SignupExtraForm"
ACCOUNT_FORMS = {"login": "tournaments.accounts.forms.LoginForm"}
ACCOUNT_UNIQUE_EMAIL = True
# Nobody acts on a club's data before confirming their address: an account with an address logs in
# only once it is confirmed (accounts made in /admin/ with no address are let in as before).
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # the link opens a page with a button: a GET changes nothing
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = int(os.environ.get("EMAIL_CONFIRMATION_DAYS", "3"))
ACCOUNT_CHANGE_EMAIL = True  # one address at a time; the old one stays until the new is confirmed
ACCOUNT_PREVENT_ENUMERATION = True  # sign-up and reset answer alike for known and unknown addresses
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[snapleague] "
ACCOUNT_USER_DISPLAY = "tournaments.accounts.selectors.user_display"
# allauth's own limits (per client address, per account or per e-mail address: the "key"); a refused
# request gets 429 with Retry-After (snapleague.urls.handler429). Failed log-ins are axes' (below).
ACCOUNT_RATE_LIMITS = {
    "signup": os.environ.get("SIGNUP_RATE_LIMIT", "10/m/ip,30/h/ip"),
    "reset_password": os.environ.get("RESET_RATE_LIMIT", "10/m/ip,3/m/key,10/h/key"),
    "login_failed": None,
    "login": None,
}
RATE_LIMIT_RETRY_AFTER_SECONDS = 60
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_TOTP_ISSUER = "snapleague"
# Browsers allow passkeys on https and on localhost; plain http elsewhere only while developing.
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = DEBUG
# Social log-in stays off unless configured: SOCIAL_PROVIDERS=google,github (allauth provider
# names) installs allauth.socialaccount and those providers; each provider's client id and secret
# are then entered in /admin/ (Social applications). docs/accounts.md, "Social log-in".
SOCIAL_PROVIDERS = get_list_from_env("SOCIAL_PROVIDERS", [])
if SOCIAL_PROVIDERS:
    INSTALLED_APPS += ["allauth.socialaccount"] + [
        f"allauth.socialaccount.providers.{name}" for name in SOCIAL_PROVIDERS
    ]
    SOCIALACCOUNT_EMAIL_AUTHENTICATION = False  # never take over an account by a provider's word

# --- E-mail (snapleague/mail.py, docs/accounts.md "E-mail") ------------------------------------
# EMAIL_URL: smtp://user:pass@host:587 (STARTTLS), smtps://…:465; empty: one file per mail under
# var/outbox/, listed at /outbox/ while OUTBOX_PAGE is on (DEBUG's value unless set: the demo).
from snapleague.mail import email_settings  # noqa: E402

DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "snapleague <noreply@snapleague.invalid>")
OUTBOX_DIR = VAR_DIR / "outbox"
globals().update(email_settings(os.environ.get("EMAIL_URL", ""), OUTBOX_DIR))
OUTBOX_PAGE = get_bool_from_env("OUTBOX_PAGE", DEBUG)
# A mail's Celery task tries this many times, waiting longer each time (30 s, 1, 2, 4 min, ...).
MAIL_MAX_ATTEMPTS = int(os.environ.get("MAIL_MAX_ATTEMPTS", "6"))
MAIL_RETRY_BASE_SECONDS = float(os.environ.get("MAIL_RETRY_BASE_SECONDS", "30"))
MAIL_RECONCILE_SECONDS = float(os.environ.get("MAIL_RECONCILE_SECONDS", "60"))
# Where the site is, for links in mails and pushes sent by a worker (no request to ask).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# Players' reports (docs/results.md): an open dispute is overdue after these minutes (shown to the
# organisers); beat confirms due reports and looks for overdue series this often.
DISPUTE_DEADLINE_MINUTES = int(os.environ.get("DISPUTE_DEADLINE_MINUTES", "30"))
REPORTS_SWEEP_SECONDS = float(os.environ.get("REPORTS_SWEEP_SECONDS", "30"))

# --- Notifications (tournaments/notifications, docs/notifications.md) ----------------------------
# Web Push: VAPID_PRIVATE_KEY is a PEM (or the path of one); empty: made once under var/.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:" + DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].strip(">"))
PUSH_TTL_SECONDS = int(os.environ.get("PUSH_TTL_SECONDS", "86400"))
PUSH_TIMEOUT_SECONDS = float(os.environ.get("PUSH_TIMEOUT_SECONDS", "10"))
PUSH_MAX_ATTEMPTS = int(os.environ.get("PUSH_MAX_ATTEMPTS", "5"))
PUSH_RETRY_BASE_SECONDS = float(os.environ.get("PUSH_RETRY_BASE_SECONDS", "30"))

# --- Login throttling (django-axes; snapleague/login_throttle.py, docs/security.md) -------------
# Per account and per client address, each on its own; a cool-off, never a permanent lock.
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "snapleague.login_throttle.client_ip"
AXES_LOCKOUT_CALLABLE = "snapleague.login_throttle.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False
# The log-in form's field is "username" (it takes an e-mail address too: tournaments/accounts/forms.py).
AXES_USERNAME_CALLABLE = "snapleague.login_throttle.attempted_username"

# --- Personal API tokens (docs/api-tokens.md) -----------------------------------------------------
# A new token's life when none is chosen (at most 365 days), and how many usable ones an account may hold.
API_TOKEN_DEFAULT_DAYS = int(os.environ.get("API_TOKEN_DEFAULT_DAYS", "90"))
API_TOKENS_PER_ACCOUNT = int(os.environ.get("API_TOKENS_PER_ACCOUNT", "20"))
# Refused tokens from one address: beyond this many in this window, 429 until the oldest leaves it
# (the login throttle's numbers by default).
API_TOKEN_FAILURE_LIMIT = int(os.environ.get("API_TOKEN_FAILURE_LIMIT", str(AXES_FAILURE_LIMIT)))
API_TOKEN_FAILURE_WINDOW = AXES_COOLOFF_TIME

# --- Static files -------------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns on every request without it
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if get_bool_from_env("STATIC_MANIFEST", not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- REST framework -----------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Personal API tokens, "Authorization: Bearer <token>" (tournaments/integrations/tokens/, docs/api-tokens.md).
        # First: a request that sends a token is judged by it (its scope), even with a session cookie.
        "tournaments.integrations.tokens.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        # Basic: NUL refused before the database (authentication.py), throttled by axes (login_throttle.py).
        "snapleague.login_throttle.ThrottledBasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "snapleague.api_errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "snapleague API",
    "DESCRIPTION": "Clubs, tournaments, series, results and standings for Snap and Snapszer.",
    "VERSION": "0.1.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "SeriesFormatEnum": "tournaments.models.SeriesFormat",
        "StageFormatEnum": "tournaments.models.StageFormat",
        "GameKindEnum": "tournaments.models.GAME_KIND_CHOICES",
        "ReportStatusEnum": "tournaments.models.ResultReport.Status",
        "DisputeStatusEnum": "tournaments.models.ResultDispute.Status",
    },
    # Every operation documents the error answers it can give (snapleague/api_schema.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "snapleague.api_schema.document_refusals",
    ],
}

# --- Celery -------------------------------------------------------------------------------------
CELERY_BROKER_DIR = VAR_DIR / "celery-broker"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "filesystem://localhost/"
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    # kombu's file transport: in and out must be the same existing absolute folder.
    CELERY_BROKER_DIR.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR),
        "data_folder_out": str(CELERY_BROKER_DIR),
        # Its exchange tables too; the default is a "control" folder in the working directory.
        "control_folder": str(CELERY_BROKER_DIR / "control"),
        "polling_interval": 0.05,
    }
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A Redis that does not answer fails a publish within seconds (the request still succeeds and the
    # reconciler sends the work later: snapleague.celery.enqueue) instead of hanging the request.
    # "priority": a worker that consumes several queues (-Q stages,background) takes from the first
    # listed that has a message, not in turn from each (kombu's default round robin).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": 3600,
        "socket_connect_timeout": 3,
        "queue_order_strategy": "priority",
    }
CELERY_TASK_IGNORE_RESULT = True  # tasks write their results to the database
CELERY_TASK_ALWAYS_EAGER = get_bool_from_env("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-task leaves it for another: tasks are idempotent
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Two queues (docs/reliability.md, "Queues"): ``stages`` holds what a round's publishing waits for
# (the stage task and the standings), ``background`` everything else (ratings, webhook deliveries,
# game analysis, the beat jobs). Each has a worker of its own (snapleague/supervise.py, deploy/), so
# a long ratings recomputation or a slow webhook receiver never holds up a round. A task with no
# route goes to ``background``. SNAPLEAGUE_ONE_QUEUE=1 sends everything to one queue, as before
# (only to compare, benchmarks/round_publish.py --one-queue).
CELERY_STAGES_QUEUE = "stages"
CELERY_BACKGROUND_QUEUE = "background"
CELERY_TASK_DEFAULT_QUEUE = CELERY_BACKGROUND_QUEUE
# A worker started without --queues consumes both (stages first on Redis): an old process layout
# keeps working, only without the separation.
CELERY_TASK_QUEUES = (Queue(CELERY_STAGES_QUEUE), Queue(CELERY_BACKGROUND_QUEUE))
CELERY_TASK_ROUTES: dict[str, dict[str, str]] = (
    {}
    if get_bool_from_env("SNAPLEAGUE_ONE_QUEUE", False)
    else {
        "tournaments.tasks.stage_advance_task": {"queue": CELERY_STAGES_QUEUE},
        "tournaments.tasks.stage_standings_recompute_task": {"queue": CELERY_STAGES_QUEUE},
    }
)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
STANDINGS_RECONCILE_SECONDS = float(os.environ.get("STANDINGS_RECONCILE_SECONDS", "30"))

# --- Outbound webhooks (docs/webhooks.md) --------------------------------------------------------
# Seconds to connect and to read the answer of one POST.
WEBHOOK_TIMEOUT_SECONDS = float(os.environ.get("WEBHOOK_TIMEOUT_SECONDS", "10"))
# Attempts before a delivery is marked failed; the waits between them double from the base (with
# jitter) up to the cap: 30 s, 1, 2, 4, 8, 16, 32 min by default (about an hour in all).
WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", "8"))
WEBHOOK_RETRY_BASE_SECONDS = float(os.environ.get("WEBHOOK_RETRY_BASE_SECONDS", "30"))
WEBHOOK_RETRY_MAX_SECONDS = float(os.environ.get("WEBHOOK_RETRY_MAX_SECONDS", "3600"))
# Beat looks for deliveries whose Celery message was lost this often (and this late).
WEBHOOK_RECONCILE_SECONDS = float(os.environ.get("WEBHOOK_RECONCILE_SECONDS", "60"))
# How often beat forfeits the ladder challenges past their day (docs/ladder.md).
LADDER_EXPIRE_SECONDS = float(os.environ.get("LADDER_EXPIRE_SECONDS", "300"))
# Off in production: URLs must be https and every address their host resolves to public (no
# loopback, private, link-local or reserved address: no requests into the server's own network).
# On (the default with DEBUG, and in tests that run a local receiver): http and local addresses too.
WEBHOOK_ALLOW_PRIVATE_NETWORKS = get_bool_from_env("WEBHOOK_ALLOW_PRIVATE_NETWORKS", DEBUG)

# --- Cache (snapleague/fragments.py, docs/web.md "Rendered once per version") -------------------------
# Per process by default; CACHE_URL (redis://host:6379/N) shares it across processes and hosts: the
# live fragments rendered once per version, allauth's rate limits.
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 5000}}
    )
}
# Only frees memory: a fragment's key holds its version, so nothing stale is ever served. 0: every
# request renders (the behaviour before the cache; benchmarks/herd.py compares the two).
FRAGMENT_CACHE_SECONDS = int(os.environ.get("FRAGMENT_CACHE_SECONDS", "3600"))
# With a shared cache, how many fragments each process also keeps in its own memory (the most
# recently served; a key holds its version, so a copy never goes stale). 0 without CACHE_URL: the
# default cache is then this process's already.
FRAGMENT_LOCAL_ENTRIES = int(os.environ.get("FRAGMENT_LOCAL_ENTRIES", "500" if CACHE_URL else "0"))

# --- Channels -----------------------------------------------------------------------------------
# "default": across processes when CHANNEL_LAYER_URL names a Redis, in memory otherwise (online play).
# "live": live pages. Each web process's version watcher reads the database and tells that process's
# own sockets (tournaments/live/watcher.py; docs/architecture.md, "Live updates"), so this layer is
# always in memory, in both set-ups. Group memberships end with their connection, not by age.
# Online play: seconds a bot waits before its move (a human pace; tests set 0).
ONLINE_BOT_DELAY = float(os.environ.get("ONLINE_BOT_DELAY", "0.7"))
# Seconds a seated player may be away before a bot takes the seat (casual; a table's own option
# overrides it) or they forfeit (tournament series games). docs/online.md "Absent players".
ONLINE_ABSENT_SECONDS = float(os.environ.get("ONLINE_ABSENT_SECONDS", "60"))
# How often each web process's sweeper looks for live games whose owner died (0: never).
ONLINE_SWEEP_SECONDS = float(os.environ.get("ONLINE_SWEEP_SECONDS", "2"))

CHANNEL_LAYER_URL = os.environ.get("CHANNEL_LAYER_URL", "")
LIVE_CHANNEL_LAYER = "live"
CHANNEL_LAYERS = {
    "default": (
        {
            # Redis publish/subscribe: a group send is one PUBLISH, and every socket and game owner
            # of a process reads one subscription connection (the list-based layer made several
            # round trips per send and polled a list per process: online load benchmark,
            # docs/benchmarks.md "Online play"). Nothing is stored: a message for a channel nobody
            # reads is dropped, as a full list dropped it; the owner's log is the truth, and a
            # page that misses a frame resyncs from its version.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Publish/subscribe channels are the server's, not a database's: the prefix carries the
            # URL's database number, so two sites (or test runs) on one Redis do not hear each other.
            "CONFIG": {
                "hosts": [{"address": CHANNEL_LAYER_URL, "socket_timeout": 15}],
                "prefix": f"snapleague{urlsplit(CHANNEL_LAYER_URL).path.strip('/') or '0'}:",
            },
        }
        if CHANNEL_LAYER_URL
        else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    ),
    LIVE_CHANNEL_LAYER: {
        "BACKEND": "channels.layers.InMemoryChannelLayer",
        "CONFIG": {"group_expiry": 10 * 365 * 86400},
    },
}
# How often the watcher reads the versions of what this process's sockets follow (only while any).
LIVE_WATCH_SECONDS = float(os.environ.get("LIVE_WATCH_SECONDS", "0.15"))

# --- Logging: with DEBUG off Django hides 500 tracebacks unless django.request logs to console ---
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False}},
}
