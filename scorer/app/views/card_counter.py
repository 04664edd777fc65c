"""The card counter (`/count`): tap the cards in one team's tricks, and whether
they took the last trick; both teams' trick points show as you tap."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from rules.cards import LAST_TRICK_BONUS, NATURAL_ORDER, Card, Suit
from rules.counting import CARDS_PER_TRICK, TrickCount, count_tricks
from rules.hands import NO_TRUMP, TrumpCall
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.theme import RADIUS, suit_color
from scorer.app.views.run_checker import Chip, TrumpRow, helper_view
from scorer.app.widgets import (
    big_button,
    notice,
    section,
)
from scorer.recording.draft import Ending
from scorer.reference.hand_link import HandLink, link_from_query
from scorer.reference.session import session_state


def pile_words(cards: int, tricks_too: bool = False) -> str:
    """`1 card`; `12 cards, 3 tricks` with `tricks_too`."""
    words = f"{cards} card{'' if cards == 1 else 's'}"
    tricks, rest = divmod(cards, CARDS_PER_TRICK)
    if tricks_too and cards and not rest:
        words += f", {tricks} trick{'' if tricks == 1 else 's'}"
    return words


@dataclass
class CounterState:
    """The taps on one card counter, kept in the session."""

    origin: tuple[TrumpCall | None, int] | None
    """The hand draft's trump and counting team it started from."""
    cards: frozenset[Card] = frozenset()
    last: bool = False
    trump: TrumpCall | None = None
    team: int = 0


class CardCounter:
    """State of one card-counter screen."""

    def __init__(self, ctx: AppContext, link: HandLink) -> None:
        self.ctx = ctx
        self.link = link
        self.names = link.names
        draft = link.draft(ctx.drafts)
        origin = (draft.trump, draft.points_team) if draft is not None else None
        saved = session_state(ctx)
        self.key = f"count:{link.draft_key or (link.model.id if link.model else '-')}"
        state = saved.get(self.key)
        if not isinstance(state, CounterState) or state.origin != origin:
            state = CounterState(origin=origin)
            if draft is not None:
                state.trump, state.team = draft.trump, draft.points_team
            saved[self.key] = state
        self.st = state
        self.trumps = TrumpRow(ctx, link.trumps(), self.set_trump)
        self.trump_note = ft.Text("", size=13, color=ft.Colors.ON_SURFACE_VARIANT)
        self.team_chips = [Chip(lambda _e, t=t: self.set_team(t), size=15) for t in (0, 1)]
        self.suit_heads: dict[Suit, tuple[ft.Text, ft.Text]] = {}
        self.card_chips: dict[Card, Chip] = {
            card: Chip(lambda _e, c=card: self.tap(c))
            for card in (Card(rank=rank, suit=suit) for suit in Suit for rank in NATURAL_ORDER)}
        self.last_chip = Chip(lambda _e: self.set_last(not self.st.last), height=52)
        self.body = ft.Column(self._layout(), spacing=16)
        self.bottom = ft.Column(spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

    @property
    def trump_suit(self) -> Suit | None:
        return None if self.st.trump in (None, NO_TRUMP) else Suit(str(self.st.trump))

    def count(self) -> TrickCount | None:
        if self.st.trump is None:
            return None
        return count_tricks(self.st.cards, self.trump_suit, self.st.last)

    # --- taps ------------------------------------------------------------------------------
    def tap(self, card: Card) -> None:
        self.st.cards = self.st.cards - {card} if card in self.st.cards else self.st.cards | {card}
        self.render()

    def set_trump(self, trump: TrumpCall) -> None:
        self.st.trump = trump
        self.render()

    def set_team(self, team: int) -> None:
        self.st.team = team
        self.render()

    def set_last(self, last: bool) -> None:
        self.st.last = last
        self.render()

    def clear(self) -> None:
        self.st.cards = frozenset()
        self.st.last = False
        self.render()

    def use(self) -> None:
        """Put the count on the hand being recorded and go back to it."""
        count = self.count()
        key = self.link.draft_key
        draft = self.link.draft(self.ctx.drafts)
        if key is None or draft is None or count is None:
            return
        self.ctx.drafts[key] = draft.with_(digits=str(count.points), points_team=self.st.team,
                                           trump=self.st.trump, ending=Ending.PLAYED)
        session_state(self.ctx).pop(self.key, None)
        self.ctx.go(self.link.back_route)

    # --- drawing ---------------------------------------------------------------------------
    def _layout(self) -> list[ft.Control]:
        """The screen's parts, built once; `render` changes them in place."""
        parts: list[ft.Control] = []
        if self.link.problem:
            parts.append(notice(self.link.problem, error=True))
        parts.append(section("Trump", self.trump_note, self.trumps.control))
        parts.append(section("Whose tricks?",
                             ft.Row([chip.control for chip in self.team_chips], spacing=6)))
        for suit in Suit:
            name = ft.Text("", size=15, weight=ft.FontWeight.W_600, expand=True)
            tally = ft.Text("", size=14, color=ft.Colors.ON_SURFACE_VARIANT)
            self.suit_heads[suit] = (name, tally)
            chips = [self.card_chips[Card(rank=rank, suit=suit)].control
                     for rank in NATURAL_ORDER]
            parts.append(ft.Column([
                ft.Row([ft.Text(suit.symbol, size=22, weight=ft.FontWeight.BOLD,
                                color=suit_color(suit.value)), name, tally],
                       spacing=8),
                ft.Row(chips[:5], spacing=6),
                ft.Row(chips[5:], spacing=6),
            ], spacing=6))
        parts.append(ft.Row([self.last_chip.control]))
        return parts

    def render(self, update: bool = True) -> None:
        st = self.st
        trump = self.trump_suit
        known = st.trump is not None
        self.trumps.show(st.trump)
        self.trump_note.value = "" if known else \
            "Tap the trump suit: the cards are worth more in trumps."
        self.trump_note.visible = not known
        teams = self.names.teams
        for team, chip in enumerate(self.team_chips):
            chip.show(teams[team], "on" if st.team == team else "free",
                      tooltip=f"Counting {teams[team]}'s tricks")
        for suit, (name, tally) in self.suit_heads.items():
            mine = [c for c in st.cards if c.suit == suit]
            worth = sum(c.points(trump) for c in mine)
            name.value = suit.word.capitalize() + (" (trumps)" if suit == trump else "")
            tally.value = f"{pile_words(len(mine))} · {worth if known else '–'} pts"
        for card, chip in self.card_chips.items():
            chip.show(card.rank.value, "on" if card in st.cards else "free",
                      note=str(card.points(trump)) if known else "–", tooltip=card.label)
        self.last_chip.show(f"They took the last trick (+{LAST_TRICK_BONUS})",
                            "on" if st.last else "free")
        self.bottom.controls = self.bottom_controls(self.count())
        if update:
            self.body.update()
            self.bottom.update()

    def bottom_controls(self, count: TrickCount | None) -> list[ft.Control]:
        teams = self.names.teams
        me, them = teams[self.st.team], teams[1 - self.st.team]

        def figure(name: str, value: str, mine: bool) -> ft.Control:
            return ft.Container(
                content=ft.Column([
                    ft.Text(name, size=13, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                    ft.Text(value, size=32, weight=ft.FontWeight.BOLD),
                ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                expand=True, padding=6, border_radius=ft.BorderRadius.all(RADIUS),
                bgcolor=ft.Colors.PRIMARY_CONTAINER if mine else ft.Colors.SURFACE_CONTAINER_HIGH,
            )

        if count is None:
            row = ft.Row([figure(me, "–", True), figure(them, "–", False)], spacing=8)
            line = "Tap the trump suit to count"
        else:
            row = ft.Row([figure(me, str(count.points), True),
                          figure(them, str(count.other), False)], spacing=8)
            line = (f"{pile_words(count.cards, tricks_too=True)}: {count.card_points}"
                    f"{f' + {LAST_TRICK_BONUS} last' if count.last_trick else ''} = "
                    f"{count.points}; {them}: {count.total} − {count.points} = {count.other}")
        parts: list[ft.Control] = [row, ft.Text(line, size=13)]
        if count is not None and count.problem:
            parts.append(ft.Text(count.problem, size=13, color=ft.Colors.ERROR))
        if self.link.linked:
            hand = "the new hand" if self.link.index is None else f"hand {self.link.hand}"
            parts.append(ft.Row([big_button("Use this count", lambda _e: self.use(),
                                            tooltip=f"Put {me}'s count on {hand} and go back",
                                            icon=ft.Icons.CHECK, disabled=count is None,
                                            height=52)]))
        return parts


def card_counter_view(ctx: AppContext, query: dict[str, str]) -> ft.View:
    link = link_from_query(ctx.store, query, GameModel.load)
    return helper_view(ctx, link, CardCounter(ctx, link), path="/count", title="Card counter",
                       section="counting", section_title="counting")
