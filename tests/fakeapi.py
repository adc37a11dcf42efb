"""A fake Telegram Bot API on 127.0.0.1 for end-to-end tests and benchmarks.

The real, unchanged application talks to it over HTTP through PTB's own request stack (the bot's
``base_url`` points here). It serves ``getUpdates`` from updates the test injects as several
users in a group and in private chats, keeps the messages the bot sends and edits, records every
call, and can answer like Telegram does when things go wrong (429 with ``retry_after``, 403 for a
user who blocked the bot, "message is not modified", a group migrated to a supergroup).

Ephemeral messages (Bot API 10.2, reshaped in 10.3): ``sendMessage`` with
``ephemeral_message_parameters`` puts a message in a group that its receiver alone sees. The
fake keeps Telegram's rules: only in a group, only to a member; a bot that is not an
administrator of the group (``bot_admin``) may send one only with the ``callback_query_id`` of
that member's press in that group within 15 seconds; edits (``editEphemeralMessageText``,
``editEphemeralMessageReplyMarkup``) and ``deleteEphemeralMessage`` name the receiver and the
message. Delivery is not guaranteed: ``vanish`` drops what a member's app shows (an app
restart), while Telegram still accepts edits of it. Disabled buttons (10.3,
``"disabled": {}``) show but cannot be pressed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientError, ClientSession, ClientTimeout, web
from telegram.request import BaseRequest, RequestData

BOT_ID = 999_000
BOT_USERNAME = "bridge_test_bot"
JSON_FIELDS = {
    "chat_id",
    "message_id",
    "reply_markup",
    "commands",
    "scope",
    "offset",
    "limit",
    "timeout",
    "allowed_updates",
    "show_alert",
    "cache_time",
    "message_thread_id",
    "user_id",
    "disable_web_page_preview",
    "link_preview_options",
    "disable_notification",
    "ephemeral_message_parameters",
    "receiver_user_id",
    "ephemeral_message_id",
    "rich_message",
}
EPHEMERAL_WINDOW = 15.0  # seconds a press lets a bot that is no admin answer with an ephemeral


TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre",
    "tg-spoiler", "span", "blockquote", "tg-emoji",
}  # fmt: skip
TOKEN = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-z-]+=\"[^\"<>]*\")*|\s+expandable)\s*>"
    r"|&(#\d+|#x[0-9a-fA-F]+|lt|gt|amp|quot);|[<>&]"
)  # attributes name="value"; a blockquote's bare "expandable" (Bot API 7.4)
ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
# A rich message's HTML (Bot API 10.1) takes these besides the text tags: blocks and tables.
RICH_TAGS = TAGS | {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr", "th", "td", "caption", "ul", "ol",
    "li", "hr", "br", "footer", "details", "summary",
}  # fmt: skip


def parse_html(text: str, allowed: set[str] = TAGS) -> str:
    """The text Telegram shows for ``text`` sent with parse_mode HTML; ApiError as Telegram
    refuses it: an unknown or unbalanced tag, or a bare <, > or & (an unescaped name).
    ``allowed``: the tags taken (a rich message's are more)."""
    plain: list[str] = []
    open_tags: list[str] = []
    at = 0
    for match in TOKEN.finditer(text):
        plain.append(text[at : match.start()])
        at = match.end()
        closing, tag, _attrs, entity = match.groups()
        if match.group(0) in "<>&":
            raise ApiError(
                400,
                f"Bad Request: can't parse entities: unsupported start tag or bare "
                f"{match.group(0)!r} at byte offset {match.start()}",
            )
        if entity is not None:
            if entity.startswith("#x"):
                plain.append(chr(int(entity[2:], 16)))
            elif entity.startswith("#"):
                plain.append(chr(int(entity[1:])))
            else:
                plain.append(ENTITIES[entity])
            continue
        tag = tag.lower()
        if tag in ("br", "hr") and tag in allowed and not closing:
            continue  # no closing tag
        if tag not in allowed:
            raise ApiError(400, f"Bad Request: can't parse entities: unsupported tag {tag!r}")
        if _attrs.strip() == "expandable" and tag != "blockquote":
            raise ApiError(400, f"Bad Request: can't parse entities: unsupported tag {tag!r}")
        if tag == "blockquote" and not closing and "blockquote" in open_tags:
            raise ApiError(400, "Bad Request: can't parse entities: nested blockquote")
        if closing:
            if not open_tags or open_tags.pop() != tag:
                raise ApiError(400, f"Bad Request: can't parse entities: unmatched </{tag}>")
        else:
            open_tags.append(tag)
    plain.append(text[at:])
    if open_tags:
        raise ApiError(400, f"Bad Request: can't parse entities: unclosed <{open_tags[-1]}>")
    result = "".join(plain)
    if not result.strip():
        raise ApiError(400, "Bad Request: message text is empty")
    if len(result) > 4096:
        raise ApiError(400, "Bad Request: message is too long")
    return result


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float
    index: int


@dataclass(frozen=True)
class Upload:
    filename: str
    data: bytes


@dataclass
class Sent:
    chat_id: int
    message_id: int
    text: str
    markup: dict[str, Any] | None
    thread_id: int | None = None
    history: list[tuple[int, str]] = field(default_factory=list)  # (call index, text)
    upload: Upload | None = None  # a photo or document
    kind: str = "text"  # "text", "rich", "photo" or "document"
    version: int = 0  # edits so far
    plain: str = ""  # the text as Telegram shows it (tags applied, entities decoded)
    receiver: int | None = None  # an ephemeral message: the one member who sees it

    def buttons(self) -> list[dict[str, Any]]:
        """The buttons that can be pressed (a disabled one, greyed out, cannot)."""
        return [b for b in self.all_buttons() if "disabled" not in b]

    def all_buttons(self) -> list[dict[str, Any]]:
        if not self.markup:
            return []
        return [b for row in self.markup.get("inline_keyboard", []) for b in row]


@dataclass(frozen=True)
class User:
    id: int
    first_name: str
    language_code: str = "en"
    username: str | None = None

    def to_dict(self) -> dict[str, Any]:
        user: dict[str, Any] = {
            "id": self.id,
            "is_bot": False,
            "first_name": self.first_name,
            "language_code": self.language_code,
        }
        if self.username:
            user["username"] = self.username
        return user


class FakeBotApi:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[tuple[int, int], Sent] = {}
        self.answers: dict[str, dict[str, Any]] = {}
        self.blocked: set[int] = set()
        self.migrated: dict[int, int] = {}
        self.admins: set[int] = set()
        self.outsiders: set[tuple[int, int]] = set()
        self.tagged: list[tuple[str, str, float]] = []  # (chat, user): not in that group
        self.reject_token = False  # answer every call as Telegram answers a revoked token
        self.refused: list[tuple[str, str]] = []  # (method, description) of every 400 answered
        self.chat_titles: dict[int, str] = {}
        self.fail_queue: list[tuple[str, int, dict[str, Any]]] = []  # (method, code, body)
        self.json_bodies = 0  # calls that came with a JSON body (not a form)
        self.json_in_json = 0  # fields of a JSON body that came as a string of JSON
        self._updates: list[dict[str, Any]] = []
        self._pushed: dict[int, dict[str, Any]] = {}  # every update ever injected, by id
        self._update_id = 0
        self._delivered = 0
        self._message_id = 1000
        self._query_id = 0
        self._new_update = asyncio.Condition()
        self._polls_released = 0  # bumped to answer the long polls waiting (release_polls)
        self._runner: web.AppRunner | None = None
        self._answer_waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.on_sent: list[Callable[[Sent], None]] = []  # called after each send or edit
        # Benchmarks turn these off: a load run must not measure the fake's own memory.
        self.keep_calls = True
        self.keep_history = True
        self.deleted: list[tuple[int, int]] = []  # (chat, message) the bot deleted
        # Slow Telegram: every call but getUpdates waits this long (seconds) before it is served.
        self.latency = 0.0
        # Calls of these methods wait until the test opens the gate (``hold``/``release``).
        self._gates: dict[str, tuple[asyncio.Event, asyncio.Event]] = {}
        self.port = 0
        self.unreachable = False  # every call answered 502 Bad Gateway (a network outage)
        self.token = "123456:TEST-token-for-the-fake-api"
        # Webhook mode, as Telegram does it: once setWebhook names a URL, updates are posted
        # there one by one (with the secret in a header), each until it is answered 200, and
        # getUpdates is refused with 409.
        self.webhook: tuple[str, str] | None = None  # (url, secret)
        self.webhook_answers: list[int] = []  # the status of every delivery attempt
        self._pusher: asyncio.Task[None] | None = None
        self.bot_admin: set[int] = set()  # groups where the bot is an administrator
        # Ephemeral messages by (chat, receiver, ephemeral id); ``vanished``: no longer shown.
        self.ephemerals: dict[tuple[int, int, int], Sent] = {}
        self.ephemeral_log: list[Sent] = []  # every one ever sent, deleted ones too
        self.vanished: set[tuple[int, int, int]] = set()
        self._ephemeral_id = 0
        self._queries: dict[str, tuple[int, int, float]] = {}  # id -> (user, chat, pressed at)
        self.rich_refused = False  # rich messages refused (answered 400), as some chats may
        # Members whose ephemeral messages Telegram refuses (an old app, say).
        self.refuse_ephemeral: set[int] = set()

    # --- server -------------------------------------------------------------------------------

    async def start(self, port: int = 0) -> None:
        """Listen on ``port`` (0: any free one; a test may start it late on a port the bot
        was told of, as a network that comes back)."""
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        # The same API under a prefix, so that a test tells two processes' calls apart.
        app.router.add_post("/{tag}/bot{token}/{method}", self._handle)
        app.router.add_get("/{tag}/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        self.webhook = None
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
        async with self._new_update:
            self._new_update.notify_all()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    async def _handle(self, request: web.Request) -> web.Response:
        if self.unreachable:  # as a proxy answers when Telegram is out of reach
            body = {"ok": False, "error_code": 502, "description": "Bad Gateway"}
            return web.json_response(body, status=502)
        method = request.match_info["method"]
        tag = request.match_info.get("tag")
        if tag is not None:  # every call of a tagged process, getUpdates too: (tag, method, at)
            self.tagged.append((tag, method, time.monotonic()))
        params: dict[str, Any] = {}
        if request.can_read_body and request.content_type == "application/json":
            # Telegram takes a JSON body for any call without a file: a field that is not a
            # string stands for its JSON text, and then each is read as a form's field is (so
            # a keyboard may come as an object or as a string of JSON)
            self.json_bodies += 1
            body = await request.json()
            if not isinstance(body, dict):
                error = {"ok": False, "error_code": 400, "description": "Bad Request: not JSON"}
                return web.json_response(error, status=400)
            for key, value in body.items():
                if isinstance(value, str) and key in JSON_FIELDS and value[:1] in ("{", "["):
                    self.json_in_json += 1
                text = value if isinstance(value, str) else json.dumps(value)
                params[key] = json.loads(text) if key in JSON_FIELDS else text
        elif request.can_read_body:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):  # an upload: a photo or a document
                    params[key] = Upload(value.filename, value.file.read())
                    continue
                text = value if isinstance(value, str) else str(value)
                params[key] = json.loads(text) if key in JSON_FIELDS else text
        params.update({k: v for k, v in request.query.items()})
        status, body = await self.dispatch(method, params)
        return web.json_response(body, status=status)

    async def dispatch(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """One Bot API call, whether it came over HTTP or through ``InProcessRequest``."""
        if method != "getUpdates":
            if self.latency:
                await asyncio.sleep(self.latency)
            gate = self._gates.get(method)
            if gate is not None:
                entered, opened = gate
                entered.set()
                await opened.wait()
            if self.keep_calls:
                self.calls.append(Call(method, params, time.monotonic(), len(self.calls)))
        if self.reject_token:
            return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        for i, (fail_method, code, body) in enumerate(self.fail_queue):
            if fail_method == method:
                del self.fail_queue[i]
                return code, {"ok": False, "error_code": code, **body}
        handler = getattr(self, "_m_" + method, None)
        if handler is None:
            return 200, {"ok": True, "result": True}
        try:
            result = await handler(params)
        except ApiError as exc:
            if exc.code == 400:
                self.refused.append((method, exc.description))
            error: dict[str, Any] = {
                "ok": False,
                "error_code": exc.code,
                "description": exc.description,
            }
            if exc.parameters:
                error["parameters"] = exc.parameters
            return exc.code, error
        return 200, {"ok": True, "result": result}

    # --- methods ------------------------------------------------------------------------------

    async def _m_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Bridge",
            "username": BOT_USERNAME,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    async def _m_setWebhook(self, params: dict[str, Any]) -> bool:
        url = str(params.get("url", ""))
        if not url:
            return await self._m_deleteWebhook(params)
        self.webhook = (url, str(params.get("secret_token", "")))
        if self._pusher is None or self._pusher.done():
            self._pusher = asyncio.create_task(self._push_to_webhook())
        return True

    async def _m_deleteWebhook(self, params: dict[str, Any]) -> bool:
        self.webhook = None
        async with self._new_update:
            self._new_update.notify_all()
        return True

    async def _push_to_webhook(self) -> None:
        async with ClientSession(timeout=ClientTimeout(total=10)) as session:
            while self.webhook is not None:
                async with self._new_update:
                    ready = [u for u in self._updates if u["update_id"] >= self._delivered]
                    if not ready:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self._new_update.wait(), 0.5)
                        continue
                url, secret = self.webhook
                update = ready[0]
                try:
                    async with session.post(
                        url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret}
                    ) as response:
                        status = response.status
                except (ClientError, OSError, TimeoutError):
                    status = 0
                self.webhook_answers.append(status)
                if status == 200:
                    self._delivered = max(self._delivered, update["update_id"] + 1)
                    self._updates = [u for u in self._updates if u["update_id"] >= self._delivered]
                else:
                    await asyncio.sleep(0.2)  # Telegram retries, more slowly

    async def _m_getUpdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active")
        offset = int(params.get("offset", 0) or 0)
        timeout = float(params.get("timeout", 0) or 0)
        deadline = time.monotonic() + min(timeout, 2.0)
        released = self._polls_released
        self._delivered = max(self._delivered, offset)
        # As Telegram does: asking from ``offset`` confirms (forgets) every earlier update.
        self._updates = [u for u in self._updates if u["update_id"] >= self._delivered]
        async with self._new_update:
            while True:
                ready = [u for u in self._updates if u["update_id"] >= offset]
                if ready or time.monotonic() >= deadline or self._polls_released != released:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._new_update.wait(), max(0.01, deadline - time.monotonic())
                    )
        return ready

    async def release_polls(self) -> None:
        """Answer every long poll waiting now (with what it has: nothing, usually), as Telegram
        does when a bot's connection closes: a stopping bot need not wait out its timeout."""
        async with self._new_update:
            self._polls_released += 1
            self._new_update.notify_all()

    def _check_chat(self, chat_id: int) -> None:
        if chat_id in self.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        if chat_id in self.migrated:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": self.migrated[chat_id]},
            )

    def _chat(self, chat_id: int) -> dict[str, Any]:
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": "user"}
        kind = "supergroup" if chat_id < -1_000_000_000_000 else "group"
        return {"id": chat_id, "type": kind, "title": self.chat_titles.get(chat_id, "Club")}

    def _message(self, sent: Sent) -> dict[str, Any]:
        if sent.receiver is not None:
            return self._ephemeral_message(sent)
        message: dict[str, Any] = {
            "message_id": sent.message_id,
            "date": int(time.time()),
            "chat": self._chat(sent.chat_id),
            "from": {
                "id": BOT_ID,
                "is_bot": True,
                "first_name": "Bridge",
                "username": BOT_USERNAME,
            },
            "text": sent.text,
        }
        if sent.markup:
            message["reply_markup"] = sent.markup
        return message

    async def _m_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        self._check_chat(chat_id)
        if "receiver_user_id" in params or "callback_query_id" in params:
            # Bot API 10.3 moved these into ephemeral_message_parameters.
            raise ApiError(400, "Bad Request: use ephemeral_message_parameters")
        if "ephemeral_message_parameters" in params:
            return await self._send_ephemeral(chat_id, params)
        plain = self._shown(params)
        self._message_id += 1
        thread = params.get("message_thread_id")
        sent = Sent(chat_id, self._message_id, params["text"], params.get("reply_markup"), thread)
        sent.plain = plain
        sent.history.append((len(self.calls) - 1, sent.text))
        self.messages[(chat_id, sent.message_id)] = sent
        for hook in self.on_sent:
            hook(sent)
        return self._message(sent)

    async def _m_sendRichMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        """A rich message (Bot API 10.1) given as HTML; tables need rows of cells."""
        chat_id = int(params["chat_id"])
        self._check_chat(chat_id)
        if self.rich_refused:
            raise ApiError(400, "Bad Request: rich messages can't be sent to the chat")
        rich = params.get("rich_message")
        if not isinstance(rich, dict) or len({"html", "markdown", "blocks"} & set(rich)) != 1:
            raise ApiError(400, "Bad Request: exactly one of html, markdown or blocks is needed")
        html = str(rich.get("html", ""))
        plain = parse_html(html, RICH_TAGS)
        for table in re.findall(r"<table>(.*?)</table>", html, re.S):
            rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
            if not rows or any(not re.search(r"<t[hd]>", row) for row in rows):
                raise ApiError(400, "Bad Request: a table needs rows of cells")
        self._check_keyboard(params.get("reply_markup"))
        self._message_id += 1
        thread = params.get("message_thread_id")
        sent = Sent(chat_id, self._message_id, html, params.get("reply_markup"), thread)
        sent.plain, sent.kind = plain, "rich"
        sent.history.append((len(self.calls) - 1, sent.text))
        self.messages[(chat_id, sent.message_id)] = sent
        for hook in self.on_sent:
            hook(sent)
        return self._message(sent)

    async def _send_upload(self, params: dict[str, Any], kind: str) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        self._check_chat(chat_id)
        upload = params.get(kind)
        if not isinstance(upload, Upload):
            raise ApiError(400, f"Bad Request: there is no {kind} in the request")
        self._message_id += 1
        thread = params.get("message_thread_id")
        sent = Sent(
            chat_id,
            self._message_id,
            params.get("caption", ""),
            None,
            thread,
            upload=upload,
            kind=kind,
        )
        self.messages[(chat_id, sent.message_id)] = sent
        for hook in self.on_sent:
            hook(sent)
        return self._message(sent)

    async def _m_sendPhoto(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._send_upload(params, "photo")

    async def _m_sendDocument(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._send_upload(params, "document")

    async def _m_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id, message_id = int(params["chat_id"]), int(params["message_id"])
        self._check_chat(chat_id)
        sent = self.messages.get((chat_id, message_id))
        if sent is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        markup = params.get("reply_markup")
        plain = self._shown(params)
        if sent.text == params["text"] and sent.markup == markup:
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message",
            )
        sent.text, sent.markup, sent.plain = params["text"], markup, plain
        self._edited(sent)
        return self._message(sent)

    # --- ephemeral messages --------------------------------------------------------------------

    def _ephemeral_message(self, sent: Sent) -> dict[str, Any]:
        assert sent.receiver is not None
        message: dict[str, Any] = {
            "message_id": 0,
            "ephemeral_message_id": sent.message_id,
            "receiver_user": {"id": sent.receiver, "is_bot": False, "first_name": "user"},
            "date": int(time.time()),
            "chat": self._chat(sent.chat_id),
            "from": self._bot_user(),
            "text": sent.text,
        }
        if sent.thread_id is not None:
            message["message_thread_id"] = sent.thread_id
            message["is_topic_message"] = True
        if sent.markup:
            message["reply_markup"] = sent.markup
        return message

    async def _send_ephemeral(self, chat_id: int, params: dict[str, Any]) -> dict[str, Any]:
        """An ephemeral message, under Telegram's rules (see the module's docstring)."""
        ephemeral = params["ephemeral_message_parameters"]
        if not isinstance(ephemeral, dict) or "receiver_user_id" not in ephemeral:
            raise ApiError(400, "Bad Request: receiver_user_id is required")
        receiver = int(ephemeral["receiver_user_id"])
        if chat_id > 0:
            raise ApiError(400, "Bad Request: ephemeral messages can be sent only in groups")
        if receiver == BOT_ID or (chat_id, receiver) in self.outsiders:
            raise ApiError(400, "Bad Request: the receiver is not a member of the chat")
        query_id = ephemeral.get("callback_query_id")
        if query_id is not None:
            pressed = self._queries.get(str(query_id))
            if pressed is None or pressed[:2] != (receiver, chat_id):
                raise ApiError(400, "Bad Request: QUERY_ID_INVALID")
            fresh = time.monotonic() - pressed[2] <= EPHEMERAL_WINDOW
            if not fresh and chat_id not in self.bot_admin:
                raise ApiError(400, "Bad Request: query is too old and response timeout expired")
        elif chat_id not in self.bot_admin:
            raise ApiError(400, "Bad Request: not enough rights to send ephemeral messages")
        if receiver in self.refuse_ephemeral:
            raise ApiError(400, "Bad Request: the user can't receive ephemeral messages")
        if ephemeral.get("replace_callback_query_message") and query_id is None:
            raise ApiError(400, "Bad Request: replace_callback_query_message needs a query")
        plain = self._shown(params)
        self._ephemeral_id += 1
        thread = params.get("message_thread_id")
        sent = Sent(chat_id, self._ephemeral_id, params["text"], params.get("reply_markup"), thread)
        sent.plain, sent.receiver = plain, receiver
        sent.history.append((len(self.calls) - 1, sent.text))
        self.ephemerals[(chat_id, receiver, sent.message_id)] = sent
        if self.keep_history:
            self.ephemeral_log.append(sent)
        for hook in self.on_sent:
            hook(sent)
        return self._message(sent)

    def _ephemeral(self, params: dict[str, Any]) -> Sent:
        chat_id = int(params["chat_id"])
        self._check_chat(chat_id)
        key = (chat_id, int(params["receiver_user_id"]), int(params["ephemeral_message_id"]))
        sent = self.ephemerals.get(key)
        if sent is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        return sent

    async def _m_editEphemeralMessageText(self, params: dict[str, Any]) -> bool:
        sent = self._ephemeral(params)
        markup = params.get("reply_markup")
        plain = self._shown(params)
        if sent.text == params["text"] and sent.markup == markup:
            raise ApiError(400, "Bad Request: message is not modified")
        sent.text, sent.markup, sent.plain = params["text"], markup, plain
        self._edited(sent)
        return True

    async def _m_editEphemeralMessageReplyMarkup(self, params: dict[str, Any]) -> bool:
        sent = self._ephemeral(params)
        markup = params.get("reply_markup")
        self._check_keyboard(markup)
        if sent.markup == markup:
            raise ApiError(400, "Bad Request: message is not modified")
        sent.markup = markup
        self._edited(sent)
        return True

    async def _m_deleteEphemeralMessage(self, params: dict[str, Any]) -> bool:
        sent = self._ephemeral(params)
        del self.ephemerals[(sent.chat_id, int(params["receiver_user_id"]), sent.message_id)]
        return True

    def _edited(self, sent: Sent) -> None:
        """An edit made: a new version, kept in the history, told to the hooks."""
        sent.version += 1
        if self.keep_history:
            sent.history.append((len(self.calls) - 1, sent.text))
        for hook in self.on_sent:
            hook(sent)

    def visible(self, user: User | int, chat_id: int) -> list[Sent]:
        """The ephemeral messages ``user`` sees in ``chat_id`` now, oldest first."""
        user_id = user if isinstance(user, int) else user.id
        return [
            sent
            for (chat, receiver, number), sent in sorted(self.ephemerals.items())
            if (chat, receiver) == (chat_id, user_id)
            and (chat, receiver, number) not in self.vanished
        ]

    def received(self, user: User | int) -> list[Sent]:
        """Every ephemeral message ever sent to ``user`` (deleted ones too), oldest first."""
        user_id = user if isinstance(user, int) else user.id
        return [sent for sent in self.ephemeral_log if sent.receiver == user_id]

    def vanish(self, user: User, chat_id: int) -> None:
        """``user``'s app restarts: the ephemeral messages it showed in the chat are gone from
        it (Telegram still takes edits of them, which nobody sees)."""
        self.vanished |= {k for k in self.ephemerals if k[:2] == (chat_id, user.id)}

    async def promote_bot(self, user: User, chat_id: int, admin: bool = True) -> None:
        """``user`` makes the bot a group administrator (or takes it back): Telegram's
        my_chat_member update."""
        statuses = ("member", "administrator")
        old, new = statuses if admin else statuses[::-1]
        if admin:
            self.bot_admin.add(chat_id)
        else:
            self.bot_admin.discard(chat_id)
        bot_member = {"user": self._bot_user()}
        rights = {
            "can_be_edited": False, "is_anonymous": False, "can_manage_chat": True,
            "can_delete_messages": True, "can_manage_video_chats": False,
            "can_restrict_members": False, "can_promote_members": False,
            "can_change_info": False, "can_invite_users": False, "can_post_stories": False,
            "can_edit_stories": False, "can_delete_stories": False,
        }  # fmt: skip
        await self._push(
            {
                "my_chat_member": {
                    "chat": self._chat(chat_id),
                    "from": user.to_dict(),
                    "date": int(time.time()),
                    "old_chat_member": {"status": old, **bot_member}
                    | (rights if old == "administrator" else {}),
                    "new_chat_member": {"status": new, **bot_member}
                    | (rights if new == "administrator" else {}),
                }
            }
        )

    def _shown(self, params: dict[str, Any]) -> str:
        """What a text message shows, refused as Telegram refuses it."""
        text = str(params.get("text", ""))
        self._check_keyboard(params.get("reply_markup"))
        if params.get("parse_mode") == "HTML":
            return parse_html(text)
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        return text

    @staticmethod
    def _check_keyboard(markup: Any) -> None:
        for row in (markup or {}).get("inline_keyboard", []):
            for button in row:
                if not str(button.get("text", "")).strip():
                    raise ApiError(400, "Bad Request: text buttons are unallowed")
                kinds = {"callback_data", "url", "disabled"} & set(button)
                if len(kinds) != 1:
                    raise ApiError(400, "Bad Request: a button must have exactly one action")
                if "disabled" in button and button["disabled"] != {}:
                    raise ApiError(400, "Bad Request: BUTTON_DISABLED_INVALID")
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")

    async def _m_deleteMessage(self, params: dict[str, Any]) -> bool:
        chat_id, message_id = int(params["chat_id"]), int(params["message_id"])
        self._check_chat(chat_id)
        if self.messages.pop((chat_id, message_id), None) is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        self.deleted.append((chat_id, message_id))
        return True

    async def _m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        query_id = str(params["callback_query_id"])
        if len(str(params.get("text", ""))) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answers[query_id] = params
        waiter = self._answer_waiters.pop(query_id, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(params)
        return True

    async def _m_getChatMember(self, params: dict[str, Any]) -> dict[str, Any]:
        user_id = int(params["user_id"])
        admin = user_id in self.admins or (
            user_id == BOT_ID and int(params["chat_id"]) in self.bot_admin
        )
        status = "administrator" if admin else "member"
        if (int(params["chat_id"]), user_id) in self.outsiders:
            status = "left"
        member: dict[str, Any] = {
            "status": status,
            "user": {"id": user_id, "is_bot": False, "first_name": "user"},
        }
        if status == "administrator":
            member.update(
                can_be_edited=False,
                is_anonymous=False,
                can_manage_chat=True,
                can_delete_messages=True,
                can_manage_video_chats=True,
                can_restrict_members=True,
                can_promote_members=False,
                can_change_info=True,
                can_invite_users=True,
                can_post_stories=False,
                can_edit_stories=False,
                can_delete_stories=False,
            )
        return member

    # --- what tests do --------------------------------------------------------------------------

    async def redeliver(self, update_id: int) -> None:
        """Deliver an update again, as Telegram does when the bot died before confirming it."""
        async with self._new_update:
            self._updates.append(self._pushed[update_id])
            self._updates.sort(key=lambda u: int(u["update_id"]))
            self._delivered = min(self._delivered, update_id)
            self._new_update.notify_all()

    def hold(self, method: str) -> asyncio.Event:
        """Calls of ``method`` wait (in flight, unanswered) until ``release``; the event returned
        is set once the first such call has arrived."""
        entered = asyncio.Event()
        self._gates[method] = (entered, asyncio.Event())
        return entered

    def release(self, method: str) -> None:
        gate = self._gates.pop(method, None)
        if gate is not None:
            gate[1].set()

    async def _push(self, update: dict[str, Any]) -> int:
        self._update_id += 1
        update["update_id"] = self._update_id
        if self.keep_history:
            self._pushed[self._update_id] = update
        async with self._new_update:
            self._updates.append(update)
            self._new_update.notify_all()
        return self._update_id

    async def send_text(
        self, user: User, chat_id: int, text: str, thread_id: int | None = None
    ) -> int:
        """``user`` writes ``text`` in ``chat_id`` (their own id for a private chat)."""
        self._message_id += 1
        message: dict[str, Any] = {
            "message_id": self._message_id,
            "date": int(time.time()),
            "chat": self._chat(chat_id),
            "from": user.to_dict(),
            "text": text,
        }
        if chat_id > 0:
            message["chat"] = {"id": chat_id, "type": "private", "first_name": user.first_name}
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        return await self._push({"message": message})

    async def press(self, user: User, sent: Sent, data: str, query_id: str | None = None) -> str:
        """``user`` presses the button ``data`` under message ``sent``; returns the query id."""
        if query_id is None:
            self._query_id += 1
            query_id = f"q{self._query_id}"
        if sent.receiver is not None:  # nobody else sees it, and a vanished one is not there
            assert user.id == sent.receiver, "an ephemeral message pressed by another member"
            assert (sent.chat_id, sent.receiver, sent.message_id) not in self.vanished
        if len(self._queries) > 100_000:  # a long benchmark's presses: the old ones expired
            self._queries.clear()
        self._queries[query_id] = (user.id, sent.chat_id, time.monotonic())
        await self._push(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_dict(),
                    "chat_instance": str(sent.chat_id),
                    "message": self._message(sent),
                    "data": data,
                }
            }
        )
        return query_id

    async def migrate_group(self, user: User, old: int, new: int) -> None:
        """The group becomes a supergroup: the service message Telegram sends to the old chat."""
        self.migrated[old] = new
        self.chat_titles[new] = self.chat_titles.get(old, "Club")
        self._message_id += 1
        await self._push(
            {
                "message": {
                    "message_id": self._message_id,
                    "date": int(time.time()),
                    "chat": {"id": old, "type": "group", "title": self.chat_titles[new]},
                    "from": user.to_dict(),
                    "migrate_to_chat_id": new,
                }
            }
        )

    async def block(self, user: User) -> None:
        """``user`` blocks the bot: sends fail with 403 and a my_chat_member update arrives."""
        self.blocked.add(user.id)
        await self._push(
            {
                "my_chat_member": {
                    "chat": {"id": user.id, "type": "private", "first_name": user.first_name},
                    "from": user.to_dict(),
                    "date": int(time.time()),
                    "old_chat_member": {"status": "member", "user": self._bot_user()},
                    "new_chat_member": {
                        "status": "kicked",
                        "user": self._bot_user(),
                        "until_date": 0,
                    },
                }
            }
        )

    async def add_to_group(self, user: User, chat_id: int, title: str = "Club") -> None:
        """``user`` adds the bot to a group: a my_chat_member update, left -> member."""
        await self._push(
            {
                "my_chat_member": {
                    "chat": {"id": chat_id, "type": "supergroup", "title": title},
                    "from": user.to_dict(),
                    "date": int(time.time()),
                    "old_chat_member": {"status": "left", "user": self._bot_user()},
                    "new_chat_member": {"status": "member", "user": self._bot_user()},
                }
            }
        )

    def _bot_user(self) -> dict[str, Any]:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Bridge", "username": BOT_USERNAME}

    async def answer_of(self, query_id: str, timeout: float = 10.0) -> dict[str, Any]:
        if query_id in self.answers:
            return self.answers[query_id]
        waiter = self._answer_waiters.get(query_id)
        if waiter is None:
            waiter = self._answer_waiters[query_id] = asyncio.get_running_loop().create_future()
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), timeout)
        except TimeoutError:
            raise TimeoutError(f"no answer to {query_id}") from None

    def chat_messages(self, chat_id: int) -> list[Sent]:
        return [
            m
            for (c, _), m in sorted(self.messages.items(), key=lambda kv: kv[0][1])
            if c == chat_id
        ]

    def calls_to(self, chat_id: int) -> list[Call]:
        return [c for c in self.calls if str(c.params.get("chat_id")) == str(chat_id)]

    @property
    def pending_updates(self) -> int:
        return sum(1 for u in self._updates if u["update_id"] >= self._delivered)


class ApiError(Exception):
    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.code, self.description, self.parameters = code, description, parameters


class InProcessRequest(BaseRequest):
    """PTB's request interface answered by a ``FakeBotApi`` in the same process, with no HTTP.

    For load benchmarks, where an aiohttp server sharing the bot's one event loop would measure
    itself more than the bot. Everything above the transport (PTB's ``Bot``, parsing, the rate
    limiter, the application) is the real thing.
    """

    def __init__(self, api: FakeBotApi) -> None:
        self.api = api

    @property
    def read_timeout(self) -> float | None:
        return None

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        params: dict[str, Any] = {}
        if request_data is not None:
            params.update(request_data.parameters)
            if request_data.contains_files:
                for key, (filename, data, _mime) in request_data.multipart_data.items():
                    params[key] = Upload(str(filename), bytes(data))
        status, body = await self.api.dispatch(url.rsplit("/", 1)[-1], params)
        return status, json.dumps(body).encode()
