"""Two phones record the same hand (issue 23, item 1): a draft is for one hand number
made on one revision; a save whose hand was recorded meanwhile is never stored as
another hand, and nothing is applied on a revision the player did not see."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft
import pytest

from rules.game import Game
from rules.game_file import hand_to_doc
from rules.history import Edited
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.views.record_hand import RecordHand, record_hand_view
from scorer.recording.conflicts import Clash, DraftPlace, assess
from scorer.recording.draft import HandDraft
from scorer.store import GameStore

GAME: dict[str, Any] = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                        "first_dealer": 0, "rules": {}, "hands": [
                            {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}]}
THEIRS = {"caller": 2, "trump": "S", "points": {"team": 0, "tricks": 100}}


def draft_of(caller: int, trump: str, tricks: str) -> HandDraft:
    draft = HandDraft(caller=caller, trump=trump, points_team=caller % 2)
    for digit in tricks:
        draft = draft.press_digit(digit)
    return draft


MINE_SAME = draft_of(2, "S", "100")
MINE_OTHER = draft_of(2, "H", "120")


# -- the rule, pure -------------------------------------------------------------------------

def game_with(*hands: dict[str, Any]) -> Game:
    from rules.game_file import parse_game

    return parse_game({**GAME, "hands": [*GAME["hands"], *hands]})


def test_nothing_changed_is_no_clash() -> None:
    place = DraftPlace(number=2, revision=2)
    assert assess(place, MINE_OTHER, game_with(), 2).clash is Clash.NONE


def test_a_change_elsewhere_only_needs_showing() -> None:
    place = DraftPlace(number=2, revision=2)  # hand 1 was edited since: hand 2 is still next
    assert assess(place, MINE_OTHER, game_with(), 3).clash is Clash.ELSEWHERE


def test_the_same_hand_saved_on_another_phone_is_already_recorded() -> None:
    found = assess(DraftPlace(number=2, revision=2), MINE_SAME, game_with(THEIRS), 3)
    assert found.clash is Clash.SAME


def test_another_hand_in_this_place_is_a_conflict_never_a_new_hand() -> None:
    found = assess(DraftPlace(number=2, revision=2), MINE_OTHER, game_with(THEIRS), 3)
    assert found.clash is Clash.THEIRS and found.number == 2 and found.next_number == 3
    assert found.theirs is not None and found.theirs.caller == 2


def test_an_unfinished_draft_in_a_taken_place_is_a_conflict_too() -> None:
    found = assess(DraftPlace(number=2, revision=2), HandDraft(caller=2), game_with(THEIRS), 3)
    assert found.clash is Clash.THEIRS and found.mine is None


def test_hands_undone_under_a_new_hand() -> None:
    found = assess(DraftPlace(number=3, revision=4), MINE_OTHER, game_with(), 5)
    assert found.clash is Clash.GONE and found.next_number == 2


def test_an_edit_racing_another_edit_of_the_same_hand() -> None:
    base = GAME["hands"][0]
    place = DraftPlace(number=1, revision=2, base=base)
    edited = {**base, "points": {"team": 0, "tricks": 80}}
    from rules.game_file import parse_game

    theirs_game = parse_game({**GAME, "hands": [edited]})
    assert assess(place, MINE_OTHER, theirs_game, 3).clash is Clash.THEIRS
    unchanged = parse_game({**GAME, "hands": [base, THEIRS]})  # a hand added meanwhile
    assert assess(place, MINE_OTHER, unchanged, 3).clash is Clash.ELSEWHERE


# -- on a phone: the record-hand screen -----------------------------------------------------

class FakePage(SimpleNamespace):
    """What the screens use of a Flet page, with no browser behind it."""

    def __init__(self) -> None:
        super().__init__(theme_mode=ft.ThemeMode.LIGHT, platform_brightness=ft.Brightness.LIGHT,
                         width=390.0, height=844.0, views=[], route="/", url="http://t/",
                         pubsub=SimpleNamespace(send_others_on_topic=lambda *_a: None))
        self.dialogs: list[Any] = []
        self.tasks: list[tuple[Any, ...]] = []

    def show_dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog)

    def pop_dialog(self) -> None:
        pass

    def run_task(self, *call: Any, **_kw: Any) -> None:
        self.tasks.append(call)

    def said(self) -> list[str]:
        return [str(cast(ft.Text, d.content).value) for d in self.dialogs
                if isinstance(d, ft.SnackBar)]


def phone(store: GameStore, token: str, game_id: str) -> AppContext:
    ctx = AppContext(page=cast(ft.Page, FakePage()), store=store)
    ctx.actions.device = token
    ctx.actions.rights.start(game_id, token)
    refreshed: list[bool] = []
    ctx.router_refresh = lambda: refreshed.append(True)
    return ctx


def went_to(ctx: AppContext) -> list[str]:
    page = cast(FakePage, ctx.page)
    return [str(call[1]) for call in page.tasks if len(call) > 1 and isinstance(call[1], str)]


def texts(control: Any) -> str:
    """Every text a screen shows (values, button labels), as one string."""
    found: list[str] = []
    stack = [control]
    while stack:
        item = stack.pop()
        if isinstance(item, ft.Text) and item.value:
            found.append(str(item.value))
        if isinstance(item, ft.BaseControl):
            for name in ("content", "controls", "title", "appbar", "actions"):
                child = getattr(item, name, None)
                if isinstance(child, list):
                    stack.extend(child)
                elif child is not None:
                    stack.append(child)
    return " | ".join(found)


def open_form(ctx: AppContext, game_id: str, draft: HandDraft) -> RecordHand:
    """Record hand on this phone, with `draft` tapped in."""
    record_hand_view(ctx, game_id)
    key = ctx.draft_key(game_id, None)
    model = GameModel.load(ctx.store.get_game(game_id))
    form = RecordHand(ctx, model, None, ctx.places[key])
    form.draft = draft
    ctx.drafts[key] = draft
    return form


@pytest.fixture
def table(tmp_path: Path) -> tuple[GameStore, str, AppContext, AppContext]:
    store = GameStore(tmp_path / "data")
    game_id = store.create_game(GAME).id
    return store, game_id, phone(store, "phone-a-token-0123456789", game_id), \
        phone(store, "phone-b-token-0123456789", game_id)


def test_b_saves_first_then_a_saves_the_same_hand_it_is_stored_once(
        table: tuple[GameStore, str, AppContext, AppContext]) -> None:
    store, game_id, a, b = table
    form_a = open_form(a, game_id, MINE_SAME)
    open_form(b, game_id, MINE_SAME).save()
    form_a.save()
    assert len(store.get_game(game_id).doc["hands"]) == 2
    assert any("already recorded by another phone" in text for text in a.notices[game_id])
    assert went_to(a)[-1] == f"/game/{game_id}"
    assert a.draft_key(game_id, None) not in a.drafts


def test_a_different_hand_gets_the_conflict_screen_and_save_again_stores_nothing(
        table: tuple[GameStore, str, AppContext, AppContext]) -> None:
    store, game_id, a, b = table
    form_a = open_form(a, game_id, MINE_OTHER)
    open_form(b, game_id, draft_of(2, "S", "100")).save()
    form_a.save()  # refused: A is drawn the conflict
    form_a.save()  # a second tap on the old screen is refused again: never hand 3
    assert len(store.get_game(game_id).doc["hands"]) == 2
    shown = texts(record_hand_view(a, game_id))
    assert "Hand 2: two versions" in shown
    assert "Theirs · saved" in shown and "Yours · not saved" in shown
    assert "Keep theirs" in shown and "Use mine" in shown
    assert "Record mine as hand 3" in shown
    assert "Trump: theirs ♠, yours ♥" in shown and "Cid" in shown


def buttons(view: Any, label: str) -> list[Any]:
    found, stack = [], [view]
    while stack:
        item = stack.pop()
        if isinstance(item, ft.FilledButton | ft.OutlinedButton | ft.TextButton):
            content = item.content
            if isinstance(content, ft.Text) and content.value == label:
                found.append(item)
        if isinstance(item, ft.BaseControl):
            for name in ("content", "controls", "appbar", "actions"):
                child = getattr(item, name, None)
                stack.extend(child if isinstance(child, list) else [child] if child else [])
    return found


def conflict_on_a(table: tuple[GameStore, str, AppContext, AppContext]) -> Any:
    _store, game_id, a, b = table
    form_a = open_form(a, game_id, MINE_OTHER)
    open_form(b, game_id, draft_of(2, "S", "100")).save()
    form_a.save()
    return record_hand_view(a, game_id)


def test_keep_theirs_drops_mine(table: tuple[GameStore, str, AppContext, AppContext]) -> None:
    store, game_id, a, _b = table
    [keep] = buttons(conflict_on_a(table), "Keep theirs")
    keep.on_click(None)
    assert store.get_game(game_id).doc["hands"][1] == THEIRS
    assert a.draft_key(game_id, None) not in a.drafts


def test_use_mine_replaces_theirs_as_an_edit_on_the_trail(
        table: tuple[GameStore, str, AppContext, AppContext]) -> None:
    store, game_id, _a, _b = table
    [use] = buttons(conflict_on_a(table), "Use mine")
    use.on_click(None)
    saved = store.get_game(game_id)
    assert len(saved.doc["hands"]) == 2
    assert saved.doc["hands"][1] == hand_to_doc(MINE_OTHER.build())
    last = GameModel.load(saved).trail[-1]
    assert isinstance(last, Edited) and last.hand == 2 and last.by == "phone 2"  # B saved first


def test_record_mine_as_the_next_hand_only_when_the_player_says_so(
        table: tuple[GameStore, str, AppContext, AppContext]) -> None:
    store, game_id, a, _b = table
    [go] = buttons(conflict_on_a(table), "Record mine as hand 3")
    go.on_click(None)
    assert len(store.get_game(game_id).doc["hands"]) == 2  # asked first
    dialog = cast(FakePage, a.page).dialogs[-1]
    assert "only if the table played it" in texts(dialog.content)
    [yes] = [x for x in dialog.actions if isinstance(x, ft.FilledButton)]
    yes.on_click(None)
    assert len(store.get_game(game_id).doc["hands"]) == 3


def test_a_change_elsewhere_is_shown_on_the_form_before_any_save(
        table: tuple[GameStore, str, AppContext, AppContext]) -> None:
    store, game_id, a, b = table
    form_a = open_form(a, game_id, MINE_OTHER)
    model_b = GameModel.load(store.get_game(game_id))
    b.actions.save_hand(model_b, {**GAME["hands"][0], "points": {"team": 0, "tricks": 90}}, 0)
    form_a.save()
    assert len(store.get_game(game_id).doc["hands"]) == 1  # nothing saved yet
    shown = texts(record_hand_view(a, game_id))
    assert "While you entered this hand, on another phone" in shown
    assert "hand 1 edited: Bob & Dee's tricks: 92 → 72" in shown  # Bob called it
    key = a.draft_key(game_id, None)
    model = GameModel.load(store.get_game(game_id))
    RecordHand(a, model, None, a.places[key]).save()  # now on what the player saw
    assert len(store.get_game(game_id).doc["hands"]) == 2


def test_an_undo_racing_a_save_removes_nothing(
        table: tuple[GameStore, str, AppContext, AppContext]) -> None:
    from scorer.store.errors import StaleRevision

    store, game_id, a, b = table
    seen_by_a = GameModel.load(store.get_game(game_id))
    open_form(b, game_id, draft_of(2, "S", "100")).save()
    with pytest.raises(StaleRevision, match="hand 2 was added"):
        a.actions.undo_last_hand(seen_by_a)
    assert len(store.get_game(game_id).doc["hands"]) == 2
