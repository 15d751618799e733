"""Per-request time of one API read authenticated three ways: HTTP Basic, a personal API token
(``Authorization: Bearer``) and a session cookie (issue 23, item 5; docs/api-tokens.md).

Usage (PostgreSQL as in production; without DATABASE_URL a SQLite file under var/):
    DATABASE_URL=postgres://snapleague@127.0.0.1:5432/snapleague_bench \\
        PYTHONPATH=. .venv/bin/python benchmarks/api_auth.py [requests]

Each way sends ``requests`` (default 30) ``GET /api/tokens/`` through Django's whole stack in this
process (the test client: middleware, DRF, the database; no network), after one warm-up request,
and prints the median and p95 wall time per request and the median CPU time of this process (steadier
than wall time on a shared machine; the database server's work is not in it). The password hasher is the production one
(Django's PBKDF2), which is what Basic pays on every request.
"""

from __future__ import annotations

import base64
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapleague.settings")
if "DATABASE_URL" not in os.environ:
    (ROOT / "var").mkdir(exist_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{ROOT / 'var' / 'bench-api-auth.sqlite3'}"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from tournaments.integrations.tokens.models import ApiToken  # noqa: E402
from tournaments.integrations.tokens.services import api_token_create  # noqa: E402

USERNAME = "bench-api-auth"
PASSWORD = "bench-api-auth-password"
PATH = "/api/tokens/"


def _times(client: Client, requests: int, **headers: str) -> tuple[list[float], list[float]]:
    """Wall and CPU (this process) seconds of each request."""
    assert client.get(PATH, **headers).status_code == 200  # warm-up, and a check it authenticates
    wall, cpu = [], []
    for _ in range(requests):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(PATH, **headers)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        assert response.status_code == 200, response.content
    return wall, cpu


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    requests = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    call_command("migrate", verbosity=0)
    user_model = get_user_model()
    user_model.objects.filter(username=USERNAME).delete()
    user = user_model.objects.create_user(username=USERNAME, password=PASSWORD)
    ApiToken.objects.filter(user=user).delete()
    _token, raw = api_token_create(user=user, name="benchmark", scope="read")
    print(
        f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}; hasher: "
        f"{settings.PASSWORD_HASHERS[0].rsplit('.', 1)[-1]}; {requests} requests each, GET {PATH}"
    )
    basic = "Basic " + base64.b64encode(f"{USERNAME}:{PASSWORD}".encode()).decode()
    session = Client()
    session.force_login(user)
    rows = [
        ("HTTP Basic", _times(Client(), requests, HTTP_AUTHORIZATION=basic)),
        ("API token (Bearer)", _times(Client(), requests, HTTP_AUTHORIZATION=f"Bearer {raw}")),
        ("session cookie", _times(session, requests)),
    ]
    print("| authentication | wall median | wall p95 | CPU median |")
    print("|---|---|---|---|")
    for name, (wall, cpu) in rows:
        print(
            f"| {name} | {statistics.median(wall) * 1000:.1f} ms | {_p95(wall) * 1000:.1f} ms "
            f"| {statistics.median(cpu) * 1000:.1f} ms |"
        )
    user.delete()


if __name__ == "__main__":
    main()
