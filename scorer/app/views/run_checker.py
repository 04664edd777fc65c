"""The run checker (`/check`): tap each player's runs, or whole hand, and the
trump; the verdict (whose runs count, how much, why) shows as you tap."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import flet as ft

from rules.cards import NATURAL_ORDER, Card, Suit
from rules.hands import NO_TRUMP, TrumpCall
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.theme import BAIT, MADE, RADIUS, SMALL_TAP, suit_color
from scorer.app.views.common import app_bar, screen
from scorer.app.widgets import (
    SUIT_SYMBOLS,
    SUIT_WORDS,
    Handler,
    big_button,
    notice,
    section,
)
from scorer.reference.hand_link import HandLink, link_from_query, rules_route
from scorer.reference.house import setting, value_words
from scorer.reference.run_check import (
    SeatCheck,
    Verdict,
    bella_line,
    check_table,
    describe_runs,
    headline,
)
from scorer.reference.sections import BY_ID, house_section_id
from scorer.reference.session import session_state

RUN_HOUSE_RULES = ("long_runs", "run_ties", "partner_runs")


class Chip:
    """A tap target that changes its look in place: a tap updates a few properties
    instead of sending a new control, so the next tap lands on the same button."""

    def __init__(self, on_click: Handler, *, height: int = SMALL_TAP, size: int = 17,
                 expand: bool | int = True, width: float | None = None,
                 lines: int = 2) -> None:
        self.symbol = ft.Text("", size=22, weight=ft.FontWeight.BOLD, visible=False)
        self.label = ft.Text("", size=size, weight=ft.FontWeight.W_600, max_lines=lines,
                             overflow=ft.TextOverflow.ELLIPSIS, text_align=ft.TextAlign.CENTER)
        self.note = ft.Text("", size=10, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                            text_align=ft.TextAlign.CENTER, visible=False)
        self.button = ft.OutlinedButton(
            content=ft.Column([self.symbol, self.label, self.note], spacing=0, tight=True,
                              horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            on_click=on_click, height=height, expand=expand, width=width,
        )
        self.control: ft.Control = self.button

    def show(self, label: str, state: str = "free", *, note: str = "",
             tooltip: str | None = None, symbol: str = "", symbol_color: str | None = None,
             ) -> Chip:
        """`state`: "on" (chosen), "bad" (impossible, in red) or "free"."""
        bg: str | None
        if state == "bad":
            bg, fg = ft.Colors.ERROR, ft.Colors.ON_ERROR
        elif state == "on":
            bg, fg = ft.Colors.PRIMARY, ft.Colors.ON_PRIMARY
        else:
            bg, fg = None, ft.Colors.PRIMARY
        side = ft.BorderSide(1, bg or ft.Colors.OUTLINE)
        self.symbol.value, self.symbol.visible = symbol, bool(symbol)
        # A red suit on the chosen chip's green was 1.3:1: chosen, it takes the chip's ink.
        self.symbol.color = fg if state != "free" or symbol_color is None else symbol_color
        self.label.value, self.label.color = label, fg
        self.note.value, self.note.visible = note, bool(note)
        self.note.color = fg if state != "free" else ft.Colors.ON_SURFACE_VARIANT
        self.button.tooltip = tooltip
        self.button.style = ft.ButtonStyle(
            bgcolor=bg, side=side, padding=ft.Padding.symmetric(horizontal=4, vertical=2))
        return self


class TrumpRow:
    """The trump suits as big toggles (with their names when four fit)."""

    def __init__(self, ctx: AppContext, options: Sequence[TrumpCall],
                 pick: Callable[[TrumpCall], None]) -> None:
        self.ctx = ctx
        self.options = tuple(options)
        self.words = len(self.options) <= 4
        """Four suits leave room for their names in full size; five take smaller ones."""
        self.chips = [Chip(lambda _e, c=code: pick(c), height=60, size=11 if self.words else 9)
                      for code in self.options]
        self.control = ft.Row([chip.control for chip in self.chips], spacing=6)

    def show(self, chosen: TrumpCall | None) -> None:
        for code, chip in zip(self.options, self.chips, strict=True):
            text = str(code)
            chip.show(SUIT_WORDS[text], "on" if chosen == code else "free",
                      tooltip=f"Trump: {SUIT_WORDS[text]}",
                      symbol=SUIT_SYMBOLS[text] if text != NO_TRUMP else "NT",
                      symbol_color=suit_color(text))


def icon_button(icon: ft.IconData, tooltip: str, on_click: Handler) -> ft.Control:
    """An app-bar icon with a full 48 px tap target."""
    return ft.IconButton(icon, tooltip=tooltip, on_click=on_click, width=48, height=48)


def verdict_box(lines: list[str], good: bool | None, title: str) -> ft.Control:
    """The verdict band pinned at the bottom: green when runs score, red on a problem."""
    bg = MADE if good else BAIT if good is False else ft.Colors.SURFACE_CONTAINER_HIGHEST
    fg = ft.Colors.WHITE if good is not None else None
    texts: list[ft.Control] = [ft.Text(title, size=17, weight=ft.FontWeight.BOLD, color=fg)]
    texts += [ft.Text(line, size=14, color=fg) for line in lines]
    return ft.Container(content=ft.Column(texts, spacing=2), bgcolor=bg, padding=10,
                        border_radius=ft.BorderRadius.all(RADIUS))


@dataclass
class CheckerState:
    """The taps on one run checker, kept in the session."""

    seat: int
    origin: frozenset[tuple[int, Card]] | None
    """The hand draft's runs it started from (a changed draft starts afresh)."""
    hands: dict[int, frozenset[Card]] = field(
        default_factory=lambda: {seat: frozenset() for seat in range(4)})
    whole: dict[int, bool] = field(default_factory=lambda: dict.fromkeys(range(4), False))
    trump: TrumpCall | None = None
    suit: Suit = Suit.SPADES


class RunChecker:
    """State of one run-checker screen."""

    def __init__(self, ctx: AppContext, link: HandLink) -> None:
        self.ctx = ctx
        self.link = link
        self.names = link.names
        draft = link.draft(ctx.drafts)
        origin = draft.run_cards if draft is not None else None
        saved = session_state(ctx)
        self.key = f"check:{link.draft_key or (link.model.id if link.model else '-')}"
        state = saved.get(self.key)
        if not isinstance(state, CheckerState) or state.origin != origin:
            state = CheckerState(seat=(link.dealer + 1) % 4, origin=origin)
            if draft is not None:
                state.trump = draft.trump
                for seat, card in draft.run_cards:
                    state.hands[seat] = state.hands[seat] | {card}
                shown = next((seat for seat in range(4) if state.hands[seat]), None)
                if shown is not None:
                    state.seat = shown
                    state.suit = min(state.hands[shown], key=lambda c: c.rank.natural_index).suit
            saved[self.key] = state
        self.st = state
        self.trumps = TrumpRow(ctx, link.trumps(), self.set_trump)
        self.seat_chips = [Chip(lambda _e, s=s: self.set_seat(s), size=15, lines=1)
                           for s in range(4)]
        self.mode_chips = [Chip(lambda _e: self.set_whole(False)),
                           Chip(lambda _e: self.set_whole(True))]
        self.suit_chips = [Chip(lambda _e, s=s: self.set_suit(s)) for s in Suit]
        self.rank_chips = [Chip(lambda _e, r=i: self.tap_rank(r)) for i in range(9)]
        self.cards_note = ft.Text("", size=13, color=ft.Colors.ON_SURFACE_VARIANT)
        self.table = ft.Column(spacing=8)
        self.body = ft.Column(self._layout(), spacing=16)
        self.bottom = ft.Column(spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

    # --- state -----------------------------------------------------------------------------
    @property
    def trump_suit(self) -> Suit | None:
        return None if self.st.trump in (None, NO_TRUMP) else Suit(str(self.st.trump))

    def verdict(self) -> Verdict:
        return check_table(self.st.hands, self.st.whole, self.trump_suit, self.st.trump is not None,
                           self.link.rules, self.link.dealer, self.names)

    def tap_rank(self, index: int) -> None:
        self.tap_card(Card(rank=NATURAL_ORDER[index], suit=self.st.suit))

    def tap_card(self, card: Card) -> None:
        mine = self.st.hands[self.st.seat]
        self.st.hands[self.st.seat] = mine - {card} if card in mine else mine | {card}
        self.render()

    def set_seat(self, seat: int) -> None:
        self.st.seat = seat
        if self.st.hands[seat] and not any(c.suit == self.st.suit for c in self.st.hands[seat]):
            self.st.suit = min(self.st.hands[seat], key=lambda c: c.rank.natural_index).suit
        self.render()

    def set_suit(self, suit: Suit) -> None:
        self.st.suit = suit
        self.render()

    def set_trump(self, trump: TrumpCall) -> None:
        self.st.trump = trump
        self.render()

    def set_whole(self, whole: bool) -> None:
        self.st.whole[self.st.seat] = whole
        self.render()

    def clear(self, seat: int | None = None) -> None:
        for s in range(4) if seat is None else (seat,):
            self.st.hands[s] = frozenset()
        self.render()

    def use(self) -> None:
        """Carry the runs (and bella) into the hand being recorded, and go back to it."""
        verdict = self.verdict()
        key = self.link.draft_key
        draft = self.link.draft(self.ctx.drafts)
        if key is None or draft is None or not verdict.ok:
            return
        changes: dict[str, object] = {"run_cards": verdict.run_cards, "trump": self.st.trump}
        if verdict.bella_seat is not None:
            changes["bella"] = verdict.bella_seat
        self.ctx.drafts[key] = draft.with_(**changes)
        session_state(self.ctx).pop(self.key, None)
        self.ctx.go(self.link.back_route)

    # --- drawing ---------------------------------------------------------------------------
    def _layout(self) -> list[ft.Control]:
        """The screen's parts, built once; `render` changes them in place."""
        parts: list[ft.Control] = []
        if self.link.problem:
            parts.append(notice(self.link.problem, error=True))
        if self.link.standalone:
            # Who deals matters only to the turn-order house rule, which a checker with no
            # game never uses: nothing to say about it.
            parts.append(ft.Text("No game open: the standard rules.", size=13,
                                 color=ft.Colors.ON_SURFACE_VARIANT))
        elif self.link.model is not None:
            parts.append(ft.Text(self._game_line(), size=13, color=ft.Colors.ON_SURFACE_VARIANT))
        parts.append(section("Trump", self.trumps.control))

        def row(chips: list[Chip]) -> ft.Control:
            return ft.Row([chip.control for chip in chips], spacing=6)

        parts.append(section("Whose cards?", self.cards_note, row(self.seat_chips),
                             row(self.mode_chips), row(self.suit_chips),
                             row(self.rank_chips[:5]), row(self.rank_chips[5:])))
        parts.append(section("At the table", self.table))
        return parts

    def _game_line(self) -> str:
        """Who deals this hand, and the game's house rules that change runs."""
        dealer = self.link.dealer
        line = (f"Hand {self.link.position + 1}: {self.names.player(dealer)} deals, "
                f"{self.names.player((dealer + 1) % 4)} speaks first.")
        changed = [f"{BY_ID[house_section_id(key)].title}: "
                   f"{value_words(self.link.rules, key)}"
                   for key in RUN_HOUSE_RULES if setting(self.link.rules, key).changed]
        if changed:
            line += " House rules: " + "; ".join(changed) + "."
        return line

    def render(self, update: bool = True) -> None:
        verdict = self.verdict()
        st = self.st
        self.trumps.show(st.trump)
        for seat, chip in enumerate(self.seat_chips):
            count = len(st.hands[seat])
            chip.show(self.names.player(seat), "on" if st.seat == seat else "free",
                      note=f"{count} card{'' if count == 1 else 's'}" if count else "–",
                      tooltip=f"{self.names.player(seat)}'s cards")
        whole = st.whole[st.seat]
        self.mode_chips[0].show("Runs shown", "free" if whole else "on")
        self.mode_chips[1].show("Whole hand", "on" if whole else "free")
        for suit, chip in zip(Suit, self.suit_chips, strict=True):
            chip.show("", "on" if st.suit == suit else "free", tooltip=suit.word.capitalize(),
                      symbol=suit.symbol, symbol_color=suit_color(suit.value))
        bad = verdict.bad_cards
        for rank, chip in zip(NATURAL_ORDER, self.rank_chips, strict=True):
            card = Card(rank=rank, suit=st.suit)
            holders = [s for s in range(4) if card in st.hands[s] and s != st.seat]
            state = ("bad" if (st.seat, card) in bad else
                     "on" if card in st.hands[st.seat] else "free")
            chip.show(rank.value, state, note=", ".join(self.names.player(s) for s in holders),
                      tooltip=card.label)
        who = self.names.player(st.seat)
        self.cards_note.value = (
            f"Tap all of {who}'s cards (up to nine): the checker finds the runs and bella."
            if whole else f"Tap the cards of each run {who} showed: suit, then ranks.")
        self.table.controls = self._table_rows(verdict)
        self.bottom.controls = self.bottom_controls(verdict)
        if update:
            self.body.update()
            self.bottom.update()

    def _table_rows(self, verdict: Verdict) -> list[ft.Control]:
        rows = [self._seat_row(check, verdict) for check in verdict.seats]
        return rows or [ft.Text("Nothing tapped yet.", size=15,
                                color=ft.Colors.ON_SURFACE_VARIANT)]

    def _seat_row(self, check: SeatCheck, verdict: Verdict) -> ft.Control:
        who = self.names.player(check.seat)
        bad = verdict.bad_cards
        spans = []
        for card in check.cards:
            wrong = (check.seat, card) in bad
            red = card.suit.is_red
            colour = ft.Colors.ERROR if wrong else (
                suit_color(card.suit.value) if red else None)
            spans.append(ft.TextSpan(card.label + " ", style=ft.TextStyle(
                color=colour, weight=ft.FontWeight.BOLD if wrong else None,
                decoration=ft.TextDecoration.UNDERLINE if wrong else None)))
        kind = "whole hand" if check.whole_hand else "runs shown"
        found = describe_runs(check.runs, self.trump_suit, self.link.rules)
        lines: list[ft.Control] = [
            ft.Text(f"{who} ({kind}, {len(check.cards)} cards)", size=14,
                    weight=ft.FontWeight.W_600),
            ft.Text(spans=spans, size=16),
            ft.Text(f"Runs: {found}" if found else "No run", size=14),
        ]
        if check.bella:
            lines.append(ft.Text("Bella: king and queen of trumps", size=14))
        lines += [ft.Text(problem, size=14, color=ft.Colors.ERROR) for problem in check.problems]
        return ft.Container(
            content=ft.Row([
                ft.Column(lines, spacing=2, expand=True),
                icon_button(ft.Icons.CLOSE, f"Clear {who}'s cards",
                            lambda _e, s=check.seat: self.clear(s)),
            ], vertical_alignment=ft.CrossAxisAlignment.START),
            padding=ft.Padding.only(left=10, top=6, bottom=6),
            border_radius=ft.BorderRadius.all(10),
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        )

    def bottom_controls(self, verdict: Verdict) -> list[ft.Control]:
        title = headline(verdict, self.names)
        lines: list[str]
        good: bool | None
        if verdict.problems:
            lines, good = list(verdict.problems)[:3], False
        else:
            # The headline already says whose runs count and for how much.
            lines = [reason.text for reason in verdict.reasons if reason.code != "runs.score"]
            good = True if verdict.ruling and verdict.ruling.winner is not None else None
        bella = bella_line(verdict, self.trump_suit, self.names)
        if bella and not verdict.problems:
            lines.append(bella)
        if verdict.needs_trump and verdict.runs:
            lines.insert(0, "Tap the trump suit: a trump run beats an equal plain run")
            good = None
        parts: list[ft.Control] = [verdict_box(lines, good, title)]
        if self.link.linked:
            hand = "the new hand" if self.link.index is None else f"hand {self.link.hand}"
            parts.append(ft.Row([big_button("Use these runs", lambda _e: self.use(),
                                            tooltip=f"Put these runs on {hand} and go back",
                                            icon=ft.Icons.CHECK, disabled=not verdict.ok,
                                            height=52)]))
        return parts


class HelperScreen(Protocol):
    """What the run checker and the card counter have in common."""

    body: ft.Column
    bottom: ft.Column

    def render(self, update: bool = True) -> None: ...
    def clear(self) -> None: ...


def helper_view(
    ctx: AppContext, link: HandLink, helper: HelperScreen, *, path: str, title: str,
    section: str, section_title: str,
) -> ft.View:
    """A table helper's screen: Clear, a link to its rules section, Back to the hand."""
    helper.render(update=False)
    bar = app_bar(ctx, title, back_to=link.back_route, actions=[
        icon_button(ft.Icons.DELETE_SWEEP, "Clear all cards", lambda _e: helper.clear()),
        icon_button(ft.Icons.MENU_BOOK, f"Rules: {section_title}",
                    lambda _e: ctx.go(rules_route(section, link, path.strip("/")))),
    ])
    return screen(path + link.query(), bar, [helper.body], bottom=helper.bottom)


def run_checker_view(ctx: AppContext, query: dict[str, str]) -> ft.View:
    link = link_from_query(ctx.store, query, GameModel.load)
    return helper_view(ctx, link, RunChecker(ctx, link), path="/check", title="Run checker",
                       section="runs", section_title="runs")
