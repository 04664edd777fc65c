"""Every change a phone makes to a game goes through here: one place to check
who may edit, to save, and to tell the other phones at the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from scorer.store.models import StoredGame

if TYPE_CHECKING:
    from scorer.app.context import AppContext
    from scorer.app.game_view_model import GameModel


def game_topic(game_id: str) -> str:
    return f"game:{game_id}"


class TableActions:
    """Saving hands and announcing changes for one session."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx

    def can_edit(self, game_id: str) -> bool:
        """Whether this phone may record, edit or undo hands of the game."""
        return True

    def locked_view(self, route: str, game_id: str) -> ft.View:
        from scorer.app.views.common import message_view

        return message_view(self.ctx, route, "Watching only",
                            "This phone can watch the game but not change it.")

    def save_hand(self, model: GameModel, hand: dict[str, Any], index: int | None) -> StoredGame:
        """Append (index None) or replace a hand; refuses a stale sheet (StaleRevision)."""
        store = self.ctx.store
        if index is None:
            stored = store.add_hand(model.id, hand, expected_revision=model.stored.revision)
        else:
            stored = store.replace_hand(model.id, index, hand,
                                        expected_revision=model.stored.revision)
        self.changed(model.id)
        return stored

    def changed(self, game_id: str) -> None:
        """Tell every phone showing this game (this one included) to redraw it."""
        self.ctx.page.pubsub.send_all_on_topic(game_topic(game_id), game_id)

    def sheet_extras(self, model: GameModel) -> list[ft.Control]:
        """Extra controls under the sheet (sharing, table code)."""
        return []

    def sheet_actions(self, model: GameModel) -> list[ft.Control]:
        """Extra app-bar actions on the sheet."""
        return []
