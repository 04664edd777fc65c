"""One group's page (`/group/<id>`): its members, games, leaderboard and fair teams;
for a keeper the changes (start or add a game, take one out, a member, a new code),
for anyone else the keeper code to enter. Every change is checked again on the server
(`GroupActions`): the buttons only spare a phone a refusal."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

import flet as ft

from scorer.app.context import AppContext
from scorer.app.group_actions import PICK_MAX, GroupActions
from scorer.app.ratings_access import rated_folder
from scorer.app.views.common import app_bar, message_view, screen
from scorer.app.views.group_page import GroupScreen
from scorer.app.views.groups_list import code_panel, group_actions
from scorer.app.views.leaderboard import plural
from scorer.app.views.table_code import CodeEntry, code_dialog
from scorer.app.widgets import big_button, notice, section, update_shown
from scorer.groups.model import CODE_DIGITS, NAME_MAX, Group, GroupNotFound, check_id
from scorer.store.errors import StoreError
from scorer.store.models import GameSummary

NO_GROUP = "There is no group at this address. Open Groups from the home screen."
NEWEST = 5
"""Games listed on the group's page (the rest are on its games' screen)."""
KEEPER_INTRO = "The code shown once when the group was made, or given a new code."


def game_line(summary: GameSummary) -> str:
    """`Ann & Cid vs Bob & Dee · 320–250 · finished`."""
    names, score = game_lines(summary)
    return f"{names}\n{score}"


def game_lines(summary: GameSummary) -> tuple[str, str]:
    """The table (`Ann & Cid vs Bob & Dee`) and its state (`320–250 · finished · 28 Nov`)."""
    p = summary.players
    state = ("finished" if summary.finished else
             plural(summary.hand_count, "hand") if summary.hand_count else "no hands yet")
    return (f"{p[0]} & {p[2]} vs {p[1]} & {p[3]}",
            f"{summary.totals[0]}–{summary.totals[1]} · {state} · "
            f"{summary.created.strftime('%d %b')}")


def game_button(summary: GameSummary, on_click: Callable[[ft.Event[ft.OutlinedButton]], None]
                ) -> ft.Control:
    """A game as one tap: its names on two lines at most (then "…"), and its score and
    date on a line of their own, never pushed out by long names."""
    names, score = game_lines(summary)
    return ft.OutlinedButton(
        content=ft.Container(ft.Column([
            ft.Text(names, size=16, weight=ft.FontWeight.W_600, max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS, text_align=ft.TextAlign.CENTER),
            ft.Text(score, size=15, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)],
            spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(vertical=8)),
        expand=True, on_click=on_click)


class GroupPage:
    """The page of one group for one phone."""

    def __init__(self, ctx: AppContext, group: Group) -> None:
        self.ctx = ctx
        self.group = group
        self.actions: GroupActions = group_actions(ctx)
        self.keeper = self.actions.keeps(group.id)
        self.route = f"/group/{group.id}"
        self.extra = ft.Column(spacing=12)
        """The keeper code once shown, or a refusal: kept until the next redraw."""

    def act(self, what: Callable[[], object], done: str) -> bool:
        """Run a change; a refusal is said on screen and nothing else happens."""
        try:
            what()
        except (ValueError, StoreError) as exc:
            self.ctx.toast(str(exc), error=True)
            return False
        self.ctx.toast(done)
        return True

    def controls(self) -> list[ft.Control]:
        g = self.group
        gid = g.id
        games = self.actions.games(g)
        body: list[ft.Control] = [
            ft.Text(f"{plural(len(g.members), 'member')}, {plural(len(games), 'game')}",
                    size=16),
            ft.Row([big_button("Leaderboard", lambda _e: self.ctx.go(f"/ratings?group={gid}"),
                               icon=ft.Icons.LEADERBOARD, primary=not self.keeper)]),
            ft.Row([big_button("Fair teams", lambda _e: self.ctx.go(teams_route(gid)),
                               icon=ft.Icons.BALANCE, primary=False)]),
            self.extra,
        ]
        body.extend(self.keeper_part() if self.keeper else [self.code_entry()])
        body.append(self.members_part())
        body.append(self.games_part(games))
        return body

    # -- parts ------------------------------------------------------------------

    def code_entry(self) -> ft.Control:
        return ft.Column([
            ft.Row([big_button("Enter keeper code", lambda _e: self.code_pad(),
                               icon=ft.Icons.DIALPAD, primary=False)]),
            ft.Text("Anyone can look. To start or add games, enter the code the group's "
                    "keeper wrote down.", size=14, color=ft.Colors.ON_SURFACE_VARIANT),
        ], spacing=6)

    def code_pad(self) -> None:
        """The keeper code on the number pad every code is entered with."""
        def granted() -> None:
            self.ctx.page.pop_dialog()
            self.ctx.toast("This phone keeps the group now.")
            self.ctx.router_refresh()

        entry = CodeEntry(self.ctx, CODE_DIGITS, KEEPER_INTRO,
                          lambda code: self.actions.enter_code(self.group.id, code), granted)
        code_dialog(self.ctx, "Enter the keeper code", entry)

    def keeper_part(self) -> list[ft.Control]:
        gid = self.group.id
        member = ft.TextField(label="New member", max_length=NAME_MAX, text_size=18,
                              expand=True, on_submit=lambda e: self.add_member(e.control))
        return [
            ft.Row([big_button("Start a game", lambda _e: self.ctx.go(f"/new?group={gid}"),
                               icon=ft.Icons.PLAY_ARROW)]),
            ft.Row([big_button("Add a game", lambda _e: self.ctx.go(f"/group/{gid}/add"),
                               icon=ft.Icons.ADD, primary=False)]),
            ft.Row([member, ft.OutlinedButton("Add", height=56,
                                              on_click=lambda _e: self.add_member(member))],
                   vertical_alignment=ft.CrossAxisAlignment.START),
            ft.Row([big_button("Members and phones", lambda _e: self.ctx.go(people_route(gid)),
                               icon=ft.Icons.GROUPS, primary=False)]),
            ft.Row([big_button("New keeper code", lambda _e: self.confirm_new_code(),
                               icon=ft.Icons.DIALPAD, primary=False)]),
        ]

    def add_member(self, field: ft.TextField) -> None:
        name = field.value or ""
        try:
            after = self.actions.add_member(self.group.id, name)
        except (ValueError, StoreError) as exc:
            self.ctx.toast(str(exc), error=True)
            return
        self.ctx.toast(member_added(self.group, after, name))
        self.ctx.router_refresh()

    def confirm_new_code(self) -> None:
        end_others = ft.Checkbox(label="Also end the rights of the other phones that keep "
                                 "the group", value=False, label_style=ft.TextStyle(size=16))

        def yes(_e: object) -> None:
            self.ctx.page.pop_dialog()
            self.new_code(bool(end_others.value))

        self.ctx.page.show_dialog(ft.AlertDialog(
            title=ft.Text("New keeper code?", size=20),
            content=ft.Column([
                ft.Text("The old code stops working. Phones that keep the group now still "
                        "do, unless you tick this:", size=16),
                end_others], tight=True, spacing=8),
            scrollable=True,
            actions=[ft.TextButton("Cancel", on_click=lambda _e: self.ctx.page.pop_dialog()),
                     ft.FilledButton("New code", on_click=yes)]))

    def new_code(self, end_others: bool = False) -> None:
        try:
            code = self.actions.new_code(self.group.id, end_others)
        except (ValueError, StoreError) as exc:
            self.ctx.toast(str(exc), error=True)
            return
        self.extra.controls = code_panel(self.ctx, self.group, code, made=False)
        if end_others:
            self.extra.controls.append(ft.Text(
                "The other phones no longer keep the group.", size=16,
                weight=ft.FontWeight.W_600))
        update_shown(self.extra)

    def members_part(self) -> ft.Control:
        gid = self.group.id
        if not self.group.members:
            return section("Members", ft.Text("No members yet: players of its games join.",
                                              size=16))
        names = sorted(self.group.members, key=str.casefold)
        buttons: list[ft.Control] = [ft.TextButton(
            content=ft.Text(name, size=17, weight=ft.FontWeight.W_600),
            on_click=lambda _e, n=name: self.ctx.go(
                f"/player/{quote(n, safe='')}?group={gid}")) for name in names]
        return section("Members", ft.Row(buttons, wrap=True, spacing=4, run_spacing=0),
                       note="Tap a name for the player's page in this group.")

    def games_part(self, games: list[GameSummary], every: bool = False) -> ft.Control:
        """The newest games (all of them, up to PICK_MAX, on the games' own screen)."""
        if not games:
            return section("Games", ft.Text("No games yet.", size=16))
        shown = games[:PICK_MAX if every else NEWEST]
        rows: list[ft.Control] = [self.game_row(s) for s in shown]
        note = "Newest first. Tap one for its score sheet."
        if every and len(games) > len(shown):
            note += f" The newest {PICK_MAX} of {len(games)}."
        if not every and len(games) > len(shown):
            gid = self.group.id
            rows.append(ft.Row([big_button(
                f"All {len(games)} games", lambda _e: self.ctx.go(f"/group/{gid}/games"),
                icon=ft.Icons.HISTORY, primary=False)]))
        return section("Games", *rows, note=note)

    def game_row(self, summary: GameSummary) -> ft.Control:
        open_it = game_button(summary, lambda _e: self.ctx.go(f"/game/{summary.id}"))
        if not self.keeper:
            return ft.Row([open_it])
        return ft.Row([open_it, ft.IconButton(
            ft.Icons.CLOSE, tooltip="Take out", icon_size=28,
            on_click=lambda _e: self.confirm_take_out(summary))], spacing=4)

    def confirm_take_out(self, summary: GameSummary) -> None:
        def yes(_e: object) -> None:
            self.ctx.page.pop_dialog()
            if self.act(lambda: self.actions.remove_game(self.group.id, summary.id),
                        "Taken out of the group."):
                self.ctx.router_refresh()

        p = summary.players
        self.ctx.page.show_dialog(ft.AlertDialog(
            title=ft.Text("Take this game out?", size=20),
            content=ft.Text(f"{p[0]} & {p[2]} vs {p[1]} & {p[3]} stops counting for "
                            f"{self.group.name}. The game itself is kept.", size=16),
            actions=[ft.TextButton("Cancel", on_click=lambda _e: self.ctx.page.pop_dialog()),
                     ft.FilledButton("Take out", on_click=yes)]))


def member_added(before: Group, after: Group, typed: str) -> str:
    """What adding `typed` did, with the member's own spelling: "ann" is Ann."""
    member = after.member(typed) or typed.strip()
    if before.member(typed) is None:
        return f"{member} is a member now."
    if member != " ".join(typed.split()):
        return f"{member} is already a member (you typed {typed.strip()})."
    return f"{member} is already a member."


def people_route(group_id: str) -> str:
    return f"/group/{group_id}/people"


def teams_route(group_id: str) -> str:
    return f"/group/{group_id}/teams"


def _group(ctx: AppContext, group_id: str) -> Group | None:
    try:
        return group_actions(ctx).get(check_id(group_id))
    except GroupNotFound:
        return None


def group_one_view(ctx: AppContext, group_id: str) -> ft.View:
    route = f"/group/{group_id}"
    group = _group(ctx, group_id)
    if group is None:
        return message_view(ctx, route, "No such group", NO_GROUP)
    page = GroupPage(ctx, group)
    # A long name wraps in the page's own title; the bar would cut it.
    return screen(route, app_bar(ctx, "Group", back_to="/groups"), [
        ft.Text(group.name, size=22, weight=ft.FontWeight.BOLD), *page.controls()])


def add_game_view(ctx: AppContext, group_id: str) -> ft.View:
    """The keeper's picker: the store's games not in the group, newest first, bounded."""
    route = f"/group/{group_id}/add"
    group = _group(ctx, group_id)
    if group is None:
        return message_view(ctx, route, "No such group", NO_GROUP)
    actions = group_actions(ctx)
    back = f"/group/{group.id}"
    bar = app_bar(ctx, "Add a game", back_to=back)
    if not actions.keeps(group.id):
        return screen(route, bar, [notice("Only the group's keeper can change it: enter the "
                                          "keeper code on the group's page first.", error=True)])
    shown, more = actions.candidates(group)

    def add(game_id: str) -> None:
        try:
            actions.add_game(group.id, game_id)
        except (ValueError, StoreError) as exc:
            ctx.toast(str(exc), error=True)
            return
        ctx.toast(f"Added to {group.name}.")
        ctx.go(back)

    body: list[ft.Control] = [ft.Text(f"Tap a game to count it for {group.name}.", size=16)]
    if not shown:
        body.append(ft.Text("Every game here is in the group already.", size=16))
    body.extend(ft.Row([game_button(s, lambda _e, gid=s.id: add(gid))]) for s in shown)
    if more:
        body.append(ft.Text(f"The newest {len(shown)} games are listed; {more} older ones "
                            "are not. Add those with the command line: tarabish group add.",
                            size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    return screen(route, bar, body)


def fair_teams_view(ctx: AppContext, group_id: str) -> ft.View:
    """The group's fair teams on a screen of their own: tap who is here, one tap from
    the group's page and the leaderboard, however many games the group has."""
    route = teams_route(group_id)
    group = _group(ctx, group_id)
    if group is None:
        return message_view(ctx, route, "No such group", NO_GROUP)
    timeline = rated_folder(ctx.store).timeline(group.id)
    shown = GroupScreen(ctx, timeline, list(group.members), group.id)
    return screen(route, app_bar(ctx, "Fair teams", back_to=f"/group/{group.id}"), [
        ft.Text(group.name, size=20, weight=ft.FontWeight.BOLD),
        shown.fair_section()])


def group_games_view(ctx: AppContext, group_id: str) -> ft.View:
    """Every game of the group, newest first (up to PICK_MAX), with the keeper's
    Take out."""
    route = f"/group/{group_id}/games"
    group = _group(ctx, group_id)
    if group is None:
        return message_view(ctx, route, "No such group", NO_GROUP)
    page = GroupPage(ctx, group)
    return screen(route, app_bar(ctx, group.name, back_to=f"/group/{group.id}"),
                  [page.games_part(page.actions.games(group), every=True)])


def people_view(ctx: AppContext, group_id: str) -> ft.View:
    """A keeper's screen of who belongs: take a member out (their games stay), see the
    phones that keep the group and end one's rights. Each change checked on the server."""
    route = people_route(group_id)
    group = _group(ctx, group_id)
    if group is None:
        return message_view(ctx, route, "No such group", NO_GROUP)
    actions = group_actions(ctx)
    bar = app_bar(ctx, "Members and phones", back_to=f"/group/{group.id}")
    try:
        keepers = actions.keepers(group.id)
    except StoreError:  # NotKeeper: nothing of the keepers is shown
        return screen(route, bar, [notice("Only the group's keeper can change it: enter the "
                                          "keeper code on the group's page first.", error=True)])

    def confirm(title: str, words: str, button: str, do: Callable[[], object],
                done: str) -> None:
        def yes(_e: object) -> None:
            ctx.page.pop_dialog()
            try:
                do()
            except (ValueError, StoreError) as exc:
                ctx.toast(str(exc), error=True)
                return
            ctx.toast(done)
            ctx.router_refresh()

        ctx.page.show_dialog(ft.AlertDialog(
            title=ft.Text(title, size=20), content=ft.Text(words, size=16),
            actions=[ft.TextButton("Cancel", on_click=lambda _e: ctx.page.pop_dialog()),
                     ft.FilledButton(button, on_click=yes)]))

    def row(words: str, tooltip: str, on_click: Callable[[], None]) -> ft.Control:
        first, _, more = words.partition("\n")
        return ft.Container(
            content=ft.Row([ft.Text(first, size=17, weight=ft.FontWeight.W_600, expand=True,
                                    spans=[ft.TextSpan(f"\n{more}", style=ft.TextStyle(
                                        size=14, weight=ft.FontWeight.NORMAL))] if more else None),
                            ft.IconButton(ft.Icons.CLOSE, tooltip=tooltip, icon_size=26,
                                          on_click=lambda _e: on_click())], spacing=4),
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW, border_radius=ft.BorderRadius.all(12),
            padding=ft.Padding.only(left=14, right=4, top=4, bottom=4))

    members = [row(name, f"Take {name} out",
                   lambda n=name: confirm(
                       f"Take {n} out?",
                       f"{n} leaves the members of {group.name}. Their past games stay in the "
                       "group; a game they play for it later makes them a member again.",
                       "Take out", lambda: actions.remove_member(group.id, n),
                       f"{n} is no longer a member."))
               for name in sorted(group.members, key=str.casefold)]
    phones: list[ft.Control] = []
    for number, keeper in enumerate(keepers, 1):
        who = "This phone" if keeper.this_phone else f"Phone {number}"
        phones.append(row(
            f"{who}\nkeeper since {keeper.since.strftime('%d %b %Y')}",
            f"Remove {who.lower()}",
            lambda k=keeper, w=who: confirm(
                f"Remove {w.lower()}?",
                (f"{w} can no longer change {group.name}" + (
                    ": this phone too." if k.this_phone else ".")
                 + " Entering the keeper code gives the right back."),
                "Remove", lambda: actions.remove_keeper(group.id, k.mark),
                f"{w} no longer keeps the group.")))
    return screen(route, bar, [
        ft.Text(group.name, size=20, weight=ft.FontWeight.BOLD),
        section("Members", *(members or [ft.Text("No members.", size=16)]),
                note="Taking a member out keeps their games in the group."),
        section("Phones that keep the group", *phones,
                note="A new keeper code can also end every other phone's rights."),
    ])
