"""Secrets (the bot token, the webhook secret, the database password) never reach a log line or
an error message, at any level.

PTB logs the Bot API URL (which holds the token) at DEBUG, the ``setWebhook`` call with its
``secret_token``, and a rejected token comes back in the exception's text; a filter on every
handler rewrites each record, its arguments, traceback and stack included, before anything is
written.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

MASK = "<token>"
SECRET_MASK = "<secret>"


def redact(text: str, token: str, *others: str | None) -> str:
    """``text`` with the token (and its secret half on its own) and every other secret masked."""
    if token:
        secret = token.split(":", 1)[-1]
        text = text.replace(token, MASK)
        if len(secret) >= 8:
            text = text.replace(secret, MASK)
    for other in sorted((o for o in others if o), key=len, reverse=True):
        text = text.replace(other, SECRET_MASK)
    return text


class RedactSecrets(logging.Filter):
    def __init__(self, token: str, others: Iterable[str | None] = ()) -> None:
        super().__init__()
        self.token = token
        self.others = tuple(o for o in others if o)

    def _clean(self, text: str) -> str:
        return redact(text, self.token, *self.others)

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self._clean(record.getMessage())
        record.args = None
        if record.exc_info:
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = self._clean(text)
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self._clean(record.stack_info)
        return True


def install(token: str, *others: str | None) -> None:
    """Guard every handler of the root logger (where all of the bot's and PTB's logs go)."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactSecrets(token, others))
