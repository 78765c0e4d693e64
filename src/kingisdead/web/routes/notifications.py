"""An account's notifications: its e-mail address and choices, its push subscriptions, and the pages that
the messages' links open (the confirmation and the one-click unsubscribe). See :mod:`..notify`."""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import re
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from .. import outbox
from ..db import NotificationSettingsRow, OutboxRow, PushSubscriptionRow
from ..errors import GameError
from ..i18n import _, current_language
from ..live_game import as_utc
from ..notify import CONFIRM_VALID, CONFIRMATIONS_PER_HOUR, Notifier, plain
from ..push_endpoint import BadEndpoint, check, resolve
from ..security import RateLimited
from .deps import Notify, SignedIn, page, shared_router

EMAIL = re.compile(r"^[^@\s<>()\[\],;:\"\x00-\x1f\x7f-\x9f]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                   r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$")
"""An address a mail server can take: a local part without spaces, control characters or specials, and a
host name."""
CONFIRMATIONS_PER_ADDRESS = 3
"""Confirmation links one address may get within an hour, whichever accounts ask and whether the address
was removed since (counted in the outbox: then 429)."""
SUBSCRIPTIONS_PER_ACCOUNT = 20
"""Push subscriptions kept per account (the oldest goes when a new one comes)."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _settings_row(session: Session, user_id: int) -> NotificationSettingsRow:
    row = session.get(NotificationSettingsRow, user_id)
    if row is None:
        row = NotificationSettingsRow(user_id=user_id, unsubscribe_key=secrets.token_urlsafe(32), digest=True,
                                      clock=True, ended=False)
        session.add(row)
    return row


def notifications_view(notifier: Notifier, user_id: int) -> dict[str, Any]:
    """The account's address, its state and choices, what the site can send, and ``undelivered``: why the
    last e-mail to the account could not be delivered ({"email", "error"}), or None."""
    with Session(notifier.engine) as session:
        row = session.get(NotificationSettingsRow, user_id)
        devices = session.scalar(select(func.count()).select_from(PushSubscriptionRow)
                                 .where(PushSubscriptionRow.user_id == user_id)) or 0
        last = outbox.last_mail(session.connection(), user_id)
    undelivered = None
    if last is not None and last.status == "failed":
        undelivered = {"email": last.content.get("to"), "error": last.error}
    return {"email": (row.pending_email or row.email) if row else None,
            "email_confirmed": bool(row and row.email and not row.pending_email),
            "confirmed_email": row.email if row else None,
            "digest": row.digest if row else True, "clock": row.clock if row else True,
            "ended": row.ended if row else False, "mail": notifier.settings.mail.enabled,
            "undelivered": undelivered,
            "push_key": notifier.settings.push.public_key, "push_devices": devices}


def set_email(notifier: Notifier, user: Any, email: str | None, lang: str) -> dict[str, Any]:
    """Set (or with None remove) the account's address. A new one waits for its confirmation link, which is
    sent to it; the confirmed address, if any, keeps receiving messages until then, and setting it again
    drops the new one. Removing the address ends its unsubscribe links. 422 ``invalid_email``, 409
    ``mail_off``, 429 when an account or an address was sent confirmation links too often."""
    if email is not None:
        email = email.strip()
        if len(email) > 254 or not EMAIL.match(email):
            raise GameError(422, "invalid_email", _("this is not an e-mail address: {email}",
                                                    email=plain(email)[:80]))
        if not notifier.settings.mail.enabled:
            raise GameError(409, "mail_off", _("this site sends no e-mail"))
    now = datetime.now(UTC)
    with Session(notifier.engine) as session, session.begin():
        row = _settings_row(session, user.id)
        if email is None:
            row.email = row.pending_email = row.confirm_hash = row.confirmed_at = None
            row.unsubscribe_key = secrets.token_urlsafe(32)
        elif row.email and email.casefold() == row.email.casefold():
            row.pending_email = row.confirm_hash = None  # back to the confirmed address: nothing to send
        else:
            hour = now - timedelta(hours=1)
            asked = session.scalar(select(func.count()).select_from(OutboxRow).where(
                OutboxRow.user_id == user.id, OutboxRow.kind == "confirm", OutboxRow.created_at >= hour)) or 0
            if asked >= CONFIRMATIONS_PER_HOUR:
                raise RateLimited(3600, _("too many confirmation messages: try again in an hour"))
            token = secrets.token_urlsafe(32)
            row.pending_email, row.confirm_hash, row.confirm_sent_at = email, _hash(token), now
            row.language = lang
            session.flush()
            message = notifier.confirmation(user, row, token)
            assert message.recipient is not None  # a confirmation always goes to the address it confirms
            if session.get_bind().dialect.name == "postgresql":  # one request per address at a time
                session.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                {"key": int(message.recipient[:15], 16)})
            # SQLite: the insert takes the write lock first, so the count below sees every other request's
            outbox.queue(session.connection(), [message], now)
            to_address = session.scalar(select(func.count()).select_from(OutboxRow).where(
                OutboxRow.recipient == message.recipient, OutboxRow.kind == "confirm",
                OutboxRow.created_at >= hour)) or 0
            if to_address > CONFIRMATIONS_PER_ADDRESS:  # the refusal rolls back the message and the change
                raise RateLimited(3600, _("this address was sent confirmation links lately: try again in an hour"))
    return notifications_view(notifier, user.id)


def set_choices(notifier: Notifier, user_id: int, choices: dict[str, bool]) -> dict[str, Any]:
    with Session(notifier.engine) as session, session.begin():
        row = _settings_row(session, user_id)
        for name, value in choices.items():
            setattr(row, name, value)
    return notifications_view(notifier, user_id)


def confirm(notifier: Notifier, token: str) -> str | None:
    """Confirm the address whose link carries ``token`` (again: nothing changes); the address, or None for
    an unknown link or one over a week old."""
    now = datetime.now(UTC)
    with Session(notifier.engine) as session, session.begin():
        row = session.scalar(select(NotificationSettingsRow)
                             .where(NotificationSettingsRow.confirm_hash == _hash(token)))
        if row is None:
            return None
        if row.pending_email is None:  # this link confirmed the address already
            return row.email
        if now - (as_utc(row.confirm_sent_at) or now) > CONFIRM_VALID:
            return None
        row.email, row.pending_email, row.confirmed_at = row.pending_email, None, now
        row.unsubscribe_key = secrets.token_urlsafe(32)  # the old address's links stop here
        return row.email


def unsubscribe(notifier: Notifier, token: str, kind: str) -> bool:
    """Turn off ``kind`` (or with "all" remove the address) for the account of ``token``; False if unknown."""
    with Session(notifier.engine) as session, session.begin():
        row = session.scalar(select(NotificationSettingsRow)
                             .where(NotificationSettingsRow.unsubscribe_key == token))
        if row is None or not secrets.compare_digest(row.unsubscribe_key, token):
            return False
        if kind == "all":
            row.email = row.pending_email = row.confirm_hash = row.confirmed_at = None
            row.unsubscribe_key = secrets.token_urlsafe(32)
        else:
            setattr(row, kind, False)
        return True


def _key_bytes(text: str, size: int, name: str) -> None:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size or (name == "p256dh" and raw[0] != 4):
        raise GameError(422, "invalid_request", _("keys.{name} is not a browser's push key", name=name))


def subscribe(notifier: Notifier, user_id: int, endpoint: str, p256dh: str, auth: str, lang: str) -> int:
    """Keep a browser's push subscription for the account; the account's number of subscriptions. The
    endpoint must be a push service on the public Internet (:mod:`..push_endpoint`: checked and resolved
    now, and again before each message). An endpoint already subscribed moves to this account only with the
    same keys (the same browser, signed in to another account). 409 ``push_off``; 409 ``endpoint_taken``;
    422 for a bad endpoint or keys."""
    if not notifier.settings.push.enabled:
        raise GameError(409, "push_off", _("this site sends no push notifications"))
    policy = notifier.settings.push.endpoints
    try:
        resolve(check(endpoint, urlsplit(notifier.public_url).hostname, policy), policy)
    except BadEndpoint as exc:
        raise GameError(422, "invalid_endpoint", exc.reason) from None
    _key_bytes(p256dh, 65, "p256dh")
    _key_bytes(auth, 16, "auth")
    with Session(notifier.engine) as session, session.begin():
        known = session.scalar(select(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint))
        if known is not None:
            same = secrets.compare_digest(known.p256dh, p256dh) and secrets.compare_digest(known.auth, auth)
            if known.user_id != user_id and not same:
                raise GameError(409, "endpoint_taken", _("this push endpoint belongs to another browser"))
            session.delete(known)
            session.flush()
        session.add(PushSubscriptionRow(user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth, language=lang))
        session.flush()
        mine = session.scalars(select(PushSubscriptionRow.id).where(PushSubscriptionRow.user_id == user_id)
                               .order_by(PushSubscriptionRow.id.desc())).all()
        if len(mine) > SUBSCRIPTIONS_PER_ACCOUNT:
            session.execute(delete(PushSubscriptionRow).where(
                PushSubscriptionRow.id.in_(mine[SUBSCRIPTIONS_PER_ACCOUNT:])))
        return min(len(mine), SUBSCRIPTIONS_PER_ACCOUNT)


def unsubscribe_push(notifier: Notifier, user_id: int, endpoint: str) -> None:
    with Session(notifier.engine) as session, session.begin():
        session.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.user_id == user_id,
                                                          PushSubscriptionRow.endpoint == endpoint))


# -- the API --------------------------------------------------------------------------------


class Choices(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    digest: bool | None = Field(None, description="a daily e-mail listing the games waiting for your move")
    clock: bool | None = Field(None, description="an e-mail when a slow game's clock has an hour left for you")
    ended: bool | None = Field(None, description="an e-mail when one of your games ends")


class Address(BaseModel):
    model_config = ConfigDict(strict=True)

    email: str = Field(max_length=400, description="the address to confirm and then write to")


class Keys(BaseModel):
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)


class Subscription(BaseModel):
    """A browser's ``PushSubscription.toJSON()``; other fields (``expirationTime``) are ignored."""

    model_config = ConfigDict(strict=True)

    endpoint: str = Field(max_length=1024)
    keys: Keys


class Endpoint(BaseModel):
    model_config = ConfigDict(strict=True)

    endpoint: str = Field(max_length=1024)


Token = Annotated[str, Query(max_length=100, description="the secret of the message's link")]
Kind = Annotated[str, Query(max_length=20, description="what to stop: digest, clock, ended; all: every e-mail")]


def _unknown_link(request: Request) -> HTMLResponse:
    return page("notice.html", request, 404, title=_("This link does not work"),
                text=_("This unsubscribe link is unknown. Sign in and choose what you receive in your account, "
                       "in the lobby."))


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The notification settings (``/api/account/notifications``, ``/api/account/email``,
    ``/api/push/subscriptions``) and the pages of the messages' links."""
    api = shared_router(tags=["notifications"])

    @api.get("/api/account/notifications", summary="Your e-mail address, your choices, and push",
             responses=errors(401))
    async def get_notifications(user: SignedIn, notifier: Notify) -> dict[str, Any]:
        """``email``, ``email_confirmed``, the choices ``digest``, ``clock``, ``ended``; ``mail``: whether this
        site sends e-mail; ``push_key``: the VAPID key browsers subscribe with (null: no push here);
        ``push_devices``: your push subscriptions."""
        return await asyncio.to_thread(notifications_view, notifier, user.id)

    @api.patch("/api/account/notifications", summary="Choose which e-mails you receive", responses=errors(401, 403))
    async def patch_notifications(body: Choices, user: SignedIn, notifier: Notify) -> dict[str, Any]:
        chosen = {name: value for name, value in body.model_dump().items() if value is not None}
        return await asyncio.to_thread(set_choices, notifier, user.id, chosen)

    @api.put("/api/account/email", summary="Set your e-mail address (a confirmation link is sent to it)",
             responses=errors(401, 403, 409, 429))
    async def put_email(body: Address, user: SignedIn, notifier: Notify) -> dict[str, Any]:
        """Nothing but the confirmation is sent before its link is opened. 422 ``invalid_email``; 409
        ``mail_off`` when the site sends no e-mail; 429 after three confirmations in an hour."""
        return await asyncio.to_thread(set_email, notifier, user, body.email, current_language())

    @api.delete("/api/account/email", summary="Remove your e-mail address: nothing more is sent",
                responses=errors(401, 403))
    async def delete_email(user: SignedIn, notifier: Notify) -> dict[str, Any]:
        return await asyncio.to_thread(set_email, notifier, user, None, current_language())

    @api.post("/api/push/subscriptions", status_code=201, summary="Send push notifications to this browser",
              responses=errors(401, 403, 409))
    async def post_subscription(body: Subscription, user: SignedIn, notifier: Notify) -> dict[str, Any]:
        """409 ``push_off`` when the site has no VAPID key; 409 ``endpoint_taken`` for an endpoint another
        account subscribed with other keys; 422 ``invalid_endpoint`` for an endpoint that is not a push
        service's https URL on the public Internet, 422 for keys that are not a browser's."""
        devices = await asyncio.to_thread(subscribe, notifier, user.id, body.endpoint, body.keys.p256dh,
                                          body.keys.auth, current_language())
        return {"push_devices": devices}

    @api.delete("/api/push/subscriptions", status_code=204, response_class=Response,
                summary="Stop push notifications to this browser", responses=errors(401, 403))
    async def delete_subscription(body: Endpoint, user: SignedIn, notifier: Notify) -> Response:
        await asyncio.to_thread(unsubscribe_push, notifier, user.id, body.endpoint)
        return Response(status_code=204)

    @api.get("/email/confirm", include_in_schema=False)
    async def confirm_page(token: Token, request: Request) -> HTMLResponse:
        """A page with the button (a link opened by a mail scanner must not confirm an address)."""
        return page("notice.html", request, title=_("Confirm your address?"),
                    text=_("Messages about your games will go to this address once you confirm it."),
                    action=f"/email/confirm?{urlencode({'token': token})}", button=_("Confirm my address"))

    @api.post("/email/confirm", include_in_schema=False)
    async def confirm_now(token: Token, request: Request, notifier: Notify) -> HTMLResponse:
        email = await asyncio.to_thread(confirm, notifier, token)
        if email is None:
            return page("notice.html", request, 404, title=_("This link does not work"),
                        text=_("The confirmation link is unknown or more than a week old. Enter your address "
                               "again in your account, in the lobby, to get a new one."))
        return page("notice.html", request, title=_("Address confirmed"),
                    text=_("Messages about your games will now go to {email}. Choose which in your account, "
                           "in the lobby.", email=email))

    @api.get("/unsubscribe", include_in_schema=False)
    async def unsubscribe_page(token: Token, kind: Kind, request: Request) -> HTMLResponse:
        """A page with the button (a link opened by a mail scanner must not unsubscribe anyone)."""
        if kind not in UNSUBSCRIBE_TEXTS:
            return _unknown_link(request)
        return page("notice.html", request, title=_("Stop these messages?"), text=UNSUBSCRIBE_TEXTS[kind],
                    action=f"/unsubscribe?{urlencode({'token': token, 'kind': kind})}",
                    button=_("Stop these messages"))

    @api.post("/unsubscribe", include_in_schema=False)
    async def unsubscribe_now(token: Token, kind: Kind, request: Request, notifier: Notify) -> HTMLResponse:
        """The one-click unsubscribe (RFC 8058): the mail client or the page's button posts here."""
        if kind not in UNSUBSCRIBE_TEXTS or not await asyncio.to_thread(unsubscribe, notifier, token, kind):
            return _unknown_link(request)
        return page("notice.html", request, title=_("Done"), text=UNSUBSCRIBED_TEXTS[kind])

    return api


UNSUBSCRIBE_TEXTS = {
    "digest": _("You will no longer receive the daily list of games waiting for your move."),
    "clock": _("You will no longer receive a message when your time in a game runs out soon."),
    "ended": _("You will no longer receive a message when one of your games ends."),
    "all": _("Your address will be removed and no more e-mail sent to it."),
}
UNSUBSCRIBED_TEXTS = {
    "digest": _("The daily list of games waiting for your move is turned off."),
    "clock": _("Messages when your time runs out soon are turned off."),
    "ended": _("Messages when a game ends are turned off."),
    "all": _("Your address is removed: no more e-mail will be sent to it."),
}
