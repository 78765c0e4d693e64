"""Web Push (RFC 8030) with VAPID (RFC 8292), through the ``pywebpush`` and ``py-vapid`` libraries.

The operator makes a key pair once (``kingisdead vapid --out FILE``); the site signs each push request
with the private key, and browsers subscribe with the public key (``applicationServerKey``). A
message's payload is encrypted for the subscription's keys as RFC 8291 says (``aes128gcm``).

:meth:`PushSettings.send` builds the request with pywebpush (its encryption, :func:`vapid_headers` for the
signature) but posts it with ``httpx``'s async client under one deadline for the whole request
(``asyncio.timeout``): pywebpush's ``requests`` timeout is per read, so a service answering a byte every
few seconds would hold the sender for ever. The connection goes to the address :mod:`.push_endpoint`
checked, never following a redirect.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import push_endpoint
from .push_endpoint import BadEndpoint, EndpointPolicy

if TYPE_CHECKING:
    from py_vapid import Vapid02

# httpx, cryptography and py_vapid are imported where they are used: a site without a VAPID key never needs them,
# and they were a sixth of every server's start.

TIME_TO_LIVE = 86_400
"""Seconds a push service keeps a message for a browser that is offline (then it is dropped)."""
VAPID_VALID = 12 * 3600
"""Seconds a VAPID signature is valid (RFC 8292 section 2: at most 24 hours)."""


class TryLater(Exception):
    """The push service did not take the message (no connection, 429, 5xx): send it again later."""


class Gone(Exception):
    """The subscription no longer exists (404 or 410): forget it."""


class Refused(Exception):
    """The push service refused the message for good (another 4xx)."""


@dataclass(frozen=True)
class PushSettings:
    """The site's VAPID key pair and contact. ``key_file`` None: the site sends no push messages.
    ``subject``: a ``mailto:`` or ``https:`` URL push services may use to reach the operator. ``endpoints``:
    which endpoints are accepted (:mod:`.push_endpoint`; only tests pass another)."""

    key_file: Path | None = None
    subject: str = "mailto:admin@localhost"
    endpoints: EndpointPolicy = field(default_factory=EndpointPolicy)
    _vapid: Vapid02 | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.key_file is not None:
            if not Path(self.key_file).is_file():
                raise ValueError(f"KINGISDEAD_VAPID_KEY: no key file at {self.key_file} (make one with "
                                 "`kingisdead vapid --out FILE`)")
            if Path(self.key_file).stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
                raise ValueError(f"KINGISDEAD_VAPID_KEY: {self.key_file} can be read by other users: "
                                 f"chmod 600 {self.key_file}")
            from py_vapid import Vapid02

            try:
                vapid = Vapid02.from_file(str(self.key_file))
            except Exception as exc:  # py_vapid raises its own exception, or ValueError, for a file not a key
                raise ValueError(f"KINGISDEAD_VAPID_KEY: {self.key_file} holds no VAPID private key ({exc}); "
                                 "make one with `kingisdead vapid --out FILE`") from None
            object.__setattr__(self, "_vapid", vapid)
        if not self.subject.startswith(("mailto:", "https:")):
            raise ValueError(f"KINGISDEAD_VAPID_SUBJECT must be a mailto: or https: URL, not {self.subject!r}")

    @property
    def enabled(self) -> bool:
        return self._vapid is not None

    @property
    def public_key(self) -> str | None:
        """The application server key browsers subscribe with: the uncompressed P-256 point, base64url."""
        return None if self._vapid is None else application_server_key(self._vapid)

    @classmethod
    def from_env(cls, key_file: str | None = None, subject: str | None = None) -> PushSettings:
        """From ``KINGISDEAD_VAPID_KEY`` (the private key's PEM file) and ``KINGISDEAD_VAPID_SUBJECT``; given
        values win. ValueError for a missing or unreadable key file, one other users can read (``chmod 600``),
        or a bad subject."""
        path = key_file or os.environ.get("KINGISDEAD_VAPID_KEY") or None
        return cls(key_file=Path(path) if path else None,
                   subject=subject or os.environ.get("KINGISDEAD_VAPID_SUBJECT") or cls.subject)

    async def send(self, endpoint: str, p256dh: str, auth: str, payload: dict[str, Any], deadline: float,
                   site_host: str | None = None) -> None:
        """Encrypt ``payload`` (JSON) for the subscription and post it to its push service within ``deadline``
        seconds for the whole request. The endpoint is checked again (:mod:`.push_endpoint`) and resolved
        once; an endpoint refused there fails as an unreachable service does (:class:`TryLater`), so that
        nothing tells whether an internal address would have answered. Raises :class:`TryLater`,
        :class:`Gone` or :class:`Refused`."""
        import httpx
        from pywebpush import WebPusher

        if self._vapid is None:
            raise Refused("this site sends no push messages (no VAPID key)")
        encoded = WebPusher({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}).encode(
            json.dumps(payload).encode(), "aes128gcm")
        try:
            async with asyncio.timeout(deadline):
                target = push_endpoint.check(endpoint, site_host, self.endpoints)
                address = await asyncio.to_thread(push_endpoint.resolve, target, self.endpoints)
                headers = {"TTL": str(TIME_TO_LIVE), "Content-Encoding": "aes128gcm",
                           "Content-Type": "application/octet-stream", "Host": target.url.netloc,
                           **vapid_headers(self._vapid, target.origin, self.subject)}
                literal = f"[{address}]" if ":" in address else address
                url = target.url._replace(netloc=f"{literal}:{target.port}").geturl()
                async with httpx.AsyncClient(follow_redirects=False, trust_env=False) as http:
                    response = await http.post(url, content=encoded["body"], headers=headers,
                                               extensions={"sni_hostname": target.host})
        except TimeoutError:
            raise TryLater(f"no answer within {deadline:g} s") from None
        except (BadEndpoint, httpx.HTTPError):
            raise TryLater("the push service could not be reached") from None
        status = response.status_code
        if status in (404, 410):
            raise Gone(f"{status}: the subscription has expired or was withdrawn")
        if status == 429 or status >= 500:
            raise TryLater(f"the push service answered {status}")
        if status >= 300:  # a redirect too: a push service never sends one, and it is not followed
            raise Refused(f"the push service answered {status}")


def vapid_headers(vapid: Vapid02, audience: str, subject: str) -> dict[str, str]:
    """The ``Authorization`` header of RFC 8292: a JWT for ``audience`` (the endpoint's origin), valid for
    :data:`VAPID_VALID`, naming ``subject``."""
    claims = {"aud": audience, "exp": int(time.time()) + VAPID_VALID, "sub": subject}
    return {key.title(): value for key, value in vapid.sign(claims).items()}


def application_server_key(vapid: Vapid02) -> str:
    from cryptography.hazmat.primitives import serialization

    point = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def generate_keys(path: Path) -> str:
    """Write a new VAPID private key (PEM) to ``path``, readable by its owner only, and return the public
    application server key. FileExistsError if ``path`` exists: a new key would orphan every subscription."""
    from py_vapid import Vapid02

    vapid = Vapid02()
    vapid.generate_keys()
    # O_EXCL: never overwrite the key subscriptions were made with; 0600 from the start, whatever the umask
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as handle:
        os.fchmod(handle.fileno(), 0o600)
        handle.write(vapid.private_pem())
    return application_server_key(vapid)
