"""The rules reference (`/rules`): every section, a search box, the house rules
of the game in hand marked, and `?section=<id>` scrolled into view."""

from __future__ import annotations

import asyncio
import contextlib
import re
from urllib.parse import urlencode

import flet as ft

from rules.cards import Rank
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.theme import MADE, RADIUS
from scorer.app.views.common import app_bar, screen
from scorer.app.widgets import notice
from scorer.reference.hand_link import HandLink, link_from_query
from scorer.reference.house import changed_keys, setting
from scorer.reference.search import search
from scorer.reference.sections import (
    BY_ID,
    CARD_TABLE,
    GROUP_TITLES,
    SECTIONS,
    Section,
    house_section_id,
)
from scorer.reference.tables import card_points_rows

_INLINE = re.compile(r"(\*\*[^*]+\*\*|\*[^*]+\*)")
BODY_SIZE = 16
_BACK_SCREENS = {"check": "/check", "count": "/count"}


# --- drawing the text ---------------------------------------------------------------------
def rich(text: str, size: float = BODY_SIZE, color: str | None = None) -> ft.Text:
    """A paragraph with **bold** and *italic* (used for the names of other sections)."""
    spans: list[ft.TextSpan] = []
    for piece in _INLINE.split(text):
        if not piece:
            continue
        if piece.startswith("**"):
            spans.append(ft.TextSpan(piece[2:-2], style=ft.TextStyle(weight=ft.FontWeight.BOLD)))
        elif piece.startswith("*"):
            spans.append(ft.TextSpan(piece[1:-1], style=ft.TextStyle(italic=True)))
        else:
            spans.append(ft.TextSpan(piece))
    return ft.Text(spans=spans, size=size, color=color)


def _join(lines: list[str]) -> str:
    return " ".join(line.strip() for line in lines)


def _items(lines: list[str], marker: re.Pattern[str]) -> list[str]:
    items: list[list[str]] = []
    for line in lines:
        if marker.match(line):
            items.append([marker.sub("", line, count=1)])
        elif items:
            items[-1].append(line)
    return [_join(item) for item in items]


_BULLET = re.compile(r"^- ")
_NUMBER = re.compile(r"^\d+\. ")


def card_points_table() -> ft.Control:
    """Trumps and plain suits side by side, from the rules engine's own values."""
    def cell(text: str, bold: bool = False, align: ft.TextAlign = ft.TextAlign.START,
             size: int = BODY_SIZE) -> ft.Control:
        return ft.Text(text, size=size, expand=True, text_align=align,
                       weight=ft.FontWeight.BOLD if bold else None)

    def name(rank: Rank) -> str:
        return rank.value

    rows: list[ft.Control] = [ft.Row([
        cell("Trumps", True), cell("pts", True, ft.TextAlign.END),
        ft.Container(width=16), cell("Plain", True), cell("pts", True, ft.TextAlign.END),
    ])]
    for row in card_points_rows():
        rows.append(ft.Row([
            cell(name(row.trump_rank)), cell(str(row.trump_points), align=ft.TextAlign.END),
            ft.Container(width=16),
            cell(name(row.plain_rank)), cell(str(row.plain_points), align=ft.TextAlign.END),
        ]))
    return ft.Container(
        content=ft.Column(rows, spacing=4),
        padding=ft.Padding.symmetric(horizontal=14, vertical=10),
        border_radius=ft.BorderRadius.all(RADIUS),
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
    )


def render_body(body: str) -> list[ft.Control]:
    """Draw a section's text (the Markdown subset described in `sections`)."""
    out: list[ft.Control] = []
    for block in re.split(r"\n\s*\n", body.strip()):
        lines = block.splitlines()
        first = lines[0]
        if first.strip() == CARD_TABLE:
            out.append(card_points_table())
        elif first.startswith("### "):
            out.append(ft.Text(first[4:], size=17, weight=ft.FontWeight.BOLD))
            if lines[1:]:
                out.extend(render_body("\n".join(lines[1:])))
        elif first.startswith("> "):
            text = rich(_join([line[2:] if line.startswith("> ") else line for line in lines]),
                        size=15)
            text.expand = True
            out.append(ft.Container(
                content=ft.Row([ft.Icon(ft.Icons.STYLE, size=18, color=ft.Colors.PRIMARY), text],
                               spacing=8, vertical_alignment=ft.CrossAxisAlignment.START),
                padding=10, border_radius=ft.BorderRadius.all(10),
                bgcolor=ft.Colors.SECONDARY_CONTAINER,
            ))
        elif _BULLET.match(first) or _NUMBER.match(first):
            numbered = bool(_NUMBER.match(first))
            items = _items(lines, _NUMBER if numbered else _BULLET)
            out.append(ft.Column([
                ft.Row([ft.Text(f"{n}." if numbered else "•", size=BODY_SIZE, width=22,
                                weight=ft.FontWeight.BOLD),
                        ft.Container(rich(item), expand=True)],
                       vertical_alignment=ft.CrossAxisAlignment.START, spacing=4)
                for n, item in enumerate(items, start=1)
            ], spacing=6))
        else:
            out.append(rich(_join(lines)))
    return out


# --- the screen ---------------------------------------------------------------------------
class RulesReference:
    """The reference screen: search box, house-rule notes, sections.

    Every section is drawn once; a search only shows and hides them (a keystroke
    sends a few visibility flags, not the whole book again).
    """

    def __init__(self, ctx: AppContext, link: HandLink, target: str | None) -> None:
        self.ctx = ctx
        self.link = link
        self.pinned = target if target in BY_ID else None
        """The section asked for in the address, shown first (no scrolling needed: a
        scroll sent before a slow phone has laid the page out would be lost)."""
        self.target: str | None = None
        """The section chosen from the contents menu, scrolled to."""
        self.query = ""
        self.scroller = ft.Column()
        self.search_box = ft.TextField(
            hint_text="Search: bait, nerf, forced…",
            prefix_icon=ft.Icons.SEARCH,
            on_change=self._typed,
            dense=False,
            border_radius=RADIUS,
            text_size=17,
            expand=True,
        )
        self.search_box.suffix = ft.IconButton(ft.Icons.CLOSE, tooltip="Clear the search",
                                               on_click=self._clear)
        self.count_line = ft.Text("", size=14, color=ft.Colors.ON_SURFACE_VARIANT,
                                  visible=False)
        self.pinned_view = (self.section_view(BY_ID[self.pinned], keyed=False)
                            if self.pinned else None)
        self.views = {sec.id: self.section_view(sec) for sec in SECTIONS}
        self.group_heads = {group: ft.Text(title.upper(), size=13, weight=ft.FontWeight.BOLD,
                                           color=ft.Colors.PRIMARY)
                            for group, title in GROUP_TITLES.items()}
        parts: list[ft.Control] = [self.count_line]
        if self.pinned_view is not None:
            parts.append(self.pinned_view)
        group = None
        for sec in SECTIONS:
            if sec.group != group:
                group = sec.group
                parts.append(self.group_heads[group])
            parts.append(self.views[sec.id])
        self.results = ft.Column(parts, spacing=24)

    def _typed(self, e: ft.Event[ft.TextField]) -> None:
        self.query = self.search_box.value or ""
        self.render()

    def _clear(self, _e: object) -> None:
        self.search_box.value = ""
        self.query = ""
        self.render()
        self.search_box.update()

    def go_to(self, section_id: str) -> None:
        """Show a section from the contents menu (clears a search that hides it)."""
        if self.target in self.views:
            self._highlight(self.views[self.target], False)
        self.target = section_id
        self._highlight(self.views[section_id], True)
        if self.query and section_id not in {s.id for s in search(self.query)}:
            self._clear(None)
        self.render()
        self.ctx.page.run_task(self.scroll_to_target)

    async def scroll_to_target(self) -> None:
        """Bring the chosen section into view (after a tap: the page is laid out)."""
        if self.target is None:
            return
        await asyncio.sleep(0.2)  # let the page draw the changed highlight first
        with contextlib.suppress(RuntimeError):  # the screen was left meanwhile
            if self.target == self.pinned:
                await self.scroller.scroll_to(offset=0, duration=300)
            else:
                await self.scroller.scroll_to(scroll_key=self.target, duration=300)

    def render(self, update: bool = True) -> None:
        words = self.query.strip()
        found = {sec.id for sec in search(words)}
        if words:
            count = len(found)
            self.count_line.value = (
                f"Nothing matches “{words}”" if not count else
                f"{count} section{'s' if count != 1 else ''} match “{words}”")
        self.count_line.visible = bool(words)
        if self.pinned_view is not None:
            self.pinned_view.visible = not words
        for sec_id, view in self.views.items():
            view.visible = sec_id in found and (bool(words) or sec_id != self.pinned)
        for head in self.group_heads.values():
            head.visible = not words
        if update:
            self.results.update()

    @staticmethod
    def _highlight(view: ft.Container, on: bool) -> None:
        view.padding = ft.Padding.all(12) if on else ft.Padding.symmetric(vertical=4)
        view.border = ft.Border.all(2, ft.Colors.PRIMARY) if on else None

    def section_view(self, sec: Section, keyed: bool = True) -> ft.Container:
        head: list[ft.Control] = [ft.Text(sec.title, size=21, weight=ft.FontWeight.BOLD)]
        if sec.house_rule and self.link.game is not None:
            state = setting(self.link.game.rules, sec.house_rule)
            head.append(ft.Container(
                content=ft.Text(state.text, size=13, weight=ft.FontWeight.W_600,
                                color=ft.Colors.WHITE if state.changed else None),
                bgcolor=MADE if state.changed else
                ft.Colors.SURFACE_CONTAINER_HIGHEST,
                border_radius=ft.BorderRadius.all(8),
                padding=ft.Padding.symmetric(horizontal=8, vertical=4),
            ))
        view = ft.Container(
            content=ft.Column([*head, *render_body(sec.body)], spacing=10),
            key=ft.ScrollKey(sec.id) if keyed else None,  # type: ignore[call-arg]
            border_radius=ft.BorderRadius.all(RADIUS),
        )
        self._highlight(view, not keyed)
        return view

    def house_notice(self) -> ft.Control | None:
        game = self.link.game
        if game is None:
            return None
        keys = changed_keys(game.rules)
        if not keys:
            return notice("This game plays the standard rules: no house rules.",
                          icon=ft.Icons.CHECK_CIRCLE_OUTLINE)
        titles = ", ".join(BY_ID[house_section_id(k)].title for k in keys)
        return notice(f"This game's house rules: {titles}. They are marked below.",
                      icon=ft.Icons.HOME_WORK)

    def contents_menu(self) -> ft.Control:
        return ft.PopupMenuButton(
            icon=ft.Icons.TOC,
            tooltip="Contents",
            items=[ft.PopupMenuItem(content=ft.Text(sec.title, size=16),
                                    on_click=lambda _e, s=sec.id: self.go_to(s))
                   for sec in SECTIONS],
        )


def rules_back(link: HandLink, came_from: str | None) -> str:
    """Back from the reference: the helper screen it was opened from, else the hand or
    sheet of the game, else home."""
    if came_from in _BACK_SCREENS:
        return _BACK_SCREENS[came_from] + link.query()
    return link.back_route


def rules_reference_view(ctx: AppContext, query: dict[str, str]) -> ft.View:
    link = link_from_query(ctx.store, query, GameModel.load)
    reference = RulesReference(ctx, link, query.get("section"))
    reference.render(update=False)
    body: list[ft.Control] = [ft.Row([reference.search_box])]
    house = reference.house_notice()
    if house is not None:
        body.append(house)
    body.append(reference.results)
    route = "/rules" + (f"?{urlencode(query)}" if query else "")
    bar = app_bar(ctx, "Rules", back_to=rules_back(link, query.get("from")),
                  actions=[reference.contents_menu()])
    return screen(route, bar, body, column=reference.scroller)
