"""Record (or edit) a hand: caller, trump, runs, bella, then the trick points."""

from __future__ import annotations

import flet as ft

from rules.cards import NATURAL_ORDER, Card, Suit
from rules.errors import TarabishError
from rules.game_file import hand_to_doc
from rules.outcome_words import outcome_word
from rules.runs import rule_runs
from rules.table import team_of
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.theme import BAIT, MADE, RADIUS
from scorer.app.views.common import app_bar, message_view, screen
from scorer.app.widgets import (
    END_SEAT_WIDTH,
    Keep,
    big_button,
    felt,
    notice,
    number_pad,
    section,
    small_toggle,
    suit_label,
    table_layout,
    toggle,
)
from scorer.draft import (
    CallerOption,
    Ending,
    HandDraft,
    Preview,
    caller_options,
    preview_draft,
    trump_options,
)
from scorer.store.errors import StaleRevision, StoreError

PREVIEW_HEIGHT = 100
ENDINGS = ((Ending.PLAYED, "Counted"), (Ending.MISPLAY, "Misplay"), (Ending.THROWN, "Thrown in"),
           (Ending.PASSED, "All passed"))


class RecordHand:
    """The record-a-hand screen for one game; `index` None records the next hand."""

    def __init__(self, ctx: AppContext, model: GameModel, index: int | None) -> None:
        self.ctx = ctx
        self.model = model
        self.index = index
        self.key = ctx.draft_key(model.id, index)
        start = HandDraft()
        if index is not None:
            start = HandDraft.from_hand(model.game.hands[index])
        self.draft = ctx.drafts.get(self.key, start)
        self.run_seat: int | None = next((s for s, _c in self.draft.run_groups()), None)
        self.run_suit: Suit = Suit.SPADES
        self.show_runs = bool(self.draft.run_cards) or self.draft.bella is not None
        self.keep = Keep()
        # Built once: a keyed control rebuilt on every tap would make Flet freeze
        # everything inside it, and the kept keys could not change any more.
        self.points_anchor = ft.Column(key=ft.ScrollKey("points"))  # type: ignore[call-arg]
        self.body = ft.Column(spacing=18)
        self.scroller = ft.Column()
        self.save_button = ft.Row()
        self.problem = ""

    # --- state -----------------------------------------------------------------------------
    @property
    def position(self) -> int:
        return len(self.model.game.hands) if self.index is None else self.index

    @property
    def dealer(self) -> int:
        return (self.model.game.first_dealer + self.position) % 4

    def set(self, draft: HandDraft) -> None:
        self.draft = draft
        self.ctx.drafts[self.key] = draft
        self.problem = ""
        self.render()

    def tap_caller(self, seat: int) -> None:
        draft = self.draft.with_(caller=seat)
        if not draft.digits:
            draft = draft.with_(points_team=team_of(seat))
        if draft.ending is Ending.PASSED:
            draft = draft.with_(ending=Ending.PLAYED)
        self.set(draft)

    def tap_trump(self, code: str) -> None:
        self.set(self.draft.with_(trump=code))
        if self.draft.caller is not None and not self.draft.digits and not self.show_runs:
            # Caller and trump are in: the thumb goes to the number pad next.
            # A jump, not an animation: keys must not move under a tapping thumb.
            self.ctx.page.run_task(self.scroller.scroll_to, scroll_key="points", duration=0)

    def _detour(self, path: str) -> None:
        """Open the run checker or card counter for this hand; its result comes back
        into this draft (kept in the session under `self.key`)."""
        self.ctx.drafts[self.key] = self.draft
        hand = "new" if self.index is None else str(self.index + 1)
        self.ctx.go(f"{path}?game={self.model.id}&hand={hand}")

    def tap_run_seat(self, seat: int) -> None:
        self.run_seat = seat
        self.render()

    def tap_run_suit(self, suit: Suit) -> None:
        self.run_suit = suit
        self.render()

    def tap_rank(self, card: Card) -> None:
        if self.run_seat is not None:
            self.set(self.draft.toggle_card(self.run_seat, card))

    def save(self) -> None:
        shown = preview_draft(self.model.game, self.draft, self.index)
        if not shown.ready:
            self.problem = shown.text
            self.render()
            return
        hand = hand_to_doc(self.draft.build())
        try:
            self.ctx.actions.save_hand(self.model, hand, self.index)
        except StaleRevision as exc:
            self.model = GameModel.load(exc.current)
            self.problem = str(exc)
            self.ctx.toast(str(exc), error=True)
            self.render()
            return
        except (StoreError, TarabishError) as exc:
            self.problem = str(exc)
            self.render()
            return
        self.ctx.drafts.pop(self.key, None)
        self.ctx.go(f"/game/{self.model.id}")

    # --- drawing ---------------------------------------------------------------------------
    def render(self) -> None:
        self.body.controls = self.controls()
        self.save_button.controls = self.bottom_controls()
        if self.body.page is not None:
            self.body.update()
            self.save_button.update()

    def _name(self, seat: int) -> str:
        return self.model.game.names.player(seat)

    def controls(self) -> list[ft.Control]:
        controls: list[ft.Control] = [self._caller_section()]
        if self.draft.ending is not Ending.PASSED:
            controls.append(self._trump_section())
            controls.append(self._extras_section())
        controls.append(self._ending_section())
        return controls

    def _caller_section(self) -> ft.Control:
        options = caller_options(self.model.game, self.model.replay, self.position)

        def seat_button(option: CallerOption) -> ft.Control:
            label = option.name + (" (deals)" if option.seat == self.dealer else "")
            return toggle(label, self.draft.caller == option.seat,
                          lambda _e, s=option.seat: self.tap_caller(s),
                          disabled=not option.allowed, tooltip=option.reason or None,
                          width=None if option.seat in (1, 3) else END_SEAT_WIDTH,
                          expand=option.seat in (1, 3), height=52,
                          spoken=f"{option.name} called", keep=self.keep,
                          key=f"caller-{option.seat}")

        seats = {o.seat: seat_button(o) for o in options}
        eldest = (self.dealer + 1) % 4
        middle = felt(f"{self._name(self.dealer)} deals", f"{self._name(eldest)} first",
                      width=96, height=60)
        parts: list[ft.Control] = [table_layout(seats, middle)]
        parts.extend(ft.Text(o.reason, size=13, color=ft.Colors.ERROR)
                     for o in options if not o.allowed)
        return section("Who called?", *parts)

    def _trump_section(self) -> ft.Control:
        dark = self.ctx.dark
        buttons = [toggle(suit_label(code, dark), self.draft.trump == code,
                          lambda _e, c=code: self.tap_trump(c), height=60,
                          keep=self.keep, key=f"trump-{code}")
                   for code in (str(t) for t in trump_options(self.model.game))]
        return section("Trump", ft.Row(buttons, spacing=6))

    def _extras_section(self) -> ft.Control:
        if not self.show_runs:
            return ft.Row([big_button("Runs or bella shown?", self._open_runs,
                                      icon=ft.Icons.STYLE, primary=False, height=48)])
        return ft.Column([self._runs_panel(), self._bella_section()], spacing=18)

    def _open_runs(self, _e: object) -> None:
        self.show_runs = True
        self.render()

    def _runs_panel(self) -> ft.Control:
        draft = self.draft
        dark = self.ctx.dark
        seats = ft.Row([small_toggle(self._name(s), self.run_seat == s,
                                     lambda _e, s=s: self.tap_run_seat(s),
                                     spoken=f"{self._name(s)} shows runs", keep=self.keep,
                                     key=f"runseat-{s}") for s in range(4)],
                       spacing=6)
        parts: list[ft.Control] = [seats]
        if self.run_seat is not None:
            suits = ft.Row([small_toggle(suit_label(s.value, dark, size=22, word=False),
                                         self.run_suit == s,
                                         lambda _e, s=s: self.tap_run_suit(s),
                                         keep=self.keep, key=f"runsuit-{s.value}")
                            for s in Suit],
                           spacing=6)
            mine = set(draft.cards_of(self.run_seat))
            chips = [small_toggle(rank.value, Card(rank=rank, suit=self.run_suit) in mine,
                                  lambda _e, r=rank: self.tap_rank(Card(rank=r,
                                                                        suit=self.run_suit)),
                                  spoken=f"run card {rank.value}", keep=self.keep,
                                  key=f"rank-{rank.value}")
                     for rank in NATURAL_ORDER]
            parts += [suits, ft.Row(chips[:5], spacing=6), ft.Row(chips[5:], spacing=6)]
        for seat in range(4):
            cards = draft.cards_of(seat)
            if cards:
                shown = " ".join(c.label for c in cards)
                parts.append(ft.Row([
                    ft.Text(f"{self._name(seat)}: {shown}", size=15, expand=True),
                    ft.IconButton(ft.Icons.CLOSE, tooltip=f"Clear {self._name(seat)}'s runs",
                                  on_click=lambda _e, s=seat: self.set(draft.clear_runs(s))),
                ]))
        parts.append(self._runs_verdict())
        parts.append(ft.Row([big_button("Open the run checker", lambda _e: self._detour("/check"),
                                        icon=ft.Icons.STYLE, primary=False, height=48)]))
        return section("Runs shown", *parts,
                       note="Tap the player, the suit, then the cards of each run they showed.")

    def _runs_verdict(self) -> ft.Control:
        draft = self.draft
        if not draft.run_cards:
            return ft.Container()
        short = draft.short_groups()
        if short:
            cards = " ".join(c.label for c in short[0][1])
            return ft.Text(f"{cards}: a run needs three or more in a row", size=14,
                           color=ft.Colors.ON_SURFACE_VARIANT)
        trump = None if draft.trump in (None, "NT") else Suit(str(draft.trump))
        try:
            ruling = rule_runs(draft.runs, trump, self.model.game.rules, self.dealer,
                               self.model.game.names)
        except TarabishError as exc:
            return notice(str(exc), error=True)
        text = ". ".join(r.text for r in ruling.reasons) or "No runs score"
        return notice(text, icon=ft.Icons.STYLE)

    def _bella_section(self) -> ft.Control:
        draft = self.draft
        buttons = [small_toggle(self._name(s), draft.bella == s,
                                lambda _e, s=s: self.set(draft.with_(
                                    bella=None if draft.bella == s else s)),
                                spoken=f"{self._name(s)} has bella", keep=self.keep,
                                key=f"bella-{s}")
                   for s in range(4)]
        return section("Bella (king and queen of trumps)", ft.Row(buttons, spacing=6),
                       note="Tap who scored bella; tap again to take it off.")

    def _ending_section(self) -> ft.Control:
        draft = self.draft
        endings = [e for e in ENDINGS
                   if e[0] is not Ending.PASSED or self.model.game.rules.dealer_may_pass]
        row = ft.Row([small_toggle(label, draft.ending is ending,
                                   lambda _e, e=ending: self.set(draft.with_(ending=e)),
                                   keep=self.keep, key=f"ending-{ending.value}")
                      for ending, label in endings], spacing=6)
        parts: list[ft.Control] = [row]
        if draft.ending is Ending.PLAYED:
            parts.append(self._points())
        elif draft.ending is Ending.MISPLAY:
            teams = self.model.game.team_names
            parts.append(ft.Text("Called by", size=15))
            parts.append(ft.Row([small_toggle(teams[t], draft.misplay_by == t,
                                              lambda _e, t=t: self.set(draft.with_(misplay_by=t)),
                                              spoken=f"misplay called by {teams[t]}",
                                              keep=self.keep, key=f"misplay-{t}")
                                 for t in (0, 1)], spacing=6))
            parts.append(ft.Row([
                small_toggle("Upheld", draft.misplay_upheld is True,
                             lambda _e: self.set(draft.with_(misplay_upheld=True)),
                             keep=self.keep, key="upheld"),
                small_toggle("Not upheld", draft.misplay_upheld is False,
                             lambda _e: self.set(draft.with_(misplay_upheld=False)),
                             keep=self.keep, key="not-upheld"),
            ], spacing=6))
        elif draft.ending is Ending.THROWN:
            parts.append(ft.Text("Who threw in?", size=15))
            parts.append(ft.Row([small_toggle(self._name(s), draft.thrown_by == s,
                                              lambda _e, s=s: self.set(draft.with_(thrown_by=s)),
                                              spoken=f"{self._name(s)} threw in",
                                              keep=self.keep, key=f"thrown-{s}")
                                 for s in range(4)], spacing=6))
        self.points_anchor.controls = [section("Trick points", *parts)]
        return self.points_anchor

    def _points(self) -> ft.Control:
        draft = self.draft
        teams = self.model.game.team_names
        rest = draft.other_tricks()

        def box(team: int) -> ft.Control:
            typing = team == draft.points_team
            figure = (draft.digits or "–") if typing else ("–" if rest is None else str(rest))
            return ft.Container(
                ft.Column([
                    ft.Text(teams[team], size=13, max_lines=1,
                            overflow=ft.TextOverflow.ELLIPSIS),
                    ft.Text(figure, size=40, weight=ft.FontWeight.BOLD,
                            color=None if typing else ft.Colors.ON_SURFACE_VARIANT),
                    ft.Text("typing" if typing else "tap to type", size=11,
                            color=ft.Colors.ON_SURFACE_VARIANT),
                ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                expand=True, padding=6, border_radius=ft.BorderRadius.all(RADIUS),
                bgcolor=ft.Colors.PRIMARY_CONTAINER if typing else
                ft.Colors.SURFACE_CONTAINER_HIGH,
                border=ft.Border.all(2, ft.Colors.PRIMARY) if typing else None,
                on_click=None if typing else
                (lambda _e, t=team: self.set(self.draft.with_(points_team=t))),
                tooltip=f"{teams[team]} counted",
            )

        parts: list[ft.Control] = [ft.Row([box(0), box(1)], spacing=8)]
        problem = draft.points_problem()
        if problem:
            parts.append(ft.Text(problem, size=14, color=ft.Colors.ERROR))
        parts.append(number_pad(lambda d: self.set(self.draft.press_digit(d)),
                                lambda _e: self.set(self.draft.backspace()),
                                lambda _e: self.set(self.draft.with_(digits="")),
                                keep=self.keep))
        parts.append(ft.Row([big_button("Count the cards", lambda _e: self._detour("/count"),
                                        icon=ft.Icons.CALCULATE, primary=False, height=48)]))
        return ft.Column(parts, spacing=10)

    def _preview(self, shown: Preview) -> ft.Control:
        """The ruling so far, in a box of fixed height: a box that grew as digits
        are typed would move the number pad under the thumb."""
        ruling = shown.result.ruling if shown.result and shown.ready else None
        if self.problem or ruling is None:
            return self._preview_box(
                ft.Text(self.problem or shown.text, size=15, max_lines=3,
                        overflow=ft.TextOverflow.ELLIPSIS,
                        color=ft.Colors.ON_ERROR_CONTAINER if self.problem else None),
                ft.Colors.ERROR_CONTAINER if self.problem else ft.Colors.SURFACE_CONTAINER_HIGH,
            )
        verdict = [r for r in ruling.reasons if r.code.startswith("hand.")] or list(ruling.reasons)
        colour = MADE if ruling.outcome.value == "made" else BAIT
        words = ft.Column([
            ft.Text(outcome_word(ruling.outcome), size=17, weight=ft.FontWeight.BOLD,
                    color=ft.Colors.WHITE),
            ft.Text(". ".join(r.text for r in verdict), size=14, color=ft.Colors.WHITE,
                    max_lines=3, overflow=ft.TextOverflow.ELLIPSIS),
        ], spacing=2, expand=True)
        why = ft.TextButton("Why?", icon=ft.Icons.MENU_BOOK, height=48,
                            style=ft.ButtonStyle(color=ft.Colors.WHITE,
                                                 icon_color=ft.Colors.WHITE),
                            tooltip="The rule behind this ruling",
                            on_click=lambda _e, s=verdict[0].section: self._why(s))
        content = ft.Row([words, why], vertical_alignment=ft.CrossAxisAlignment.START)
        return self._preview_box(content, colour)

    @staticmethod
    def _preview_box(content: ft.Control, colour: str) -> ft.Control:
        return ft.Container(content=content, bgcolor=colour, height=PREVIEW_HEIGHT,
                            border_radius=ft.BorderRadius.all(RADIUS),
                            padding=ft.Padding.symmetric(horizontal=10, vertical=6),
                            alignment=ft.Alignment.CENTER_LEFT)

    def _why(self, section_id: str) -> None:
        """Open the rules at the section behind the ruling; Back returns to this hand."""
        self.ctx.drafts[self.key] = self.draft
        hand = "new" if self.index is None else str(self.index + 1)
        self.ctx.go(f"/rules?section={section_id}&game={self.model.id}&hand={hand}&from=hand")

    def bottom_controls(self) -> list[ft.Control]:
        """Pinned under the screen: the ruling so far, then Save."""
        shown = preview_draft(self.model.game, self.draft, self.index)  # once per redraw
        return [ft.Column([self._preview(shown), ft.Row([self._save_control(shown.ready)])],
                          spacing=8, expand=True)]

    def _save_control(self, ready: bool) -> ft.Control:
        label = "Save hand" if self.index is None else f"Save hand {self.index + 1}"
        return self.keep.control(
            "save",
            lambda: big_button(label, lambda _e: self.save(), icon=ft.Icons.CHECK,
                               disabled=not ready, height=60),
            {"disabled": not ready},
        )


def record_hand_view(ctx: AppContext, game_id: str, number: int | None = None) -> ft.View:
    route = f"/game/{game_id}/hand" + ("" if number is None else f"/{number}")
    try:
        model = GameModel.load(ctx.store.get_game(game_id))
    except (StoreError, ValueError) as exc:
        return message_view(ctx, route, "Game not found", str(exc))
    if not ctx.actions.can_edit(game_id):
        return ctx.actions.locked_view(route, game_id)
    index = None if number is None else number - 1
    if index is not None and not 0 <= index < len(model.game.hands):
        return message_view(ctx, route, "No such hand",
                            f"This game has {len(model.game.hands)} hands, not {number}.")
    if index is None and model.replay.is_over:
        return message_view(ctx, route, "Game over",
                            "This game has been won: no more hands can be recorded.")
    form = RecordHand(ctx, model, index)
    form.body.controls = form.controls()
    form.save_button.controls = form.bottom_controls()
    title = "Record hand" if index is None else f"Edit hand {number}"
    title += f" {len(model.game.hands) + 1}" if index is None else ""
    bar = app_bar(ctx, title, back_to=f"/game/{game_id}")
    return screen(route, bar, [form.body], bottom=form.save_button, column=form.scroller)
