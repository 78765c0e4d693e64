"""Telling players about their games while they are away: e-mail and Web Push.

What is due is found in the database, not announced by the code that makes moves: each round of
:class:`Notifier` (every ``KINGISDEAD_NOTIFY_EVERY`` seconds, in every server process) looks at
the games and queues what is due in the :mod:`~kingisdead.web.outbox` under a key naming it, then
sends what is pending. So a restart loses nothing, and several processes say each thing once.

What is said, and when (the account's choices are in ``notification_settings``):

- **digest** (e-mail, once a UTC day from ``digest_hour``): the games waiting for the account's move for
  at least :data:`DIGEST_WAIT`, each with its time left.
- **clock** (e-mail and push): :data:`CLOCK_WARNING` before a slow game's deadline (a move limit of a day
  or more), the player to move is warned that the stand-in bot will play for them.
- **ended** (e-mail): one of the account's games has ended, with its winners.
- **turn** (push only): it has become the account's turn in a slow game.
- **confirm** (e-mail): the link that confirms an address; nothing else goes to an unconfirmed address.
- **challenge** (e-mail to a confirmed address, and push): someone challenged the account to a game
  (:mod:`.challenges`); queued with the challenge itself (:meth:`Notifier.challenge`), dropped once it is
  answered, withdrawn or expired.
- **tournament** (e-mail to a confirmed address, and push): a round of a tournament the account entered has
  started, the tournament has ended (with the account's place) or was cancelled (:mod:`.tournaments`); queued
  in the transaction that decided it (:meth:`Notifier.tournament`).

Texts are composed in the account's language when queued. A message that is no longer wanted when its
turn to be sent comes (the address changed, the choice was turned off, the move was made) is dropped.

Sending is a pool (:meth:`Notifier.dispatch`): up to :data:`MAIL_AT_ONCE` e-mails and :data:`PUSH_AT_ONCE`
push messages at once, each with one deadline for its whole hand-over (:attr:`NotifySettings.deadline`),
so a push service or a mail server that answers slowly, or never, holds one worker for that long and no
other message. A message not taken is tried again after a growing wait, :data:`outbox.ATTEMPTS` times in
all, then failed (the account's notification settings say so for an e-mail); a mail server that cannot be
reached at all costs no attempt and the other e-mails wait for it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import socket
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode, urlsplit

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, selectinload

from . import mail as smtp
from . import outbox, push as webpush
from .db import ChallengeRow, GameRow, NotificationSettingsRow, PushSubscriptionRow, SeatRow, UserRow
from .i18n import Text, _, and_list, join, ngettext
from .live_game import as_utc
from .outage import DATABASE_DOWN, Outage
from .views import LEVEL_TEXTS

SLOW = 86_400
"""Move time limits from this many seconds up make a slow game: its players are told when it is their turn."""
CLOCK_WARNING = timedelta(hours=1)
"""How long before a slow game's deadline the player to move is warned."""
DIGEST_WAIT = timedelta(hours=1)
"""A game waiting less than this for the account's move is left out of its digest (they are playing it)."""
RECENT = timedelta(days=1)
"""Turns and endings older than this are not announced (a new subscription gets no backlog)."""
CONFIRM_VALID = timedelta(days=7)
"""How long a confirmation link works."""
CONFIRMATIONS_PER_HOUR = 3
"""Confirmation messages an account may ask for in an hour (each goes to an address it typed)."""
STALE_PUSH = timedelta(seconds=webpush.TIME_TO_LIVE)
"""A push message not delivered within this time is dropped: a turn or a warning that old means nothing."""
CHOICES = ("digest", "clock", "ended")
"""The e-mail messages an account may choose."""
MAIL_AT_ONCE = 4
"""E-mails handed to the SMTP server at the same time (each on its own connection)."""
PUSH_AT_ONCE = 16
"""Push messages posted at the same time (to any push services)."""
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
"""Control characters and line separators: never copied from a name into a message (a forged paragraph)."""

log = logging.getLogger("kingisdead.web")


@dataclass(frozen=True)
class NotifySettings:
    """Everything the notification job needs. ``every``: seconds between rounds; ``lease``: seconds a
    sender's claim on a message lasts (each connection may take an eighth of it); ``digest_hour``: the UTC
    hour from which the day's digests go out."""

    mail: smtp.MailSettings = field(default_factory=smtp.MailSettings)
    push: webpush.PushSettings = field(default_factory=webpush.PushSettings)
    every: float = 30.0
    lease: float = 240.0
    digest_hour: int = 7

    @property
    def enabled(self) -> bool:
        return self.mail.enabled or self.push.enabled

    @property
    def deadline(self) -> float:
        """Seconds one message's whole hand-over may take (connection, every answer), well within the lease."""
        return self.lease / 8

    @classmethod
    def from_env(cls, mail: dict[str, Any] | None = None, vapid_key: str | None = None,
                 vapid_subject: str | None = None) -> NotifySettings:
        """From the environment (``KINGISDEAD_SMTP_*``, ``KINGISDEAD_MAIL_FROM``, ``KINGISDEAD_VAPID_*``,
        ``KINGISDEAD_NOTIFY_EVERY``, ``KINGISDEAD_NOTIFY_LEASE``, ``KINGISDEAD_DIGEST_HOUR``); ``mail``: the
        command line's SMTP options (None values are left to the environment). ValueError for a bad one."""
        numbers = {}
        for name, default, cast in (("EVERY", 30.0, float), ("LEASE", 240.0, float), ("DIGEST_HOUR", 7, int)):
            variable = f"KINGISDEAD_NOTIFY_{name}" if name != "DIGEST_HOUR" else "KINGISDEAD_DIGEST_HOUR"
            text = os.environ.get(variable)
            try:
                numbers[name] = cast(text) if text else default
            except ValueError:
                raise ValueError(f"{variable} must be a number, not {text!r}") from None
        if not 0 < numbers["EVERY"] or not 0 < numbers["LEASE"] or not 0 <= numbers["DIGEST_HOUR"] < 24:
            raise ValueError("KINGISDEAD_NOTIFY_EVERY and _LEASE must be positive, KINGISDEAD_DIGEST_HOUR 0 to 23")
        timeout = numbers["LEASE"] / 8
        base = smtp.MailSettings.from_env(**(mail or {}))
        return cls(mail=smtp.MailSettings(base.host, base.port, base.tls, base.user, base.password, base.sender,
                                          timeout),
                   push=webpush.PushSettings.from_env(vapid_key, vapid_subject), every=numbers["EVERY"],
                   lease=numbers["LEASE"], digest_hour=int(numbers["DIGEST_HOUR"]))


@dataclass
class _Context:
    """What one round knows: the accounts' names, languages, choices and push subscriptions."""

    users: dict[int, UserRow]
    settings: dict[int, NotificationSettingsRow]
    subscriptions: dict[int, list[PushSubscriptionRow]]

    def language(self, user_id: int, preferred: str | None = None) -> str:
        """The language of messages to the account: the one chosen where it subscribed, else its own."""
        user = self.users.get(user_id)
        return preferred or (user.language if user and user.language else None) or "en"

    def wants(self, user_id: int, choice: str) -> NotificationSettingsRow | None:
        row = self.settings.get(user_id)
        return row if row is not None and row.email and row.confirmed_at and getattr(row, choice) else None


class Notifier:
    """The notification job of one process: :meth:`round` queues what is due and sends what is pending."""

    def __init__(self, engine: Engine, settings: NotifySettings, public_url: str) -> None:
        self.engine, self.settings, self.public_url = engine, settings, public_url.rstrip("/")
        self.claimer = f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.outage = Outage("notifications", first=min(1.0, settings.every), longest=max(settings.every, 1.0))
        self._unwritten: dict[int, tuple[str, str | None]] = {}  # sent or failed: the database was down
        self._lock = threading.Lock()

    async def run(self) -> None:
        """Rounds every ``settings.every`` seconds until cancelled; sending goes on between rounds (a slow
        message does not delay the next round). The database out of reach is logged once, and once when
        it is back (:class:`~.outage.Outage`); another failed round is logged and retried."""
        pool = _Pool()
        try:
            while True:
                wait = self.settings.every
                try:
                    now = datetime.now(UTC)
                    await asyncio.to_thread(self.queue_due, now)
                    await self.dispatch(now, pool)
                    self.outage.ok()
                except DATABASE_DOWN as exc:
                    wait = self.outage.failed(exc)
                except Exception:
                    log.exception("notifications: a round failed")
                await asyncio.sleep(wait)
        finally:  # shutting down: messages on their way keep their claims and are sent after the lease
            for task in list(pool.tasks):
                task.cancel()

    def round(self, now: datetime | None = None) -> tuple[int, int]:
        """Queue what is due at ``now`` (default: the present), then send what is pending and wait for it:
        (queued, sent). Call it from a thread without an event loop."""
        now = now or datetime.now(UTC)
        queued = self.queue_due(now)
        return queued, self.deliver(now)

    # -- what is due ---------------------------------------------------------------------------

    def queue_due(self, now: datetime) -> int:
        """Queue every message due at ``now`` that is not queued yet; how many were new."""
        if not self.settings.enabled:
            return 0
        with Session(self.engine) as session:
            waiting = session.execute(
                select(GameRow, SeatRow.user_id)
                .join(SeatRow, (SeatRow.game_id == GameRow.id) & (SeatRow.seat == GameRow.to_move))
                .where(GameRow.status == "running", GameRow.hotseat.is_(False), SeatRow.kind == "human",
                       SeatRow.user_id.is_not(None), SeatRow.away.is_(False), SeatRow.left.is_(False))
                .options(selectinload(GameRow.seats))).all()
            ended = session.execute(
                select(GameRow, SeatRow.user_id).join(SeatRow, SeatRow.game_id == GameRow.id)
                .join(NotificationSettingsRow, NotificationSettingsRow.user_id == SeatRow.user_id)
                .where(GameRow.status == "finished", GameRow.updated_at >= now - RECENT,
                       NotificationSettingsRow.ended.is_(True), NotificationSettingsRow.confirmed_at.is_not(None))
                .options(selectinload(GameRow.seats))).unique().all()
            involved = {user_id for _game, user_id in [*waiting, *ended]}
            context = _Context(
                users={u.id: u for u in session.scalars(select(UserRow).where(UserRow.id.in_(involved)))},
                settings={s.user_id: s for s in session.scalars(
                    select(NotificationSettingsRow).where(NotificationSettingsRow.user_id.in_(involved)))},
                subscriptions={})
            if self.settings.push.enabled:
                for sub in session.scalars(select(PushSubscriptionRow).where(PushSubscriptionRow.user_id.in_(involved))):
                    context.subscriptions.setdefault(sub.user_id, []).append(sub)
            candidates = [*self._clock_and_turn(waiting, context, now), *self._digests(waiting, context, now),
                          *self._endings(ended, context, now)]
        if not candidates:
            return 0
        with self.engine.begin() as connection:
            have = outbox.known(connection, [key for key, _make in candidates])
            return outbox.queue(connection, [make() for key, make in candidates if key not in have], now)

    def _clock_and_turn(self, waiting: Sequence[Any], context: _Context, now: datetime) -> list[Any]:
        found: list[Any] = []
        for game, user_id in waiting:
            deadline = as_utc(game.deadline)
            if not game.time_limit or game.time_limit < SLOW or deadline is None or deadline <= now:
                continue
            warn = deadline - now <= CLOCK_WARNING
            updated = as_utc(game.updated_at) or now
            if warn and context.wants(user_id, "clock"):
                found.append((f"clock:mail:{game.id}:{game.move_count}:{user_id}",
                              _bind(self._clock_mail, game, user_id, context, deadline - now)))
            for sub in context.subscriptions.get(user_id, []):
                if warn:
                    found.append((f"clock:push:{game.id}:{game.move_count}:{sub.id}",
                                  _bind(self._push, "clock", game, user_id, sub, context, deadline - now)))
                elif game.move_count > 0 and now - updated <= RECENT and updated >= (as_utc(sub.created_at) or now):
                    found.append((f"turn:push:{game.id}:{game.move_count}:{sub.id}",
                                  _bind(self._push, "turn", game, user_id, sub, context, deadline - now)))
        return found

    def _digests(self, waiting: Sequence[Any], context: _Context, now: datetime) -> list[Any]:
        if now.hour < self.settings.digest_hour:
            return []
        games: dict[int, list[GameRow]] = {}
        for game, user_id in waiting:
            if context.wants(user_id, "digest") and now - (as_utc(game.updated_at) or now) >= DIGEST_WAIT:
                games.setdefault(user_id, []).append(game)
        return [(f"digest:{user_id}:{now.date().isoformat()}", _bind(self._digest, user_id, mine, context, now))
                for user_id, mine in games.items()]

    def _endings(self, ended: Sequence[Any], context: _Context, now: datetime) -> list[Any]:
        found = []
        for game, user_id in ended:
            settings = context.wants(user_id, "ended")
            if settings is not None and (as_utc(game.updated_at) or now) >= (as_utc(settings.confirmed_at) or now):
                found.append((f"ended:mail:{game.id}:{user_id}", _bind(self._ended, game, user_id, context)))
        return found

    # -- the texts -----------------------------------------------------------------------------

    def link(self, path: str, **query: str) -> str:
        return f"{self.public_url}{path}" + (f"?{urlencode(query)}" if query else "")

    def _mail(self, kind: str, key: str, user: UserRow, settings: NotificationSettingsRow, subject: Text,
              lines: list[Any], extra: dict[str, Any] | None = None, to: str | None = None) -> outbox.Message:
        """An e-mail to ``to`` (default: the confirmed ``settings.email``) in the account's language, with the
        one-click unsubscribe of the confirmed address; none in a confirmation (``to`` given), whose reader
        may not be the address's owner."""
        lang = settings.language or user.language or "en"
        footer: list[Any] = [_("Choose what you receive in your account, in the lobby: {url}", url=self.link("/"))]
        stop = None
        if to is None:
            stop = self.link("/unsubscribe", token=settings.unsubscribe_key, kind=kind if kind in CHOICES else "all")
            footer.insert(0, _("Stop these messages with one click: {url}", url=stop))
        body = [_("Hello {name},", name=plain(user.name)), "", *lines, "", "--", *footer]
        text = "\n".join(line.in_language(lang) if isinstance(line, Text) else str(line) for line in body)
        address = to or settings.email or ""
        content = {"to": address, "subject": subject.in_language(lang), "text": text, "unsubscribe": stop,
                   "message_id": smtp.new_message_id(self.settings.mail), **(extra or {})}
        return outbox.Message(key, "mail", kind, user.id, content, outbox.recipient(address))

    def _digest(self, user_id: int, games: list[GameRow], context: _Context, now: datetime) -> outbox.Message:
        games = sorted(games, key=lambda g: as_utc(g.deadline) or datetime.max.replace(tzinfo=UTC))
        lines: list[Any] = [ngettext("This game waits for your move:", "These games wait for your move:", len(games))]
        for game in games:
            deadline = as_utc(game.deadline)
            lines.append("")
            if deadline is None:
                lines.append(_("Game {game} against {names}: no time limit.", game=game.id,
                               names=_opponents(game, user_id)))
            else:
                lines.append(_("Game {game} against {names}: {left} left.", game=game.id,
                               names=_opponents(game, user_id), left=duration(deadline - now)))
            lines.append(f"  {self.link(f'/game/{game.id}')}")
        subject = ngettext("{n} game waits for your move", "{n} games wait for your move", len(games))
        return self._mail("digest", f"digest:{user_id}:{now.date().isoformat()}", context.users[user_id],
                          context.settings[user_id], subject, lines)

    def _clock_mail(self, game: GameRow, user_id: int, context: _Context, left: timedelta) -> outbox.Message:
        lines = [_("Your move in game {game} against {names} must be made within {left}; then the stand-in bot "
                   "plays for you until you come back.", game=game.id, names=_opponents(game, user_id),
                   left=duration(left)),
                 _("Play now: {url}", url=self.link(f"/game/{game.id}"))]
        return self._mail("clock", f"clock:mail:{game.id}:{game.move_count}:{user_id}", context.users[user_id],
                          context.settings[user_id], _("Your time runs out soon in game {game}", game=game.id), lines,
                          {"game": game.id, "move": game.move_count})

    def _ended(self, game: GameRow, user_id: int, context: _Context) -> outbox.Message:
        winners = set((game.result or {}).get("winners", []))
        mine = {s.seat for s in game.seats if s.user_id == user_id}
        names = [seat_name(s) for s in game.seats if s.seat in winners]
        lines = [_("You won.") if mine & winners else _("You lost."),
                 ngettext("Winner: {names}.", "Winners: {names}.", len(names), names=and_list(names))
                 if names else _("Nobody won."),
                 _("See the game and its analysis: {url}", url=self.link(f"/game/{game.id}"))]
        return self._mail("ended", f"ended:mail:{game.id}:{user_id}", context.users[user_id],
                          context.settings[user_id], _("Game {game} has ended", game=game.id), lines)

    def _push(self, kind: str, game: GameRow, user_id: int, sub: PushSubscriptionRow, context: _Context,
              left: timedelta) -> outbox.Message:
        lang = context.language(user_id, sub.language)
        names = _opponents(game, user_id)
        if kind == "turn":
            title, body = _("Your turn"), _("Game {game} against {names}: you have {left} to move.", game=game.id,
                                            names=names, left=duration(left))
        else:
            title, body = _("Your time runs out soon"), _(
                "Your move in game {game} against {names}: {left} left, then a bot plays for you.",
                game=game.id, names=names, left=duration(left))
        payload = {"kind": kind, "title": title.in_language(lang), "body": body.in_language(lang),
                   "url": f"/game/{game.id}", "game": game.id, "tag": f"game-{game.id}"}
        return outbox.Message(f"{kind}:push:{game.id}:{game.move_count}:{sub.id}", "push", kind, user_id,
                              {"subscription": sub.id, "payload": payload, "game": game.id, "move": game.move_count})

    def challenge(self, session: Session, challenge_id: int, challenger: str, user_id: int,
                  expires: datetime) -> list[outbox.Message]:
        """The messages telling account ``user_id`` that ``challenger`` challenged it (challenge ``challenge_id``,
        open until ``expires``): an e-mail to its confirmed address if the site sends e-mail, a push message to
        each of its subscriptions if the site sends push. Queue them in the challenge's own transaction (keys
        ``challenge:mail:ID:USER``, ``challenge:push:ID:SUBSCRIPTION``: a challenge may name several people), so
        they are sent once, or never if it fails."""
        user = session.get(UserRow, user_id)
        if user is None:
            return []
        found: list[outbox.Message] = []
        settings = session.get(NotificationSettingsRow, user_id)
        url = self.link("/")  # the lobby, whose challenges panel lists it
        expiry = expires.date().isoformat()
        if self.settings.mail.enabled and settings is not None and settings.email and settings.confirmed_at:
            lines = [_("{name} challenges you to a game of The King Is Dead.", name=plain(challenger)),
                     _("Accept or decline in the lobby before {date}: {url}", date=expiry, url=url)]
            found.append(self._mail("challenge", f"challenge:mail:{challenge_id}:{user_id}", user, settings,
                                    _("{name} challenges you", name=plain(challenger)), lines,
                                    {"challenge": challenge_id}))
        if self.settings.push.enabled:
            for sub in session.scalars(select(PushSubscriptionRow).where(PushSubscriptionRow.user_id == user_id)):
                lang = sub.language or user.language or "en"
                payload = {"kind": "challenge", "title": _("A challenge").in_language(lang),
                           "body": _("{name} challenges you to a game.", name=plain(challenger)).in_language(lang),
                           "url": "/", "tag": f"challenge-{challenge_id}"}
                found.append(outbox.Message(f"challenge:push:{challenge_id}:{sub.id}", "push", "challenge", user_id,
                                            {"subscription": sub.id, "payload": payload, "challenge": challenge_id}))
        return found

    def tournament(self, session: Session, tournament_id: int, event: str, told: Mapping[int, Sequence[Any]],
                   subject: Text) -> list[outbox.Message]:
        """The messages of a tournament's ``event`` ("round3", "ended", "cancelled"): to each account of ``told``
        the lines said to it (texts or plain strings), as an e-mail to its confirmed address if the site sends
        e-mail, and as a push message (``subject`` and the first line) to each of its subscriptions if the site
        sends push. Queue them in the transaction that decides the event (keys ``tournament:EVENT:mail:ID:USER``,
        ``tournament:EVENT:push:ID:SUBSCRIPTION``), so each is sent once, or never if it fails. Three queries
        for any number of accounts."""
        ids = list(told)
        if not ids or not self.settings.enabled:
            return []
        users = {u.id: u for u in session.scalars(select(UserRow).where(UserRow.id.in_(ids)))}
        found: list[outbox.Message] = []
        url = f"/tournaments/{tournament_id}"
        if self.settings.mail.enabled:
            for settings in session.scalars(select(NotificationSettingsRow).where(
                    NotificationSettingsRow.user_id.in_(ids), NotificationSettingsRow.email.is_not(None),
                    NotificationSettingsRow.confirmed_at.is_not(None))):
                user = users.get(settings.user_id)
                if user is not None:
                    found.append(self._mail("tournament", f"tournament:{event}:mail:{tournament_id}:{user.id}", user,
                                            settings, subject, list(told[user.id]), {"tournament": tournament_id}))
        if self.settings.push.enabled:
            for sub in session.scalars(select(PushSubscriptionRow).where(PushSubscriptionRow.user_id.in_(ids))):
                user = users.get(sub.user_id)
                if user is None:
                    continue
                lang = sub.language or user.language or "en"
                first = told[user.id][0]
                payload = {"kind": "tournament", "title": subject.in_language(lang),
                           "body": first.in_language(lang) if isinstance(first, Text) else str(first), "url": url,
                           "tag": f"tournament-{tournament_id}"}
                found.append(outbox.Message(f"tournament:{event}:push:{tournament_id}:{sub.id}", "push", "tournament",
                                            user.id, {"subscription": sub.id, "payload": payload,
                                                      "tournament": tournament_id}))
        return found

    def confirmation(self, user: UserRow, settings: NotificationSettingsRow, token: str) -> outbox.Message:
        """The message with the link that confirms ``settings.pending_email`` (``token``: the link's secret)."""
        lines = [_("Open this link to receive messages about your games at this address:"),
                 self.link("/email/confirm", token=token), "",
                 _("If you did not ask for this, ignore this message: nothing more will be sent to you.")]
        return self._mail("confirm", f"confirm:{user.id}:{settings.confirm_hash}", user, settings,
                          _("Confirm your address for The King Is Dead"), lines, {"confirm_hash": settings.confirm_hash},
                          to=settings.pending_email)

    # -- sending -------------------------------------------------------------------------------

    def deliver(self, now: datetime, limit: int = 200) -> int:
        """Send up to ``limit`` pending messages and wait for them (see :meth:`dispatch`); how many were sent.
        Call it from a thread without an event loop."""

        async def everything() -> int:
            pool = _Pool()
            await self.dispatch(now, pool, limit)
            if pool.tasks:
                await asyncio.gather(*pool.tasks)
            return pool.sent

        return asyncio.run(everything())

    async def dispatch(self, now: datetime, pool: _Pool, limit: int = 200) -> None:
        """Start sending the messages due at ``now`` on the pool's free workers (one worker per channel and
        free slot, each taking the channel's messages one after another) and return without waiting for
        them. Outcomes the database could not take earlier are written first. Raises DATABASE_DOWN."""
        await asyncio.to_thread(self._write_unwritten)
        due = await asyncio.to_thread(outbox.due, self.engine, now, limit)
        pool.down.clear()
        for channel, at_once in (("mail", MAIL_AT_ONCE), ("push", PUSH_AT_ONCE)):
            waiting = deque(message_id for message_id, kind in due if kind == channel)
            for _worker in range(min(at_once - pool.busy[channel], len(waiting))):
                pool.busy[channel] += 1
                task = asyncio.create_task(self._worker(channel, waiting, pool))
                pool.tasks.add(task)
                task.add_done_callback(pool.tasks.discard)

    async def _worker(self, channel: str, waiting: deque[int], pool: _Pool) -> None:
        """Send ``waiting``'s messages one after another until none is left or the channel is found down."""
        try:
            while waiting and channel not in pool.down:
                try:
                    sent = await self._one(waiting.popleft(), pool)
                except DATABASE_DOWN:  # the round says so in the log; the claim expires and the row waits
                    return
                pool.sent += sent
        finally:
            pool.busy[channel] -= 1

    async def _one(self, message_id: int, pool: _Pool) -> bool:
        """Claim, send and record one message; whether it was sent."""
        lease = timedelta(seconds=self.settings.lease)
        row = await asyncio.to_thread(outbox.claim, self.engine, message_id, self.claimer, datetime.now(UTC), lease)
        if row is None:
            return False
        status, error = await self._send(row)
        retry = None
        counted = True
        if status in ("retry", "down"):
            if status == "down":  # the mail server cannot be reached: no attempt spent, no other mail tried now
                pool.down.add(row.channel)
                counted, retry = False, timedelta(seconds=self.settings.every)
            if counted and row.attempts >= outbox.ATTEMPTS:
                status, error = "failed", f"not delivered after {row.attempts} attempts: {error}"
                log.warning("notifications: %s %s failed for good: %s", row.channel, row.key, error)
            elif counted:
                retry = outbox.backoff(row.attempts, timedelta(seconds=self.settings.every))
                log.warning("notifications: %s %s not sent (%s); attempt %d of %d, next in %.0f s", row.channel,
                            row.key, error, row.attempts, outbox.ATTEMPTS, retry.total_seconds())
                status = "pending"
            else:
                log.warning("notifications: the mail server cannot be reached (%s); e-mail waits for the next round",
                            error)
                status = "pending"
        elif status == "failed":
            log.warning("notifications: %s %s refused for good: %s", row.channel, row.key, error)
        await asyncio.to_thread(self._finish, row.id, status, error, retry, counted)
        return status == "sent"

    def _finish(self, message_id: int, status: str, error: str | None, retry: timedelta | None,
                counted: bool) -> None:
        """Record a message's outcome; a final one the database cannot take now is kept to write later (a
        sent message is never sent again for want of that write)."""
        try:
            outbox.finish(self.engine, message_id, self.claimer, status, datetime.now(UTC), error, retry, counted)
        except DATABASE_DOWN:
            if status != "pending":  # a retry needs no record: the claim expires and the row waits
                with self._lock:
                    self._unwritten[message_id] = (status, error)
            raise

    def _write_unwritten(self) -> None:
        """Write the outcomes kept while the database was down. Raises DATABASE_DOWN if it still is."""
        with self._lock:
            kept = list(self._unwritten.items())
        for message_id, (status, error) in kept:
            outbox.finish(self.engine, message_id, self.claimer, status, datetime.now(UTC), error)
            with self._lock:
                self._unwritten.pop(message_id, None)

    async def _send(self, row: Any) -> tuple[str, str | None]:
        """Send one claimed message within the deadline: ("sent" | "failed" | "dropped" | "retry" | "down",
        the reason); "down": the mail server could not be reached at all."""
        reason = await asyncio.to_thread(self._unwanted, row)
        if reason:
            return "dropped", reason
        content, deadline = row.content, self.settings.deadline
        try:
            if row.channel == "mail":
                await asyncio.to_thread(smtp.send, self.settings.mail, smtp.message(
                    self.settings.mail, content["to"], content["subject"], content["text"], content["message_id"],
                    content.get("unsubscribe")), deadline)
            else:
                sub = await asyncio.to_thread(self._subscription, content["subscription"])
                if sub is None:
                    return "dropped", "the subscription was withdrawn"
                await self.settings.push.send(sub.endpoint, sub.p256dh, sub.auth, content["payload"], deadline,
                                              urlsplit(self.public_url).hostname)
        except smtp.Unreachable as exc:
            return "down", str(exc)
        except (smtp.TryLater, webpush.TryLater) as exc:
            return "retry", str(exc)
        except (smtp.Refused, webpush.Refused) as exc:
            return "failed", str(exc)
        except webpush.Gone as exc:
            await asyncio.to_thread(self._forget, content["subscription"])
            return "dropped", str(exc)
        return "sent", None

    def _subscription(self, subscription_id: int) -> PushSubscriptionRow | None:
        with Session(self.engine) as session:
            return session.get(PushSubscriptionRow, subscription_id)

    def _forget(self, subscription_id: int) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.id == subscription_id))

    def _unwanted(self, row: Any) -> str | None:
        """Why a queued message should no longer be sent, or None."""
        content = row.content
        if row.channel == "push" and datetime.now(UTC) - (as_utc(row.created_at) or datetime.now(UTC)) > STALE_PUSH:
            return "too old: the push service could not be reached in time"
        with Session(self.engine) as session:
            if "move" in content:
                game = session.get(GameRow, content["game"])
                if game is None or game.status != "running" or game.move_count != content["move"]:
                    return "the move was made"
            if "challenge" in content:
                challenge = session.get(ChallengeRow, content["challenge"])
                if challenge is None or challenge.status != "open" or \
                        (as_utc(challenge.expires_at) or datetime.now(UTC)) <= datetime.now(UTC):
                    return "the challenge was answered, withdrawn or expired"
            if row.channel != "mail":
                return None
            settings = session.get(NotificationSettingsRow, row.user_id)
            if row.kind == "confirm":
                waiting = settings is not None and (settings.pending_email, settings.confirm_hash) == (
                    content["to"], content["confirm_hash"])
                return None if waiting else "the address was confirmed or changed"
            if settings is None or settings.email != content["to"]:
                return "the address changed"
            if not settings.confirmed_at or row.kind in CHOICES and not getattr(settings, row.kind):
                return "turned off"
        return None


@dataclass
class _Pool:
    """The sending workers of one event loop: how many are busy per channel, the channels found down in
    the current round, the running tasks, and how many messages they sent."""

    busy: dict[str, int] = field(default_factory=lambda: {"mail": 0, "push": 0})
    down: set[str] = field(default_factory=set)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    sent: int = 0


def _bind(function: Any, *args: Any) -> Any:
    return lambda: function(*args)


def _opponents(game: GameRow, user_id: int) -> Any:
    return and_list([seat_name(s) for s in game.seats if s.user_id != user_id]) or "-"


def seat_name(seat: SeatRow) -> Any:
    """A seat's name as the table shows it: a bot named by default ("Beginner bot") in the reader's language."""
    if seat.kind == "bot" and seat.bot and seat.name == f"{seat.bot.capitalize()} bot":
        return _("{level} bot", level=LEVEL_TEXTS.get(seat.bot, (seat.bot,))[0])
    return plain(seat.name)


def plain(name: str) -> str:
    """A name as a message may quote it: control characters and line breaks become one space (a guest's
    seat name with CR/LF would otherwise start a paragraph of its own in someone else's mail)."""
    return CONTROL.sub(" ", name).strip()


def duration(left: timedelta) -> Text:
    """``left`` to the minute, in words: "2 days 4 hours", "5 hours 12 minutes", "0 minutes"."""
    minutes = max(int(left.total_seconds() // 60), 0)
    days, rest = divmod(minutes, 1440)
    hours, rest = divmod(rest, 60)
    parts = []
    if days:
        parts.append(ngettext("{n} day", "{n} days", days))
    if hours:
        parts.append(ngettext("{n} hour", "{n} hours", hours))
    if not days and (rest or not parts):
        parts.append(ngettext("{n} minute", "{n} minutes", rest))
    return join(parts, " ")
