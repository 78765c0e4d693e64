"""Which push endpoints the site will post to: a push service on the public Internet, nothing else.

A push endpoint is a URL a browser hands over, so anyone with an account chooses where the server
sends a POST. :func:`check` (at subscribe time, and again before each send) keeps only an ``https``
URL without credentials, with a valid port, naming a host by its DNS name (no IP literal in any of the
forms ``inet_aton`` accepts: ``2130706433``, ``0x7f.1``, ``[::1]``), other than the site's own host.
:func:`resolve` then resolves the name once and accepts it only if every address is global
(``ipaddress.is_global``: no loopback, link-local such as ``169.254.169.254``, private or reserved
range); the sender connects to that very address (DNS rebinding cannot swap it after the check) and
names the host in TLS SNI and ``Host``. Redirects are never followed.

The tests reach a push service of their own on loopback through an :class:`EndpointPolicy` they
construct (``also``, ``schemes``, ``resolver``); there is no environment variable for it, so no operator
can leave such a hole open.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import SplitResult, urlsplit

from .i18n import Text, _

HOST_NAME = re.compile(r"^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$")
"""A DNS name of at least two labels whose last label is not a number (so never an IPv4 literal)."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class BadEndpoint(ValueError):
    """The endpoint is not one the site posts to; ``reason`` says why, for the subscriber."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason)
        self.reason = reason


def _system_resolver(host: str, port: int) -> list[str]:
    """The addresses of ``host`` from the system's resolver. OSError when it has none."""
    return list(dict.fromkeys(str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)))


@dataclass(frozen=True)
class EndpointPolicy:
    """What :func:`check` and :func:`resolve` accept. ``schemes``: URL schemes (only ``https`` for a site);
    ``also``: (address, port) pairs accepted though not global (tests only); ``resolver``: host and port
    to addresses (tests only: a name that resolves to loopback, to a metadata address)."""

    schemes: tuple[str, ...] = ("https",)
    also: frozenset[tuple[str, int]] = frozenset()
    resolver: Callable[[str, int], list[str]] = field(default=_system_resolver, compare=False)


@dataclass(frozen=True)
class Target:
    """A checked endpoint: its parts, the host's name and the port to connect to."""

    url: SplitResult
    host: str
    port: int

    @property
    def origin(self) -> str:
        """``scheme://host[:port]`` as the endpoint writes it: the VAPID audience (RFC 8292 section 2)."""
        return f"{self.url.scheme}://{self.url.netloc}"


def check(endpoint: str, site_host: str | None, policy: EndpointPolicy) -> Target:
    """The endpoint's parts if its form is acceptable (see the module); :class:`BadEndpoint` otherwise.
    ``site_host``: the site's own host name, refused (the site would post to itself)."""
    try:
        url = urlsplit(endpoint)
        port = url.port
    except ValueError:  # "http://[::1/x", a port out of range or not a number
        raise BadEndpoint(_("the endpoint is not a valid URL")) from None
    if url.scheme not in policy.schemes:
        raise BadEndpoint(_("the endpoint must be a push service's https URL"))
    if url.username is not None or url.password is not None:
        raise BadEndpoint(_("the endpoint must not carry a user name or password"))
    host = (url.hostname or "").rstrip(".")
    if port == 0:
        raise BadEndpoint(_("the endpoint's port is not valid"))
    if any(ord(c) < 33 or ord(c) == 127 for c in endpoint):
        raise BadEndpoint(_("the endpoint must not contain spaces or control characters"))
    if _is_ip_literal(host) or not HOST_NAME.match(host):
        raise BadEndpoint(_("the endpoint must name its push service by a host name, not an address"))
    if site_host and host == site_host.lower().rstrip("."):
        raise BadEndpoint(_("the endpoint must not be this site"))
    return Target(url, host, port or (443 if url.scheme == "https" else 80))


def resolve(target: Target, policy: EndpointPolicy) -> str:
    """The address to connect to for ``target``: resolved once, every address must be global (or in
    ``policy.also``). :class:`BadEndpoint` when the name does not resolve or any address is refused."""
    try:
        found = policy.resolver(target.host, target.port)
    except OSError:
        raise BadEndpoint(_("the endpoint's host name does not resolve")) from None
    if not found:
        raise BadEndpoint(_("the endpoint's host name does not resolve"))
    for text in found:
        if not allowed(text, target.port, policy):
            raise BadEndpoint(_("the endpoint's host is not on the public Internet"))
    return found[0]


def allowed(address: str, port: int, policy: EndpointPolicy) -> bool:
    """Whether the site may connect to ``address``: a global unicast address, or one of ``policy.also``."""
    if (address, port) in policy.also:
        return True
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _is_ip_literal(host: str) -> bool:
    """An IPv6 literal, or anything ``inet_aton`` reads as IPv4 (``2130706433``, ``0x7f.1``, ``127.1``)."""
    if ":" in host:
        return True
    try:
        socket.inet_aton(host)
    except OSError:
        return False
    return True
