"""How ``kingisdead serve`` runs the app: uvicorn's settings and the guards uvicorn lacks.

uvicorn cuts an idle keep-alive connection (``timeout_keep_alive``) and, with
its h11 parser, a request head over ``h11_max_incomplete_event_size`` bytes,
but it waits for ever on a client that sends its request one byte at a time,
counts no header lines, and lets one address hold any number of connections.
:class:`GuardedH11Protocol` (uvicorn's h11 protocol, subclassed) adds:

- a deadline: a connection's request, head and body, must have arrived in full
  :attr:`ServerLimits.request_timeout` seconds after its first byte (or after
  the connection opened); otherwise the server answers ``408`` if it has not
  started answering, and closes the connection;
- a head of at most :attr:`ServerLimits.max_head` bytes and
  :attr:`ServerLimits.max_header_lines` lines, refused with ``431`` before the
  parser reads it;
- at most :attr:`ServerLimits.per_address` open connections (HTTP and
  WebSocket) per client address; one more is closed at once. The trusted
  proxies are exempt: every connection of theirs carries another client.

X-Forwarded-For and X-Forwarded-Proto are believed only from the addresses in
``trusted_proxies`` (uvicorn's ``forwarded_allow_ips``); with none, never.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .security import WS_TRANSPORT_MAX


@dataclass(frozen=True)
class ServerLimits:
    """What one client may hold of the server (see the module's docstring).

    ``request_timeout``: seconds for a whole request; ``max_head``: bytes of
    request line and headers; ``max_header_lines``: header lines;
    ``per_address``: open connections per client address; ``keep_alive``:
    seconds an idle connection stays open between requests.
    """

    request_timeout: float = 10.0
    max_head: int = 16 * 1024
    max_header_lines: int = 100
    per_address: int = 100
    keep_alive: float = 5.0

    def __post_init__(self) -> None:
        if self.request_timeout <= 0 or self.keep_alive <= 0:
            raise ValueError("the request timeout and keep-alive must be positive seconds")
        if self.max_head < 1024 or self.max_header_lines < 10 or self.per_address < 1:
            raise ValueError("the head limit is at least 1024 bytes, header lines at least 10, "
                             "connections per address at least 1")


def trusted_networks(addresses: str | None) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``"127.0.0.1, 10.0.0.0/8"`` as networks; ValueError naming a bad entry."""
    networks = []
    for entry in (addresses or "").split(","):
        if entry.strip():
            try:
                networks.append(ipaddress.ip_network(entry.strip(), strict=False))
            except ValueError:
                raise ValueError(f"a trusted proxy must be an IP address or network, not {entry.strip()!r}") from None
    return networks


_RECEIVED = (h11.DONE, h11.MIGHT_SWITCH_PROTOCOL, h11.SWITCHED_PROTOCOL, h11.CLOSED)
"""h11's states of a client whose request has arrived in full (or who has gone)."""
_TIMEOUT_408 = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
_TOO_LARGE_431 = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain\r\n"
                  b"content-length: 31\r\nconnection: close\r\n\r\nrequest header fields too large")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request deadline, a bounded head and a connection count per address.

    :func:`guarded_protocol` makes a subclass per server, holding its limits and
    its count of connections per address (shared by that server's connections).
    """

    limits = ServerLimits()
    exempt: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    open_connections: dict[str, set[asyncio.BaseTransport]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self._over_address_limit(transport):
            transport.abort()
            return
        self._start_deadline()

    def _over_address_limit(self, transport: asyncio.Transport) -> bool:
        host = self.client[0] if self.client else None
        if host is None or self._exempt(host):
            return False
        count = type(self).open_connections
        if len(count) > 4 * self.limits.per_address and len(count) % 256 == 0:
            for gone in [h for h, ts in count.items() if all(t.is_closing() for t in ts)]:
                del count[gone]  # addresses with nothing open any more: the table stays small
        mine = {t for t in count.get(host, ()) if not t.is_closing()}  # is_closing: closed, even after an upgrade
        if len(mine) >= self.limits.per_address:
            count[host] = mine
            return True
        count[host] = mine | {transport}
        return False

    def _exempt(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.exempt)

    def _start_deadline(self) -> None:
        if self.request_deadline is None:
            self.request_deadline = self.loop.call_later(self.limits.request_timeout, self._past_deadline)

    def _stop_deadline(self) -> None:
        if self.request_deadline is not None:
            self.request_deadline.cancel()
            self.request_deadline = None

    def _past_deadline(self) -> None:
        # uvloop runs due timers before it reads sockets: after a busy spell, bytes that arrived in time
        # may still be unread. A tenth of a second more (a turn of the loop) reads them first.
        self.request_deadline = self.loop.call_later(0.1, self._too_slow)

    def _too_slow(self) -> None:
        self.request_deadline = None
        if (self.transport.is_closing() or self.transport.get_protocol() is not self  # closed, or a WebSocket now
                or self.conn.their_state in _RECEIVED):  # arrived in full: the answer may take its time
            return
        begun = self.conn.their_state is not h11.IDLE or bool(self.conn.trailing_data[0])
        if begun and (self.cycle is None or self.cycle.response_complete or not self.cycle.response_started):
            self.transport.write(_TIMEOUT_408)  # a connection that never spoke is closed without a word
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:  # a request head is arriving: bounded before h11 parses it
            self._start_deadline()
            head = self.conn.trailing_data[0] + data
            end = head.find(b"\r\n\r\n")
            head = head if end < 0 else head[:end]
            if len(head) > self.limits.max_head or head.count(b"\n") > self.limits.max_header_lines:
                self._stop_deadline()
                self.transport.write(_TOO_LARGE_431)
                self.transport.close()
                return
        super().data_received(data)
        if self.transport.get_protocol() is not self or self.conn.their_state in _RECEIVED:
            self._stop_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            self._start_deadline()  # a pipelined request already begun

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        super().connection_lost(exc)


def guarded_protocol(limits: ServerLimits, trusted_proxies: str | None = None) -> type[GuardedH11Protocol]:
    """A :class:`GuardedH11Protocol` subclass with these limits and its own count of connections."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,),
                {"limits": limits, "exempt": trusted_networks(trusted_proxies), "open_connections": {}})


def uvicorn_config(app: Any, host: str, port: int, limits: ServerLimits | None = None,
                   trusted_proxies: str | None = None) -> uvicorn.Config:
    """uvicorn's settings for ``kingisdead serve``: the h11 parser with the guards above, WebSocket frames up to
    :data:`~kingisdead.web.security.WS_TRANSPORT_MAX` bytes, forwarded headers only from ``trusted_proxies``
    (comma-separated addresses or networks; default ``$KINGISDEAD_TRUSTED_PROXIES``, else none).
    ValueError for a bad address or limit."""
    limits = limits or ServerLimits()
    proxies = trusted_proxies if trusted_proxies is not None else os.environ.get("KINGISDEAD_TRUSTED_PROXIES", "")
    trusted_networks(proxies)  # refused here, with its name, rather than deep in uvicorn
    return uvicorn.Config(
        app, host=host, port=port, log_level="warning", ws_max_size=WS_TRANSPORT_MAX,
        http=guarded_protocol(limits, proxies), h11_max_incomplete_event_size=limits.max_head,
        timeout_keep_alive=int(max(1, limits.keep_alive)),
        proxy_headers=bool(proxies.strip()), forwarded_allow_ips=proxies.strip() or None)
