"""SlimUpdates drops only the keyboards of messages under pressed buttons."""

from __future__ import annotations

import json

from bot.transport import slim


def test_slim_drops_the_pressed_messages_keyboard_and_nothing_else() -> None:
    keyboard = {"inline_keyboard": [[{"text": "1♣", "callback_data": "b1:1:1:c:1C"}]]}
    body = {
        "ok": True,
        "result": [
            {
                "update_id": 1,
                "callback_query": {
                    "id": "q",
                    "data": "b1:1:1:c:1C",
                    "message": {"message_id": 5, "text": "hand", "reply_markup": keyboard},
                },
            },
            {"update_id": 2, "message": {"message_id": 6, "text": "/x", "reply_markup": keyboard}},
        ],
    }
    out = json.loads(slim(json.dumps(body).encode()))
    query = out["result"][0]["callback_query"]
    assert "reply_markup" not in query["message"] and query["data"] == "b1:1:1:c:1C"
    assert query["message"]["text"] == "hand"
    assert out["result"][1] == body["result"][1]
    error = json.dumps({"ok": False, "error_code": 409}).encode()
    assert slim(error) == error
