"""The webhook server, hardened: PTB's own (its handler decodes updates and queues them as usual)
with four guards it lacks, because anyone can reach a webhook's port, not only Telegram.

- The secret header (and the content type and length) are checked as soon as the headers have
  arrived: a stranger's large post is refused before one byte of its body is read, a small one
  (up to ``MAX_BODY``) is read and dropped so that its sender hears the refusal; neither costs
  memory.
- A body is at most ``MAX_BODY`` bytes (Telegram's updates are a few kilobytes; PTB's server
  read up to 100 MB before looking at the secret).
- A connection that sends no request for ``idle`` seconds is closed (PTB's waited an hour), and
  a body must arrive within ``BODY_SECONDS``.
- At most ``MAX_CONNECTIONS`` connections are open at once, a new one closing the oldest: idle
  ones cannot use up the process's file descriptors nor keep Telegram's deliveries out.

PTB 22 builds its server in ``Updater._start_webhook``; ``GuardedUpdater`` builds this one
there instead, and everything else (setting the webhook with retries, stopping) stays PTB's.
"""

from __future__ import annotations

import asyncio
import ssl
from http import HTTPStatus
from pathlib import Path
from socket import socket
from typing import Any

import tornado.web
from telegram import Update
from telegram.error import TelegramError
from telegram.ext import Application, Updater
from telegram.ext._utils.webhookhandler import TelegramHandler, WebhookAppClass, WebhookServer
from tornado.httpserver import HTTPServer
from tornado.iostream import IOStream

from bot.shards import Sharding
from bot.transport import Handling

MAX_BODY = 1 << 20  # bytes
BODY_SECONDS = 10.0
MAX_CONNECTIONS = 256  # Telegram opens up to 40 (setWebhook's max_connections)
MAX_HEADERS = 16 << 10  # bytes


@tornado.web.stream_request_body
class _GuardedHandler(TelegramHandler):
    """PTB's handler, but the request is judged on its headers before its body is read."""

    def prepare(self) -> None:
        length = self.request.headers.get("Content-Length", "")
        if not length.isdecimal():
            raise tornado.web.HTTPError(HTTPStatus.LENGTH_REQUIRED)
        self._chunks: list[bytes] = []
        self._refused: tornado.web.HTTPError | None = None
        try:
            self._validate_post()  # the content type and the secret
        except tornado.web.HTTPError as refused:
            if int(length) > MAX_BODY:
                raise  # answered now: not one byte of the body is read
            self._refused = refused  # a small body is read and dropped, so the client hears
            return
        if int(length) > MAX_BODY:
            raise tornado.web.HTTPError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE)

    def data_received(self, chunk: bytes) -> None:
        if self._refused is None:  # a refused request's body is not kept
            self._chunks.append(chunk)

    async def post(self) -> None:
        if self._refused is not None:
            raise self._refused
        self.request.body = b"".join(self._chunks)
        await super().post()


class _GuardedApp(WebhookAppClass):
    def __init__(
        self, webhook_path: str, bot: Any, update_queue: asyncio.Queue[object], secret: str | None
    ) -> None:
        self.shared_objects = {"bot": bot, "update_queue": update_queue, "secret_token": secret}
        handlers = [(rf"{webhook_path}/?", _GuardedHandler, self.shared_objects)]
        tornado.web.Application.__init__(self, handlers)


class _CappedServer(HTTPServer):
    """At most ``MAX_CONNECTIONS`` open: a new connection over the cap closes the oldest one.
    Refusing the new one instead let a stranger's held idle connections turn Telegram's next
    delivery away until they timed out (about 10 s a delivery at 256 held); Telegram's own
    connections are the newest, and a delivery cut off is not acknowledged, so it is sent
    again."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._streams: dict[IOStream, None] = {}  # open ones, oldest first

    def handle_stream(self, stream: IOStream, address: tuple[Any, ...]) -> None:
        for old in [s for s in self._streams if s.closed()]:
            del self._streams[old]
        while len(self._streams) >= MAX_CONNECTIONS:
            oldest = next(iter(self._streams))
            del self._streams[oldest]
            oldest.close()
        self._streams[stream] = None
        super().handle_stream(stream, address)


class _GuardedServer(WebhookServer):
    def __init__(
        self,
        listen: str,
        port: int,
        app: WebhookAppClass,
        ssl_ctx: ssl.SSLContext | None,
        unix: str | Path | socket | None,
        idle: float,
    ) -> None:
        super().__init__(listen, port, app, ssl_ctx, unix)
        # The body's cap is the handler's (413 with a reason); tornado's own (100 MB by default)
        # would close the connection on the length alone, before the secret is looked at.
        self._http_server = _CappedServer(
            app,
            ssl_options=ssl_ctx,
            body_timeout=BODY_SECONDS,
            idle_connection_timeout=idle,
            max_header_size=MAX_HEADERS,
        )


class GuardedUpdater(Updater):
    """PTB's updater, serving its webhook through the guarded server."""

    __slots__ = ("idle",)

    def __init__(self, *args: Any, idle: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.idle = idle

    async def _start_webhook(
        self,
        listen: str,
        port: int,
        url_path: str,
        bootstrap_retries: int,
        allowed_updates: Any,
        cert: str | Path | None = None,
        key: str | Path | None = None,
        drop_pending_updates: bool | None = None,
        webhook_url: str | None = None,
        ready: asyncio.Event | None = None,
        ip_address: str | None = None,
        max_connections: int = 40,
        secret_token: str | None = None,
        unix: str | Path | socket | None = None,
    ) -> None:
        if not url_path.startswith("/"):
            url_path = f"/{url_path}"
        app = _GuardedApp(url_path, self.bot, self.update_queue, secret_token)
        ssl_ctx = None
        if cert is not None and key is not None:
            try:
                ssl_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
                ssl_ctx.load_cert_chain(cert, key)
            except ssl.SSLError as exc:
                raise TelegramError("Invalid SSL Certificate") from exc
        self._httpd = _GuardedServer(listen, port, app, ssl_ctx, unix, self.idle)
        if not webhook_url:
            scheme = "https" if ssl_ctx else "http"
            webhook_url = f"{scheme}://{listen}:{port}{url_path}"
        await self._bootstrap(
            cert=Path(cert).read_bytes() if cert else None,
            max_retries=bootstrap_retries,
            drop_pending_updates=drop_pending_updates,
            webhook_url=webhook_url,
            allowed_updates=allowed_updates,
            ip_address=ip_address,
            max_connections=max_connections,
            secret_token=secret_token,
        )
        await self._httpd.serve_forever(ready=ready)


class GuardedApplication(Application[Any, Any, Any, Any, Any, Any]):
    """An ``Application`` whose updater serves webhooks through the guarded server (for
    ``ApplicationBuilder.application_class``, with ``idle``: seconds a connection may idle)."""

    def __init__(self, idle: float, handling: Handling | None = None, **kwargs: Any) -> None:
        kwargs["updater"] = GuardedUpdater(
            bot=kwargs["bot"], update_queue=kwargs["update_queue"], idle=idle
        )
        super().__init__(**kwargs)
        self.handling = handling
        self.sharding: Sharding | None = None  # among several active processes: the router

    async def process_update(self, update: object) -> None:
        """As PTB's, and then the update is handled: the next getUpdates may confirm it. Among
        several active processes, an update of a group another one serves is handed on."""
        shard: int | None = -1
        try:
            if self.sharding is not None and isinstance(update, Update):
                shard = await self.sharding.route(update)
                if shard is None:
                    return  # written for its shard's holder: handled, as far as Telegram knows
            await super().process_update(update)
        finally:
            if self.sharding is not None and shard is not None:
                self.sharding.done(shard)
            if self.handling is not None and isinstance(update, Update):
                self.handling.done(update.update_id)
