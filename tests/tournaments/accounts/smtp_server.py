"""A real SMTP server on loopback (aiosmtpd) for the mail tests: it keeps what it receives, can
require STARTTLS and a log-in, and can be stopped to play an unreachable server."""

from __future__ import annotations

import datetime
import email
import email.policy
import ipaddress
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from django.test import override_settings

from snapleague.mail import SMTP_BACKEND


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    message: EmailMessage


@dataclass
class Inbox:
    received: list[Received] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), message))  # type: ignore[arg-type]
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, and its key (the client trusts it as a CA)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "smtp.pem", folder / "smtp.key"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert_path, key_path


class SmtpServer:
    def __init__(self, *, tls: tuple[Path, Path] | None = None, login: tuple[str, str] | None = None) -> None:
        self.inbox = Inbox()
        self.port = free_port()
        kwargs: dict[str, Any] = {}
        if tls is not None:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(str(tls[0]), str(tls[1]))
            kwargs.update(tls_context=context, require_starttls=True)
        if login is not None:

            def authenticate(
                server: Any, session: Any, envelope: Any, mechanism: str, data: Any
            ) -> AuthResult:
                ok = (
                    isinstance(data, LoginPassword) and (data.login.decode(), data.password.decode()) == login
                )
                return AuthResult(success=ok)

            kwargs.update(authenticator=authenticate, auth_required=True, auth_require_tls=tls is not None)
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port, **kwargs)

    def start(self) -> SmtpServer:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()

    @property
    def received(self) -> list[Received]:
        return self.inbox.received


def smtp_mailers(server: SmtpServer, **extra: Any) -> dict[str, Any]:
    return {
        "default": {
            "BACKEND": SMTP_BACKEND,
            "OPTIONS": {"host": "127.0.0.1", "port": server.port, "use_tls": False, "timeout": 5, **extra},
        }
    }


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer().start()
    with override_settings(MAILERS=smtp_mailers(server)):
        yield server
    server.stop()
