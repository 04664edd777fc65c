"""'Share this game': the game's address as a QR code, and the table code for
phones that hold it."""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.theme import RADIUS
from scorer.app.widgets import big_button
from scorer.store.errors import StoreError

QR_SIZE = 232
ROOM_BESIDE_QR = 540
"""The height the Share dialog takes besides the QR code when this phone holds the
code (title, code, the name field, address, Close): a shorter phone gets a smaller
QR code, so that nothing is cut at the dialog's foot."""
SMALLEST_QR = 100
LOCAL_QR = 64
EXPORT_LABEL = "Export this game"
ALONE_COPY = ("Other phones cannot follow it live. To keep a copy, or to go on with it on "
              f"another phone, tap {EXPORT_LABEL}: it saves the game as a file. On the other "
              "phone, open Past games and tap Import a game file.")
"""What a phone alone says about moving its game, naming the buttons a player taps."""
SEND_LABEL = "Send to the server"
SEND_COPY = ("Back on the table server's Wi-Fi? Send the game there: it gets a table code "
             "for the other phones.")


@dataclass
class OpenShare:
    """The Share panel on show (`AppContext.share_open`), to be drawn again when what
    it says arrives."""

    game_id: str
    facts: tuple[str | None, str | None]
    box: ft.Container
    dialog: ft.AlertDialog


def png_data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def share_panel(ctx: AppContext, model: GameModel) -> ft.Control:
    """QR code, address, and (for a phone with edit rights) the table code."""
    if CONFIG.alone:
        sync = CONFIG.phone_sync
        if sync is not None and sync.synced(model.id):
            return synced_panel(ctx, model)
        return phone_panel(ctx, model)
    from scorer.sharing import is_local, qr_png  # segno: not shipped to a phone alone

    urls = ctx.actions.share_urls(model.id)
    url = urls[0]
    code = ctx.actions.table_code(model.id)
    room = int(ctx.page.height or 1000) - (ROOM_BESIDE_QR if code is not None else 400)
    # A laptop listening on this machine only: no other phone can open its address, so
    # its code is drawn small and the advice in its place fits. Never on a server
    # behind a proxy or with a public address (the advice would bypass the proxy).
    only_here = CONFIG.reach.only_here(url)
    qr = LOCAL_QR if only_here else max(SMALLEST_QR, min(QR_SIZE, room))
    parts: list[ft.Control] = [
        ft.Container(
            # A data: address, not raw bytes: on a phone's plain-HTTP LAN page
            # Flet leaves an Image given bytes blank.
            content=ft.Image(src=png_data_url(qr_png(url)), width=qr, height=qr,
                             fit=ft.BoxFit.CONTAIN, filter_quality=ft.FilterQuality.NONE,
                             semantics_label=f"QR code of {url}"),
            bgcolor=ft.Colors.WHITE, border_radius=ft.BorderRadius.all(8), padding=4,
            alignment=ft.Alignment.CENTER,
        ),
        ft.Text(url, size=16, weight=ft.FontWeight.W_600,
                text_align=ft.TextAlign.CENTER),
    ]
    # No phone can follow an address of this machine only: the warning says so in
    # place of "Scan it" (both did not fit a 360x640 phone's dialog).
    if only_here:
        parts.append(ft.Text("This server only listens on this machine: start it without "
                             "--host 127.0.0.1 so phones can connect.", size=14,
                             color=ft.Colors.ERROR, text_align=ft.TextAlign.CENTER))
    else:
        where = "" if CONFIG.reach.public or ctx.via_proxy else " on the same Wi‑Fi"
        parts.append(ft.Text(f"Scan it with a phone{where} to follow the score.",
                             size=14, text_align=ft.TextAlign.CENTER,
                             color=ft.Colors.ON_SURFACE_VARIANT))
    others = [u for u in urls[1:] if not is_local(u)]
    if others:
        parts.append(ft.Text("Also: " + ", ".join(others), size=13,
                             text_align=ft.TextAlign.CENTER, color=ft.Colors.ON_SURFACE_VARIANT))
    if code is not None:
        # The code first, and the phone's name under it: on a 360 px phone, under the
        # QR code they were out of sight.
        parts[:0] = [ft.Container(
            content=ft.Column([
                ft.Text("Table code", size=14, weight=ft.FontWeight.W_600,
                        color=ft.Colors.ON_PRIMARY_CONTAINER),
                ft.Text(" ".join(code), size=34, weight=ft.FontWeight.BOLD,
                        color=ft.Colors.ON_PRIMARY_CONTAINER,
                        semantics_label=f"Table code {code}"),
                ft.Text("Give it to whoever records hands on another phone.", size=13,
                        text_align=ft.TextAlign.CENTER, color=ft.Colors.ON_PRIMARY_CONTAINER),
            ], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            bgcolor=ft.Colors.PRIMARY_CONTAINER, border_radius=ft.BorderRadius.all(RADIUS),
            padding=ft.Padding.symmetric(horizontal=12, vertical=8),
        ), phone_name(ctx)]
    else:
        parts.append(ft.Text("Anyone with this address can watch. Recording hands needs the "
                             "table code from the phone that started the game, or from the "
                             "host (who started the server).", size=13,
                             text_align=ft.TextAlign.CENTER,
                             color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Column(parts, spacing=10, tight=True,
                     horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def phone_name(ctx: AppContext) -> ft.Control:
    """The name this phone goes by beside its changes in the games' history."""
    # A short label: a long one wrapped on three lines in a 360 px phone's dialog.
    field = ft.TextField(label="Phone name",
                         value=ctx.actions.phone_name() or "",
                         hint_text="Shown in the history, e.g. Mary",
                         max_length=30, dense=True, expand=True)

    def keep(_e: object) -> None:
        try:
            label = ctx.actions.name_phone(field.value or "")
        except StoreError as exc:
            ctx.toast(str(exc), error=True)
            return
        field.value = "" if label.startswith("phone ") else label
        ctx.toast(f"Changes from this phone now show '{label}'.")

    field.on_submit = keep
    return ft.Row([field, ft.TextButton("Save", on_click=keep, height=48)],
                  vertical_alignment=ft.CrossAxisAlignment.START)


def synced_panel(ctx: AppContext, model: GameModel) -> ft.Control:
    """A server's game kept on this phone: its table code (to a phone that holds it) and
    its address on the server, or that it goes there once the phone reaches it."""
    sync = CONFIG.phone_sync
    game = None if sync is None else sync.shared_address(model.id)
    code = ctx.actions.table_code(model.id)
    parts: list[ft.Control] = []
    if game is None:
        parts.append(ft.Text("This game goes to the table server as soon as this phone "
                             "reaches it; its table code shows here then.", size=15,
                             text_align=ft.TextAlign.CENTER))
    else:
        base = ctx.page.url or ""
        origin = base.split("/alone/")[0].rstrip("/") if "/alone/" in base else ""
        if code is not None:
            parts += sent_lines(code, f"{origin}/game/{game}")
            parts[0] = ft.Text("Table code", size=14, weight=ft.FontWeight.W_600,
                               color=ft.Colors.ON_SURFACE_VARIANT)
        else:
            parts.append(ft.Text(f"The game is at {origin}/game/{game}", size=15,
                                 text_align=ft.TextAlign.CENTER))
    return ft.Column(parts, spacing=10, tight=True,
                     horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def phone_panel(ctx: AppContext, model: GameModel) -> ft.Control:
    """With no table server, the game is only on this phone: say so, offer the file
    (and, where a table server serves this page, sending it there)."""
    from scorer.app.game_files import export_game

    parts: list[ft.Control] = [
        ft.Icon(ft.Icons.PHONE_ANDROID, size=40, color=ft.Colors.PRIMARY),
        ft.Text("This game lives on this phone.", size=17, weight=ft.FontWeight.W_600,
                text_align=ft.TextAlign.CENTER),
    ]
    if CONFIG.send_to_server is not None:  # first: its table code shows with no scrolling
        parts += [send_part(ctx, model.id), ft.Divider()]
    parts += [
        ft.Text(ALONE_COPY, size=14, text_align=ft.TextAlign.CENTER,
                color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Row([big_button(EXPORT_LABEL, lambda _e: export_game(ctx, model.id),
                           icon=ft.Icons.DOWNLOAD, primary=CONFIG.send_to_server is None,
                           height=48)]),
    ]
    return ft.Column(parts, spacing=10, tight=True,
                     horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def send_part(ctx: AppContext, game_id: str) -> ft.Control:
    """'Send to the server': the button, then the table code and address it got
    (or why not). Sending again is safe: the server keeps one game per game."""
    from scorer.app.send_game import NotSent, send_game

    result = ft.Column([ft.Text(SEND_COPY, size=14, text_align=ft.TextAlign.CENTER,
                                color=ft.Colors.ON_SURFACE_VARIANT)],
                       spacing=6, tight=True,
                       horizontal_alignment=ft.CrossAxisAlignment.CENTER)
    button = ft.FilledButton(content=ft.Text(SEND_LABEL, size=18, weight=ft.FontWeight.W_600),
                             icon=ft.Icons.UPLOAD_FILE, height=48, expand=True)

    async def send(_e: object) -> None:
        button.disabled = True
        result.controls = [ft.Text("Sending…", size=14, color=ft.Colors.ON_SURFACE_VARIANT)]
        result.update()
        button.update()
        try:
            sent = await send_game(ctx, game_id, ft.SharedPreferences())
            result.controls = sent_lines(sent.code, sent.address)
        except NotSent as e:
            result.controls = [ft.Text(str(e), size=15, color=ft.Colors.ERROR,
                                       text_align=ft.TextAlign.CENTER)]
        button.disabled = False
        result.update()
        button.update()

    button.on_click = send
    return ft.Column([result, ft.Row([button])], spacing=10, tight=True,
                     horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def sent_lines(code: str, address: str) -> list[ft.Control]:
    """The table server's answer: the code other phones enter, and where the game is."""
    return [
        ft.Text("Sent. Table code", size=14, weight=ft.FontWeight.W_600,
                color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(" ".join(code), size=34, weight=ft.FontWeight.BOLD,
                semantics_label=f"Table code {code}"),
        ft.Text(f"The game is at {address}", size=14,
                text_align=ft.TextAlign.CENTER),
    ]


def show_share(ctx: AppContext, model: GameModel) -> None:
    box = ft.Container(content=share_panel(ctx, model), width=320)
    dialog = ft.AlertDialog(
        title=ft.Text("Share this game", size=20),
        content=box,
        content_padding=ft.Padding.only(left=16, right=16, top=12, bottom=8),
        scrollable=True,
        actions=[ft.TextButton("Close", on_click=lambda _e: ctx.page.pop_dialog())],
    )
    ctx.share_open = OpenShare(model.id, shown_facts(ctx, model.id), box, dialog)
    ctx.page.show_dialog(dialog)


def shown_facts(ctx: AppContext, game_id: str) -> tuple[str | None, str | None]:
    """What the panel's text depends on that can arrive while it is open: the table code
    this phone holds, and (a phone's app) the game's address once the server has it."""
    sync = CONFIG.phone_sync if CONFIG.alone else None
    return (ctx.actions.table_code(game_id),
            None if sync is None else sync.shared_address(game_id))


def refresh_share(ctx: AppContext, model: GameModel) -> None:
    """Draw an open Share panel of this game again if what it says has changed (its
    text promises the table code once the server has the game); called as the sheet
    is drawn again."""
    shown = ctx.share_open
    if not isinstance(shown, OpenShare):
        return
    if not shown.dialog.open:
        ctx.share_open = None
        return
    # A game this phone started offline takes the server's id once there: its sheet is
    # drawn again under that id while the panel opened under the phone's own.
    if model.id not in (shown.game_id, shown_facts(ctx, shown.game_id)[1]):
        return
    facts = shown_facts(ctx, model.id)
    if (model.id, facts) == (shown.game_id, shown.facts):
        return
    shown.game_id = model.id
    shown.facts = facts
    shown.box.content = share_panel(ctx, model)
    try:
        shown.box.update()
    except Exception:  # closed meanwhile: nothing on show to draw again
        logging.getLogger(__name__).debug("the Share panel is gone", exc_info=True)


def share_icon(ctx: AppContext, model: GameModel) -> ft.Control:
    """App-bar action."""
    return ft.IconButton(ft.Icons.QR_CODE_2, tooltip="Share",
                         on_click=lambda _e: show_share(ctx, model))


def share_button(ctx: AppContext, model: GameModel) -> ft.Control:
    """At the foot of the sheet, where players look for it."""
    return ft.Row([big_button("Share this game", lambda _e: show_share(ctx, model),
                              icon=ft.Icons.QR_CODE_2, primary=False, height=48)])
