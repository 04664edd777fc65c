"""Two phones recorded the same hand: both versions side by side, and the player chooses.

Drawn in place of Record hand when the game changed in this hand's own place
since the player began (`scorer.recording.conflicts.assess`). Every choice is made on the
revision shown here; if the game moves again first, this screen is drawn anew.
"""

from __future__ import annotations

import flet as ft

from rules.game_file import hand_to_doc
from rules.hand_diff import FACT_LABELS
from rules.history import Added, Edited, Redone
from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.game_lines import unbroken
from scorer.app.game_view_model import GameModel
from scorer.app.theme import RADIUS
from scorer.app.views.common import app_bar, message_view, screen
from scorer.app.widgets import big_button, notice
from scorer.recording.conflicts import (
    Clash,
    DraftPlace,
    Situation,
    facts_of,
    scores_line,
    what_differs,
)
from scorer.recording.draft import HandDraft
from scorer.store.errors import StaleRevision, StoreError
from scorer.sync.client import Choice
from scorer.text.trail import local_time

COLUMN_HEADS = ("Theirs · saved", "Yours · not saved")
# The choices in the player's own words (the README quotes them).
KEEP_THEIRS = "Keep theirs"
USE_MINE = "Use mine"
FINISH_MINE = "Finish mine"
RECORD_MINE = "Record mine as hand"


def conflict_view(ctx: AppContext, route: str, model: GameModel, key: str, place: DraftPlace,
                  draft: HandDraft, found: Situation) -> ft.View:
    """The conflict screen for the hand under `key` (its taps `draft`, its `place`)."""
    shown = Choices(ctx, model, key, place, draft, found)
    return both_versions(ctx, route, model, shown, place, draft, found)


def both_versions(ctx: AppContext, route: str, model: GameModel, shown: Choices,
                  place: DraftPlace, draft: HandDraft, found: Situation) -> ft.View:
    """The screen of a clash: what happened, what differs, both versions, the choices."""
    n = found.number
    title = f"Hand {n}: two versions" if found.clash is Clash.THEIRS else f"Hand {n} is gone"
    body: list[ft.Control] = [ft.Text(shown.lead(), size=17, weight=ft.FontWeight.W_600)]
    saved_by = shown.saved_by()
    if saved_by:
        body.append(ft.Text(saved_by, size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    # What differs first: on a 360x640 phone, under the two versions it sat under the
    # pinned buttons.
    differs = what_differs(found, model.game.names)
    if differs:
        body.append(notice("What differs: " + "; ".join(
            f"{d.label}: theirs {d.before}, yours {d.after}" for d in differs) + ".",
            icon=ft.Icons.COMPARE_ARROWS))
    body.append(versions_table(model, place, draft, found))
    body.extend(shown.notes())
    return screen(route, app_bar(ctx, title, back_to=f"/game/{model.id}"), body,
                  bottom=shown.main_buttons())


def versions_table(model: GameModel, place: DraftPlace, draft: HandDraft,
                   found: Situation) -> ft.Control:
    """Each line of the hand: theirs and yours side by side, the lines that differ marked."""
    names = model.game.names
    theirs = facts_of(found.theirs, HandDraft(), names).lines() if found.theirs else None
    mine = facts_of(found.mine, draft, names).lines()
    rows: list[ft.Control] = [ft.Row([
        ft.Text(head, size=13, weight=ft.FontWeight.BOLD, expand=True,
                color=ft.Colors.ON_SURFACE_VARIANT) for head in COLUMN_HEADS], spacing=8)]
    score_theirs = scores_line(model.game, found.theirs, found.number) if found.theirs else "–"
    score_mine = scores_line(model.game, found.mine, found.number)
    lines = [(label, theirs[i][1] if theirs else "gone (undone)", mine[i][1])
             for i, label in enumerate(FACT_LABELS)]
    teams = model.game.team_names
    lines.append(("Score", score_theirs, score_mine))
    for label, was, now in lines:
        if was == now == "none":
            continue  # no runs, no bella on either side: nothing to compare
        rows.append(ft.Column([
            ft.Text(label, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Row([_cell(whole_names(was, teams), was != now),
                    _cell(whole_names(now, teams), was != now)], spacing=8,
                   vertical_alignment=ft.CrossAxisAlignment.START),
        ], spacing=2, tight=True))
    return ft.Column(rows, spacing=8, tight=True)


def whole_names(text: str, teams: tuple[str, ...]) -> str:
    """`text` with each team's name unbroken: a narrow box wraps between the teams'
    figures, never inside a name ("Ann & Cid 100, Bob" above "& Dee 62")."""
    for team in teams:
        text = text.replace(team, unbroken(team))
    return text


def _cell(text: str, differs: bool) -> ft.Control:
    return ft.Container(
        content=ft.Text(text, size=15,
                        weight=ft.FontWeight.BOLD if differs else ft.FontWeight.NORMAL,
                        color=ft.Colors.ON_TERTIARY_CONTAINER if differs else None),
        bgcolor=ft.Colors.TERTIARY_CONTAINER if differs else ft.Colors.SURFACE_CONTAINER_HIGH,
        border_radius=ft.BorderRadius.all(RADIUS), padding=8, expand=True,
    )


class Choices:
    """What the player may do about the conflict, each on the revision on show."""

    def __init__(self, ctx: AppContext, model: GameModel, key: str, place: DraftPlace,
                 draft: HandDraft, found: Situation) -> None:
        self.ctx = ctx
        self.model = model
        self.key = key
        self.place = place
        self.draft = draft
        self.found = found

    # --- words --------------------------------------------------------------------------
    def lead(self) -> str:
        n, found = self.found.number, self.found
        if found.clash is Clash.THEIRS and self.place.is_new:
            return (f"Another phone saved hand {n} while you were entering it. Both are "
                    "below: choose which one the table played.")
        if found.clash is Clash.THEIRS:
            return (f"Another phone changed hand {n} while you were editing it. Both are "
                    "below: choose which one is right.")
        if self.place.is_new:
            return (f"Hands were undone on another phone: the next hand is now hand "
                    f"{found.next_number}, not {n}. Yours was not saved.")
        return f"Hand {n} was undone on another phone while you were editing it."

    def saved_by(self) -> str:
        """Who saved the other version, and when (from the game's trail)."""
        done = [e for e in self.model.changes_since(self.place.revision)
                if isinstance(e, Added | Edited | Redone) and e.hand == self.found.number]
        if not done:
            return ""
        last = done[-1]
        who = last.by or "another phone"
        return f"Theirs was saved on {who} at {local_time(last.at)[-5:]}."

    def main_buttons(self) -> ft.Control:
        """Pinned under the two versions, side by side: the choice at thumb's reach, and
        the rarer one under them (below the versions, a 360x640 phone had to scroll)."""
        if self.found.clash is Clash.THEIRS:
            word = USE_MINE if self.found.mine else FINISH_MINE
            main = ft.Row([
                big_button(KEEP_THEIRS, lambda _e: self.keep_theirs()),
                big_button(word, lambda _e: self.use_mine(), primary=False),
            ], spacing=8)
        else:
            main = ft.Row([big_button("Drop mine", lambda _e: self.keep_theirs())])
        if not self.may_go_next():
            return main
        return ft.Column([main, ft.Row([big_button(
            f"{RECORD_MINE} {self.found.next_number}", lambda _e: self.ask_next(),
            primary=False, icon=ft.Icons.ADD, height=48)])], spacing=8, tight=True)

    def notes(self) -> list[ft.Control]:
        """What each choice does (the rarer one, record mine as the next hand, too)."""
        found, n = self.found, self.found.number
        out: list[ft.Control] = []
        if found.clash is Clash.THEIRS:
            out.append(ft.Text(f"{KEEP_THEIRS}: yours is dropped. {USE_MINE}: yours replaces "
                               f"theirs as hand {n}, marked as edited, with theirs kept in "
                               "its history.", size=14, color=ft.Colors.ON_SURFACE_VARIANT))
        if self.may_go_next() and found.clash is Clash.THEIRS:
            out.append(ft.Text(f"{RECORD_MINE} {found.next_number}: only if the table "
                               f"really played another hand after hand {n}.", size=13,
                               color=ft.Colors.ON_SURFACE_VARIANT))
        return out

    def may_go_next(self) -> bool:
        found = self.found
        if self.model.replay.is_over:
            return False
        if found.clash is Clash.THEIRS:
            return self.place.is_new
        return self.place.is_new or found.next_number == found.number

    # --- choices ------------------------------------------------------------------------
    def keep_theirs(self) -> None:
        self.ctx.forget_draft(self.key)
        self.ctx.toast(f"Hand {self.found.number} is kept as saved; yours was dropped.")
        self.ctx.go(f"/game/{self.model.id}")

    def use_mine(self) -> None:
        """Mine replaces theirs in its place: an edit, with theirs in the trail."""
        number = self.found.number
        edit_key = self.ctx.draft_key(self.model.id, number - 1)
        if self.found.mine is None:  # not finished: go on with it as an edit of theirs
            theirs = self.found.theirs
            base = None if theirs is None else hand_to_doc(theirs)
            self._move(edit_key, DraftPlace(number=number, revision=self.model.stored.revision,
                                            base=base))
            self.ctx.go(f"/game/{self.model.id}/hand/{number}")
            return
        self._save(hand_to_doc(self.found.mine), number - 1,
                   f"Hand {number} is now yours; the sheet marks it as edited.")

    def ask_next(self) -> None:
        if self.found.clash is not Clash.THEIRS:
            self.record_next()
            return
        n, nxt = self.found.number, self.found.next_number

        def yes(_e: object) -> None:
            self.ctx.page.pop_dialog()
            self.record_next()

        self.ctx.page.show_dialog(ft.AlertDialog(
            title=ft.Text(f"Another hand after hand {n}?"),
            content=ft.Text(f"Record yours as hand {nxt} only if the table played it after "
                            f"hand {n}. If both phones recorded the same hand, keep one of "
                            "the two instead.", size=16),
            actions=[ft.TextButton("Go back", on_click=lambda _e: self.ctx.page.pop_dialog()),
                     ft.FilledButton(f"Record as hand {nxt}", on_click=yes)],
        ))

    def record_next(self) -> None:
        nxt = self.found.next_number
        new_key = self.ctx.draft_key(self.model.id, None)
        if self.found.mine is None:
            self._move(new_key, DraftPlace(number=nxt, revision=self.model.stored.revision))
            self.ctx.go(f"/game/{self.model.id}/hand")
            return
        self._save(hand_to_doc(self.found.mine), None, f"Yours is recorded as hand {nxt}.")

    def _move(self, key: str, place: DraftPlace) -> None:
        """Carry the taps to another place (an edit, or the next hand)."""
        self.ctx.forget_draft(self.key)
        self.ctx.drafts[key] = self.draft
        self.ctx.places[key] = place

    def _save(self, hand: dict[str, object], index: int | None, done: str) -> None:
        try:
            self.ctx.actions.save_hand(self.model, hand, index)
        except StaleRevision:  # it moved again: draw this screen anew from the store
            self.ctx.router_refresh()
            return
        except StoreError as exc:
            self.ctx.toast(str(exc), error=True)
            return
        self.ctx.forget_draft(self.key)
        self.ctx.toast(done)
        self.ctx.go(f"/game/{self.model.id}")


def sync_clash_view(ctx: AppContext, game_id: str) -> ft.View:
    """A hand this phone recorded apart (offline, or at the same moment) that another
    phone saved differently: both versions, and the player's choice goes to the phone's
    sync (`CONFIG.phone_sync`), which sends it."""
    route = f"/game/{game_id}/clash"
    sync = CONFIG.phone_sync
    clash = None if sync is None else sync.clash(game_id)
    try:
        model = GameModel.load(ctx.store.get_game(game_id))
    except (StoreError, ValueError) as exc:
        return message_view(ctx, route, "Game not found", str(exc))
    if clash is None:
        return message_view(ctx, route, "Nothing to choose",
                            "No hand of this phone waits for a choice now.")
    found = clash.situation
    draft = HandDraft.from_hand(found.mine) if found.mine is not None else HandDraft()
    theirs = None if found.theirs is None else hand_to_doc(found.theirs)
    place = DraftPlace(number=found.number, revision=model.stored.revision,
                       base=None if clash.is_new else (theirs or {}))
    shown = SyncChoices(ctx, model, ctx.draft_key(game_id, None), place, draft, found)
    shown.choices = clash.choices
    return both_versions(ctx, route, model, shown, place, draft, found)


class SyncChoices(Choices):
    """The same choices, made by the phone's sync on its waiting hand."""

    choices: tuple[Choice, ...] = ()

    def lead(self) -> str:
        n, found = self.found.number, self.found
        if found.clash is Clash.THEIRS and self.place.is_new:
            return (f"Another phone saved hand {n} while this phone recorded it apart. Both "
                    "are below: choose which one the table played.")
        if found.clash is Clash.THEIRS:
            return (f"Another phone changed hand {n} while this phone edited it apart. Both "
                    "are below: choose which one is right.")
        return (f"Hands were undone on another phone: hand {n} recorded here has no place "
                f"now (the next hand is hand {found.next_number}).")

    def saved_by(self) -> str:
        done = [e for e in self.model.changes_since(0)
                if isinstance(e, Added | Edited | Redone) and e.hand == self.found.number]
        if not done:
            return ""
        last = done[-1]
        return f"Theirs was saved on {last.by or 'another phone'} at {local_time(last.at)[-5:]}."

    def may_go_next(self) -> bool:
        return Choice.RECORD_NEXT in self.choices

    def keep_theirs(self) -> None:
        self._choose(Choice.KEEP_THEIRS)

    def use_mine(self) -> None:
        self._choose(Choice.USE_MINE)

    def record_next(self) -> None:
        self._choose(Choice.RECORD_NEXT)

    def _choose(self, choice: Choice) -> None:
        sync = CONFIG.phone_sync
        n, nxt = self.found.number, self.found.next_number
        if sync is None or choice not in self.choices:
            self.ctx.router_refresh()
            return
        try:
            sync.choose(self.model.id, choice)
        except (StoreError, ValueError) as exc:
            self.ctx.toast(str(exc), error=True)
            self.ctx.router_refresh()
            return
        done = {Choice.KEEP_THEIRS: f"Hand {n} is kept as saved; yours was dropped.",
                Choice.USE_MINE: f"Hand {n} is now yours; the sheet marks it as edited.",
                Choice.RECORD_NEXT: f"Yours is recorded as hand {nxt}."}[choice]
        self.ctx.toast(done)
        self.ctx.go(f"/game/{self.model.id}")
