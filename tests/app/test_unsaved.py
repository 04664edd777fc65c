"""A hand saved while the server went away is stored or back on the phone (issue 38, 4).

At Save the phone keeps the hand before the store sees it and drops it once the
store has answered; a new session settles what it finds. What the phone keeps is
its own word: read strictly, bounded, and saved only through the ordinary checks.
The browser tests (tests/e2e/test_unsaved_hand.py) kill real servers at Save."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from in_thread import run_async

from rules.game_file import hand_to_doc, parse_game
from scorer.app.actions import TableActions
from scorer.app.context import AppContext
from scorer.app.hold_for_tests import HOLD_ENV, hold
from scorer.app.phone_prefs import UNSAVED_KEY
from scorer.app.unsaved import NOT_SAVED, restore, saved_anyway
from scorer.app.views.record_hand import record_hand_view
from scorer.recording.conflicts import DraftPlace
from scorer.recording.draft import HandDraft
from scorer.recording.kept_save import (
    MAX_KEPT_CHARS,
    KeptSave,
    Settled,
    kept_text,
    read_kept,
    settle,
)
from scorer.store import GameStore
from tests.app.test_conflicts import GAME, MINE_OTHER, MINE_SAME, THEIRS, open_form, phone, texts

A = "phone-a-token-0123456789"


class Prefs:
    """A browser's SharedPreferences that notes each call, and what the store held then."""

    def __init__(self, store: GameStore, game_id: str, kept: dict[str, Any] | None = None) -> None:
        self.kept: dict[str, Any] = dict(kept or {})
        self.calls: list[tuple[str, str, int]] = []
        self.store, self.game_id = store, game_id

    def _note(self, name: str, key: str) -> None:
        hands = len(self.store.get_game(self.game_id).doc["hands"])
        self.calls.append((name, key, hands))

    async def get(self, key: str) -> Any:
        self._note("get", key)
        return self.kept.get(key)

    async def set(self, key: str, value: str) -> bool:
        self._note("set", key)
        self.kept[key] = value
        return True

    async def remove(self, key: str) -> bool:
        self._note("remove", key)
        return self.kept.pop(key, None) is not None


@pytest.fixture
def table(tmp_path: Path) -> tuple[GameStore, str, AppContext, Prefs]:
    store = GameStore(tmp_path / "data")
    game_id = store.create_game(GAME).id
    ctx = phone(store, A, game_id)
    prefs = Prefs(store, game_id)
    ctx.actions.prefs_factory = lambda: prefs
    return store, game_id, ctx, prefs


async def drain(ctx: AppContext) -> None:
    """Run the phone's writes handed to the page to do in the background (not the
    screen switches: this page has no browser to switch)."""
    tasks: list[Any] = ctx.page.tasks  # type: ignore[attr-defined]
    for call in [t for t in tasks if getattr(t[0], "__name__", "") == "remove"]:
        tasks.remove(call)
        await call[0](*call[1:])


def kept_of(game_id: str, draft: HandDraft = MINE_OTHER, *, number: int = 2,
            revision: int = 1, index: int | None = None,
            base: dict[str, Any] | None = None) -> str:
    return kept_text(game_id, index, DraftPlace(number=number, revision=revision, base=base),
                     draft)


def forged(**changes: Any) -> str:
    """A kept hand as someone could write it by hand in the browser's storage."""
    return json.dumps({**json.loads(kept_of("0123abcd")), **changes})


# -- what the phone keeps, read strictly -----------------------------------------------------

def test_a_kept_hand_reads_back_as_written() -> None:
    kept = read_kept(kept_of("0123abcd"))
    assert kept is not None and kept.draft == MINE_OTHER and kept.key == "0123abcd/new"
    assert kept.place == DraftPlace(number=2, revision=1)


@pytest.mark.parametrize("value", [
    None, 42, "", "not json", "[]",
    "x" * (MAX_KEPT_CHARS + 1),
    # forged or stale: out of range, unknown fields, a hand not finished, mixed up
    kept_of("0123abcd").replace('"caller":2', '"caller":7'),
    kept_of("0123abcd").replace('"digits":"120"', '"digits":"1200"'),
    kept_of("0123abcd").replace('"digits":"120"', '"digits":"abc"'),
    kept_of("0123abcd").replace('{"kind"', '{"admin":true,"kind"'),
    kept_of("0123abcd", HandDraft(caller=2)),
    forged(game="not-a-game"),
    forged(number=0),
    forged(revision=-1),
    forged(index=0, number=1),  # an edit without the hand it began from
    forged(index=0, number=3, base=GAME["hands"][0]),
    forged(base=GAME["hands"][0]),  # a new hand with a base
    forged(index=0, number=1, base={"caller": 9}),
    forged(draft={**json.loads(kept_of("0123abcd"))["draft"], "worth": [[0, "fifty"]] * 13}),
])
def test_anything_this_app_could_not_have_kept_is_refused(value: object) -> None:
    assert read_kept(value) is None


def test_a_kept_hand_is_small() -> None:
    every_card = HandDraft(caller=0, trump="H", digits="90")
    from rules.cards import NATURAL_ORDER, Card, Suit

    for n, card in enumerate(Card(rank=r, suit=s) for s in Suit for r in NATURAL_ORDER):
        every_card = every_card.toggle_card(n % 4, card)
    text = kept_of("0123abcd", every_card, index=0, number=1, base=GAME["hands"][0])
    assert len(text) < MAX_KEPT_CHARS / 2, len(text)


# -- what became of it ---------------------------------------------------------------------

def game_with(*hands: dict[str, Any]) -> Any:
    return parse_game({**GAME, "hands": [*GAME["hands"], *hands]})


def kept(draft: HandDraft = MINE_SAME, **kw: Any) -> KeptSave:
    found = read_kept(kept_of("0123abcd", draft, **kw))
    assert found is not None
    return found


def test_a_hand_the_store_has_exactly_was_stored() -> None:
    assert settle(kept(), game_with(THEIRS), 2, over=False) is Settled.STORED


def test_a_hand_not_in_the_game_is_unsaved_whatever_changed_since() -> None:
    assert settle(kept(), game_with(), 1, over=False) is Settled.UNSAVED
    assert settle(kept(), game_with(), 3, over=False) is Settled.UNSAVED  # an edit elsewhere
    # Another hand in its place: the record screen shows both (the conflict screen).
    assert settle(kept(MINE_OTHER), game_with(THEIRS), 2, over=False) is Settled.UNSAVED


def test_a_hand_kept_on_the_revision_on_show_must_fit_the_game() -> None:
    """On the game's own revision, nothing changed since: a number that the game as it
    is could not have given the hand is no hand of this phone's."""
    assert settle(kept(number=5), game_with(), 1, over=False) is Settled.DROPPED
    assert settle(kept(index=0, number=1, base=THEIRS), game_with(), 1,
                  over=False) is Settled.DROPPED
    assert settle(kept(index=0, number=1, base=GAME["hands"][0]), game_with(), 1,
                  over=False) is Settled.UNSAVED


def test_a_new_hand_for_a_game_won_since_is_dropped() -> None:
    assert settle(kept(), game_with(), 3, over=True) is Settled.DROPPED


# -- on a phone ----------------------------------------------------------------------------

def test_save_has_the_phone_keep_the_hand_before_the_store_sees_it_and_drop_it_after(
        table: tuple[GameStore, str, AppContext, Prefs]) -> None:
    store, game_id, ctx, prefs = table
    form = open_form(ctx, game_id, MINE_OTHER)

    async def tap_save() -> None:
        await form.save_tapped()
        await drain(ctx)

    run_async(tap_save())
    assert len(store.get_game(game_id).doc["hands"]) == 2
    # Kept while the store had 1 hand, dropped once it had 2.
    assert prefs.calls == [("set", UNSAVED_KEY, 1), ("remove", UNSAVED_KEY, 2)]
    assert UNSAVED_KEY not in prefs.kept


def test_a_hand_not_finished_is_neither_kept_nor_saved(
        table: tuple[GameStore, str, AppContext, Prefs]) -> None:
    store, game_id, ctx, prefs = table
    form = open_form(ctx, game_id, HandDraft(caller=2))
    run_async(form.save_tapped())
    assert prefs.calls == [] and len(store.get_game(game_id).doc["hands"]) == 1
    assert form.problem == "Tap the trump suit"


def test_a_refused_save_keeps_the_copy_until_the_hand_is_dropped(
        table: tuple[GameStore, str, AppContext, Prefs]) -> None:
    """Another phone saved hand 2 first (a different one): nothing of this phone's was
    stored, so its copy stays until the player drops it on the conflict screen."""
    store, game_id, ctx, prefs = table
    form = open_form(ctx, game_id, MINE_OTHER)
    store.add_hand(game_id, THEIRS, expected_revision=1)
    run_async(form.save_tapped())
    assert UNSAVED_KEY in prefs.kept and len(store.get_game(game_id).doc["hands"]) == 2
    ctx.forget_draft(ctx.draft_key(game_id, None))  # Keep theirs
    run_async(drain(ctx))
    assert UNSAVED_KEY not in prefs.kept


def new_session(store: GameStore, game_id: str, value: str) -> tuple[AppContext, Prefs]:
    """A new session (another process) on a phone that keeps `value`, once it is read."""
    ctx = phone(store, A, game_id)
    prefs = Prefs(store, game_id, {UNSAVED_KEY: value})
    ctx.actions.prefs_factory = lambda: prefs
    actions: TableActions = ctx.actions
    actions.device = None

    async def read() -> None:
        prefs.kept["tarabish.device"] = A
        await actions._read_once()

    run_async(read())
    return ctx, prefs


def test_a_new_session_puts_an_unsaved_hand_back_on_the_record_screen(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "data")
    game_id = store.create_game(GAME).id
    ctx, prefs = new_session(store, game_id, kept_of(game_id))
    # The sheet was on show: the record screen instead, with the taps and the line.
    assert restore(ctx, game_id, f"/game/{game_id}") == f"/game/{game_id}/hand"
    assert ctx.actions.unsaved is None  # once a session
    shown = texts(record_hand_view(ctx, game_id))
    assert NOT_SAVED in shown and "Record hand 2" in shown and "120" in shown
    assert UNSAVED_KEY in prefs.kept  # until it is saved


def test_a_new_session_tells_of_a_hand_stored_after_all_and_drops_the_copy(
        tmp_path: Path) -> None:
    store = GameStore(tmp_path / "data")
    game_id = store.create_game(GAME).id
    store.add_hand(game_id, hand_to_doc(MINE_OTHER.build()), expected_revision=1)
    ctx, prefs = new_session(store, game_id, kept_of(game_id))
    assert restore(ctx, game_id, f"/game/{game_id}/hand") == f"/game/{game_id}"
    assert ctx.notices[game_id] == [saved_anyway(2)]
    run_async(drain(ctx))
    assert UNSAVED_KEY not in prefs.kept
    assert ctx.draft_key(game_id, None) not in ctx.drafts


def test_a_kept_hand_waits_for_its_own_game_and_a_phone_that_may_edit_it(
        tmp_path: Path) -> None:
    store = GameStore(tmp_path / "data")
    game_id, other = store.create_game(GAME).id, store.create_game(GAME).id
    ctx, prefs = new_session(store, game_id, kept_of(game_id))
    assert restore(ctx, other, f"/game/{other}") is None and ctx.actions.unsaved is not None
    # A phone that holds no rights to the game (its own copy, say) saves nothing.
    stranger, prefs = new_session(store, game_id, kept_of(game_id))
    stranger.actions.device = "someone-else-0123456789"
    assert restore(stranger, game_id, f"/game/{game_id}") is None
    run_async(drain(stranger))
    assert UNSAVED_KEY not in prefs.kept and not stranger.drafts


def test_junk_kept_by_the_browser_is_removed_at_the_start(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "data")
    game_id = store.create_game(GAME).id
    ctx, prefs = new_session(store, game_id, json.dumps({"game": game_id, "draft": "x"}))
    assert ctx.actions.unsaved is None and UNSAVED_KEY not in prefs.kept


def test_the_test_hold_does_nothing_without_its_variable(monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    monkeypatch.delenv(HOLD_ENV, raising=False)
    hold("before")
    marker = tmp_path / "held"
    monkeypatch.setenv(HOLD_ENV, f"after:{marker}")
    hold("before")  # another step: passes
    assert not marker.exists() and os.environ[HOLD_ENV]


def test_a_kept_hand_never_lands_on_a_revision_the_player_did_not_see(tmp_path: Path) -> None:
    """The game moved on while the server was away: another phone saved hand 2, or
    edited hand 1. The kept hand comes back, but the player sees what changed first:
    both versions of hand 2, or the edit, before any save."""
    store = GameStore(tmp_path / "data")
    taken = store.create_game(GAME).id
    store.add_hand(taken, THEIRS, expected_revision=1)
    ctx, _prefs = new_session(store, taken, kept_of(taken))
    assert restore(ctx, taken, f"/game/{taken}/hand") == f"/game/{taken}/hand"
    shown = texts(record_hand_view(ctx, taken))
    assert "Hand 2: two versions" in shown, shown

    edited = store.create_game(GAME).id
    store.replace_hand(edited, 0, {**GAME["hands"][0], "points": {"team": 0, "tricks": 80}},
                       expected_revision=1)
    ctx, _prefs = new_session(store, edited, kept_of(edited))
    restore(ctx, edited, f"/game/{edited}/hand")
    shown = texts(record_hand_view(ctx, edited))
    assert NOT_SAVED in shown and "While you entered this hand, on another phone" in shown
    key = ctx.draft_key(edited, None)
    assert ctx.places[key].revision == 2  # saved on the revision now shown, not 1
