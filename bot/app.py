"""Builds the application and registers every handler, in one place."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import Application, ApplicationBuilder, ContextTypes
from telegram.request import BaseRequest, HTTPXRequest

from bot.changes import Changes
from bot.config import Config
from bot.context import BotContext, BridgeApp
from bot.games.nicety import Nicety
from bot.handlers import chat, fair, keeper, money, private, settings, stats, table
from bot.handlers.common import user_translator
from bot.handlers.hands import learn_all, playing_tables
from bot.heartbeat import Heartbeat
from bot.i18n import LANGUAGES, Translator, add_words
from bot.ledger import LedgerService
from bot.outbox import Outbox
from bot.outbox.slowdown import SlowDown
from bot.places import Places
from bot.plugin import Plugin, Plugins
from bot.plugins import PLUGINS
from bot.presenter import Presenter
from bot.rendered import Rendered
from bot.reviews import Reviewer
from bot.robots import RobotPlayers
from bot.screens import group_translator, private_translator
from bot.shards import Sharding, decoder, quiet
from bot.standby import Lease
from bot.stats import StatsService
from bot.tables import Change, Refusal, TableService, Written
from bot.thinking import LocalThinking, QueueThinking, Thinking
from bot.throttle import Throttle
from bot.timers import TurnTimers
from bot.transport import AiohttpRequest, Fenced, Handling, SlimUpdates
from bot.webhook import GuardedApplication
from storage import SqlStore, is_postgres, open_storage
from storage.interface import StorageError
from storage.postgres import PostgresStorage
from storage.postgres.schema import MEMBER_FENCE

log = logging.getLogger(__name__)

# The group commands every table has, around the games' own in Telegram's menu.
SHARED_MENU = ("score", "ledger", "settle", "history", "stats")
SHARED_MENU_END = ("deal", "undo", "settings", "leave", "end", "sub", "fair", "help")
PRIVATE_COMMANDS = ("start", "stats", "fair", "help")


def group_commands(plugins: Plugins) -> tuple[str, ...]:
    """The group's command menu: each game's opener, the shared commands, each game's own."""
    openers = tuple(plugin.ui.commands[0] for plugin in plugins if plugin.ui.commands)
    own = tuple(command for plugin in plugins for command in plugin.menu)
    return (*openers, *SHARED_MENU, *own, *SHARED_MENU_END)


def thinking_for(config: Config) -> Thinking:
    """Where the robots think: workers through the queue if one is set, else here."""
    if config.robot_queue_url:
        return QueueThinking(config.robot_queue_url)
    return LocalThinking(config.robot_workers or None)


def build_application(
    config: Config, request: BaseRequest | None = None, plugins: Sequence[Plugin] = PLUGINS
) -> BridgeApp:
    """The bot. ``request`` replaces PTB's HTTP transport (benchmarks answer in-process);
    ``plugins``: the games it serves (the built-in ones unless a test adds its own)."""
    games = Plugins(plugins)
    for plugin in games:
        if plugin.words is not None:
            add_words(plugin.words)
    handling = Handling()  # updates fetched and not yet handled: not confirmed to Telegram
    builder = (
        ApplicationBuilder()
        .token(config.token)
        .context_types(ContextTypes(context=BotContext))
        .rate_limiter(SlowDown())  # the outbox paces; a 429 still slows its chat down
        .concurrent_updates(True)
        .application_class(
            GuardedApplication, {"idle": config.webhook_idle_seconds, "handling": handling}
        )
        .post_init(_post_init)
        .post_stop(_post_stop)
        .post_shutdown(_post_shutdown)
    )
    if config.base_url:
        builder = builder.base_url(config.base_url)
    if config.base_file_url:
        builder = builder.base_file_url(config.base_file_url)
    slim = SlimUpdates(request if request is not None else _client(config.http_client, 1), handling)
    updates: BaseRequest = slim
    if request is None:
        request = _client(config.http_client, 256)
    lease = sharding = None
    if is_postgres(config.database):  # one active process per database; others wait
        lease = Lease(config.database, config.standby_interval)
        if config.shards:  # several active processes: the lease says which one polls
            sharding = Sharding(config.database, config.shards, config.standby_interval)
            request = Fenced(request, sharding.may_call)
            slim.held = lease.held.wait
            updates = Fenced(updates, lease.may_call)
        else:
            # No call to Telegram from a process that may have lost the lease (frozen past it).
            request = Fenced(request, lease.may_call)
            updates = Fenced(updates, lease.may_call)
    builder = builder.request(request)
    builder = builder.get_updates_request(updates)
    application: BridgeApp = builder.build()  # type: ignore[assignment]
    application.bot_data["config"] = config
    application.bot_data["plugins"] = games
    if lease is not None:
        application.bot_data["lease"] = lease
    if sharding is not None:
        application.bot_data["sharding"] = sharding
        assert isinstance(application, GuardedApplication)
        application.sharding = sharding  # the router: each update to its group's process
    # Each route names its button kinds exactly (one owner each, checked by Plugins), so the
    # order below matters only for the stray-button handler, which takes what none took.
    for module in (chat, private, settings, money, keeper, fair, stats):
        application.add_handlers(module.handlers())
    for plugin in games:  # each game's own commands and buttons (bridge: the scorekeeper)
        application.add_handlers(list(plugin.handlers()))
    application.add_handlers(table.handlers(games))
    application.add_handler(table.stray_button_handler())
    application.add_error_handler(_on_error)
    return application


async def _post_init(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    # The Bot API answered: PTB's start-up retries are over, its logger back to the set level.
    logging.getLogger("telegram.ext").setLevel(logging.NOTSET)
    config: Config = application.bot_data["config"]
    heartbeat = None
    if config.heartbeat is not None:  # alive from here on, a waiting standby too
        heartbeat = Heartbeat(config.heartbeat)
        application.bot_data["heartbeat"] = heartbeat
        heartbeat.start()
    lease: Lease | None = application.bot_data.get("lease")
    sharding: Sharding | None = application.bot_data.get("sharding")
    if lease is not None and sharding is None:  # one active process per database; others wait
        await lease.acquire()
    storage = await open_storage(config.database)
    if heartbeat is not None:  # and from now on only while the database answers
        heartbeat.ping = lambda: storage.chat_by_tg(0)
    if sharding is not None and isinstance(storage, PostgresStorage):
        await sharding.join(storage)
        storage.fence_sql = MEMBER_FENCE  # every write checks this process is still a member
        storage.fence = sharding.lock.fence
    elif lease is not None and isinstance(storage, PostgresStorage):
        storage.fence = lease.fence  # every write checks the lease is still this process's
    if config.shuffle_seed is None:
        service = TableService(storage, fair_key=config.fair_key)
    else:
        service = TableService(storage, random.Random(config.shuffle_seed).randrange)
    outbox = Outbox(
        application.bot,
        storage,
        # GROUP_RATE_PER_MINUTE caps a group's messages through its lane's pace.
        max(config.group_interval, 60 / config.group_rate_per_minute),
        config.private_interval,
        # A tenth left for what handlers ask themselves (getChatMember) and presses' answers.
        overall_rate=config.overall_rate_per_second * 0.9,
        ephemeral_rate=config.ephemeral_per_minute,
        live_interval=config.live_interval,
    )
    plugins: Plugins = application.bot_data["plugins"]
    places = Places()
    presenter = Presenter(outbox, application.bot.username, plugins, places)
    changes = Changes()
    timers = TurnTimers(
        service,
        outbox,
        plugins,
        config.timer_minute,
        config.turn_notice_seconds,
        presenter.notify_turn,
    )
    changes.follow(timers.follow)  # first: a timer follows the turn the change made
    application.bot_data["timers"] = timers
    changes.follow(presenter.show)
    reviewer = Reviewer(storage, config.review_workers, plugins.solved)
    changes.follow(reviewer.follow)

    async def blocked(tg_user_id: int) -> None:
        for change in await service.set_blocked(tg_user_id, True):
            changes.show(change)

    async def migrated(old: int, new: int) -> None:
        await storage.migrate_chat(old, new)
        service.forget_chat()

    outbox.on_blocked, outbox.on_migrated = blocked, migrated

    async def refused(table_id: int, tg_chat_id: int, tg_user_id: int) -> None:
        """Telegram would not show a player's screen in the group: it goes to their private
        chat, and they are told there, once."""
        if (table_id, tg_user_id) in places.fallen:
            return
        places.fallen.add((table_id, tg_user_id))
        snap = await service.snapshot(table_id)
        for seat, holder in snap.seats.items():
            if holder.tg_user_id == tg_user_id:
                text = private_translator(snap, holder)("hands.fallback_private")
                outbox.post(tg_user_id, None, Rendered(text))
                presenter.show_hand(snap, seat)

    async def throttled(tg_chat_id: int) -> None:
        """Telegram keeps slowing the group's ephemeral messages down: its tables' screens go
        to private chats (until a restart tries again), and the group is told."""
        if tg_chat_id in places.quiet:
            return
        places.quiet.add(tg_chat_id)
        for snap in await playing_tables(storage, service, tg_chat_id):
            text = group_translator(snap)("hands.fallback_group")
            outbox.post(tg_chat_id, snap.topic_id, Rendered(text))
            presenter.show(Change(snap))

    outbox.on_ephemeral_refused, outbox.on_ephemeral_throttled = refused, throttled
    robots = RobotPlayers(
        service,
        changes.show,
        plugins,
        config.robot_delay,
        config.robot_budget,
        thinking := thinking_for(config),
        presenter.robot_trouble,
    )
    changes.follow(robots.follow)  # last: a robot moves after the change is shown
    if isinstance(thinking, QueueThinking):  # the results' analyses go to its workers too
        Nicety.elsewhere = thinking
    service.on_recovered = changes.show
    service.on_dropped = outbox.forget_tables
    if sharding is not None:
        service.owns = sharding.owns
    application.bot_data.update(
        storage=storage,
        service=service,
        outbox=outbox,
        presenter=presenter,
        changes=changes,
        robots=robots,
        reviewer=reviewer,
        ledger=LedgerService(storage),
        stats=StatsService(storage),
        records=Throttle(config.record_pause),
    )
    await _set_commands(application, plugins)
    restored = await service.restore_all()
    # Where each table's screens go depends on the bot's rights in its group: asked first.
    await learn_all(application.bot, places, {c.snapshot.chat.tg_chat_id for c in restored})

    # Drawn while the bot already answers: drawing 1,000 took a second before the first poll.
    application.bot_data["redraw"] = asyncio.get_running_loop().create_task(
        _show_restored(service, changes, presenter, restored)
    )
    if sharding is not None and lease is not None:
        _share(application, sharding, lease, timers, places)
    reviewer.start()
    for aside in service.set_aside.values():
        t = Translator(aside.language)
        outbox.post(aside.chat.tg_chat_id, aside.topic_id, Rendered(t("refusal.table_set_aside")))
    # Everything loaded so far lives as long as the process: keep it out of the collector's
    # full scans, which otherwise pause the loop longer the more tables were restored.
    gc.collect()
    gc.freeze()
    # Young collections far less often: each press allocates thousands of short-lived objects
    # (PTB's), and the default of 700 promoted them into full collections every few seconds.
    gc.set_threshold(50_000, 20, 10)
    log.info("bot @%s ready", application.bot.username)


async def _show_restored(
    service: TableService, changes: Changes, presenter: Presenter, restored: list[Change]
) -> None:
    """Restored tables shown while the bot answers presses: each as it stands when its turn
    comes, so a press made meanwhile is never drawn over by the state before it; then each
    one's last finished deal as it ended (``redraw_finished``)."""
    for change in restored:
        try:
            now = await service.snapshot(change.snapshot.table_id)
        except Refusal:
            continue  # another process serves its group now (bot.shards)
        except StorageError:
            log.warning("table %s not shown after its restore", change.snapshot.table_id)
            continue  # its next press shows it
        changes.show(Change(now, change.notices))
        await asyncio.sleep(0)  # presses go on between
    async for finished in service.redraw_finished():
        presenter.redraw(finished)


def _share(
    application: Application[Any, Any, Any, Any, Any, Any],
    sharding: Sharding,
    lease: Lease,
    timers: TurnTimers | None,
    places: Places,
) -> None:
    """Among several active processes: tables restored as their groups' shards come here,
    forgotten as they go; updates handed on handled; polling once the poll lease is ours."""
    service: TableService = application.bot_data["service"]
    outbox: Outbox = application.bot_data["outbox"]
    changes: Changes = application.bot_data["changes"]
    presenter: Presenter = application.bot_data["presenter"]

    async def taken(groups: Callable[[int], bool]) -> None:
        restored = await service.restore_all(groups)
        # What this process knew of their messages may be old: storage says where they are.
        outbox.let_go({change.snapshot.table_id for change in restored})
        await learn_all(application.bot, places, {c.snapshot.chat.tg_chat_id for c in restored})
        await _show_restored(service, changes, presenter, restored)

    async def letting_go(groups: Callable[[int], bool]) -> None:
        tables = service.cached_in(groups)
        for table_id in tables:
            if timers is not None:
                timers.drop(table_id)
        if not await quiet(lambda: outbox.busy_with(set(tables), set(tables.values()))):
            log.warning("shards: letting go of groups with messages still to send")
        outbox.let_go(set(tables))
        for table_id in tables:
            service.forget(table_id)

    sharding.on_taken, sharding.on_letting_go = taken, letting_go
    sharding.handle = application.process_update
    sharding.decode = decoder(application.bot)
    sharding.start()
    application.bot_data["polling"] = asyncio.get_running_loop().create_task(lease.acquire())


async def _set_commands(
    application: Application[Any, Any, Any, Any, Any, Any], plugins: Plugins
) -> None:
    for language in (*LANGUAGES, None):
        t = Translator(language or "en")
        for scope, names in (
            (BotCommandScopeAllGroupChats(), group_commands(plugins)),
            (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
        ):
            commands = [BotCommand(name, t(f"command.{name}")) for name in names]
            await application.bot.set_my_commands(commands, scope=scope, language_code=language)


def _client(name: str, pool: int) -> BaseRequest:
    """The Bot API's HTTP client (``BOT_API_CLIENT``) with ``pool`` connections."""
    if name == "httpx":
        return HTTPXRequest(connection_pool_size=pool)
    return AiohttpRequest(connection_pool_size=pool)


DRAIN_SECONDS = 20.0  # what a graceful stop waits for queued messages (a few group intervals)


async def _post_stop(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Send what is queued while the bot can still send: PTB closes its HTTP client before
    ``post_shutdown``, so a reply queued just before SIGTERM would otherwise be lost."""
    outbox: Outbox | None = application.bot_data.get("outbox")
    if outbox is not None:
        try:
            await outbox.drain(timeout=DRAIN_SECONDS)
        except TimeoutError:
            log.warning("outbox not drained at stop; a restart re-renders every table")


async def _post_shutdown(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    heartbeat: Heartbeat | None = application.bot_data.get("heartbeat")
    if heartbeat is not None:  # first: a bot on its way out is no longer healthy
        await heartbeat.stop()
    redraw: asyncio.Task[None] | None = application.bot_data.get("redraw")
    if redraw is not None:
        redraw.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await redraw
    timers: TurnTimers | None = application.bot_data.get("timers")
    if timers is not None:
        timers.close()
    robots: RobotPlayers | None = application.bot_data.get("robots")
    if robots is not None:
        if Nicety.elsewhere is robots.thinking:
            Nicety.elsewhere = None
        await robots.close()
    reviewer: Reviewer | None = application.bot_data.get("reviewer")
    if reviewer is not None:
        await reviewer.close()
    service: TableService | None = application.bot_data.get("service")
    if service is not None:
        await service.close()
    outbox: Outbox | None = application.bot_data.get("outbox")
    if outbox is not None:
        await outbox.close()
    storage: SqlStore | None = application.bot_data.get("storage")
    if storage is not None:
        await storage.close()
    sharding: Sharding | None = application.bot_data.get("sharding")
    if sharding is not None:  # its groups to the others at once
        await sharding.close()
    polling: asyncio.Task[None] | None = application.bot_data.get("polling")
    if polling is not None and not polling.done():
        polling.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await polling
    lease: Lease | None = application.bot_data.get("lease")
    if lease is not None:  # last: the standby takes over once nothing more will be sent
        await lease.release()


async def _on_error(update: object, context: BotContext) -> None:
    """Bugs and network failures: logged with the traceback; a pressed button still gets an
    answer so the user's spinner stops."""
    log.error("error while handling an update", exc_info=context.error)
    if isinstance(update, Update) and update.callback_query is not None:
        user = update.callback_query.from_user
        t = user_translator(user, context.config.language)
        # A press whose event was written stands: the player is told so, not to try again.
        said = "refusal.written" if isinstance(context.error, Written) else "refusal.error"
        try:
            await update.callback_query.answer(t(said))
        except Exception:  # the query may be too old to answer; nothing more to do
            log.debug("could not answer the callback query after an error")
