"""Where a webhook may be sent: never to this machine, its network or a cloud's metadata
service (server-side request forgery), unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES is set for
development and tests.

The check is made on the addresses the name resolves to, at registration and again at
every delivery, and the request then goes to the very address checked (the connection is
made to the IP, the name sent as Host and TLS server name): a name that resolves to a
public address when registered and to 127.0.0.1 later (DNS rebinding) is refused then.
Redirects are never followed, so no answer can send a delivery elsewhere.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: cloud metadata services: refused even where private addresses are allowed
METADATA = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200")
)


class AddressRefused(Exception):
    """A URL that must not be called; the message says why, for people."""


def refusal(address: IPAddress) -> str | None:
    """Why ``address`` is refused, or None if a webhook may go there."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address in METADATA:
        return _("a cloud metadata address")
    if settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        return None
    if address.is_loopback:
        return _("a loopback address")
    if address.is_link_local:
        return _("a link-local address")
    if address.is_private or address.is_unspecified or address.is_reserved:
        return _("a private or reserved address")
    if address.is_multicast or not address.is_global:
        return _("not a public address")
    return None


def target(url: str) -> tuple[str, int]:
    """The host and port of an http(s) URL.

    :raises AddressRefused: another scheme, no host, or credentials in the URL.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise AddressRefused(_("the URL must start with https:// or http://"))
    if not parts.hostname:
        raise AddressRefused(_("the URL has no host"))
    if parts.username is not None or parts.password is not None:
        raise AddressRefused(_("the URL must not carry a user name or password"))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise AddressRefused(_("the URL's port is not a number from 1 to 65535")) from None
    return parts.hostname, port


def allowed_addresses(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to, all of them allowed (one refused refuses all: a
    client could connect to any of them).

    :raises AddressRefused: unresolvable, or an address refused (saying which).
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise AddressRefused(_("the host name %(host)s cannot be resolved") % {"host": host}) \
            from None
    addresses: list[IPAddress] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        reason = refusal(address)
        if reason is not None:
            raise AddressRefused(
                _("%(host)s is %(reason)s (%(address)s)")
                % {"host": host, "reason": reason, "address": address}
            )
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise AddressRefused(_("the host name %(host)s cannot be resolved") % {"host": host})
    return addresses


def check_url(url: str) -> list[IPAddress]:
    """:func:`target` and :func:`allowed_addresses` of ``url``."""
    return allowed_addresses(*target(url))
