"""A phone's session without a browser, for tests of the app's actions and screens:
what `TableActions`, `ClubActions` and `GroupActions` read of a Flet page, and the
texts a drawn control shows."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import flet as ft

from scorer.app.actions import TableActions
from scorer.app.club_actions import ClubActions
from scorer.app.group_actions import GroupActions

LAN = "http://192.168.1.20:8550"
"""The table server's address on the table's Wi-Fi, as a phone opened it."""


class FakePubSub:
    """Flet's pubsub: what a session tells the other phones, kept in `sent`."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    def send_others_on_topic(self, topic: str, message: Any) -> None:
        self.sent.append((topic, message))


class FakePage:
    """What the actions read from a Flet page; no session behind it."""

    def __init__(self, route: str = "/", ip: str = "192.168.1.40") -> None:
        self.pubsub = FakePubSub()
        self.client_ip = ip
        self.url = f"{LAN}{route}"
        self.route = route

    def run_task(self, *_a: Any) -> None:
        raise RuntimeError("no session")


def table_actions(store: Any, device: str | None, address: str | None = None,
                  route: str = "/") -> TableActions:
    """A phone at `route` with this device token, seen by the server at `address`."""
    ctx: Any = SimpleNamespace(page=FakePage(route), store=store, router_refresh=lambda: None,
                               game_changed=lambda _g: None, address=address,
                               via_proxy=False)
    actions = TableActions(ctx)
    actions.device = device
    ctx.actions = actions
    return actions


def club_phone(store: Any, device: str, address: str) -> ClubActions:
    """A phone on the club night screens."""
    return ClubActions(table_actions(store, device, address, "/club"), address)


def group_phone(store: Any, device: str | None, address: str) -> GroupActions:
    """A phone on the groups screens."""
    return GroupActions(table_actions(store, device, address, "/groups"), address)


def texts(control: Any) -> list[str]:
    """Every text a drawn control shows, its children's included, in order."""
    found = [control.value] if isinstance(control, ft.Text) and control.value else []
    for name in ("content", "controls", "title"):
        part = getattr(control, name, None)
        for child in part if isinstance(part, list) else [part]:
            if isinstance(child, ft.BaseControl):
                found += texts(child)
    return found
