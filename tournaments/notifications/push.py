"""Web Push (RFC 8030, encrypted per RFC 8291, signed with VAPID per RFC 8292) through pywebpush.

The VAPID key pair: ``VAPID_PRIVATE_KEY`` (a PEM, or the path of one) when set; otherwise made once
and kept at ``var/vapid_private.pem`` (so every process of one host, and every restart, signs with
the same key: browsers bind a subscription to the public key it was made with).
"""

from __future__ import annotations

import base64
import json
import logging
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from py_vapid import Vapid02

logger = logging.getLogger(__name__)


def _key_file() -> Path:
    return Path(settings.VAR_DIR) / "vapid_private.pem"


@cache
def vapid() -> Vapid02:
    """The server's VAPID key (made and stored under ``var/`` the first time, when not configured)."""
    configured = settings.VAPID_PRIVATE_KEY
    if configured:
        if configured.lstrip().startswith("-----BEGIN"):
            return Vapid02.from_pem(configured.encode())
        return Vapid02.from_file(configured)
    path = _key_file()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = Vapid02()
        key.generate_keys()
        # Written beside, then renamed: two processes starting at once keep one of the two keys.
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        key.save_key(str(tmp))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    return Vapid02.from_file(str(path))


def application_server_key() -> str:
    """The public key, as the browser's ``pushManager.subscribe`` wants it (base64url, X9.62
    uncompressed point)."""
    raw = vapid().public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass(frozen=True)
class PushOutcome:
    status: str  # "sent", "gone" (404/410: drop the subscription), "failed" (try again)
    detail: str = ""


def push_payload(*, title: str, body: str, url: str, tag: str) -> str:
    """What the service worker shows (static/sw.js): a title, a body, the page a tap opens."""
    return json.dumps({"title": title, "body": body, "url": url, "tag": tag}, ensure_ascii=False)


def push_send(*, endpoint: str, p256dh: str, auth: str, payload: str) -> PushOutcome:
    """One encrypted push to one subscription."""
    from pywebpush import WebPushException, webpush

    origin = urlsplit(endpoint)
    claims: dict[str, Any] = {
        "sub": settings.VAPID_SUBJECT,
        "aud": f"{origin.scheme}://{origin.netloc}",
    }
    try:
        webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=payload,
            vapid_private_key=vapid(),
            vapid_claims=claims,
            ttl=settings.PUSH_TTL_SECONDS,
            timeout=settings.PUSH_TIMEOUT_SECONDS,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            return PushOutcome("gone", f"HTTP {status}")
        return PushOutcome("failed", str(exc)[:500])
    except OSError as exc:  # requests' connection errors are OSErrors
        return PushOutcome("failed", f"{type(exc).__name__}: {exc}"[:500])
    return PushOutcome("sent")
