"""One club night: the round's tables and their scores, the standings, and for the
organiser everything that changes it (entrants, Start round, Call time, a result
from a paper sheet, the table cards, export). Drawn again from the store after
every change, and when a table's game is saved on another phone."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
import weakref
from datetime import UTC, datetime
from typing import Any

import flet as ft

from scorer.app import CONFIG
from scorer.app.club_actions import ClubActions
from scorer.app.club_text import clock_line, team, waiting_line
from scorer.app.context import AppContext
from scorer.app.event_access import club_topic, hear_club
from scorer.app.theme import RADIUS
from scorer.app.views.club import alone_view, club, link_button
from scorer.app.views.common import app_bar, keyed, message_view, screen
from scorer.app.views.kept import Kept
from scorer.app.views.table_code import CodeEntry, code_dialog
from scorer.app.widgets import big_button, notice, section
from scorer.events.model import FORMAT_LINES, RANKING_RULE, Format, plural, rounds_line
from scorer.events.night import TableRecord
from scorer.events.organisers import CODE_DIGITS as ORGANISER_DIGITS
from scorer.events.results import TableResult
from scorer.events.service import EventView
from scorer.store.errors import StoreError

CSV_COLUMNS = ("round", "table", "team_1", "team_2", "score_1", "score_2", "winner", "result")
REDRAW_AFTER_S = 1.0
"""The night's screen follows the tables' saves at most once a second."""
PENDING = "club redraw pending"
"""In `AppContext.open_panels` while a redraw of the night's screen is due."""
_refusals: weakref.WeakKeyDictionary[Any, tuple[str, str]] = weakref.WeakKeyDictionary()
"""Each session's last refusal on a night's screen (the screen is drawn anew after it)."""
TICKET_REDRAW_S = 600
"""The table cards' link is drawn again this often (its ticket lasts 30 minutes)."""
IDENTIFY_WAITS = 50
"""Tenths of a second to wait for the browser's device token before drawing again."""
FOLLOWING = "following "
"""Marks in `AppContext.open_panels` of the club topic this session listens to."""
ORGANISER_INTRO = "The organiser's phone shows it on this night's page."


def _route(event_id: str) -> str:
    return f"/club/{event_id}"


class EventScreen:
    def __init__(self, ctx: AppContext, event_id: str) -> None:
        self.ctx = ctx
        self.event_id = event_id
        self.club: ClubActions = club(ctx)

    @property
    def error(self) -> str:
        """The last refusal on this screen, shown until the next change goes through."""
        found = _refusals.get(self.ctx.page.session)
        return found[1] if found is not None and found[0] == self.event_id else ""

    @error.setter
    def error(self, text: str) -> None:
        if text:
            _refusals[self.ctx.page.session] = (self.event_id, text)
        else:
            _refusals.pop(self.ctx.page.session, None)

    # -- taps ---------------------------------------------------------------------------------

    def act(self, what: str, do: object) -> None:
        """Run an organiser's action; a refusal is shown on the screen in words."""
        try:
            assert callable(do)
            do()
        except (ValueError, StoreError) as exc:
            self.ctx.toast(str(exc), error=True)
            self.error = f"{what}: {exc}"
        else:
            self.error = ""
        self.ctx.router_refresh()

    def result_dialog(self, round_number: int, table: TableRecord, found: TableResult,
                      names: tuple[str, ...]) -> None:
        now = table.paper.points if table.paper else found.side_points or (0, 0)
        fields = [ft.TextField(label=f"{names[n]}", value=str(now[n]) if table.paper else "",
                               keyboard_type=ft.KeyboardType.NUMBER, max_length=7,
                               text_size=20) for n in (0, 1)]

        def save(_e: object) -> None:
            texts = [(f.value or "").strip() for f in fields]
            if not all(t.isdigit() for t in texts):
                self.ctx.toast("Type each side's final score as a number.", error=True)
                return
            self.ctx.page.pop_dialog()
            self.act("Result", lambda: self.club.enter_result(
                self.event_id, round_number, table.table, (int(texts[0]), int(texts[1]))))

        def clear(_e: object) -> None:
            self.ctx.page.pop_dialog()
            self.act("Result", lambda: self.club.enter_result(
                self.event_id, round_number, table.table, None))

        actions: list[ft.Control] = [
            ft.TextButton("Cancel", on_click=lambda _e: self.ctx.page.pop_dialog())]
        if table.paper:
            actions.append(ft.TextButton("Take it back", on_click=clear))
        actions.append(ft.FilledButton("Save result", on_click=save))
        self.ctx.page.show_dialog(ft.AlertDialog(
            title=ft.Text(f"Table {table.table}: final score", size=20),
            content=ft.Column([
                ft.Text("From the table's paper sheet. It counts instead of the game on the "
                        "phones, and the board says it was entered by hand.", size=14),
                *fields], tight=True, spacing=10),
            actions=actions))

    def download(self, kind: str) -> None:
        try:
            exported = self.club.export(self.event_id)
        except (ValueError, StoreError) as exc:
            self.ctx.toast(str(exc), error=True)
            return
        if kind == "csv":
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(CSV_COLUMNS)
            for row in exported["results"]:
                writer.writerow([" & ".join(v) if isinstance(v, list) else
                                 ("" if v is None else v) for v in (row[c] for c in CSV_COLUMNS)])
            self.ctx.download(f"club-night-{self.event_id}.csv", buffer.getvalue().encode())
        else:
            data = json.dumps(exported, ensure_ascii=False, indent=2).encode()
            self.ctx.download(f"club-night-{self.event_id}.json", data)

    # -- drawing ------------------------------------------------------------------------------

    def view(self) -> ft.View:
        """The screen, keyed: drawn again after a save, it reuses every part drawn from
        the same values (`Kept`), so the phone is sent the table that changed, not the
        whole night."""
        route = _route(self.event_id)
        try:
            view = self.club.view(self.event_id)
        except (ValueError, StoreError) as exc:
            return message_view(self.ctx, route, "Club night not found", str(exc))
        self.follow()
        kept = Kept(self.ctx, route)
        ev = view.night
        current = ev.current
        organiser = self.club.organises(self.event_id)
        clock = None if current is None or view.over else clock_line(
            current.clock_ends, current.time_called, datetime.now(UTC))
        winners = tuple(team(s.names) for s in view.standings if s.rank == 1)
        group = self.club.group_name(ev.group)
        head = (ev.format, len(ev.played), ev.rounds, view.over, clock, winners, group)
        body: list[ft.Control] = [
            kept.part("header", head, lambda: self.header(view, clock, winners, group)),
            kept.part("board", self.event_id, lambda: ft.Row([link_button(
                "Standings board", f"/board/{self.event_id}", ft.Icons.TV)]))]
        if self.error:
            body.append(notice(self.error, error=True))
        if organiser:
            state = (self.club.code(self.event_id), view.over, len(ev.played), ev.rounds,
                     view.open_tables, None if current is None else current.time_called)
            body.append(kept.part("organiser", state, lambda: ft.Column(
                self.organiser_part(view), spacing=12)))
        elif self.ctx.actions.identified:
            body.append(kept.part("code", self.event_id, self.code_entry))
        else:  # the browser has not said which phone this is yet: draw again once it has
            body.append(ft.Text("Checking this phone's rights…", size=14,
                                color=ft.Colors.ON_SURFACE_VARIANT))
            self.ctx.page.run_task(self.when_identified)
        if current is not None:
            cards = []
            for table in current.tables:
                found = view.results[(current.round, table.table)]
                names = tuple(team(ev.names_of(side)) for side in table.sides)
                cards.append(kept.part(
                    f"table{table.table}", (current.round, table, found, names, organiser),
                    lambda t=table, f=found, n=names: self.table_card(
                        current.round, t, f, n, organiser)))
            if current.byes:
                cards.append(ft.Text("Bye (a win with no points): " + ", ".join(
                    team(ev.entrant(b).names) for b in current.byes), size=14))
            body.append(section(f"Round {current.round}", *cards))
        body.append(kept.part("standings", (view.standings, view.rounds_played),
                              lambda: self.standings(view)))
        if organiser:
            body.append(kept.part("entrants", (ev.entrants, view.over, ev.started, ev.format),
                                  lambda: self.entrants(view)))
            # The cards' link carries a ticket: drawn again every TICKET_REDRAW_S at least.
            body.append(kept.part("tools", (self.event_id, time.time() // TICKET_REDRAW_S),
                                  self.tools))
        bar = kept.part("bar", ev.name, lambda: app_bar(self.ctx, ev.name, back_to="/club"))
        return kept.done(keyed(screen(route, bar, body)))

    def header(self, view: EventView, clock: str | None, winners: tuple[str, ...],
               group: str | None = None) -> ft.Control:
        ev = view.night
        where = rounds_line(ev.rounds, 0 if ev.current is None else ev.current.round,
                            view.over)
        lines: list[ft.Control] = [ft.Text(f"{FORMAT_LINES[ev.format][0]} · {where}", size=16,
                                           weight=ft.FontWeight.W_600)]
        if group is not None:
            lines.append(ft.Text(f"for {group}", size=15, color=ft.Colors.ON_SURFACE_VARIANT))
        if clock:
            lines.append(ft.Text(clock, size=15, color=ft.Colors.PRIMARY))
        if view.over:
            lines.append(notice(f"Winner{'s' if len(winners) > 1 else ''}: "
                                f"{', '.join(winners)}", icon=ft.Icons.EMOJI_EVENTS))
        return ft.Column(lines, spacing=6)

    def organiser_part(self, view: EventView) -> list[ft.Control]:
        ev = view.night
        code = self.club.code(self.event_id) or ""
        parts: list[ft.Control] = [ft.Text(
            f"Organiser code {code[:4]} {code[4:]}: a helper's phone that enters it can run "
            "the night too.", size=14, color=ft.Colors.ON_SURFACE_VARIANT)]
        if view.over:
            return parts
        current = ev.current
        next_round = len(ev.played) + 1
        if current is not None and view.open_tables and current.time_called is None:
            parts.append(ft.Row([big_button(
                "Call time", lambda _e: self.act("Call time", lambda: self.club.call_time(
                    self.event_id)), icon=ft.Icons.ALARM, primary=False)]))
        if next_round <= ev.rounds:
            waiting = view.open_tables
            # Refused while a table plays on: say so before the tap, not after it.
            parts.append(ft.Row([big_button(
                f"Start round {next_round}",
                lambda _e: self.act("Start round", lambda: self.club.start_round(self.event_id)),
                icon=ft.Icons.PLAY_ARROW, disabled=bool(waiting), height=60)]))
            if waiting and current is not None:
                parts.append(ft.Text(waiting_line(current.round, waiting), size=15,
                                     weight=ft.FontWeight.W_600))
        return parts

    def code_entry(self) -> ft.Control:
        return section("Watching", ft.Row([big_button(
            "Enter organiser code", lambda _e: self.code_pad(), icon=ft.Icons.DIALPAD,
            primary=False)]),
            note="Only the organiser changes this club night. The organiser's phone shows "
                 "the code.")

    def code_pad(self) -> None:
        """The organiser code on the number pad every code is entered with."""
        def granted() -> None:
            self.ctx.page.pop_dialog()
            self.ctx.toast("This phone organises the club night now.")
            self.ctx.router_refresh()

        entry = CodeEntry(self.ctx, ORGANISER_DIGITS, ORGANISER_INTRO,
                          lambda code: self.club.enter_code(self.event_id, code), granted)
        code_dialog(self.ctx, "Enter the organiser code", entry)

    def table_card(self, round_number: int, table: TableRecord, found: TableResult,
                   names: tuple[str, ...], organiser: bool) -> ft.Control:
        """One table of the round: its two sides, their points, and the way to its game
        (and, for the organiser, to its result). Its taps use only what it is drawn from."""
        points = found.outcome.points if found.outcome else found.side_points or (0, 0)
        winner = found.outcome.winner if found.outcome else None
        sides = [ft.Row([
            ft.Text(name, size=16, expand=True,
                    weight=ft.FontWeight.BOLD if winner == n else None),
            ft.Text(str(points[n]), size=22, weight=ft.FontWeight.BOLD)])
            for n, name in enumerate(names)]
        status = ("result entered by hand" if table.paper else
                  "finished" if found.outcome else
                  f"{plural(found.score.hands if found.score else 0, 'hand')} so far")
        buttons: list[ft.Control] = []
        if table.game:
            buttons.append(ft.TextButton(
                content=ft.Text("Open game", semantics_label=f"Open table {table.table}"),
                icon=ft.Icons.OPEN_IN_NEW, height=48,
                on_click=lambda _e, g=table.game: self.ctx.go(f"/game/{g}")))
        if organiser:
            buttons.append(ft.TextButton(
                content=ft.Text("Result", semantics_label=f"Result of table {table.table}"),
                icon=ft.Icons.EDIT_NOTE, height=48,
                on_click=lambda _e: self.result_dialog(round_number, table, found, names)))
        return ft.Container(content=ft.Column([
            ft.Row([ft.Text(f"Table {table.table}", size=15, weight=ft.FontWeight.BOLD),
                    ft.Text(status, size=13, color=ft.Colors.ON_SURFACE_VARIANT)],
                   alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            *sides, ft.Row(buttons, spacing=0, wrap=True)], spacing=2),
            padding=10, border_radius=ft.BorderRadius.all(RADIUS),
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW)

    def standings(self, view: EventView) -> ft.Control:
        rows = [ft.Row([
            ft.Text(str(s.rank), size=15, width=28),
            ft.Text(team(s.names) + (" (withdrawn)" if s.withdrawn else ""), size=15,
                    expand=True),
            ft.Text(f"{s.wins}-{s.losses}", size=15, width=44),
            ft.Text(f"{s.difference:+d}", size=15, width=56, text_align=ft.TextAlign.RIGHT),
        ]) for s in view.standings]
        title = (f"Standings after round {view.rounds_played}" if view.rounds_played
                 else "Standings")
        return section(title, *rows, ft.Text(RANKING_RULE, size=12,
                                             color=ft.Colors.ON_SURFACE_VARIANT))

    def entrants(self, view: EventView) -> ft.Control:
        ev = view.night
        teams = ev.format.teams
        rows: list[ft.Control] = []
        for e in ev.entrants:
            state = (" (withdrawn)" if e.withdrawn is not None else
                     f" (from round {e.joined})" if e.joined > 1 else "")
            withdraw = ft.TextButton(
                content=ft.Text("Withdraw", semantics_label=f"Withdraw {e.label}"), height=48,
                on_click=lambda _e, n=e.id: self.act("Withdraw", lambda: self.club.withdraw(
                    self.event_id, n)), visible=e.withdrawn is None and not view.over)
            rows.append(ft.Row([ft.Text(e.label + state, size=15, expand=True), withdraw]))
        late = ev.started and ev.format is Format.ROUND_ROBIN
        if not view.over and not late:
            field = ft.TextField(label="Late team: Ann & Bob" if ev.started and teams else
                                 "Add a team: Ann & Bob" if teams else "Add a player",
                                 expand=True, text_size=16,
                                 capitalization=ft.TextCapitalization.WORDS)

            def add(_e: object) -> None:
                from scorer.app.club_text import parse_entrants

                found = parse_entrants(field.value or "", teams)
                names = found[0] if found else []
                self.act("Add", lambda: self.club.add_entrant(self.event_id, names))

            rows.append(ft.Row([field, ft.FilledButton("Add", height=56, on_click=add)],
                               vertical_alignment=ft.CrossAxisAlignment.START))
        note = ("A late team plays from the next round." if ev.started and teams and not late
                else None)
        return section("Teams" if teams else "Players", *rows, note=note)

    def tools(self) -> ft.Control:
        cards = link_button("Table cards (print)", self.club.cards_url(self.event_id),
                            ft.Icons.PRINT)
        # One a line: side by side, "Export results" wrapped inside its button at 360 px.
        return section("For the organiser", ft.Row([cards]), ft.Row([
            big_button("Export results", lambda _e: self.download("csv"),
                       icon=ft.Icons.DOWNLOAD, primary=False, height=48)]), ft.Row([
            big_button("Export all", lambda _e: self.download("json"),
                       icon=ft.Icons.DOWNLOAD, primary=False, height=48)]),
            note="Export results: one row a game (CSV). Export all: the results and every "
                 "game file.")

    async def when_identified(self) -> None:
        for _ in range(IDENTIFY_WAITS):
            await asyncio.sleep(0.1)
            if self.ctx.actions.identified:
                break
        if self.ctx.shown_route().split("?")[0].rstrip("/") == _route(self.event_id):
            self.ctx.router_refresh()

    # -- following ----------------------------------------------------------------------------

    def follow(self) -> None:
        """Hear of every change to this event and its games (a save at any table): one
        handler a session, on this event's topic only."""
        ctx = self.ctx
        pubsub = ctx.page.pubsub
        hear_club(pubsub)
        for mark in [m for m in ctx.open_panels if m.startswith(FOLLOWING)]:
            pubsub.unsubscribe_topic(mark.removeprefix(FOLLOWING))
            ctx.open_panels.discard(mark)
        topic = club_topic(self.event_id)
        route = _route(self.event_id)

        async def changed(_topic: str, _event_id: str) -> None:
            # Saves from thirty tables come a second apart: the whole screen is drawn
            # again at most once a REDRAW_AFTER_S, with all that happened meanwhile.
            if PENDING in ctx.open_panels:
                return
            ctx.open_panels.add(PENDING)
            try:
                await asyncio.sleep(REDRAW_AFTER_S)
            finally:
                ctx.open_panels.discard(PENDING)
            if ctx.shown_route().split("?")[0].rstrip("/") == route:
                ctx.router_refresh()

        pubsub.subscribe_topic(topic, changed)
        ctx.open_panels.add(FOLLOWING + topic)


def club_event_view(ctx: AppContext, event_id: str) -> ft.View:
    route = _route(event_id)
    if CONFIG.alone:
        return alone_view(ctx, route)
    return EventScreen(ctx, event_id).view()
