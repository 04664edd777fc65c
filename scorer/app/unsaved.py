"""A hand the player saved is stored or still on the phone's screen, never silently gone.

At Save the phone keeps the hand in its own storage before the store sees it, and
drops it once the store has answered (`TableActions.keep_unsaved`, `drop_unsaved`).
If the server went away in between (a process killed, a laptop restarted), the
page comes back to a new session that knows nothing of the hand; when that session
opens a screen of the hand's game and finds it kept, `restore` either puts it back
on the record screen, saying it was not saved, or, if the store has it after all,
drops it and says so on the sheet.
"""

from __future__ import annotations

import logging

from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.recording.kept_save import Settled, settle
from scorer.store.errors import StoreError

logger = logging.getLogger(__name__)

NOT_SAVED = "Not saved: the server went away. Save again."
"""Over a hand put back on the record screen."""


def saved_anyway(number: int) -> str:
    """On the sheet, when a hand kept by the phone was stored after all."""
    return f"Hand {number} was saved before the server went away."


def restore(ctx: AppContext, game_id: str, route: str) -> str | None:
    """On the way to `route`, a screen of `game_id`: settle the hand this phone kept
    for that game, if any (once a session). The route to show instead, if any: the
    record screen of a hand that was not saved, or the sheet for one that was."""
    actions = ctx.actions
    kept = actions.unsaved
    if kept is None or kept.game != game_id:
        return None
    actions.unsaved = None
    key = ctx.draft_key(kept.game, kept.index)
    try:
        model = GameModel.load(ctx.store.get_game(kept.game))
    except (StoreError, ValueError):  # the game is gone: nothing to save it into
        actions.drop_unsaved(key)
        return None
    if not actions.can_edit(kept.game):  # its rights went with a deleted code, say
        actions.drop_unsaved(key)
        return None
    sheet = f"/game/{kept.game}"
    settled = settle(kept, model.game, model.stored.revision, model.replay.is_over)
    if settled is Settled.STORED:
        actions.drop_unsaved(key)
        ctx.tell(kept.game, saved_anyway(kept.number))
        return sheet if route.startswith(f"{sheet}/hand") else None
    if settled is Settled.DROPPED:
        actions.drop_unsaved(key)
        return None
    logger.info("a hand of game %s not saved before the server went away is shown again",
                kept.game)
    ctx.drafts[key] = kept.draft
    ctx.places[key] = kept.place.model_copy(update={"unsaved": True})
    return f"{sheet}/hand" + ("" if kept.index is None else f"/{kept.index + 1}")
