"""The score sheet: both totals, how far to go, every hand with its ruling."""

from __future__ import annotations

from typing import cast
from urllib.parse import urlsplit

import flet as ft

from rules.history import HandEntry
from rules.replay import HandResult
from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.game_lines import NO_BREAK
from scorer.app.game_view_model import GameModel
from scorer.app.sheet_rows import EDITED, RowValues, sheet_values
from scorer.app.theme import BAIT, HALF_BAIT, RADIUS, TAG_INK
from scorer.app.views.chances import chance_line, chance_text
from scorer.app.views.common import app_bar, keyed, message_view, screen
from scorer.app.views.for_group import group_link, group_of_game
from scorer.app.views.kept import Kept
from scorer.app.views.next_game import next_game_part, night_buttons, night_to_come
from scorer.app.views.race_chart import race_panel
from scorer.app.views.share import refresh_share, share_button, share_icon
from scorer.app.views.sheet_trail import history_lines, notices_card, undone_panel
from scorer.app.views.summary_card import summary_card, summary_details
from scorer.app.views.sync_parts import not_sent_mark, sync_parts, unsent_hands
from scorer.app.views.table_code import CHECKING, watcher_banner
from scorer.app.widgets import big_button, notice
from scorer.reference.sections import title_of
from scorer.store.errors import NextGameExists, StaleRevision, StoreError

TAG_COLOURS = {"BAIT": BAIT, "½ BAIT": HALF_BAIT, "MISPLAY": ft.Colors.PURPLE_700,
               "THROWN": ft.Colors.BROWN_600, "PASSED": ft.Colors.GREY_700,
               EDITED: ft.Colors.BLUE_GREY_700}


def total_card(name: str, total: int, line: str, highlight: bool) -> ft.Control:
    return ft.Container(
        content=ft.Column([
            ft.Text(name, size=15, weight=ft.FontWeight.W_600, max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS, text_align=ft.TextAlign.CENTER),
            ft.Text(str(total), size=46, weight=ft.FontWeight.BOLD),
            ft.Text(line, size=14, color=ft.Colors.ON_SURFACE_VARIANT),
        ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        expand=True, padding=10, border_radius=ft.BorderRadius.all(RADIUS),
        bgcolor=ft.Colors.PRIMARY_CONTAINER if highlight else ft.Colors.SURFACE_CONTAINER_HIGH,
    )


def tag_chip(tag: str) -> ft.Control:
    colour = TAG_COLOURS.get(tag, ft.Colors.TEAL_700)  # RUN 50 Bob & Dee, BELLA...
    return ft.Container(
        content=ft.Text(tag, size=11, weight=ft.FontWeight.BOLD, color=TAG_INK),
        bgcolor=colour, border_radius=ft.BorderRadius.all(6),
        padding=ft.Padding.symmetric(horizontal=6, vertical=2),
    )


def score_cell(score: str, total: str) -> ft.Control:
    """A team's points for the hand over its running total, in one text."""
    return ft.Text(score, size=18, weight=ft.FontWeight.BOLD, spans=[
        ft.TextSpan(f"\n{total}", style=ft.TextStyle(size=12, weight=ft.FontWeight.NORMAL,
                                                     color=ft.Colors.ON_SURFACE_VARIANT)),
    ], width=48, text_align=ft.TextAlign.RIGHT)


def hand_row(ctx: AppContext, model: GameModel, row: RowValues, editable: bool,
             unsent: bool = False) -> ft.Control:
    """One hand on the sheet; a tap shows its ruling and its story. Kept to a few
    controls: a sheet of twenty hands is built whole on every phone after each Save.
    `unsent`: saved on this phone, not on the server yet (a small mark)."""
    # The suit is held to the word before it: a narrow row wrapped it onto a line alone.
    head, _space, suit = row.title.rpartition(" ")
    title = ft.Text(f"{head}{NO_BREAK}{suit}" if head else suit, size=15,
                    weight=ft.FontWeight.W_600)
    left: ft.Control = title
    if row.error is not None:
        left = ft.Column([title, ft.Text(row.error, size=13, color=ft.Colors.ERROR)],
                         spacing=4, expand=True)
    elif row.tags or unsent:
        chips = [tag_chip(t) for t in row.tags] + ([not_sent_mark()] if unsent else [])
        left = ft.Column([title, ft.Row(chips, spacing=4, wrap=True)], spacing=4, expand=True)
    left.expand = True
    result, trail = row.result, row.trail
    return ft.Container(
        content=ft.Row([left, score_cell(row.scores[0], row.totals[0]),
                        score_cell(row.scores[1], row.totals[1])],
                       spacing=4, vertical_alignment=ft.CrossAxisAlignment.START),
        # Plain numbers: a sheet sends these with every row (corners and sides as
        # objects were a sixth of a row's bytes).
        padding=9,
        border_radius=10,
        bgcolor=ft.Colors.ERROR_CONTAINER if row.error is not None
        else ft.Colors.SURFACE_CONTAINER_LOW,
        on_click=lambda _e: show_hand(ctx, model, result, editable, trail),
        ink=True,
        key=f"hand{row.number}",  # a redrawn sheet sends the new hand, not every row
    )


def reason_lines(
    ctx: AppContext, game_id: str, reasons: list[tuple[str, str]]
) -> list[ft.Control]:
    """Each reason as a sentence with a link to the rules section behind it."""
    return [
        ft.Row([
            ft.Text(text, size=15, expand=True),
            ft.IconButton(ft.Icons.MENU_BOOK, tooltip=f"Rule: {title_of(section)}",
                          on_click=lambda _e, sec=section: go_rules(ctx, game_id, sec)),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER)
        for text, section in reasons
    ]


def go_rules(ctx: AppContext, game_id: str, section: str) -> None:
    """The rules at `section`, with this game's house rules marked; Back returns here."""
    ctx.page.pop_dialog()
    ctx.go(f"/rules?section={section}&game={game_id}")


def on_top(ctx: AppContext, game_id: str) -> bool:
    """Whether the sheet is on show, not under Record hand: a control of the hidden
    sheet can still be reached from a keyboard (Tab), and must then do nothing."""
    return urlsplit(ctx.shown_route()).path.rstrip("/") == f"/game/{game_id}"


def show_hand(ctx: AppContext, model: GameModel, result: HandResult, editable: bool,
              trail: tuple[HandEntry, ...] = ()) -> None:
    """The hand's full ruling, reason by reason, its story (who recorded it, what each
    edit changed), with Edit."""
    if not on_top(ctx, model.id):
        return
    ruling = result.ruling
    if ruling is None:
        reasons = [(result.error or "This hand cannot stand.", "making-it")]
    else:
        reasons = [(r.text, r.section) for r in ruling.reasons]
    story = [ft.Text(line, size=14, color=ft.Colors.ON_SURFACE_VARIANT)
             for line in history_lines(model, trail)]
    if story:
        story.insert(0, ft.Text("History", size=15, weight=ft.FontWeight.BOLD))
    actions: list[ft.Control] = [ft.TextButton("Close", on_click=lambda _e: ctx.page.pop_dialog())]
    if editable:
        def edit(_e: object) -> None:
            ctx.page.pop_dialog()
            ctx.go(f"/game/{model.id}/hand/{result.number}")

        actions.append(ft.FilledButton("Edit this hand", icon=ft.Icons.EDIT, on_click=edit))
    ctx.page.show_dialog(ft.AlertDialog(
        title=ft.Text(f"Hand {result.number}: {model.describe(result)}", size=18),
        # The dialog scrolls, not a Column inside it: a scrolling Column took all the
        # height it was offered and left an empty band above the buttons.
        content=ft.Column([*reason_lines(ctx, model.id, reasons), *story], tight=True,
                          spacing=4),
        scrollable=True,
        actions=actions,
    ))


def sheet_header(cards: tuple[tuple[str, int, str, bool], ...]) -> ft.Control:
    return ft.Row([total_card(*card) for card in cards], spacing=10)


def confirm_undo(ctx: AppContext, model: GameModel) -> None:
    if not on_top(ctx, model.id):
        return
    last = model.replay.hands[-1]
    ruling = last.ruling
    score = f": {ruling.scores[0]} – {ruling.scores[1]}" if ruling else ""
    text = (f"Hand {last.number} ({model.describe(last)}{score}) will be taken off the sheet. "
            "It stays listed under the sheet, and can be put back.")

    def remove(_e: object) -> None:
        ctx.page.pop_dialog()
        try:
            ctx.actions.undo_last_hand(model)
        except StaleRevision as exc:  # only the hand this phone showed may go
            ctx.toast(f"{exc} Nothing was undone: undo again if you still mean it.",
                      error=True)
            ctx.router_refresh()
        except StoreError as exc:
            ctx.toast(str(exc), error=True)
            ctx.router_refresh()

    dialog = ft.AlertDialog(
        title=ft.Text(f"Undo hand {last.number}?"),
        content=ft.Text(text, size=16),
        actions=[
            ft.TextButton("Keep it", on_click=lambda _e: ctx.page.pop_dialog()),
            ft.FilledButton("Remove hand", on_click=remove),
        ],
    )
    ctx.page.show_dialog(dialog)


def play_again(ctx: AppContext, game_id: str) -> None:
    """To the new-game screen filled in from this game; to the next game if another
    phone has started it meanwhile (one finished game has one next game)."""
    after = ctx.actions.next_game(game_id)
    if after is None:
        ctx.go(f"/new?again={game_id}")
        return
    ctx.toast(str(NextGameExists(after)))
    ctx.go(f"/game/{after}")


def sheet_view(ctx: AppContext, game_id: str, over: ft.View | None = None) -> ft.View:
    """The score sheet; with `over` (Record hand), that screen laid over it (`layered`)."""
    route = f"/game/{game_id}"
    try:
        model = GameModel.load(ctx.store.get_game(game_id))
    except (StoreError, ValueError) as exc:
        sync = CONFIG.phone_sync
        if (over is None and sync is not None and sync.synced(game_id)
                and (sync.meets_server() or not sync.line().alone)):
            # A server's game this phone follows: on its way (or the server's word on it).
            # Before a first answer, while the first try is under way, it is on its way
            # too: the placeholder below only once a try failed (a server without the
            # sync socket), not for the second before a server with it answers.
            return message_view(ctx, route, "Score sheet", str(exc))
        if over is None and CONFIG.alone and CONFIG.server_game == game_id:
            from scorer.app.views.server_game import server_game_view

            return server_game_view(ctx, game_id)  # a server's game this phone does not keep
        return over or message_view(ctx, route, "Game not found", str(exc))
    replay = model.replay
    ctx.take_news(model)
    refresh_share(ctx, model)
    # Worked out once per revision for every phone that shows it (`sheet_rows`);
    # each phone builds only the controls that changed from them (`Kept`).
    shown = sheet_values(model)
    kept = Kept(ctx, route)
    cards = shown.cards
    body: list[ft.Control] = [kept.part("header", cards, lambda: sheet_header(cards))]
    group = group_of_game(ctx, game_id)
    if group is not None:
        gid, name = group
        body.insert(0, kept.part("group", group, lambda: group_link(ctx, gid, name)))
    news = tuple(ctx.notices.get(game_id, ()))
    if news:
        body.insert(0, kept.part("news", news, lambda: notices_card(ctx, game_id, news)))
    body[0:0] = sync_parts(ctx, game_id, kept)  # a phone keeping a server's game
    editable = ctx.actions.can_edit(game_id)
    if replay.winner is not None:
        after = ctx.actions.next_game(game_id)
        live = ctx.next_is_news(game_id, after)
        if after is not None:
            # A table's next game is made by a holder, and every holder of this game holds
            # it: on another process the notice of it can come before its grants do.
            holds = editable or ctx.actions.can_edit(after)
            body.append(kept.part("next_game", (after, live, holds),
                                  lambda: next_game_part(ctx, game_id, after, live, holds)))
        body.append(summary_card(model))
    else:
        forced = shown.forced
        if forced:
            body.append(kept.part("forced", forced, lambda: notice(
                forced, error=True, icon=ft.Icons.PRIORITY_HIGH)))
        reason = shown.reason
        if reason is not None:
            body.append(kept.part("reason", reason, lambda: notice(reason)))
        line = shown.next_line
        body.append(kept.part("next", line, lambda: ft.Text(
            line, size=16, weight=ft.FontWeight.W_600)))
    if editable and replay.hands:
        # Above the hands, beside the last one: at the foot of the sheet it sat half
        # out of sight over Record hand once a notice pushed the sheet down.
        body.append(kept.part("undo", model.stored.revision, lambda: ft.Row([big_button(
            "Undo last hand", lambda _e: confirm_undo(ctx, model), icon=ft.Icons.UNDO,
            primary=False, height=48)])))
    if replay.hands:
        body.append(race_panel(ctx, model, kept))
    bad = shown.bad
    if bad is not None:
        body.append(kept.part("bad", bad, lambda: notice(bad, error=True)))
    teams = shown.teams
    if shown.rows:
        body.append(kept.part("columns", teams, lambda: column_heads(teams)))
        unsent = unsent_hands(game_id)
        for row in shown.rows:
            # The row's tap shows this hand's ruling and story: all it needs is drawn
            # from. A row unchanged since the last revision is the very same values.
            mark = row.number in unsent
            body.append(kept.part(f"hand{row.number}", (row, editable, mark),
                                  lambda row=row, mark=mark: hand_row(ctx, model, row,
                                                                      editable, mark)))
    else:
        first = ("No hands yet. Tap Record hand when the first hand is counted." if editable
                 else "No hands yet: they appear here as the table records them.")
        body.append(ft.Text(first,
                            size=15, color=ft.Colors.ON_SURFACE_VARIANT))
        odds = chance_line(ctx, model)
        if odds is not None:
            body.append(kept.part("chances", odds, lambda: chance_text(odds)))
    if replay.winner is not None:
        body.append(summary_details(model))  # under the hands: the winning one in view
    undone = undone_panel(ctx, model, editable)
    if undone is not None:
        body.append(undone)
    # Sharing and the watcher's banner need only the game's id; Undo reads the
    # revision it was drawn for, so it is drawn again after every change.
    body.append(kept.part("extras", game_id, lambda: share_button(ctx, model)))

    buttons: list[ft.Control] = []
    if replay.winner is not None:
        night = night_to_come(ctx, game_id)
        if night is not None:  # a club night's table: its next game is the next round's
            buttons.extend(night_buttons(ctx, *night, lambda: play_again(ctx, game_id)))
        else:
            buttons.append(ft.Row([big_button("Play again", lambda _e: play_again(ctx, game_id),
                                              icon=ft.Icons.REPLAY)]))
    elif editable:
        buttons.append(kept.part("record", route, lambda: ft.Row([big_button(
            "Record hand", lambda _e: ctx.go(f"{route}/hand"), icon=ft.Icons.EDIT_NOTE,
            height=64)])))
    elif ctx.actions.identified:  # a phone not yet identified may turn out to hold the code
        buttons.append(kept.part("watching", game_id, lambda: watcher_banner(ctx, model)))
    else:  # the browser is still being asked which phone this is: drawn again once known
        buttons.append(kept.part("checking", game_id, lambda: ft.Container(  # Record hand's room
            ft.Text(CHECKING, size=15, color=ft.Colors.ON_SURFACE_VARIANT),
            height=64, alignment=ft.Alignment.CENTER_LEFT)))
    # The teams are in the big totals; a short title leaves room for the icons.
    bar = kept.part("bar", game_id, lambda: app_bar(ctx, "Score sheet", back_to="/", actions=[
        ft.IconButton(ft.Icons.MENU_BOOK, tooltip="Rules",
                      on_click=lambda _e: ctx.go(f"/rules?game={game_id}")),
        share_icon(ctx, model),
    ]))
    bottom = ft.Column(buttons) if buttons else None
    # A won game opens on its winner: a column under another key is a new one on the
    # phone, scrolled to the top (the same one would keep the offset of the last hand).
    column = ft.Column(key="won" if replay.winner is not None else None)
    return kept.done(layered(keyed(screen(route, bar, body, bottom=bottom, column=column)),
                             over, kept))


def layered(sheet: ft.View, over: ft.View | None, kept: Kept) -> ft.View:
    """The sheet with `over` (Record hand) laid on top of it, in one View.

    Going to Record hand and back then keeps the sheet built on the phone: a Save
    takes the top layer away and adds the new row and the totals, instead of
    building the whole sheet again (a page's own transition would not do: taking a
    View off the top keeps it on show for its 300 ms exit). The sheet under Record
    hand is out of the accessibility tree, and the top layer's background takes
    every tap."""
    # The same Stack object while the sheet stays on show: Flet compares it in
    # place, and a layer added to it is not frozen (Record hand changes its
    # controls on every tap). Unkeyed: a new Stack replaces the old one whole.
    stack = kept.part("layers", None, lambda: ft.Stack(fit=ft.StackFit.EXPAND, expand=True),
                      keyed=False)
    base = cast(ft.LayoutControl, sheet.controls[0])  # the SafeArea from `screen`
    # Hidden by opacity 0: not painted and out of the accessibility tree, yet still
    # built. An animation of no length keeps the phone's AnimatedOpacity in place
    # either way (a plain Opacity comes and goes with the value: everything inside
    # it would be built again).
    base.opacity = 1.0 if over is None else 0.0
    base.animate_opacity = 0
    stack.controls = [base]
    if over is not None:
        stack.controls.append(ft.Container(content=cast(ft.Control, over.controls[0]),
                                           bgcolor=ft.Colors.SURFACE, expand=True))
        sheet.appbar = over.appbar
    sheet.controls = [stack]
    return sheet


def sheet_layer(view: ft.View) -> ft.Control:
    """The sheet's own layer in a View from `sheet_view` (nothing in it changes
    while Record hand lies over it)."""
    stack = cast(ft.Stack, view.controls[0])
    return stack.controls[0]


def column_heads(teams: tuple[str, str]) -> ft.Control:
    return ft.Row([
        ft.Text("Hand", size=13, expand=True, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(teams[0], size=12, width=60, text_align=ft.TextAlign.RIGHT, max_lines=2,
                color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(teams[1], size=12, width=60, text_align=ft.TextAlign.RIGHT, max_lines=2,
                color=ft.Colors.ON_SURFACE_VARIANT),
    ], spacing=4)
