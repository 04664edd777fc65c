"""Record (or edit) a hand: caller, trump, runs, bella, then the trick points."""

from __future__ import annotations

import flet as ft

from rules.cards import NATURAL_ORDER, Card, Suit
from rules.errors import TarabishError
from rules.game_file import hand_to_doc
from rules.hand_file import parse_hand
from rules.outcome_words import outcome_word
from rules.ruling import HandRuling
from rules.runs import rule_runs
from rules.table import team_of
from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.theme import BAIT, MADE, RADIUS, SMALL_TAP
from scorer.app.unsaved import NOT_SAVED
from scorer.app.views.common import app_bar, message_view, screen
from scorer.app.views.conflict import conflict_view, sync_clash_view
from scorer.app.views.kept import Kept
from scorer.app.views.sheet import sheet_layer, sheet_view
from scorer.app.views.table_code import locked_view
from scorer.app.widgets import (
    END_SEAT_WIDTH,
    SECTION_SPACING,
    Keep,
    big_button,
    felt,
    notice,
    number_pad,
    own_layer,
    section,
    section_controls,
    small_toggle,
    suit_label,
    table_layout,
    toggle,
    toggle_style,
)
from scorer.recording.conflicts import Clash, DraftPlace, assess
from scorer.recording.draft import (
    CallerOption,
    Ending,
    HandDraft,
    Preview,
    caller_options,
    preview_draft,
    trump_options,
)
from scorer.recording.kept_save import kept_text
from scorer.reference.sections import title_of
from scorer.store.errors import StaleRevision, StoreError
from scorer.text.trail import change_text

PREVIEW_HEIGHT = 100
SMALL_SCREEN = 700
"""Below this height (a 360x640 phone) the ruling and Save pinned under the form are
drawn smaller: at full size they took a third of the screen."""
QUICK_NAME_WIDTH = 64
RUN_WORDS = {20: "twenty", 50: "fifty", 100: "hundred"}
ENDINGS = ((Ending.PLAYED, "Counted"), (Ending.MISPLAY, "Misplay"), (Ending.THROWN, "Thrown in"),
           (Ending.PASSED, "All passed"))


class RecordHand:
    """The record-a-hand screen for one game; `index` None records the next hand.

    The screen is built once. A tap changes the fields of the controls that show
    something new (the typed figure, the other team's figure, the ruling box,
    Save, a toggle's colour) and sends only those: a whole-screen redraw per tap
    cost the phone a rebuild of every widget and ten times the bytes. Only the
    parts of the screen holding a changed control are compared with what the
    phone has: comparing the whole screen was nine tenths of a tap's server time.
    """

    def __init__(self, ctx: AppContext, model: GameModel, index: int | None,
                 place: DraftPlace) -> None:
        self.ctx = ctx
        self.model = model
        self.index = index
        self.key = ctx.draft_key(model.id, index)
        self.place = place
        """The hand's number and the revision the player sees it on (kept in
        `ctx.places`): a save is made on that revision or not at all."""
        self.draft = ctx.drafts.get(self.key) or start_draft(model, index)
        self.run_seat: int | None = next((s for s, _c in self.draft.run_groups()), None)
        self.run_suit: Suit = Suit.SPADES
        self.show_runs = bool(self.draft.run_cards)
        """The card-by-card runs panel is open (the quick grid is always there)."""
        self.keep = Keep()
        self.problem = ""
        # Built once: a keyed control rebuilt on every tap would make Flet freeze
        # everything inside it, and the kept keys could not change any more.
        self.points_anchor = ft.Column(key=ft.ScrollKey("points"),  # type: ignore[call-arg]
                                       spacing=SECTION_SPACING)
        self.scroller = ft.Column()
        self._dirty: list[ft.Control] = []
        self._drawn: dict[str, object] = {}
        """What each changing part shows now (a part is redrawn when this differs)."""
        self._selected: dict[str, bool] = {}
        self._caller_options = caller_options(model.game, model.replay, self.position)
        self._trumps = [str(t) for t in trump_options(model.game)]
        # The parts of the screen; `draw()` fills them in.
        self.trump_part = ft.Column(spacing=SECTION_SPACING)
        self.extras_part = ft.Column(spacing=18)
        self.ending_detail = ft.Column(spacing=10)
        self.figures = [self._figure_box(team) for team in (0, 1)]
        self.figures_row = ft.Row([self.figures[0][0], self.figures[1][0]], spacing=8)
        self.caller_part = ft.Column(spacing=SECTION_SPACING)
        small = (ctx.page.height or 1000) < SMALL_SCREEN
        # Keys and Save of 48 and 52 px (over the 48 px minimum): the runs fit under the
        # pad at 390x844, and the pad's bottom row above the ruling at 360x640.
        self.points_part = self._points(SMALL_TAP)
        # Three lines of reasons at every size: two were cut short at 360 px ("…needed
        # 82: short. Ba…"); a small phone draws them smaller instead.
        self.ruling_plain = ft.Text("", size=14 if small else 15, max_lines=3,
                                    overflow=ft.TextOverflow.ELLIPSIS)
        self.ruling_outcome = ft.Text("", size=15 if small else 17, weight=ft.FontWeight.BOLD,
                                      color=ft.Colors.WHITE)
        self.ruling_reasons = ft.Text("", size=13 if small else 14, color=ft.Colors.WHITE,
                                      max_lines=3, overflow=ft.TextOverflow.ELLIPSIS)
        self.shown_ruling: HandRuling | None = None
        """The ruling in the box now, for "Why?" (the explanation of this very hand)."""
        self.ruling_verdict = ft.Row([
            ft.Column([self.ruling_outcome, self.ruling_reasons], spacing=2, expand=True),
            # The word alone: with a book icon beside it the reasons had a third less
            # width, and were cut short at 360 px ("short. Ba…").
            ft.TextButton("Why?", height=48,
                          style=ft.ButtonStyle(color=ft.Colors.WHITE),
                          # The box is a fixed size (the pad must not move under the
                          # thumb): Why? shows the whole ruling, however long.
                          tooltip="The whole ruling of this hand, worked out",
                          on_click=lambda _e: self.explain()),
        ], vertical_alignment=ft.CrossAxisAlignment.START)
        # The colour is a layer under the words: made and bait swap colours as digits
        # are typed, and a colour set on the box itself rebuilt everything in it on
        # the phone (the words, the Why? button) at every digit.
        self.ruling_colour = ft.Container(border_radius=ft.BorderRadius.all(RADIUS))
        self.ruling_words = ft.Container(
            content=self.ruling_plain, padding=ft.Padding.symmetric(horizontal=10, vertical=6),
            alignment=ft.Alignment.CENTER_LEFT)
        self.ruling_box = ft.Stack([self.ruling_colour, self.ruling_words],
                                   fit=ft.StackFit.EXPAND,
                                   height=PREVIEW_HEIGHT - (8 if small else 0))
        label = "Save hand" if index is None else f"Save hand {index + 1}"
        self.save_control = big_button(label, self.save_tapped, icon=ft.Icons.CHECK,
                                       height=52)
        self._saving = False
        """A Save is on its way (a second tap waits for it)."""
        self.body = ft.Column(spacing=18)
        self.save_button = ft.Row([ft.Column([self.ruling_box, ft.Row([self.save_control])],
                                             spacing=8, expand=True)])
        self.ending_row = ft.Row(spacing=6)
        self._parts: list[ft.Control] = [self.figures_row, self.pad, self.ending_row,
                                         self.ending_detail, self.points_anchor,
                                         self.extras_part, self.trump_part, self.caller_part,
                                         self.save_button]
        """Parts of the screen an update skips when nothing in them changed."""

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
        if self.draft.caller is not None and not self.draft.digits and not self.show_runs \
                and not self.draft.has_runs and self.draft.bella is None:
            # Caller and trump are in: the thumb goes to the number pad next, with the
            # figures at the top (the rarer endings just above): the pad's bottom row,
            # and at 390x844 the runs after it, are in view without a scroll.
            # A jump, not an animation: keys must not move under a tapping thumb.
            self.ctx.page.run_task(self.scroller.scroll_to, scroll_key="figures", duration=0)

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

    async def save_tapped(self, _e: object = None) -> None:
        """Save: the phone keeps the hand before the store sees it, so that a server
        going away meanwhile cannot lose it (`scorer.app.unsaved`), then the save."""
        if self._saving:
            return
        draft = self.draft
        if not preview_draft(self.model.game, draft, self.index).ready:
            self.save(draft)  # says what is missing
            return
        self._saving = True
        try:
            # Saved on the revision on show (`record_hand_view` moved the place to it).
            self.place = self.place.model_copy(update={"revision": self.model.stored.revision,
                                                       "unsaved": False})
            self.ctx.places[self.key] = self.place
            await self.ctx.actions.keep_unsaved(
                self.key, kept_text(self.model.id, self.index, self.place, draft))
            self.save(draft)
        finally:
            self._saving = False

    def save(self, draft: HandDraft | None = None) -> None:
        """Save `draft` (the hand on show by default), on the revision on show."""
        draft = self.draft if draft is None else draft
        shown = preview_draft(self.model.game, draft, self.index)
        if not shown.ready:
            self.problem = shown.text
            self.render()
            return
        hand = hand_to_doc(draft.build())
        try:
            self.ctx.actions.save_hand(self.model, hand, self.index)
        except StaleRevision as exc:
            # Another phone changed the game since this screen was drawn: nothing was
            # saved. The same hand saved there is done; anything else is shown to the
            # player before any save (`record_hand_view` draws it from the store).
            self.ctx.drafts[self.key] = draft
            current = GameModel.load(exc.current)
            found = assess(self.place, draft, current.game, current.stored.revision)
            if found.clash is Clash.SAME:
                self.ctx.forget_draft(self.key)
                self.ctx.tell(self.model.id, f"Hand {self.place.number} was already recorded "
                              "by another phone, exactly as you entered it: the sheet has it "
                              "once.")
                self.ctx.go(f"/game/{self.model.id}")
                return
            self.ctx.router_refresh()
            return
        except (StoreError, TarabishError) as exc:
            self.problem = str(exc)
            self.render()
            return
        self.ctx.forget_draft(self.key)
        self.ctx.go(f"/game/{self.model.id}")

    # --- drawing ---------------------------------------------------------------------------
    def build(self) -> None:
        """Put the screen together (once); `draw()` then fills in what the draft says."""
        self.caller_part.controls = self._caller_section()
        # Runs and bella after the points, as paper writes "+50" after the figure: the
        # jump to the number pad after trump (most hands have no runs) leaves them next.
        # Each part on a layer of its own: a tap repaints its part, not the screen.
        self.body.controls = [own_layer(self.caller_part), own_layer(self.trump_part),
                              self.points_anchor, own_layer(self.extras_part)]
        if self.place.told:
            told = notice("While you entered this hand, on another phone: "
                          + "; ".join(self.place.told) + ". Check it, then save.",
                          icon=ft.Icons.INFO)
            self.body.controls.insert(0, told)
        if self.place.unsaved:  # put back after the server went away (`app.unsaved`)
            self.body.controls.insert(0, notice(NOT_SAVED))
        self.trump_part.controls = self._trump_section()
        self.ending_row.controls = self._ending_toggles()
        self.points_anchor.controls = section_controls("Trick points", self.ending_row,
                                                       self.ending_detail)
        self.draw()
        self._dirty.clear()

    def render(self) -> None:
        """After a tap: redraw what changed and send only that to the phone, in one
        message (an update per control arrived in pieces, a frame or more apart)."""
        self.draw()
        dirty, self._dirty = self._dirty, []
        view = self._view()
        if not dirty or view is None:
            return
        quiet = self._quiet_parts(dirty)
        # Flet compares an isolated control's own fields but not what is inside
        # it: the parts where nothing changed are skipped for this one update.
        for part in quiet:
            part._isolated = True  # type: ignore[attr-defined]
        try:
            self.ctx.page.update(view)
        finally:
            for part in quiet:
                part._isolated = False  # type: ignore[attr-defined]

    def _view(self) -> ft.View | None:
        """The screen this form is on, if the phone shows it (a redraw of the same
        address refills the View on the phone with this form's parts)."""
        node: ft.BaseControl | None = self.scroller
        while node is not None and not isinstance(node, ft.View):
            node = node.parent
        if node is None or self.ctx.page.session.index.get(node._i) is not node:
            return None
        return node

    def below(self, layer: ft.Control) -> None:
        """The screen lies over `layer` (the sheet): nothing in it changes on a tap."""
        self._parts.append(layer)

    def _quiet_parts(self, dirty: list[ft.Control]) -> list[ft.Control]:
        """The parts of the screen on the phone where nothing changed: neither a changed
        control nor a part holding one is inside them."""
        index = self.ctx.page.session.index
        shown = [p for p in self._parts if index.get(p._i) is p]
        ids = {id(p) for p in shown}
        holding: set[int] = set()
        for control in dirty:  # every part above a changed control holds it
            node: ft.BaseControl | None = control
            while node is not None:
                if id(node) in ids:
                    holding.add(id(node))
                node = node.parent
        # A changed control on no part of the phone is new: the part it goes into
        # has changed too (its list of controls), and brings it.
        return [p for p in shown if id(p) not in holding]

    def _set(self, control: ft.Control, **fields: object) -> None:
        """Change fields of a control, noting it for the next update if any differ."""
        changed = False
        for name, value in fields.items():
            now = getattr(control, name)
            # Controls by identity: a dataclass == would compare whole subtrees.
            same = now is value if isinstance(value, ft.BaseControl) else now == value
            if not same:
                setattr(control, name, value)
                changed = True
        if changed and all(control is not c for c in self._dirty):
            self._dirty.append(control)

    def _changed(self, part: str, now: object) -> bool:
        """Whether `part` must be rebuilt because what it shows is no longer `now`."""
        if part in self._drawn and self._drawn[part] == now:
            return False
        self._drawn[part] = now
        return True

    def _select(self, key: str, selected: bool) -> None:
        """Fill or outline a kept toggle."""
        if self._selected.get(key) != selected:
            self._selected[key] = selected
            control = self.keep.get(key)
            if control is not None:
                self._set(control, style=toggle_style(selected))

    def draw(self) -> None:
        draft = self.draft
        playing = draft.ending is not Ending.PASSED
        self._set(self.trump_part, visible=playing)
        self._set(self.extras_part, visible=playing)
        for option in self._caller_options:
            self._select(f"caller-{option.seat}", draft.caller == option.seat)
        for code in self._trumps:
            self._select(f"trump-{code}", draft.trump == code)
        for ending, _label in self._endings:
            self._select(f"ending-{ending.value}", draft.ending is ending)
        # What the runs part shows: a trump tap sends it again only when it changes
        # something there (no bella without trumps; the cards' verdict names trumps).
        shows = (self.show_runs, draft.worth, draft.bella, draft.no_trump, draft.run_cards,
                 *((self.run_seat, self.run_suit) if self.show_runs else ()),
                 *((draft.trump,) if draft.has_runs else ()))
        if self._changed("extras", shows):
            self.extras_part.controls = self._extras()
            self._dirty.append(self.extras_part)
        if self._changed("ending", (draft.ending, draft.misplay_by, draft.misplay_upheld,
                                    draft.thrown_by)):
            self.ending_detail.controls = self._ending_detail()
            self._dirty.append(self.ending_detail)
        if draft.ending is Ending.PLAYED:
            self._draw_points()
        self._draw_ruling(preview_draft(self.model.game, draft, self.index))

    def _name(self, seat: int) -> str:
        return self.model.game.names.player(seat)

    def _caller_section(self) -> list[ft.Control]:
        options = self._caller_options

        def seat_button(option: CallerOption) -> ft.Control:
            # Who deals is on the felt in the middle: a "(deals)" here cut long names
            # short at 360 px ("Ther…").
            return toggle(option.name, self.draft.caller == option.seat,
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
        return section_controls("Who called?", *parts)

    def _trump_section(self) -> list[ft.Control]:
        buttons = [toggle(suit_label(code, chosen=self.draft.trump == code),
                          self.draft.trump == code,
                          lambda _e, c=code: self.tap_trump(c), height=60,
                          keep=self.keep, key=f"trump-{code}")
                   for code in self._trumps]
        return section_controls("Trump", ft.Row(buttons, spacing=6))

    def _extras(self) -> list[ft.Control]:
        """Runs and bella the quick way (a tap for each, as paper writes "+50"), and the
        cards of the runs only when asked for them."""
        parts: list[ft.Control] = [self._quick_runs()]
        if self.show_runs:
            parts.append(self._runs_panel())
        else:
            parts.append(ft.Row([big_button("Enter the cards of the runs", self._open_runs,
                                            icon=ft.Icons.STYLE, primary=False, height=48)]))
        parts.append(ft.Row([big_button("Count the cards", lambda _e: self._detour("/count"),
                                        icon=ft.Icons.CALCULATE, primary=False, height=48)]))
        return parts

    def _open_runs(self, _e: object) -> None:
        self.show_runs = True
        self.render()

    def _quick_runs(self) -> ft.Control:
        """A row a player: 20, 50, 100 (two fifties) and Bella, each one tap."""
        draft = self.draft
        rows: list[ft.Control] = []
        for seat in range(4):
            name = self._name(seat)
            twenties, fifties = draft.worth_of(seat)
            chosen = {20: twenties > 0, 50: fifties == 1, 100: fifties == 2}
            cells: list[ft.Control] = [
                ft.Text(name, size=15, width=QUICK_NAME_WIDTH, max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS, weight=ft.FontWeight.W_600)]
            cells += [small_toggle(str(points), chosen[points],
                                   lambda _e, s=seat, p=points: self.set(
                                       self.draft.tap_worth(s, p)),
                                   spoken=f"{name} {RUN_WORDS[points]}", keep=self.keep,
                                   key=f"worth-{seat}-{points}")
                      for points in (20, 50, 100)]
            cells.append(small_toggle("Bella", draft.bella == seat,
                                      lambda _e, s=seat: self.set(self.draft.with_(
                                          bella=None if self.draft.bella == s else s)),
                                      disabled=draft.no_trump,
                                      spoken=f"{name} has bella", keep=self.keep,
                                      key=f"bella-{seat}"))
            rows.append(ft.Row(cells, spacing=4))
        rows.append(self._runs_verdict())
        # The note under the buttons, not over them: they come first after the points.
        rows.append(ft.Text("Tap what each player showed: 100 is two fifties. The cards are "
                            "asked for only when two runs are equal.", size=13,
                            color=ft.Colors.ON_SURFACE_VARIANT))
        return section("Runs and bella", *rows)

    def _runs_panel(self) -> ft.Control:
        draft = self.draft
        seats = ft.Row([small_toggle(self._name(s), self.run_seat == s,
                                     lambda _e, s=s: self.tap_run_seat(s),
                                     spoken=f"{self._name(s)} shows runs", keep=self.keep,
                                     key=f"runseat-{s}") for s in range(4)],
                       spacing=6)
        parts: list[ft.Control] = [seats]
        if self.run_seat is not None:
            suits = ft.Row([small_toggle(suit_label(s.value, size=22, word=False,
                                                    chosen=self.run_suit == s),
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
                                  on_click=lambda _e, s=seat: self.set(self.draft.clear_runs(s))),
                ]))
        parts.append(ft.Row([big_button("Open the run checker", lambda _e: self._detour("/check"),
                                        icon=ft.Icons.STYLE, primary=False, height=48)]))
        return section("Cards of the runs", *parts,
                       note="Tap the player, the suit, then the cards of each run they showed.")

    def _runs_verdict(self) -> ft.Control:
        draft = self.draft
        if not draft.has_runs:
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

    @property
    def _endings(self) -> list[tuple[Ending, str]]:
        return [e for e in ENDINGS
                if e[0] is not Ending.PASSED or self.model.game.rules.dealer_may_pass]

    def _ending_toggles(self) -> list[ft.Control]:
        return [small_toggle(label, self.draft.ending is ending,
                             lambda _e, e=ending: self.tap_ending(e),
                             keep=self.keep, key=f"ending-{ending.value}")
                for ending, label in self._endings]

    def tap_ending(self, ending: Ending) -> None:
        """Counted, misplay, thrown in, all passed. The part under the toggles changes
        size (the pad goes): the screen jumps back to it, so what to tap next is in view."""
        changed = ending is not self.draft.ending
        self.set(self.draft.with_(ending=ending))
        if changed:
            self.ctx.page.run_task(self.scroller.scroll_to, scroll_key="points", duration=0)

    def _ending_detail(self) -> list[ft.Control]:
        """Under the ending toggles: the points, or who called the misplay / threw in."""
        draft = self.draft
        if draft.ending is Ending.PLAYED:
            return [self.points_part]
        if draft.ending is Ending.MISPLAY:
            teams = self.model.game.team_names
            return [
                ft.Text("Called by", size=15),
                ft.Row([small_toggle(teams[t], draft.misplay_by == t,
                                     lambda _e, t=t: self.set(self.draft.with_(misplay_by=t)),
                                     spoken=f"misplay called by {teams[t]}",
                                     keep=self.keep, key=f"misplay-{t}")
                        for t in (0, 1)], spacing=6),
                ft.Row([
                    small_toggle("Upheld", draft.misplay_upheld is True,
                                 lambda _e: self.set(self.draft.with_(misplay_upheld=True)),
                                 keep=self.keep, key="upheld"),
                    small_toggle("Not upheld", draft.misplay_upheld is False,
                                 lambda _e: self.set(self.draft.with_(misplay_upheld=False)),
                                 keep=self.keep, key="not-upheld"),
                ], spacing=6),
            ]
        if draft.ending is Ending.THROWN:
            return [
                ft.Text("Who threw in?", size=15),
                ft.Row([small_toggle(self._name(s), draft.thrown_by == s,
                                     lambda _e, s=s: self.set(self.draft.with_(thrown_by=s)),
                                     spoken=f"{self._name(s)} threw in",
                                     keep=self.keep, key=f"thrown-{s}")
                        for s in range(4)], spacing=6),
            ]
        return []

    def _figure_box(self, team: int) -> tuple[ft.Container, ft.Text, ft.Text]:
        """One team's trick points: the box, the figure, and the line under it."""
        teams = self.model.game.team_names
        figure = ft.Text("–", size=40, weight=ft.FontWeight.BOLD)
        hint = ft.Text("", size=11, color=ft.Colors.ON_SURFACE_VARIANT)
        box = ft.Container(
            ft.Column([
                ft.Text(teams[team], size=13, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                figure, hint,
            ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            expand=True, padding=6, border_radius=ft.BorderRadius.all(RADIUS),
            tooltip=f"{teams[team]} counted",
        )
        return box, figure, hint

    def _draw_points(self) -> None:
        draft = self.draft
        rest = draft.other_tricks()
        for team, (box, figure, hint) in enumerate(self.figures):
            typing = team == draft.points_team
            shown = (draft.digits or "–") if typing else ("–" if rest is None else str(rest))
            self._set(figure, value=shown, color=None if typing else ft.Colors.ON_SURFACE_VARIANT)
            self._set(hint, value="typing" if typing else "tap to type")
            if self._changed(f"box-{team}", typing):
                box.bgcolor = (ft.Colors.PRIMARY_CONTAINER if typing
                               else ft.Colors.SURFACE_CONTAINER_HIGH)
                box.border = ft.Border.all(2, ft.Colors.PRIMARY) if typing else None
                box.on_click = None if typing else (
                    lambda _e, t=team: self.set(self.draft.with_(points_team=t)))
                self._dirty.append(box)

    def _points(self, key_height: int) -> ft.Control:
        self.pad = number_pad(lambda d: self.set(self.draft.press_digit(d)),
                              lambda _e: self.set(self.draft.backspace()),
                              lambda _e: self.set(self.draft.with_(digits="")),
                              keep=self.keep, key_height=key_height)
        # The runs come straight after the pad (Count the cards is under them): typed
        # points, then runs, with no scroll at 390x844.
        return ft.Column([own_layer(self.figures_row), own_layer(self.pad)], spacing=10,
                         key=ft.ScrollKey("figures"))  # type: ignore[call-arg]

    def _draw_ruling(self, shown: Preview) -> None:
        """The ruling so far, in a box of fixed height (a box that grew as digits are
        typed would move the number pad under the thumb), and Save's state."""
        self._set(self.save_control, disabled=not shown.ready)
        ruling = shown.result.ruling if shown.result and shown.ready else None
        # An impossible figure is said here, not in a line above the pad that
        # would come and go, moving the keys under the thumb.
        problem = self.problem or (self.draft.points_problem()
                                   if self.draft.ending is Ending.PLAYED else None)
        if problem or ruling is None:
            self._set(self.ruling_plain, value=problem or shown.text,
                      color=ft.Colors.ON_ERROR_CONTAINER if problem else None)
            self._set(self.ruling_words, content=self.ruling_plain)
            self._set(self.ruling_colour, bgcolor=ft.Colors.ERROR_CONTAINER if problem
                      else ft.Colors.SURFACE_CONTAINER_HIGH)
            return
        verdict = [r for r in ruling.reasons if r.code.startswith("hand.")] or list(ruling.reasons)
        self.shown_ruling = ruling
        self._set(self.ruling_outcome, value=outcome_word(ruling.outcome))
        self._set(self.ruling_reasons, value=". ".join(r.text for r in verdict))
        self._set(self.ruling_words, content=self.ruling_verdict)
        self._set(self.ruling_colour, bgcolor=MADE if ruling.outcome.value == "made" else BAIT)

    def explain(self) -> None:
        """This hand's ruling worked out in full (every figure, then a link to the rule
        behind each step), over the form: nothing entered is lost."""
        ruling = self.shown_ruling
        if ruling is None:
            return
        number = self.place.number

        def rule(section: str) -> None:
            self.ctx.page.pop_dialog()
            self._why(section)

        lines: list[ft.Control] = [
            ft.Row([ft.Text(reason.text, size=15, expand=True),
                    ft.IconButton(ft.Icons.MENU_BOOK, tooltip=f"Rule: {title_of(reason.section)}",
                                  on_click=lambda _e, sec=reason.section: rule(sec))],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER)
            for reason in ruling.reasons]
        self.ctx.page.show_dialog(ft.AlertDialog(
            title=ft.Text(f"Hand {number} as entered: {outcome_word(ruling.outcome)}", size=18),
            content=ft.Column(lines, tight=True, spacing=4),
            scrollable=True,  # not the Column: it left an empty band above Close
            actions=[ft.TextButton("Close", on_click=lambda _e: self.ctx.page.pop_dialog())],
        ))

    def _why(self, section_id: str) -> None:
        """Open the rules at a section behind the ruling; Back returns to this hand."""
        self.ctx.drafts[self.key] = self.draft
        hand = "new" if self.index is None else str(self.index + 1)
        self.ctx.go(f"/rules?section={section_id}&game={self.model.id}&hand={hand}&from=hand")


def start_draft(model: GameModel, index: int | None) -> HandDraft:
    """The taps a form opens with: none for a new hand, the saved hand for an edit."""
    return HandDraft() if index is None else HandDraft.from_hand(model.game.hands[index])


def record_hand_view(ctx: AppContext, game_id: str, number: int | None = None) -> ft.View:
    route = f"/game/{game_id}/hand" + ("" if number is None else f"/{number}")
    try:
        model = GameModel.load(ctx.store.get_game(game_id))
    except (StoreError, ValueError) as exc:
        return message_view(ctx, route, "Game not found", str(exc))
    if not ctx.actions.can_edit(game_id):
        return locked_view(ctx, route, game_id)
    if CONFIG.phone_sync is not None and CONFIG.phone_sync.clash(game_id) is not None:
        return sync_clash_view(ctx, game_id)  # the phone's hand recorded apart comes first
    index = None if number is None else number - 1
    key = ctx.draft_key(game_id, index)
    place = _place(ctx, model, index, key)
    draft = ctx.drafts.get(key)
    if place is not None and draft is not None:
        found = assess(place, draft, model.game, model.stored.revision)
        if found.clash is Clash.SAME:
            ctx.forget_draft(key)
            return message_view(ctx, route, "Already recorded",
                                f"Hand {found.number} was already recorded by another phone, "
                                "exactly as this phone had it. The sheet has it once.")
        if found.clash in (Clash.THEIRS, Clash.GONE):
            return conflict_view(ctx, route, model, key, place, draft, found)
        if found.clash is Clash.ELSEWHERE:
            news = tuple(change_text(e, model.game) for e in model.changes_since(place.revision)
                         if not ctx.actions.made_here(game_id, e.revision))
            place = place.seen(model.stored.revision, news)
    if index is not None and not 0 <= index < len(model.game.hands):
        return message_view(ctx, route, "No such hand",
                            f"This game has {len(model.game.hands)} hands, not {number}.")
    if index is None and model.replay.is_over:
        return message_view(ctx, route, "Game over",
                            "This game has been won: no more hands can be recorded.")
    if place is None:
        base = None if index is None else model.stored.doc["hands"][index]
        position = len(model.game.hands) if index is None else index
        place = DraftPlace(number=position + 1, revision=model.stored.revision, base=base)
    ctx.places[key] = place
    form = RecordHand(ctx, model, index, place)
    form.build()
    title = "Record hand" if index is None else f"Edit hand {number}"
    title += f" {len(model.game.hands) + 1}" if index is None else ""
    bar = app_bar(ctx, title, back_to=f"/game/{game_id}")
    view = screen(route, bar, [form.body], bottom=form.save_button, column=form.scroller)
    if not Kept.on_show(ctx, f"/game/{game_id}"):
        return view
    # From the sheet: laid over it, so that the phone keeps the sheet built for the
    # way back (a Save adds a row to it instead of building it all again).
    view = sheet_view(ctx, game_id, over=view)
    if len(view.controls) == 1 and isinstance(view.controls[0], ft.Stack):
        form.below(sheet_layer(view))
    return view


def _place(ctx: AppContext, model: GameModel, index: int | None, key: str) -> DraftPlace | None:
    """The place of the hand being entered under `key`, if its taps are worth keeping:
    a form left with nothing tapped opens afresh on the game as it is now."""
    place = ctx.places.get(key)
    draft = ctx.drafts.get(key)
    if place is None or draft is None:
        ctx.forget_draft(key)
        return None
    if index is None:
        untouched = draft == HandDraft()
    else:
        try:
            untouched = place.base is not None and draft == HandDraft.from_hand(
                parse_hand(place.base))
        except TarabishError:
            untouched = False
    if untouched and place.revision != model.stored.revision:
        ctx.forget_draft(key)
        return None
    return place
