"""One club night: the round's tables and their scores, the standings, and for the
organiser everything that changes it (entrants, Start round, Call time, a result
from a paper sheet, the table cards, export). Drawn again from the store after
every change, and when a table's game is saved on another phone."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from datetime import UTC, datetime

import flet as ft

from scorer.app import CONFIG
from scorer.app.club_actions import ClubActions
from scorer.app.club_text import clock_line
from scorer.app.context import AppContext
from scorer.app.event_access import club_topic, hear_club
from scorer.app.theme import RADIUS
from scorer.app.views.club import alone_view, club, link_button
from scorer.app.views.common import app_bar, message_view, screen
from scorer.app.widgets import big_button, notice, section
from scorer.events.model import FORMAT_LINES, RANKING_RULE, Format
from scorer.events.night import TableRecord
from scorer.events.results import TableResult
from scorer.events.service import EventView
from scorer.store.errors import StoreError

CSV_COLUMNS = ("round", "table", "team_1", "team_2", "score_1", "score_2", "winner", "result")
REDRAW_AFTER_S = 0.05
"""A table's save reaches this screen a moment after the table's own phones."""
IDENTIFY_WAITS = 50
"""Tenths of a second to wait for the browser's device token before drawing again."""
FOLLOWING = "following "
"""Marks in `AppContext.open_panels` of the club topic this session listens to."""


def _route(event_id: str) -> str:
    return f"/club/{event_id}"


class EventScreen:
    def __init__(self, ctx: AppContext, event_id: str) -> None:
        self.ctx = ctx
        self.event_id = event_id
        self.club: ClubActions = club(ctx)
        self.error = ""

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

    def enter_code(self, field: ft.TextField) -> None:
        try:
            self.club.enter_code(self.event_id, field.value or "")
        except (ValueError, StoreError) as exc:
            self.ctx.toast(str(exc), error=True)
            return
        self.ctx.toast("This phone organises the club night now.")
        self.ctx.router_refresh()

    def result_dialog(self, view: EventView, table: TableRecord, found: TableResult) -> None:
        ev = view.night
        played = ev.current
        assert played is not None
        names = [" & ".join(ev.names_of(side)) for side in table.sides]
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
                self.event_id, played.round, table.table, (int(texts[0]), int(texts[1]))))

        def clear(_e: object) -> None:
            self.ctx.page.pop_dialog()
            self.act("Result", lambda: self.club.enter_result(
                self.event_id, played.round, table.table, None))

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
        route = _route(self.event_id)
        try:
            view = self.club.view(self.event_id)
        except (ValueError, StoreError) as exc:
            return message_view(self.ctx, route, "Club night not found", str(exc))
        self.follow()
        ev = view.night
        organiser = self.club.organises(self.event_id)
        board = link_button("Standings board", f"/board/{self.event_id}", ft.Icons.TV)
        body: list[ft.Control] = [self.header(view), ft.Row([board])]
        if self.error:
            body.append(notice(self.error, error=True))
        if organiser:
            body.extend(self.organiser_part(view))
        elif self.ctx.actions.identified:
            body.append(self.code_entry())
        else:  # the browser has not said which phone this is yet: draw again once it has
            body.append(ft.Text("Checking this phone's rights…", size=14,
                                color=ft.Colors.ON_SURFACE_VARIANT))
            self.ctx.page.run_task(self.when_identified)
        if ev.current is not None:
            body.append(section(f"Round {ev.current.round}", *self.tables(view, organiser)))
        body.append(self.standings(view))
        if organiser:
            body.append(self.entrants(view))
            body.append(self.tools())
        return screen(route, app_bar(self.ctx, ev.name, back_to="/club"), body)

    def header(self, view: EventView) -> ft.Control:
        ev = view.night
        if view.over:
            where = f"all {ev.rounds} rounds played"
        elif ev.current is None:
            where = f"{ev.rounds} rounds, not started"
        else:
            where = f"round {ev.current.round} of {ev.rounds}"
        lines: list[ft.Control] = [ft.Text(f"{FORMAT_LINES[ev.format][0]} · {where}", size=16,
                                           weight=ft.FontWeight.W_600)]
        current = ev.current
        clock = None if current is None or view.over else clock_line(
            current.clock_ends, current.time_called, datetime.now(UTC))
        if clock:
            lines.append(ft.Text(clock, size=15, color=ft.Colors.PRIMARY))
        if view.over:
            winners = [" & ".join(s.names) for s in view.standings if s.rank == 1]
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
            parts.append(ft.Row([big_button(
                f"Start round {next_round}",
                lambda _e: self.act("Start round", lambda: self.club.start_round(self.event_id)),
                icon=ft.Icons.PLAY_ARROW, primary=not waiting, height=60)]))
            if waiting:
                tables = ", ".join(str(t) for t in waiting)
                parts.append(ft.Text(f"Waiting for table{'s' if len(waiting) > 1 else ''} "
                                     f"{tables}: a game that ends, or a result entered.",
                                     size=14, color=ft.Colors.ON_SURFACE_VARIANT))
        return parts

    def code_entry(self) -> ft.Control:
        field = ft.TextField(label="Organiser code", keyboard_type=ft.KeyboardType.NUMBER,
                             max_length=9, text_size=20, expand=True,
                             on_submit=lambda e: self.enter_code(e.control))
        return section("Watching", ft.Row([field, ft.FilledButton(
            "Enter", height=56, on_click=lambda _e: self.enter_code(field))],
            vertical_alignment=ft.CrossAxisAlignment.START),
            note="Only the organiser changes this club night. The organiser's phone shows "
                 "the code.")

    def tables(self, view: EventView, organiser: bool) -> list[ft.Control]:
        ev = view.night
        current = ev.current
        assert current is not None
        out: list[ft.Control] = []
        for table in current.tables:
            found = view.results[(current.round, table.table)]
            points = found.outcome.points if found.outcome else found.side_points or (0, 0)
            winner = found.outcome.winner if found.outcome else None
            sides = [ft.Row([
                ft.Text(" & ".join(ev.names_of(side)), size=16, expand=True,
                        weight=ft.FontWeight.BOLD if winner == n else None),
                ft.Text(str(points[n]), size=22, weight=ft.FontWeight.BOLD)])
                for n, side in enumerate(table.sides)]
            status = ("result entered by hand" if table.paper else
                      "finished" if found.outcome else
                      f"{found.score.hands if found.score else 0} hands so far")
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
                    on_click=lambda _e, t=table, f=found: self.result_dialog(view, t, f)))
            out.append(ft.Container(content=ft.Column([
                ft.Row([ft.Text(f"Table {table.table}", size=15, weight=ft.FontWeight.BOLD),
                        ft.Text(status, size=13, color=ft.Colors.ON_SURFACE_VARIANT)],
                       alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
                *sides, ft.Row(buttons, spacing=0, wrap=True)], spacing=2),
                padding=10, border_radius=ft.BorderRadius.all(RADIUS),
                bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))
        if current.byes:
            out.append(ft.Text("Bye (a win with no points): " + ", ".join(
                " & ".join(ev.entrant(b).names) for b in current.byes), size=14))
        return out

    def standings(self, view: EventView) -> ft.Control:
        rows = [ft.Row([
            ft.Text(str(s.rank), size=15, width=28),
            ft.Text(" & ".join(s.names) + (" (withdrawn)" if s.withdrawn else ""), size=15,
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
        return section("For the organiser", ft.Row([cards]), ft.Row([
            big_button("Export results", lambda _e: self.download("csv"),
                       icon=ft.Icons.DOWNLOAD, primary=False, height=48),
            big_button("Export all", lambda _e: self.download("json"),
                       icon=ft.Icons.DOWNLOAD, primary=False, height=48)], spacing=8),
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
            await asyncio.sleep(REDRAW_AFTER_S)
            if ctx.shown_route().split("?")[0].rstrip("/") == route:
                ctx.router_refresh()

        pubsub.subscribe_topic(topic, changed)
        ctx.open_panels.add(FOLLOWING + topic)


def club_event_view(ctx: AppContext, event_id: str) -> ft.View:
    route = _route(event_id)
    if CONFIG.alone:
        return alone_view(ctx, route)
    return EventScreen(ctx, event_id).view()
