"""Thin handlers: decode, check, call the table service, hand views to the outbox, answer."""
