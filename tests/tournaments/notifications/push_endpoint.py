"""A browser's side of Web Push, for tests: a subscription's keys (P-256 key pair and auth secret,
as a browser makes them) and the decryption of what a push service would deliver (RFC 8291,
aes128gcm), with the VAPID header's signature checked (RFC 8292)."""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, field
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class BrowserKeys:
    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(self.private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))

    @property
    def auth_b64(self) -> str:
        return b64url(self.auth)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth_b64}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        """The pushed message, decrypted as the browser would (raises if it was not encrypted to
        this subscription's keys)."""
        plain = http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


def vapid_claims(headers: dict[str, str], server_key: str) -> dict[str, Any]:
    """The VAPID JWT's claims, after checking its ES256 signature with ``server_key`` (the
    application server key the browser subscribed with) and that the header names that key."""
    authorization = {k.lower(): v for k, v in headers.items()}["authorization"]
    scheme, _space, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert parts["k"] == server_key
    header, claims, signature = parts["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64url(claims))
