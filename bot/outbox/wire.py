"""The outbox's calls as the Bot API takes them: a message's digest (what storage keeps with
its id), the parameters of an edit, the inline keyboard as JSON, and a 429's delay."""

from __future__ import annotations

import hashlib
import json
import warnings
from datetime import timedelta

from telegram.constants import ParseMode
from telegram.error import RetryAfter
from telegram.warnings import PTBDeprecationWarning

from bot.rendered import Key, Rendered

_TEXT_JSON = json.JSONEncoder(ensure_ascii=False).encode  # made once: json.dumps makes one a call


class _Unreachable(Exception):
    """A call that got no answer from Telegram after its retries."""


def digest(content: Rendered) -> str:
    """A short fingerprint of a message's text and keyboard, kept with its id: of the JSON of
    the text and each button's label, data and url (and ``true`` if disabled). Stored, so its
    form stays as it is.

    >>> keys = ((Key("1♣", "b1:1:2.3:a:call.1C"), Key("♠2", disabled=True)),)
    >>> digest(Rendered("<b>Ход</b>", keys))  # the same as the releases before stored
    '154548dcc3ee99259dd3e8d3'
    """
    keys = [[k[:3] if not k.disabled else (*k[:3], True) for k in row] for row in content.keys]
    blob = _TEXT_JSON([content.text, keys]).encode()
    return hashlib.sha256(blob).hexdigest()[:24]


def edit_params(message_id: int, content: Rendered) -> dict[str, object]:
    params: dict[str, object] = {
        "message_id": message_id,
        "text": content.text,
        "parse_mode": ParseMode.HTML.value,
    }
    if content.keys:  # without reply_markup, an edit removes the buttons
        params["reply_markup"] = markup(content)
    return params


def rich_params(content: Rendered, thread_id: int | None) -> dict[str, object]:
    """``sendRichMessage`` of ``content``'s rich version (HTML), with its keyboard."""
    params: dict[str, object] = {
        "rich_message": {"html": content.rich, "skip_entity_detection": True}
    }
    if content.keys:
        params["reply_markup"] = markup(content)
    if thread_id is not None:
        params["message_thread_id"] = thread_id
    return params


def markup(content: Rendered) -> dict[str, object]:
    """The inline keyboard as Bot API JSON (an empty keyboard removes the buttons)."""
    return {"inline_keyboard": [[_button(key) for key in row] for row in content.keys]}


def _button(key: Key) -> dict[str, object]:
    if key.disabled:
        return {"text": key.label, "disabled": {}}
    if key.url:
        return {"text": key.label, "url": key.url}
    return {"text": key.label, "callback_data": key.data}


def seconds(exc: RetryAfter) -> float:
    """``retry_after`` in seconds, whether PTB gives an int or (PTB_TIMEDELTA) a timedelta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        delay = exc.retry_after
    return delay.total_seconds() if isinstance(delay, timedelta) else float(delay)
