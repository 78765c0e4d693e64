"""E-mail through the operator's SMTP server (Python's ``smtplib`` and ``email`` packages).

:class:`MailSettings` says where to send (``KINGISDEAD_SMTP_*`` variables or ``kingisdead serve``
options); :func:`send` hands one message to the server and sorts its failures into those worth
retrying (:class:`TryLater`: the server is busy, answers 4xx, or refuses the site's login or sender,
which the operator fixes; :class:`Unreachable` when the server cannot be reached at all, so that the
other messages wait too) and those that are not (:class:`Refused`: a 5xx answer to the recipient or the
message, RFC 5321 section 4.2.1, or an address with non-ASCII characters for a server without SMTPUTF8).

A message has one deadline for the whole conversation: a watchdog thread closes the socket when it
passes, which ends any read the sending thread is blocked in (``smtplib``'s timeout is per read: a
server answering a byte every few seconds would hold the sender for ever). This keeps the standard
library's SMTP client, which the tests run against a real server (aiosmtpd), rather than adding an async
client for one call per message.
"""

from __future__ import annotations

import functools
import os
import smtplib
import ssl
import threading
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from typing import Any

TLS_MODES = ("none", "starttls", "ssl")
"""``none``: plain SMTP (a server on the same host); ``starttls``: upgrade on port 587; ``ssl``: TLS from the
first byte (port 465)."""
HEADERS = policy.SMTP.clone(max_line_length=998)
"""CRLF lines, folded only past RFC 5322's 998 characters: a long ``List-Unsubscribe`` URL stays as it is
(the default 78 makes Python encode it as RFC 2047 words, which no mail client reads as a URL)."""


class TryLater(Exception):
    """The message was not accepted this time (no connection, a timeout, a 4xx answer): send it again later."""


class Unreachable(TryLater):
    """The server could not be reached (no connection, no greeting): every message waits, not only this one."""


class Refused(Exception):
    """The server refused the message for good (a 5xx answer): sending it again would not help."""


@dataclass(frozen=True)
class MailSettings:
    """Where e-mail goes. ``host`` None: the site sends no e-mail. ``timeout``: seconds a connection or an
    answer may take; ``sender``: the From address."""

    host: str | None = None
    port: int = 25
    tls: str = "none"
    user: str | None = None
    password: str | None = None
    sender: str = "kingisdead@localhost"
    timeout: float = 20.0

    def __post_init__(self) -> None:
        if self.tls not in TLS_MODES:
            raise ValueError(f"KINGISDEAD_SMTP_TLS must be one of {', '.join(TLS_MODES)}, not {self.tls!r}")
        if not 0 < self.port < 65536:
            raise ValueError(f"KINGISDEAD_SMTP_PORT must be a port number, not {self.port}")

    @property
    def enabled(self) -> bool:
        return bool(self.host)

    @classmethod
    def from_env(cls, **given: Any) -> MailSettings:
        """Settings from ``KINGISDEAD_SMTP_HOST``, ``_PORT``, ``_TLS``, ``_USER``, ``_PASSWORD`` and
        ``KINGISDEAD_MAIL_FROM``; ``given`` values that are not None win (the command line's options).
        ValueError for a bad port or TLS mode."""
        env = os.environ.get
        tls = given.get("tls") or env("KINGISDEAD_SMTP_TLS") or "none"
        port_text = given.get("port") or env("KINGISDEAD_SMTP_PORT") or {"ssl": 465, "starttls": 587}.get(tls, 25)
        try:
            port = int(port_text)
        except ValueError:
            raise ValueError(f"KINGISDEAD_SMTP_PORT must be a port number, not {port_text!r}") from None
        return cls(host=given.get("host") or env("KINGISDEAD_SMTP_HOST") or None, port=port, tls=tls,
                   user=given.get("user") or env("KINGISDEAD_SMTP_USER") or None,
                   password=env("KINGISDEAD_SMTP_PASSWORD") or None,
                   sender=given.get("sender") or env("KINGISDEAD_MAIL_FROM") or cls.sender)


def message(settings: MailSettings, to: str, subject: str, text: str, message_id: str,
            unsubscribe: str | None = None) -> EmailMessage:
    """A plain-text message. ``message_id``: the same for every attempt at one message, so that a mailbox
    can tell a repeat (RFC 5322 section 3.6.4). ``unsubscribe``: the URL of the one-click unsubscribe
    (RFC 8058 ``List-Unsubscribe`` and ``List-Unsubscribe-Post``)."""
    mail = EmailMessage(policy=HEADERS)
    mail["From"] = formataddr(("The King Is Dead", settings.sender))
    mail["To"] = to
    mail["Subject"] = subject
    mail["Message-ID"] = message_id
    mail["Auto-Submitted"] = "auto-generated"  # RFC 3834: no auto-replies to it
    if unsubscribe:
        mail["List-Unsubscribe"] = f"<{unsubscribe}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail.set_content(text)
    return mail


def new_message_id(settings: MailSettings) -> str:
    """A fresh Message-ID in the sender's domain."""
    return make_msgid(domain=settings.sender.rpartition("@")[2] or "localhost")


def send(settings: MailSettings, mail: EmailMessage, deadline: float | None = None) -> None:
    """Hand ``mail`` to the server within ``deadline`` seconds for the whole conversation (default: the
    settings' timeout). Raises :class:`Unreachable`, :class:`TryLater` or :class:`Refused` (see the module)."""
    if not settings.host:
        raise Refused("this site sends no e-mail (no SMTP host)")
    client = (smtplib.SMTP_SSL(timeout=settings.timeout, context=_tls_context()) if settings.tls == "ssl"
              else smtplib.SMTP(timeout=settings.timeout))
    passed = threading.Event()
    watchdog = threading.Timer(deadline or settings.timeout, _cut, (client, passed))
    watchdog.daemon = True
    watchdog.start()
    try:
        try:
            client.connect(settings.host, settings.port)
        except (smtplib.SMTPException, OSError) as exc:
            raise Unreachable(_why(exc, passed, deadline or settings.timeout)) from None
        with client:
            if settings.tls == "starttls":
                client.starttls(context=_tls_context())
            if settings.user:
                client.login(settings.user, settings.password or "")
            client.send_message(mail)
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _text in exc.recipients.values()]
        raise (Refused if all(code >= 500 for code in codes) else TryLater)(f"recipient refused: {codes}") from None
    except smtplib.SMTPDataError as exc:  # the message itself; a refused login or sender is the site's to fix
        raise (Refused if exc.smtp_code >= 500 else TryLater)(f"{exc.smtp_code} {_text(exc.smtp_error)}") from None
    except smtplib.SMTPNotSupportedError as exc:  # a non-ASCII address, a server without SMTPUTF8
        raise Refused(f"the mail server cannot take this address ({exc})") from None
    except (smtplib.SMTPException, OSError) as exc:
        raise TryLater(_why(exc, passed, deadline or settings.timeout)) from None
    finally:
        watchdog.cancel()


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The system's certificates and TLS defaults, loaded once per process (about 30 ms of CPU each time);
    plain SMTP (``tls`` none) never loads them."""
    return ssl.create_default_context()


def _why(exc: BaseException, passed: threading.Event, deadline: float) -> str:
    return f"no answer within {deadline:g} s" if passed.is_set() else f"{type(exc).__name__}: {exc}"


def _cut(client: smtplib.SMTP, passed: threading.Event) -> None:
    """The watchdog: the deadline passed, close the connection under the sending thread's feet."""
    passed.set()
    sock = client.sock
    if sock is not None:
        try:
            sock.shutdown(2)  # SHUT_RDWR: wakes a recv() blocked in the other thread
        except OSError:
            pass


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else value
