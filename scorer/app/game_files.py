"""Game files on a phone: read a tarabish-game/1 file picked on the phone into the
store, and hand one back (export). The same files `tarabish import/export/check`
use; on one phone alone they are how a game moves to another phone."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import flet as ft

from scorer.app.context import AppContext
from scorer.store.errors import InvalidGame, StoreError
from scorer.store.models import GameSummary

logger = logging.getLogger(__name__)

IMPORT_LABEL = "Import a game file"
MAX_FILE_BYTES = 2 * 1024 * 1024
"""A game of a thousand hands is ~250 KB; anything much bigger is not a game file."""


class NotAGameFile(ValueError):
    """The picked file cannot be imported; the message says why in a player's words."""


def read_game_file(data: bytes) -> dict[str, Any]:
    """The game document in a picked file, checked as `tarabish import` checks one:
    the same bounded decoder (size, nesting, long numbers) and the strict reading
    (no control characters in names), then the store's own check."""
    from rules.errors import GameFileError
    from rules.game_file import parse_game
    from rules.game_json import decode_game_json
    from scorer.store.validation import validate_doc
    from scorer.text.terminal import one_line

    if len(data) > MAX_FILE_BYTES:
        raise NotAGameFile("That file is too big to be a Tarabish game file.")
    try:
        doc = decode_game_json(data)
        if not isinstance(doc, dict):
            raise NotAGameFile("That file is not a Tarabish game file.")
        parse_game(doc)
        validate_doc(doc)
    except GameFileError as e:
        where = "" if e.hand is None else f"hand {e.hand + 1}: "
        raise NotAGameFile(f"That game file cannot be used: {one_line(where + e.message)}"
                           ) from None
    except InvalidGame as e:
        raise NotAGameFile(f"That game file cannot be used: {one_line(str(e))}") from None
    return doc


def import_data(ctx: AppContext, data: bytes) -> str:
    """Store the game in `data` as a new game started by this phone (it holds the
    table code; the per-address limit on new games applies); its id. Raises
    NotAGameFile or a StoreError (TooManyGames, NotSaved)."""
    return ctx.actions.create_game(read_game_file(data)).id


async def pick_and_import(ctx: AppContext) -> None:
    """Let the player pick a game file, store it, and open its sheet."""
    try:
        files = await ft.FilePicker().pick_files(
            dialog_title="Import a Tarabish game file", allowed_extensions=["json"],
            allow_multiple=False, with_data=True)
    except Exception:  # the browser refused the picker
        logger.exception("file picker failed")
        ctx.toast("This phone would not open its file picker.", error=True)
        return
    if not files:
        return  # cancelled
    picked = files[0]
    data = picked.bytes
    if data is None:
        ctx.toast("That file could not be read.", error=True)
        return
    try:
        game_id = import_data(ctx, data)
    except (NotAGameFile, StoreError) as e:
        ctx.toast(str(e), error=True)
        return
    ctx.toast(f"Imported {picked.name}.")
    ctx.go(f"/game/{game_id}")


def import_button(ctx: AppContext) -> ft.Control:
    """IMPORT_LABEL, for the Past games screen."""
    from scorer.app.widgets import big_button

    def pick(_e: object) -> None:
        ctx.page.run_task(pick_and_import, ctx)

    return ft.Row([big_button(IMPORT_LABEL, pick, icon=ft.Icons.UPLOAD_FILE,
                              primary=False, height=48)])


def export_name(game: GameSummary) -> str:
    """`tarabish-2026-11-21-ann-cid-vs-bob-dee.json`: sortable and readable."""
    teams = "-vs-".join(game.teams)
    slug = re.sub(r"[^a-z0-9]+", "-", teams.lower()).strip("-")[:60]
    return f"tarabish-{game.created:%Y-%m-%d}-{slug or game.id}.json"


def export(ctx: AppContext, game: GameSummary) -> None:
    """Download the game as a tarabish-game/1 file, if this phone may see it (checked
    here, on the server: on a community only its own games)."""
    try:
        ctx.actions.require_sight(game.id)
        doc = ctx.store.get_game(game.id).file_doc()
    except StoreError as exc:
        ctx.toast(str(exc), error=True)
        return
    data = json.dumps(doc, ensure_ascii=False, indent=2).encode("utf-8")
    ctx.download(export_name(game), data)


def export_game(ctx: AppContext, game_id: str) -> None:
    """Download the game as a tarabish-game/1 file, found by its id (the sheet's
    Share panel on one phone alone)."""
    summary = next((g for g in ctx.actions.visible_games() if g.id == game_id), None)
    if summary is None:
        ctx.toast("This game is no longer saved on this phone.", error=True)
        return
    export(ctx, summary)
