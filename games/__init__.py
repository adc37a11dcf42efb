"""Rules of the card games, pure and deterministic: no Telegram, no storage, no clock, no I/O."""
