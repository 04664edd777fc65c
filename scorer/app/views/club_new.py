"""A new club night: its name, format, rounds, target, clock, house rules and entrants."""

from __future__ import annotations

from typing import Any

import flet as ft
from pydantic import ValidationError

from rules.house_rules import HouseRules
from rules.messages import explain
from rules.plain_text import without_unsafe
from scorer.app import CONFIG
from scorer.app.club_text import counted_entrants, parse_entrants
from scorer.app.context import AppContext
from scorer.app.theme import SMALL_TAP
from scorer.app.views.club import alone_view, club
from scorer.app.views.common import app_bar, screen, when_identified
from scorer.app.views.house_rule_rows import rule_rows
from scorer.app.views.play_to import TARGETS, PlayTo
from scorer.app.widgets import big_button, notice, section, small_toggle, toggle_style
from scorer.events.model import FORMAT_LINES, EventSpec, Format, suggested_rounds
from scorer.store.errors import StoreError

CLOCKS = (None, 30, 45, 60)
FAIR_MOST = 8
"""Players fair teams is for (`scorer.ratings.chances.MAX_PRESENT`: not imported, a
phone alone has no ratings)."""
ENTRANTS_HINT = {True: "One team a line: Ann & Bob", False: "One player a line: Ann"}


class NewEventForm:
    """The form's state; a tap redraws the form, never its text fields (typing goes on)."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.format = Format.SWISS
        self.rounds: int | None = None
        self.target: int | None = TARGETS[1]
        self.play_to = PlayTo(TARGETS[1], self._target_chosen)
        """Play to, as on New game: a tap or any number typed (drawn once: typing goes on)."""
        self.clock: int | None = None
        self.rules: dict[str, Any] = {}
        self.error = ""
        self.body = ft.Column(spacing=18)
        self.name = ft.TextField(label="Name of the night", hint_text="Legion, Thursday",
                                 max_length=60, text_size=16,
                                 capitalization=ft.TextCapitalization.WORDS)
        self.entrants = ft.TextField(label="Entrants", hint_text=ENTRANTS_HINT[True],
                                     multiline=True, min_lines=6, max_lines=14, text_size=16,
                                     capitalization=ft.TextCapitalization.WORDS,
                                     on_change=lambda _e: self._recount())
        self.count = ft.Text(counted_entrants([], True), size=14,
                             color=ft.Colors.ON_SURFACE_VARIANT)
        self.rounds_part = ft.Column(spacing=8)
        self.group: str | None = None
        """The group the night is for (one this phone keeps), or None."""
        self.present: list[str] = []
        """Members tapped as here, in the order tapped."""
        self.fair_line = ""
        self.kept: list[tuple[str, str]] | None = None
        """(id, name) of the groups this phone keeps, read once the phone is known."""
        self.members: dict[str, tuple[str, ...]] = {}

    # -- state --------------------------------------------------------------------------------

    def typed(self) -> list[list[str]]:
        return parse_entrants(self.entrants.value or "", self.format.teams)

    def suggested(self) -> int:
        return suggested_rounds(self.format, max(2, len(self.typed())))

    def pick(self, **changes: Any) -> None:
        for key, value in changes.items():
            setattr(self, key, value)
        if "format" in changes:
            self.rounds = None
            self.fair_line = ""  # the teams proposed were for the other format
            self.entrants.hint_text = ENTRANTS_HINT[self.format.teams]
            # "4 teams" becomes "4 players" with the format, not at the next key typed.
            self.count.value = counted_entrants(self.typed(), self.format.teams)
        self.render()

    def pick_group(self, group_id: str | None) -> None:
        self.group = group_id
        self.present = []
        self.fair_line = ""
        self.render()

    def tap_member(self, name: str) -> None:
        if name in self.present:
            self.present.remove(name)
        else:
            self.present.append(name)
        self.render()

    def fill_from_present(self) -> None:
        """Team nights: the fairest teams of those here; progressive: them as players."""
        self.error = ""
        if self.group is None:
            return
        if not self.format.teams:
            self.entrants.value = "\n".join(self.present)
            self.fair_line = ""
        else:
            try:
                proposal = club(self.ctx).fair_teams(self.group, list(self.present))
            except (ValueError, StoreError) as exc:
                self.fair_line = str(exc)  # said beside the button that was tapped
                self.render()
                return
            self.entrants.value = "\n".join(" & ".join(t) for c in proposal.tables
                                             for t in c.teams)
            lines = [" · ".join(c.labels()) for c in proposal.tables]
            if proposal.sitting_out:
                lines.append("Not in a team: " + ", ".join(proposal.sitting_out))
            self.fair_line = "\n".join(lines)
        if self.entrants.page is not None:
            self.entrants.update()
        self._recount()
        self.render()

    def step_rounds(self, by: int) -> None:
        self.rounds = min(20, max(1, (self.rounds or self.suggested()) + by))
        self.render()

    def set_rule(self, key: str, value: Any) -> None:
        if value == HouseRules.model_fields[key].default:
            self.rules.pop(key, None)
        else:
            self.rules[key] = value
        self.render()

    def _target_chosen(self, target: int | None) -> None:
        """Play to changed (it draws itself); a number out of range is refused at Create."""
        self.target = target

    def create(self) -> None:
        if self.play_to.problem:
            self.error = self.play_to.problem
            self.render()
            return
        entrants = self.typed()
        teams = self.format.teams
        try:
            spec = EventSpec.model_validate({
                "name": without_unsafe(self.name.value or "").strip(), "format": self.format,
                "rounds": self.rounds, "target": self.target, "house_rules": dict(self.rules),
                "clock_minutes": self.clock, "group": self.group,
                "teams": [tuple(e) for e in entrants] if teams else None,
                "players": [e[0] for e in entrants] if not teams else None})
            stored = club(self.ctx).create(spec)
        except ValidationError as exc:
            self.error = explain(exc)
        except (ValueError, StoreError) as exc:
            self.error = str(exc)
        else:
            self.ctx.go(f"/club/{stored.id}")
            return
        self.render()

    # -- drawing ------------------------------------------------------------------------------

    def _recount(self) -> None:
        self.count.value = counted_entrants(self.typed(), self.format.teams)
        self.rounds_part.controls = self._rounds()
        if self.body.page is not None:
            self.count.update()
            self.rounds_part.update()

    def render(self) -> None:
        self.body.controls = self.controls()
        if self.body.page is not None:
            self.body.update()

    def controls(self) -> list[ft.Control]:
        formats = [ft.Column([
            ft.Row([small_toggle(FORMAT_LINES[f][0], self.format is f,
                                 lambda _e, f=f: self.pick(format=f))]),
            ft.Text(FORMAT_LINES[f][1], size=13, color=ft.Colors.ON_SURFACE_VARIANT),
        ], spacing=4) for f in Format]
        self.rounds_part.controls = self._rounds()
        out: list[ft.Control] = [self.name, *self._group_choice(), section("Format", *formats),
                                 *self._present_part()]
        out += [
            section("Entrants", self.entrants, self.count,
                    note="Teams, or single players for a progressive night. More can be "
                         "added or withdrawn until round 1 starts."),
            self.rounds_part,
            self.play_to.control,
            section("Clock", ft.Row([small_toggle("Off" if m is None else f"{m} min",
                                                  self.clock == m,
                                                  lambda _e, m=m: self.pick(clock=m))
                                     for m in CLOCKS], spacing=6),
                    note="When time is called each table finishes the hand in play; the team "
                         "ahead wins, level plays on a hand at a time."),
            section("House rules (every table)", *rule_rows(self.rules, self.set_rule),
                    note="The same as in a new game; standard unless changed."),
        ]
        if self.error:
            out.append(notice(self.error, error=True))
        return out

    def _group_choice(self) -> list[ft.Control]:
        """For a group this phone keeps (the server checks it again at Create)."""
        if self.kept is None and self.ctx.actions.identified:
            # Read once, not at every tap: a server may hold many groups.
            self.kept = [(g.id, g.name) for g in club(self.ctx).kept_groups()]
        kept = self.kept or []
        if not kept:
            self.group = None
            return []
        choices = [ft.Row([small_toggle("No group", self.group is None,
                                        lambda _e: self.pick_group(None))])]
        choices += [ft.Row([small_toggle(name, self.group == gid,
                                         lambda _e, g=gid: self.pick_group(g))])
                    for gid, name in kept]
        return [section("For a group", *choices,
                        note="Its games join the group. In a progressive night partners "
                             "are as fair as the group's ratings allow.")]

    def _present_part(self) -> list[ft.Control]:
        """Who of the group's members is here: fair teams, or the list of players."""
        if self.group is not None and self.group not in self.members:
            self.members[self.group] = club(self.ctx).group_members(self.group)
        members = () if self.group is None else self.members[self.group]
        if not members:
            return []
        taps = ft.Row([self._member(m) for m in members], wrap=True, spacing=6,
                      run_spacing=6)
        label = "Fair teams" if self.format.teams else "Put them in the list"
        too_many = self.format.teams and len(self.present) > FAIR_MOST
        here: list[ft.Control] = [taps, ft.Row([big_button(f"{label} ({len(self.present)})",
                                         lambda _e: self.fill_from_present(),
                                         icon=ft.Icons.BALANCE, primary=False, height=48,
                                         disabled=not self.present or too_many)])]
        if too_many:
            here.append(ft.Text(f"Fair teams is for up to {FAIR_MOST} players: with more, "
                                "type the teams by hand.", size=15,
                                weight=ft.FontWeight.W_600))
        elif self.fair_line:
            here.append(ft.Text(self.fair_line, size=15))
        return [section("Who is here", *here,
                        note="Tap who came. Fair teams (4 to 8 players) makes the teams "
                             "whose chances are closest to even." if self.format.teams
                        else "Tap who came, then put them in the list of players.")]

    def _member(self, name: str) -> ft.Control:
        """A member's toggle, as wide as the name (a wrapped row of them)."""
        here = name in self.present
        return ft.OutlinedButton(
            content=ft.Text(name, size=17, weight=ft.FontWeight.W_600,
                            semantics_label=f"{name} here" if here else f"{name} not here"),
            icon=ft.Icons.CHECK if here else None, style=toggle_style(here), height=SMALL_TAP,
            on_click=lambda _e: self.tap_member(name))

    def _rounds(self) -> list[ft.Control]:
        now = self.rounds or self.suggested()
        note = ("Suggested for this many entrants." if self.rounds is None
                else f"Suggested: {self.suggested()}.")
        if self.format is Format.ROUND_ROBIN:
            note = "Everyone meets everyone: " + note[0].lower() + note[1:]
        return [section("Rounds", ft.Row([
            small_toggle("−", False, lambda _e: self.step_rounds(-1), expand=False, width=64,
                         spoken="One round fewer"),
            ft.Text(str(now), size=24, weight=ft.FontWeight.BOLD, width=56,
                    text_align=ft.TextAlign.CENTER),
            small_toggle("+", False, lambda _e: self.step_rounds(1), expand=False, width=64,
                         spoken="One round more"),
        ], spacing=8), note=note)]

def club_new_view(ctx: AppContext) -> ft.View:
    route = "/club/new"
    if CONFIG.alone:
        return alone_view(ctx, route)
    form = NewEventForm(ctx)
    form.body.controls = form.controls()
    if not ctx.actions.identified:
        # The groups this phone keeps are known once the browser has said which phone
        # it is: drawn again then.
        ctx.page.run_task(when_identified, ctx, form.render)
    start = ft.Row([big_button("Create club night", lambda _e: form.create(),
                               icon=ft.Icons.PLAY_ARROW)])
    return screen(route, app_bar(ctx, "New club night", back_to="/club"), [form.body],
                  bottom=start)
