"""Tickets to the table cards page: the organiser's phone holds its rights in a
Flet session, the cards are a plain page the browser opens on its own, so the app
hands the organiser a link that carries a short-lived ticket for that one event.

A ticket is `<expiry>.<HMAC-SHA256(secret, event id + expiry)>`, the secret made
afresh by each run of the server: it cannot be forged or moved to another event,
and it lapses after TICKET_S (or when the server restarts). Only the organiser's
screen makes one, after checking the organiser code on the server.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time

TICKET_S = 30 * 60
_SECRET = secrets.token_bytes(32)


def _new_secret() -> None:
    """A process forked from one that made its secret (the tests' fork server,
    tests/server_zygote.py) is another run of the server: its own secret."""
    global _SECRET
    _SECRET = secrets.token_bytes(32)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_secret)


def _mac(event_id: str, expiry: int) -> str:
    return hmac.new(_SECRET, f"{event_id}|{expiry}".encode(), hashlib.sha256).hexdigest()[:32]


def mint(event_id: str, now: float | None = None) -> str:
    expiry = int((time.time() if now is None else now) + TICKET_S)
    return f"{expiry}.{_mac(event_id, expiry)}"


def valid(event_id: str, ticket: str | None, now: float | None = None) -> bool:
    if not ticket or len(ticket) > 64 or "." not in ticket:
        return False
    expiry_text, mac = ticket.split(".", 1)
    if not expiry_text.isdigit():
        return False
    expiry = int(expiry_text)
    if expiry < (time.time() if now is None else now):
        return False
    return hmac.compare_digest(mac.encode(), _mac(event_id, expiry).encode())
