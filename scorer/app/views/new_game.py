"""New game: four names around the table, who deals first, target and house rules."""

from __future__ import annotations

import random
from typing import Any, cast

import flet as ft
from pydantic import ValidationError

from rules.game import Game
from rules.game_file import FORMAT, game_to_doc, parse_game
from rules.house_rules import HouseRules
from rules.messages import explain
from rules.names import default_team_names
from rules.plain_text import without_unsafe
from rules.replay import replay
from scorer.app.context import AppContext
from scorer.app.house_rule_text import changed_text
from scorer.app.views.common import app_bar, own_kind, screen, when_identified
from scorer.app.views.for_group import AgainForGroup, ForGroup, again_for_group, for_group
from scorer.app.views.house_rule_rows import rule_rows
from scorer.app.views.play_to import TARGETS, PlayTo
from scorer.app.widgets import (
    END_SEAT_WIDTH,
    SECTION_SPACING,
    Keep,
    big_button,
    felt,
    notice,
    section,
    section_controls,
    small_toggle,
    table_layout,
    update_shown,
)
from scorer.store.errors import NextGameExists, StaleRevision, StoreError

SEAT_WORDS = ("You / seat 1", "Left / seat 2", "Across / seat 3", "Right / seat 4")


class NewGameForm:
    """The new-game screen's state; re-renders itself on every tap."""

    def __init__(self, ctx: AppContext, again: str | None, seats: str | None = None,
                 group: str | None = None) -> None:
        self.ctx = ctx
        self.group_id = group
        self.group: ForGroup | None = for_group(ctx, group)
        """The group the game is started for (from its page), checked again at Start."""
        self.names = ["", "", "", ""]
        self.teams = ["", ""]
        self.dealer: int | None = None
        self.drawn = False
        self.rules: dict[str, Any] = {}
        self.error = ""
        self.again: tuple[str, int] | None = None
        """Play again: the finished game and the revision this phone saw it at."""
        self.again_group: AgainForGroup | None = None
        """Play again on a group's game: the group the next game counts for."""
        if again:
            self._prefill(again)
        elif seats:  # fair teams proposed them: seats 1 to 4, partners opposite
            names = [name.strip()[:30] for name in seats.split("|")]
            if len(names) == 4:
                self.names = names
        self.body = ft.Column(spacing=18)
        self.felt_box = ft.Container()
        self.keep = Keep()
        """The dealer's buttons, the same from one redraw to the next: every letter typed
        in a name redraws them (they show the names), and a tap already on its way to a
        button a redraw replaced would be lost (a name typed, then Draw at random at
        once, on slow Wi-Fi or a busy server)."""
        self.dealer_title, note = section_controls("Who deals first", note="-")
        self.dealer_note = cast(ft.Text, note)
        """Who deals first, once someone does: shown under the title."""
        self.dealer_box = ft.Column(spacing=SECTION_SPACING)
        self.fields = [self._name_field(seat) for seat in range(4)]
        self.team_fields = [self._team_field(team) for team in range(2)]
        self.play_to = PlayTo(self.rules.get("target", TARGETS[1]), self._target_chosen)
        # The parts drawn once: a redraw after a tap puts the same objects back, so
        # only what changed goes to the phone (and no text box is drawn anew).
        self.seating = section(
            "Who sits where", table_layout(dict(enumerate(self.fields)), self.felt_box),
            note="Type the names around the table, clockwise. Partners sit opposite.")
        self.team_names = section("Team names (optional)",
                                  ft.Row(list[ft.Control](self.team_fields), spacing=8))
        # Kept across redraws, and its rules built only while it is open: closed,
        # they cost the phone a screen's worth of widgets for nothing.
        self.rules_tile = ft.ExpansionTile(
            title=ft.Text("House rules", size=16, weight=ft.FontWeight.BOLD),
            tile_padding=ft.Padding.symmetric(horizontal=0),
            controls_padding=ft.Padding.only(bottom=8),
            expanded=bool(self._changed_rules()),
            on_change=self._rules_opened,
        )

    def regroup(self) -> None:
        """The group line again, once this phone is known: whether it keeps the group
        (read before that, it may not have) decides what the line says. The names
        typed meanwhile stay: only the form's parts are drawn again."""
        if self.group_id:
            self.group = for_group(self.ctx, self.group_id)
        elif self.again is not None:
            counts = self.again_group.counts if self.again_group else True
            self.again_group = again_for_group(self.ctx, self.again[0])
            if self.again_group is not None:
                self.again_group.counts = counts
        self.render()

    def _prefill(self, game_id: str) -> None:
        """Play again: same seats and rules; the deal moves on from the last game."""
        try:
            stored = self.ctx.store.get_game(game_id)
            game = parse_game(stored.doc, saved=True)
        except (StoreError, ValueError):
            return
        self.again = (game_id, stored.revision)
        self.again_group = again_for_group(self.ctx, game_id)
        self.names = list(game.players)
        if game.teams:
            self.teams = list(game.teams)
        self.dealer = replay(game).next_dealer
        self.rules = game.rules.changed()

    # --- fields ----------------------------------------------------------------------------
    def _name_field(self, seat: int) -> ft.TextField:
        side = seat in (1, 3)

        def changed(e: ft.Event[ft.TextField]) -> None:
            self.names[seat] = e.control.value or ""
            self._refresh_felt()

        return ft.TextField(
            value=self.names[seat], label=f"Player {seat + 1}", hint_text="Name",
            width=None if side else END_SEAT_WIDTH, expand=side, max_length=30,
            counter=ft.Text(""),
            text_size=16, capitalization=ft.TextCapitalization.WORDS,
            on_change=changed, text_align=ft.TextAlign.CENTER, tooltip=SEAT_WORDS[seat],
        )

    def _team_field(self, team: int) -> ft.TextField:
        def changed(e: ft.Event[ft.TextField]) -> None:
            self.teams[team] = e.control.value or ""

        return ft.TextField(
            value=self.teams[team], label=f"Team {team + 1} name", expand=True, text_size=15,
            hint_text=self._default_teams()[team], on_change=changed,
            capitalization=ft.TextCapitalization.WORDS,
        )

    def _default_teams(self) -> tuple[str, str]:
        shown = [without_unsafe(name).strip() or f"Player {i + 1}"
                 for i, name in enumerate(self.names)]
        return default_team_names((shown[0], shown[1], shown[2], shown[3]))

    def _refresh_felt(self) -> None:
        """A name changed: redraw only what shows names, never the text fields
        themselves (rebuilding them mid-typing would drop letters)."""
        defaults = self._default_teams()
        for team, field in enumerate(self.team_fields):
            field.hint_text = defaults[team]
        self.felt_box.content = felt(defaults[0], "vs", defaults[1], width=100)
        self.dealer_box.controls = self._dealer_controls()
        update_shown(self.felt_box, self.dealer_box, *self.team_fields)

    # --- taps ------------------------------------------------------------------------------
    def pick_dealer(self, seat: int) -> None:
        self.dealer, self.drawn = seat, False
        self._redraw_dealer()

    def draw_dealer(self) -> None:
        self.dealer, self.drawn = random.SystemRandom().randrange(4), True
        self._redraw_dealer()

    def _redraw_dealer(self) -> None:
        """Only the dealer's part shows the dealer: redraw that, not the screen."""
        self.dealer_box.controls = self._dealer_controls()
        update_shown(self.dealer_box)

    def _rules_opened(self, e: ft.Event[ft.ExpansionTile]) -> None:
        self.rules_tile.expanded = e.data in (True, "true")
        self._house_rules()
        self.rules_tile.update()

    def set_rule(self, key: str, value: Any) -> None:
        self._keep_rule(key, value)
        self.render()

    def _keep_rule(self, key: str, value: Any) -> None:
        default = HouseRules.model_fields[key].default
        if value == default:
            self.rules.pop(key, None)
        else:
            self.rules[key] = value

    def _target_chosen(self, target: int | None) -> None:
        """Play to changed (it draws itself); a number out of range is refused at Start."""
        if target is not None:
            self._keep_rule("target", target)

    def start(self) -> None:
        self.error = ""
        if self.dealer is None:
            self.error = "Pick who deals first, or tap Draw"
            self.render()
            return
        if self.play_to.problem:
            self.error = self.play_to.problem
            self.render()
            return
        # Names pasted from a chat often carry invisible direction marks or
        # zero-width spaces a phone cannot show or delete: drop them here; the
        # Game model refuses any left (a file, a hand-made request).
        teams = [without_unsafe(name).strip() for name in self.teams]
        doc = {
            "format": FORMAT,
            "players": [without_unsafe(name).strip() for name in self.names],
            "first_dealer": self.dealer,
            "rules": dict(self.rules),
            "hands": [],
        }
        if any(teams):
            defaults = self._default_teams()
            doc["teams"] = [teams[t] or defaults[t] for t in range(2)]
        try:
            game = Game.model_validate({k: v for k, v in doc.items() if k != "format"})
            if self.group is not None:
                made = self.group.start(game_to_doc(game))
            elif self.again is None:
                made = self.ctx.actions.create_game(game_to_doc(game)).id
            else:
                after = (self.ctx.actions.play_again(*self.again, game_to_doc(game))
                         if self.again_group is None
                         else self.again_group.start(self.again, game_to_doc(game)))
                made = after.game_id
                if not after.made:  # another phone tapped Start first: one game, not two
                    self.ctx.toast(str(NextGameExists(made)))
        except ValidationError as exc:
            self.error = explain(exc)
            self.render()
            return
        except StaleRevision as exc:
            self.error = (f"The last game changed on another phone ({', '.join(exc.changes)}): "
                          "check its score sheet before playing again.")
            self.render()
            return
        except ValueError as exc:
            self.error = str(exc)
            self.render()
            return
        self.ctx.go(f"/game/{made}")

    # --- drawing ---------------------------------------------------------------------------
    def render(self) -> None:
        self.body.controls = self._controls()
        update_shown(self.body)

    def _controls(self) -> list[ft.Control]:
        defaults = self._default_teams()
        self.felt_box.content = felt(defaults[0], "vs", defaults[1], width=100)
        self.dealer_box.controls = self._dealer_controls()
        # Team names next to the seats they are made of, not under the house rules.
        controls: list[ft.Control] = [self.seating, self.team_names, self.dealer_box,
                                      self.play_to.control, self._house_rules()]
        if self.group is not None:
            controls.insert(0, self.group.line())
        elif self.again_group is not None:
            controls.insert(0, self.again_group.line())
        if self.error:
            controls.append(notice(self.error, error=True))
        return controls

    def _dealer_controls(self) -> list[ft.Control]:
        """Who deals first: the section's parts, its buttons kept (`self.keep`) and only
        their names and which one is chosen changed."""
        chips = [small_toggle(self._short(seat), self.dealer == seat,
                              lambda _e, s=seat: self.pick_dealer(s),
                              keep=self.keep, key=f"dealer-{seat}") for seat in range(4)]
        rows = [self.keep.control(f"dealers-{row}", lambda r=row: ft.Row(
                    chips[2 * r:2 * r + 2], spacing=6), {}) for row in range(2)]
        # Two by two: four in a row left "Playe…" and "Ther…" on a 360 px phone.
        draw = self.keep.control("draw", lambda: ft.Row([big_button(
            "Draw at random", lambda _e: self.draw_dealer(), icon=ft.Icons.CASINO,
            primary=False, height=48)]), {})
        if self.dealer is None:
            return [self.dealer_title, *rows, draw]
        self.dealer_note.value = f"{self._short(self.dealer)} deals first" + (
            " (drawn)" if self.drawn else "")
        return [self.dealer_title, self.dealer_note, *rows, draw]

    def _short(self, seat: int) -> str:
        return self.names[seat].strip() or f"Player {seat + 1}"

    def _changed_rules(self) -> int:
        return len(self.rules) - (1 if "target" in self.rules else 0)

    def _house_rules(self) -> ft.Control:
        changed = self._changed_rules()
        tile = self.rules_tile
        tile.subtitle = ft.Text(changed_text(changed))
        tile.controls = ([ft.Column(rule_rows(self.rules, self.set_rule), spacing=14)]
                         if tile.expanded else [])
        return tile

def new_game_view(ctx: AppContext, again: str | None = None,
                  seats: str | None = None, group: str | None = None) -> ft.View:
    form = NewGameForm(ctx, None if group else again, seats, group)
    form.body.controls = form._controls()
    if (group or again) and not ctx.actions.identified:
        ctx.page.run_task(when_identified, ctx, form.regroup)
    start = ft.Row([big_button("Start game", lambda _e: form.start(), icon=ft.Icons.PLAY_ARROW)])
    return own_kind(screen("/new", app_bar(ctx, "New game", back_to="/"), [form.body],
                           bottom=start))
