"""The Share panel of a game this phone started offline, open when the game reaches the
server: its table code shows there then, as the panel promises (it stayed on "goes to the
table server as soon as this phone reaches it" while the game already had its code)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import flet as ft
import pytest
from test_plain_words import texts

from scorer.app import CONFIG
from scorer.app.views.share import refresh_share, show_share

LOCAL, SERVER = "0123abcd-local-key", "7a616f8e"


class Sync:
    """What the panel reads of the phone's sync: the game's address once the server has it."""

    def __init__(self) -> None:
        self.address: str | None = None

    def synced(self, game_id: str) -> bool:
        return True

    def shared_address(self, game_id: str) -> str | None:
        return self.address


def open_panel(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Sync, list[ft.AlertDialog]]:
    sync, codes, shown = Sync(), {}, []
    monkeypatch.setattr(CONFIG, "alone", True)
    monkeypatch.setattr(CONFIG, "phone_sync", sync)
    page = SimpleNamespace(url="http://127.0.0.1:8000/alone/", height=844,
                           show_dialog=shown.append)
    ctx = SimpleNamespace(page=page, share_open=None,
                          actions=SimpleNamespace(table_code=codes.get))
    show_share(cast(Any, ctx), cast(Any, SimpleNamespace(id=LOCAL)))
    ctx.codes = codes
    return ctx, sync, shown


def panel_words(dialog: ft.AlertDialog) -> str:
    return " ".join(texts(dialog.content))


def test_the_code_shows_in_the_open_panel_once_the_server_has_the_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ctx, sync, [dialog] = open_panel(monkeypatch)
    dialog.open = True
    assert "as soon as this phone reaches it" in panel_words(dialog)

    # The server answers: the game has its address and this phone its code; the sheet is
    # drawn again under the server's id.
    sync.address = SERVER
    ctx.codes.update({LOCAL: "161006", SERVER: "161006"})
    refresh_share(ctx, cast(Any, SimpleNamespace(id=SERVER)))
    words = panel_words(dialog)
    assert "1 6 1 0 0 6" in words and f"/game/{SERVER}" in words
    assert "as soon as this phone reaches it" not in words


def test_a_closed_panel_or_another_games_sheet_draws_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ctx, sync, [dialog] = open_panel(monkeypatch)
    dialog.open = True
    before = dialog.content.content
    refresh_share(ctx, cast(Any, SimpleNamespace(id="another1")))
    assert dialog.content.content is before
    sync.address = SERVER
    dialog.open = False
    refresh_share(ctx, cast(Any, SimpleNamespace(id=SERVER)))
    assert dialog.content.content is before and ctx.share_open is None
