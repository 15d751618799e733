"""The live-pages websocket, ``/ws/live/``: a page follows topics and is told when they move.

Client -> server, JSON text frames of at most ``MAX_MESSAGE_CHARS`` characters:

    {"type": "subscribe", "topic": "stage:12"}    -> {"type": "subscribed", "topic": "stage:12", "version": "3.3"}
    {"type": "subscribe", "topic": "stage:12", "fragments": ["standings"]}   (the same answer)
    {"type": "unsubscribe", "topic": "stage:12"}  -> {"type": "unsubscribed", "topic": "stage:12"}
    {"type": "ping"}                              -> {"type": "pong"}

Server -> client, whenever a followed topic's version moves (pushed by the process's watcher):

    {"type": "changed", "topic": "stage:12", "version": "4.3"}
    {"type": "changed", "topic": "stage:12", "version": "4.3", "html": {"standings": "<section …>"}}

A stage's follower may name the fragments its page shows (``fragments``: at most
``MAX_FRAGMENTS`` of ``standings``, ``stage``); its "changed" frames then carry them, rendered once
per version and language for all followers (tournaments/live/fragments.py), so the page swaps them
in without fetching. A stage that is not public (a draft) is told without them: the page fetches.

A refusal is ``{"type": "error", "code", "message"}`` (the message in the visitor's language, plus
the ``topic`` when the frame named one); the connection stays open and nothing else changes:
``malformed`` (not JSON, not an object, an unknown type, a topic that is not ``stage:<id>`` or
``series:<id>``, fragments that are not a list of the topic's fragment names, a binary frame), ``too_large``, ``too_many_topics`` (``MAX_TOPICS`` per
connection), ``flooding`` (more than the allowance; said once, then frames are dropped unread until
it refills), ``stage_not_found``/``series_not_found`` (no such thing, or a draft the visitor may not
see: the same answer a page gives), ``unavailable`` (the database failed; the page keeps polling).
"""

from __future__ import annotations

import json
import logging
import time
from enum import StrEnum
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from snapleague.errors import ApplicationError
from snapleague.sockets import Allowance, Socket, scope_language
from snapleague.users import AnyUser
from tournaments.live.fragments import MAX_FRAGMENTS, fragment_key, fragment_names
from tournaments.live.selectors import topic_state_get
from tournaments.live.topics import Topic, parse_topic
from tournaments.live.watcher import get_watcher

logger = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 1024  # a subscribe is ~40; nothing a page sends comes near it
MAX_TOPICS = 20  # a big screen shows a few tables; a page today follows one topic
BURST = 30  # frames at once (a page subscribing to MAX_TOPICS topics after a reconnect) ...
REFILL_PER_SECOND = 2.0  # ... and then this many a second (a page pings every 25 s)


class LiveErrorCode(StrEnum):
    MALFORMED = "malformed"
    TOO_LARGE = "too_large"
    TOO_MANY_TOPICS = "too_many_topics"
    FLOODING = "flooding"
    UNAVAILABLE = "unavailable"


ERROR_MESSAGES: dict[LiveErrorCode, Promise] = {
    LiveErrorCode.MALFORMED: _(
        "The server could not read this message: live updates take a JSON object whose type is "
        "subscribe, unsubscribe or ping, and a topic such as stage:12 or series:34."
    ),
    LiveErrorCode.TOO_LARGE: _("This message is too long: at most %(limit)s characters."),
    LiveErrorCode.TOO_MANY_TOPICS: _("A page can follow at most %(limit)s things at once."),
    LiveErrorCode.FLOODING: _("Too many messages: wait a few seconds before sending more."),
    LiveErrorCode.UNAVAILABLE: _(
        "Live updates are unavailable at the moment; the page keeps checking for changes by itself."
    ),
}


def _params(code: LiveErrorCode) -> dict[str, int] | None:
    limits = {LiveErrorCode.TOO_LARGE: MAX_MESSAGE_CHARS, LiveErrorCode.TOO_MANY_TOPICS: MAX_TOPICS}
    return {"limit": limits[code]} if code in limits else None


class _Refused(Exception):
    """A frame refused: its code, its message (worded when sent, in the visitor's language) and
    the topic it named, if any."""

    def __init__(
        self, code: str, message: str | Promise, topic: object = None, params: dict[str, int] | None = None
    ) -> None:
        super().__init__(code)
        self.code, self.message, self.topic, self.params = code, message, topic, params

    @classmethod
    def of(cls, code: LiveErrorCode, topic: object = None) -> _Refused:
        return cls(code, ERROR_MESSAGES[code], topic, _params(code))

    def text(self) -> str:
        return str(self.message) % self.params if self.params else str(self.message)


class LiveConsumer(Socket):
    """One page's socket. Its topics are counted by the process's watcher while it follows them;
    however the connection ends (a close, a crash), they are given back."""

    channel_layer_alias = settings.LIVE_CHANNEL_LAYER

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.topics: set[Topic] = set()
        self.fragments: dict[Topic, frozenset[str]] = {}  # what each followed topic's frames carry
        self.allowance = Allowance(BURST, REFILL_PER_SECOND, BURST, time.monotonic())
        self.flooding = False
        self.language = settings.LANGUAGE_CODE

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            for topic in list(self.topics):
                await self._leave(topic)

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        self.watcher = get_watcher()
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for topic in list(self.topics):
            await self._leave(topic)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.allowance.take(time.monotonic()):
            if not self.flooding:  # said once; then dropped unread until the allowance refills
                self.flooding = True
                await self._refuse(_Refused.of(LiveErrorCode.FLOODING))
            return
        self.flooding = False
        try:
            await self._handle(text_data)
        except _Refused as refused:
            await self._refuse(refused)
        except Exception:
            logger.exception("Live updates: a frame could not be handled.")
            await self._refuse(_Refused.of(LiveErrorCode.UNAVAILABLE))

    async def _handle(self, text_data: str | None) -> None:
        if text_data is None:
            raise _Refused.of(LiveErrorCode.MALFORMED)
        if len(text_data) > MAX_MESSAGE_CHARS:
            raise _Refused.of(LiveErrorCode.TOO_LARGE)
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            raise _Refused.of(LiveErrorCode.MALFORMED) from None
        if not isinstance(message, dict):
            raise _Refused.of(LiveErrorCode.MALFORMED)
        kind = message.get("type")
        if kind == "ping":
            await self._send({"type": "pong"})
            return
        raw_topic = message.get("topic")
        named = raw_topic if isinstance(raw_topic, str) else None
        topic = parse_topic(raw_topic)
        if kind not in ("subscribe", "unsubscribe") or topic is None:
            raise _Refused.of(LiveErrorCode.MALFORMED, named)
        if kind == "subscribe":
            fragments = message.get("fragments", [])
            if (
                not isinstance(fragments, list)
                or len(fragments) > MAX_FRAGMENTS
                or not all(isinstance(name, str) for name in fragments)
                or not set(fragments) <= fragment_names(topic)
            ):
                raise _Refused.of(LiveErrorCode.MALFORMED, named)
            await self._subscribe(topic, frozenset(fragments))
        else:
            await self._leave(topic)
            await self._send({"type": "unsubscribed", "topic": str(topic)})

    async def _subscribe(self, topic: Topic, fragments: frozenset[str] = frozenset()) -> None:
        if topic not in self.topics and len(self.topics) >= MAX_TOPICS:
            raise _Refused.of(LiveErrorCode.TOO_MANY_TOPICS, str(topic))
        # Join before reading: a change from here on reaches this socket, and one since the page
        # was rendered shows as a version the page does not have.
        await self.channel_layer.group_add(topic.group, self.channel_name)
        try:
            state = await database_sync_to_async(topic_state_get)(user=self._user(), topic=topic)
        except ApplicationError as exc:
            await self._leave(topic)
            raise _Refused(exc.code, exc.message, str(topic)) from None
        except Exception:
            logger.exception("Live updates: %s could not be read for a subscriber.", topic)
            await self._leave(topic)
            raise _Refused.of(LiveErrorCode.UNAVAILABLE, str(topic)) from None
        if topic in self.topics:  # subscribed again (a page that swapped its sections): what it shows now
            self.topics.discard(topic)
            self.watcher.unwatch(topic, wants=self._wants(topic))
        self.topics.add(topic)
        self.fragments[topic] = fragments
        self.watcher.watch(topic, version=state.version, stage_id=state.stage_id, wants=self._wants(topic))
        await self._send({"type": "subscribed", "topic": str(topic), "version": state.version})

    async def _leave(self, topic: Topic) -> None:
        if topic in self.topics:
            self.topics.discard(topic)
            self.watcher.unwatch(topic, wants=self._wants(topic))
            self.fragments.pop(topic, None)
        await self.channel_layer.group_discard(topic.group, self.channel_name)

    async def live_changed(self, event: dict[str, Any]) -> None:
        """From the watcher: a followed topic moved (dropped if this socket has just left it)."""
        topic = parse_topic(event.get("topic"))
        if topic is None or topic not in self.topics:
            return
        frame: dict[str, Any] = {"type": "changed", "topic": str(topic), "version": event["version"]}
        rendered = event.get("html") or {}
        html = {
            name: rendered[fragment_key(name, self.language)]
            for name in self.fragments.get(topic, ())
            if fragment_key(name, self.language) in rendered
        }
        if html:
            frame["html"] = html
        await self._send(frame)

    def _wants(self, topic: Topic) -> frozenset[tuple[str, str]]:
        return frozenset((name, self.language) for name in self.fragments.get(topic, ()))

    def _user(self) -> AnyUser:
        user: AnyUser = self.scope.get("user") or AnonymousUser()
        return user

    async def _refuse(self, refused: _Refused) -> None:
        with translation.override(self.language):
            frame: dict[str, Any] = {"type": "error", "code": refused.code, "message": refused.text()}
        if refused.topic is not None:
            frame["topic"] = refused.topic
        await self._send(frame)

    async def _send(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(frame, ensure_ascii=False))
