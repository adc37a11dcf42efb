"""Ephemeral messages (Bot API 10.2, reshaped in 10.3), which PTB 22 does not know: the one
module that shapes their calls (sent through ``Bot.do_api_request``) and reads them from the
updates PTB gives (unknown fields land in ``api_kwargs``).

An ephemeral message sits in a group and is seen by one member, its receiver. A bot that is a
group administrator may send one to any member at any time; any other bot only within
``WINDOW`` seconds of that member's press in the group, naming the press. Edits and deletion
name the receiver and the message's ephemeral id (its own numbering, not a message id).
Delivery is not guaranteed: a receiver's app may drop one, so nothing lives only there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from telegram import CallbackQuery
from telegram.constants import ParseMode

from bot.outbox.wire import markup
from bot.rendered import Rendered

WINDOW = 15.0  # seconds after a press in which a bot that is no admin may answer ephemerally
SAFE_WINDOW = 12.0  # how long the outbox trusts a press for it (the call itself takes time)


@dataclass(frozen=True, slots=True)
class Ephemeral:
    """Where an ephemeral message is: the group and the member who sees it."""

    chat_id: int
    receiver: int


def send_params(
    to: Ephemeral, content: Rendered, thread_id: int | None, query_id: str | None = None
) -> dict[str, object]:
    """``sendMessage`` of ``content`` to ``to.receiver`` alone (``query_id``: the press that
    allows it when the bot is no administrator)."""
    ephemeral: dict[str, object] = {"receiver_user_id": to.receiver}
    if query_id is not None:
        ephemeral["callback_query_id"] = query_id
    params: dict[str, object] = {
        "text": content.text,
        "parse_mode": ParseMode.HTML.value,
        "link_preview_options": {"is_disabled": True},
        "ephemeral_message_parameters": ephemeral,
    }
    if content.keys:
        params["reply_markup"] = markup(content)
    if thread_id is not None:
        params["message_thread_id"] = thread_id
    return params


def edit_params(to: Ephemeral, ephemeral_id: int, content: Rendered) -> dict[str, object]:
    """``editEphemeralMessageText``: the message's text and keyboard (none: no keyboard)."""
    params: dict[str, object] = {
        "receiver_user_id": to.receiver,
        "ephemeral_message_id": ephemeral_id,
        "text": content.text,
        "parse_mode": ParseMode.HTML.value,
    }
    if content.keys:
        params["reply_markup"] = markup(content)
    return params


def delete_params(to: Ephemeral, ephemeral_id: int) -> dict[str, object]:
    """``deleteEphemeralMessage``."""
    return {"receiver_user_id": to.receiver, "ephemeral_message_id": ephemeral_id}


def sent_id(result: object) -> int | None:
    """The ephemeral id of the message ``sendMessage`` returned (raw JSON), if any."""
    if isinstance(result, Mapping) and "ephemeral_message_id" in result:
        return int(result["ephemeral_message_id"])
    return None


def pressed_on(query: CallbackQuery) -> int | None:
    """The ephemeral id of the message a press came from (None: an ordinary message)."""
    message = query.message
    if message is None:
        return None
    found = message.api_kwargs.get("ephemeral_message_id")
    return int(found) if isinstance(found, int) else None
