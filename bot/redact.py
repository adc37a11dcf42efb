"""The bot token never reaches a log line or an error message, at any level.

PTB logs the Bot API URL (which holds the token) at DEBUG, and a rejected token comes back in
the exception's text; a filter on every handler rewrites each record, its arguments, traceback
and stack included, before anything is written.
"""

from __future__ import annotations

import logging

MASK = "<token>"


def redact(text: str, token: str) -> str:
    """``text`` with the token, and its secret half on its own, masked."""
    if not token:
        return text
    secret = token.split(":", 1)[-1]
    text = text.replace(token, MASK)
    return text.replace(secret, MASK) if len(secret) >= 8 else text


class RedactToken(logging.Filter):
    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage(), self.token)
        record.args = None
        if record.exc_info:
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = redact(text, self.token)
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = redact(record.exc_text, self.token)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.token)
        return True


def install(token: str) -> None:
    """Guard every handler of the root logger (where all of the bot's and PTB's logs go)."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactToken(token))
