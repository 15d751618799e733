"""End-to-end smoke check of a running snapleague: submit one result through the API as the demo
referee and wait until the stage's standings include it (the worker did its job).

    SNAPLEAGUE_TOKEN=snl_... python scripts/smoke.py [http://127.0.0.1:8000]

It authenticates as scripts should, with a personal API token (docs/api-tokens.md): the one in
``SNAPLEAGUE_TOKEN`` (made on the referee's "API tokens" page, scope "read and write"), or else a
short-lived one it makes with the demo referee's password (the one request that pays a password
hash) and revokes at the end.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid

BASE = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000").rstrip("/")
BASIC = "Basic " + base64.b64encode(b"referee:referee-demo").decode()
AUTH = {"header": "Bearer " + os.environ["SNAPLEAGUE_TOKEN"] if os.environ.get("SNAPLEAGUE_TOKEN") else BASIC}


def call(method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        BASE + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={
            "Authorization": AUTH["header"],
            "Content-Type": "application/json",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        raise SystemExit(f"{method} {path}: {exc.code} {exc.read().decode()}") from None


def main() -> None:
    made = None
    if AUTH["header"] == BASIC:  # no token given: make one for this run, revoked at the end
        made = call("POST", "/api/tokens/", {"name": "smoke check", "scope": "write", "expires_in_days": 1})
        AUTH["header"] = "Bearer " + made["token"]
    try:
        check()
    finally:
        if made is not None:
            call("DELETE", f"/api/tokens/{made['id']}/")


def check() -> None:
    series = call("GET", "/api/series/?status=pending&game=snapszer")["results"][0]
    seats = [seat["player"] for seat in series["seats"]]
    before = call("GET", f"/api/stages/{series['stage']}/standings/")
    started = time.monotonic()
    recorded = call(
        "POST",
        f"/api/series/{series['id']}/results/",
        {"game": 1, "result": {"score": {str(seats[0]): 7, str(seats[1]): 2}}},
    )
    print(f"recorded game 1 of series {series['id']} (version {recorded['version']})")
    while time.monotonic() - started < 30:
        after = call("GET", f"/api/stages/{series['stage']}/standings/")
        if after["standings_version"] > before["standings_version"] and not after["stale"]:
            print(
                f"standings moved from version {before['standings_version']} to {after['standings_version']} "
                f"in {time.monotonic() - started:.2f} s"
            )
            return
        time.sleep(0.1)
    raise SystemExit("standings did not follow the result within 30 s")


if __name__ == "__main__":
    main()
