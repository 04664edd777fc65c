"""Several phones (threads) saving at once: no hand is ever lost."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any

from conftest import game_doc

from scorer.store import GameStore, StaleRevision

THREADS_PER_GAME = 2
GAMES = 3
HANDS_EACH = 20


def hand(tricks: int) -> dict[str, Any]:
    """A made hand for team 1, told apart by team 0's trick points (20..79)."""
    return {"caller": 1, "trump": "D", "points": {"team": 0, "tricks": tricks}}


def run_threads(targets: list[Any]) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(len(targets))

    def wrap(fn: Any) -> Any:
        def go() -> None:
            start.wait()
            try:
                fn()
            except BaseException as e:
                errors.append(e)

        return go

    threads = [threading.Thread(target=wrap(t)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return errors


def test_appends_from_many_threads_to_many_games(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    games = [store.create_game(game_doc(0, target=100_000)) for _ in range(GAMES)]
    stop = threading.Event()

    def appender(game_id: str, t: int) -> Any:
        def go() -> None:
            for i in range(HANDS_EACH):
                store.add_hand(game_id, hand(20 + 10 * t + i % 10))

        return go

    def lister() -> None:
        while not stop.is_set():
            store.list_games()

    targets = [appender(g.id, t) for g in games for t in range(THREADS_PER_GAME)]
    lister_thread = threading.Thread(target=lister)
    lister_thread.start()
    errors = run_threads(targets)
    stop.set()
    lister_thread.join()
    assert errors == []

    again = GameStore(tmp_path)
    for g in games:
        saved = again.get_game(g.id)
        assert saved.revision == 1 + THREADS_PER_GAME * HANDS_EACH
        got = Counter(h["points"]["tricks"] for h in saved.doc["hands"])
        want = Counter(
            20 + 10 * t + i % 10 for t in range(THREADS_PER_GAME) for i in range(HANDS_EACH)
        )
        assert got == want  # every hand of every thread, none twice
    counts = {s.id: s.hand_count for s in again.list_games()}
    assert counts == {g.id: THREADS_PER_GAME * HANDS_EACH for g in games}


def test_racing_edits_to_one_game_lose_nothing(tmp_path: Path) -> None:
    """Phones edit with the revision they saw; a stale one is told, re-reads and retries."""
    store = GameStore(tmp_path)
    game = store.create_game(game_doc(0, target=100_000))
    for i in range(4):
        store.add_hand(game.id, hand(20 + i))
    saved_by: list[int] = []
    refused = Counter[int]()
    lock = threading.Lock()

    def editor(t: int) -> Any:
        def go() -> None:
            done = 0
            while done < 10:
                seen = store.get_game(game.id)
                try:
                    store.replace_hand(game.id, t, hand(30 + 10 * t + done), seen.revision)
                except StaleRevision as e:
                    assert e.current.revision > seen.revision
                    with lock:
                        refused[t] += 1
                    continue
                done += 1
                with lock:
                    saved_by.append(t)

        return go

    assert run_threads([editor(t) for t in range(4)]) == []
    final = store.get_game(game.id)
    assert final.revision == 5 + len(saved_by) == 5 + 40
    # each phone's last edit of its own hand is what is saved
    assert [h["points"]["tricks"] for h in final.doc["hands"]] == [
        30 + 10 * t + 9 for t in range(4)
    ]
