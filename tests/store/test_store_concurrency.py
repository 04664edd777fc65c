"""Several phones (threads) saving at once: no hand is ever lost (both stores; the
folder's per-game locks are tested on the folder's store)."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any

from store_docs import AnyStore, game_doc, reopen

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


def test_appends_from_many_threads_to_many_games(store: AnyStore) -> None:
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

    again = reopen(store)
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


def test_racing_edits_to_one_game_lose_nothing(store: AnyStore) -> None:
    """Phones edit with the revision they saw; a stale one is told, re-reads and retries."""
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


def test_asking_for_many_ids_leaves_no_memory_behind(tmp_path: Path) -> None:
    """Any guest can open /game/<any id>: the per-game locks must not pile up."""
    import contextlib
    import tracemalloc

    from scorer.store import GameNotFound

    store = GameStore(tmp_path)
    g = store.create_game(game_doc(1))
    ours = [tracemalloc.Filter(True, "*/scorer/*")]  # not Python's own caches
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot().filter_traces(ours)
        for n in range(20_000):
            with contextlib.suppress(GameNotFound):
                store.get_game(f"{n:08x}")
        after = tracemalloc.take_snapshot().filter_traces(ours)
    finally:
        tracemalloc.stop()
    grown = sum(d.size_diff for d in after.compare_to(before, "filename"))
    assert grown < 50_000, f"{grown} bytes kept after 20,000 missing ids"
    assert store.get_game(g.id) == g


def test_one_game_still_takes_one_writer_at_a_time(tmp_path: Path) -> None:
    """Locks are dropped when unused, yet two writers of one game never overlap."""
    store = GameStore(tmp_path)
    g = store.create_game(game_doc(0))
    inside = Counter[str]()
    overlaps: list[int] = []
    real_read = store._read

    def watched_read(game_id: str) -> dict[str, Any]:
        inside[game_id] += 1
        if inside[game_id] > 1:
            overlaps.append(inside[game_id])
        try:
            return real_read(game_id)
        finally:
            inside[game_id] -= 1

    store._read = watched_read  # type: ignore[method-assign]
    errors = run_threads([lambda: [store.get_game(g.id) for _ in range(200)]
                          for _ in range(4)])
    assert errors == [] and overlaps == []
