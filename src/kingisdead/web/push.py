"""Web Push (RFC 8030) with VAPID (RFC 8292), through the ``pywebpush`` and ``py-vapid`` libraries.

The operator makes a key pair once (``kingisdead vapid --out FILE``); the site signs each push request
with the private key, and browsers subscribe with the public key (``applicationServerKey``). A
message's payload is encrypted for the subscription's keys as RFC 8291 says (``aes128gcm``).
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02

TIME_TO_LIVE = 86_400
"""Seconds a push service keeps a message for a browser that is offline (then it is dropped)."""


class TryLater(Exception):
    """The push service did not take the message (no connection, 429, 5xx): send it again later."""


class Gone(Exception):
    """The subscription no longer exists (404 or 410): forget it."""


class Refused(Exception):
    """The push service refused the message for good (another 4xx)."""


@dataclass(frozen=True)
class PushSettings:
    """The site's VAPID key pair and contact. ``key_file`` None: the site sends no push messages.
    ``subject``: a ``mailto:`` or ``https:`` URL push services may use to reach the operator."""

    key_file: Path | None = None
    subject: str = "mailto:admin@localhost"
    _vapid: Vapid02 | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.key_file is not None:
            if not Path(self.key_file).is_file():
                raise ValueError(f"KINGISDEAD_VAPID_KEY: no key file at {self.key_file} (make one with "
                                 "`kingisdead vapid --out FILE`)")
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
        values win. ValueError for a missing or unreadable key file or a bad subject."""
        path = key_file or os.environ.get("KINGISDEAD_VAPID_KEY") or None
        return cls(key_file=Path(path) if path else None,
                   subject=subject or os.environ.get("KINGISDEAD_VAPID_SUBJECT") or cls.subject)

    def send(self, endpoint: str, p256dh: str, auth: str, payload: dict[str, Any], timeout: float = 20.0) -> None:
        """Encrypt ``payload`` (JSON) for the subscription and post it to its push service. Raises
        :class:`TryLater`, :class:`Gone` or :class:`Refused`."""
        from pywebpush import WebPushException, webpush
        from requests import RequestException

        if self._vapid is None:
            raise Refused("this site sends no push messages (no VAPID key)")
        subscription = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
        try:
            webpush(subscription, data=json.dumps(payload), vapid_private_key=self._vapid,
                    vapid_claims={"sub": self.subject}, ttl=TIME_TO_LIVE, timeout=timeout)
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in (404, 410):
                raise Gone(f"{status}: the subscription has expired or was withdrawn") from None
            if status is None or status == 429 or status >= 500:
                raise TryLater(str(exc)[:300]) from None
            raise Refused(str(exc)[:300]) from None
        except RequestException as exc:
            raise TryLater(f"{type(exc).__name__}: {exc}"[:300]) from None


def application_server_key(vapid: Vapid02) -> str:
    point = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def generate_keys(path: Path) -> str:
    """Write a new VAPID private key (PEM) to ``path``, readable by its owner only, and return the public
    application server key. FileExistsError if ``path`` exists: a new key would orphan every subscription."""
    vapid = Vapid02()
    vapid.generate_keys()
    with open(path, "xb") as handle:  # x: never overwrite the key subscriptions were made with
        os.chmod(path, 0o600)
        handle.write(vapid.private_pem())
    return application_server_key(vapid)
