"""The Telegram layer: handlers, views, the outbox, and the table service that drives games/."""
