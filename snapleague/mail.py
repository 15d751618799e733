"""E-mail plumbing: one setting, ``EMAIL_URL``, and the embedded default, an outbox under ``var/``.

``EMAIL_URL`` names the SMTP server (docs/accounts.md, "E-mail"):

- ``smtp://user:password@host:587`` — submission with STARTTLS (the port's usual use; 25 too);
- ``smtps://user:password@host:465`` — TLS from the first byte;
- ``smtp://host:25?tls=0`` — plain SMTP, e.g. a relay on the same machine (``tls=1`` forces STARTTLS);
- ``?from=`` gives the sender (``DEFAULT_FROM_EMAIL``), ``?timeout=`` seconds (10 by default).

User name and password are percent-decoded (an ``@`` in a user name is ``%40``). Without
``EMAIL_URL`` mails are written, one ``.eml`` file each, to ``var/outbox/`` (:class:`OutboxBackend`),
and ``/outbox/`` (only with DEBUG or the demo) lists and shows them, so a person on a fresh machine
can open a confirmation link. Nothing here imports a model: settings import this module.
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage as ParsedMessage
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend

SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
OUTBOX_BACKEND = "snapleague.mail.OutboxBackend"
# An outbox file's name: when it was written, then a random part (sortable by time; no path tricks).
OUTBOX_NAME = re.compile(r"^[0-9]{8}T[0-9]{12}-[0-9a-f]{12}\.eml$")


def email_settings(url: str, outbox_dir: Path) -> dict[str, Any]:
    """Django's e-mail settings (``MAILERS``, and ``DEFAULT_FROM_EMAIL`` when the URL names one) for
    ``EMAIL_URL`` (empty: the outbox). Raises ``ValueError`` on a URL it cannot use, so a typo stops
    the server at start rather than losing mails later."""
    if not url:
        return {"MAILERS": {"default": {"BACKEND": OUTBOX_BACKEND, "OPTIONS": {"folder": str(outbox_dir)}}}}
    parts = urlsplit(url)
    if parts.scheme not in {"smtp", "smtps"}:
        raise ValueError(f"EMAIL_URL: scheme {parts.scheme!r} is not smtp:// or smtps://")
    if not parts.hostname:
        raise ValueError("EMAIL_URL: no host")
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    unknown = set(query) - {"tls", "from", "timeout"}
    if unknown:
        raise ValueError(f"EMAIL_URL: unknown option(s) {', '.join(sorted(unknown))}")
    ssl = parts.scheme == "smtps"
    port = parts.port or (465 if ssl else 587)
    tls_default = "0" if ssl else ("1" if port == 587 else "0")
    tls = query.get("tls", tls_default) in {"1", "true", "yes", "on"}
    if ssl and tls:
        raise ValueError("EMAIL_URL: smtps:// is TLS already; tls=1 is for smtp:// (STARTTLS)")
    options = {
        "host": parts.hostname,
        "port": port,
        "username": unquote(parts.username or ""),
        "password": unquote(parts.password or ""),
        "use_ssl": ssl,
        "use_tls": tls,
        "timeout": float(query.get("timeout", "10")),
    }
    result: dict[str, Any] = {"MAILERS": {"default": {"BACKEND": SMTP_BACKEND, "OPTIONS": options}}}
    if "from" in query:
        result["DEFAULT_FROM_EMAIL"] = query["from"]
    return result


def outbox_dir() -> Path:
    return Path(settings.OUTBOX_DIR)


def mailer_is_outbox() -> bool:
    return bool(settings.MAILERS.get("default", {}).get("BACKEND") == OUTBOX_BACKEND)


class OutboxBackend(BaseEmailBackend):
    """Writes each message, as the SMTP server would receive it, to its own file in the outbox."""

    def __init__(self, *args: Any, folder: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.folder = Path(folder) if folder else outbox_dir()

    def send_messages(self, email_messages: Any) -> int:
        folder = self.folder
        folder.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            if not message.recipients():
                continue
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
            name = f"{stamp}-{_random_hex()}.eml"
            temporary = folder / f".{name}.tmp"
            temporary.write_bytes(message.message().as_bytes())
            temporary.replace(folder / name)  # a reader never sees half a file
            sent += 1
        return sent


def _random_hex() -> str:
    import secrets

    return secrets.token_hex(6)


@dataclass(frozen=True)
class OutboxMail:
    name: str
    to: str
    subject: str
    date: str
    text: str
    html: str


def parse_mail(raw: bytes, name: str = "") -> OutboxMail:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, ParsedMessage)
    text_part = message.get_body(preferencelist=("plain",))
    html_part = message.get_body(preferencelist=("html",))
    return OutboxMail(
        name=name,
        to=str(message.get("To", "")),
        subject=str(message.get("Subject", "")),
        date=str(message.get("Date", "")),
        text=text_part.get_content() if text_part is not None else "",  # type: ignore[attr-defined]
        html=html_part.get_content() if html_part is not None else "",  # type: ignore[attr-defined]
    )


def outbox_list(limit: int = 100) -> list[OutboxMail]:
    """The newest ``limit`` mails of the outbox, newest first."""
    folder = outbox_dir()
    if not folder.is_dir():
        return []
    names = sorted((p.name for p in folder.iterdir() if OUTBOX_NAME.match(p.name)), reverse=True)
    return [parse_mail((folder / name).read_bytes(), name) for name in names[:limit]]


def outbox_get(name: str) -> OutboxMail | None:
    """One mail by its file name; None for a name that is not an outbox file's (no path tricks)."""
    if not OUTBOX_NAME.match(name):
        return None
    path = outbox_dir() / name
    if not path.is_file():
        return None
    return parse_mail(path.read_bytes(), name)
