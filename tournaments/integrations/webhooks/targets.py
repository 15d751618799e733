"""Which URLs an endpoint may have, and which addresses a delivery may connect to.

A webhook makes the server send requests to a URL a user chose: without a check it would post to
the server's own network (its database, a cloud metadata service at 169.254.169.254, the admin of a
router) — server-side request forgery. So, unless ``WEBHOOK_ALLOW_PRIVATE_NETWORKS`` (development,
tests with a local receiver):

- the URL is ``https``, with a host name or address, and no user name or password in it;
- every address the host resolves to is public (``ipaddress``'s ``is_global``, not multicast):
  checked when the endpoint is saved (when the name resolves then) and again at every attempt,
  and the connection goes to the address checked, not to a second lookup (DNS rebinding).

A name that does not resolve yet may be saved; its attempts fail with "could not be resolved".
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

MAX_URL_LENGTH = 500
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class TargetRefused(Exception):
    """A URL or address a delivery may not go to; ``message`` is for the organiser."""

    def __init__(self, message: str | Promise) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Target:
    """Where one attempt connects: the URL's parts and the address checked."""

    scheme: str
    host: str
    port: int
    path: str  # with the query
    address: str


def allow_private() -> bool:
    return bool(settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS)


def address_allowed(address: IPAddress, *, private_ok: bool) -> bool:
    """Whether a delivery may connect to ``address``."""
    if private_ok:
        return True
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (tests replace this). Raises OSError."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def url_check(url: str) -> str:
    """``url`` as it is stored (trimmed), or TargetRefused saying what is wrong with it."""
    url = url.strip()
    private_ok = allow_private()
    if len(url) > MAX_URL_LENGTH:
        raise TargetRefused(_("The URL is too long (at most 500 characters)."))
    try:
        URLValidator(schemes=["http", "https"])(url)
        parts = urlsplit(url)
        port = parts.port
    except (ValidationError, ValueError):
        raise TargetRefused(_("Enter a full URL, such as https://example.com/snapleague.")) from None
    if parts.scheme != "https" and not private_ok:
        raise TargetRefused(_("The URL must start with https:// (deliveries are sent encrypted only)."))
    if parts.username is not None or parts.password is not None:
        raise TargetRefused(
            _(
                "Leave the user name and password out of the URL: check the signature of each delivery instead."
            )
        )
    host = parts.hostname or ""
    if not private_ok:
        _host_check(host, port or (443 if parts.scheme == "https" else 80), resolve_names=True)
    return url


_LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".home.arpa")


def _host_check(host: str, port: int, *, resolve_names: bool) -> list[str]:
    """The addresses of ``host`` a delivery may use; TargetRefused when one of them is not public."""
    refused = TargetRefused(
        _("This address is on a private or local network: webhooks are only sent to public addresses.")
    )
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        if not address_allowed(literal, private_ok=False):
            raise refused
        return [str(literal)]
    if host == "localhost" or host.endswith(_LOCAL_SUFFIXES):
        raise refused
    if not resolve_names:
        return []
    try:
        addresses = resolve(host, port)
    except OSError:
        return []  # not resolvable yet: allowed to be saved; each attempt checks again
    if any(not address_allowed(ipaddress.ip_address(a), private_ok=False) for a in addresses):
        raise refused
    return addresses


def target_for(url: str) -> Target:
    """Where an attempt to post to ``url`` connects. Raises TargetRefused (an address that is not
    allowed, a host that does not resolve)."""
    parts = urlsplit(url)
    scheme = parts.scheme
    if scheme not in ("http", "https") or (scheme != "https" and not allow_private()):
        raise TargetRefused(_("The URL must start with https:// (deliveries are sent encrypted only)."))
    host = parts.hostname or ""
    port = parts.port or (443 if scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        literal = ipaddress.ip_address(host)
        addresses = [str(literal)]
    except ValueError:
        try:
            addresses = resolve(host, port)
        except OSError:
            addresses = []
    if not addresses:
        raise TargetRefused(_("The host name could not be resolved."))
    if not allow_private():
        _host_check(host, port, resolve_names=False)
        if any(not address_allowed(ipaddress.ip_address(a), private_ok=False) for a in addresses):
            raise TargetRefused(
                _(
                    "This address is on a private or local network: webhooks are only sent to public addresses."
                )
            )
    return Target(scheme=scheme, host=host, port=port, path=path, address=addresses[0])
