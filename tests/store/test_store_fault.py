"""Crash safety: a child saving in a loop is SIGKILLed at random moments, over and over
(a folder's store, and a community's PostgreSQL: a process killed mid-transaction).

After every kill: every file parses, every save the child saw return is there,
and each game is exactly as last reported, or (for the one save in flight when
the kill came) exactly as that save would have left it. Nothing else.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import select
import signal
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from store_docs import game_doc

from scorer.store import GameStore
from scorer.store.database import Database
from scorer.store.pg_games import PgGameStore
from scorer.store.records import read_record

KILLS = 220
HANDS_PER_GAME = 8
CHILD_SAVES_WITHIN_S = 60
"""The most a child may take for the saves it is let make before its kill (a bound
on a loaded machine; a child takes milliseconds a save)."""


def digest(hands: list[dict[str, Any]]) -> str:
    return hashlib.sha1(json.dumps(hands, sort_keys=True).encode()).hexdigest()


def hand(rng: random.Random) -> dict[str, Any]:
    return {"caller": 1, "trump": "C", "points": {"team": 0, "tricks": rng.randint(20, 79)}}


def open_store(data: Path | str) -> GameStore | PgGameStore:
    """The folder's store, or the community's for a database URL (opened in the child)."""
    if isinstance(data, Path):
        return GameStore(data)
    return PgGameStore(Database(data, max_size=1), data_dir=Path("/nonexistent"))


def child(data: Path | str, fd: int, seed: int) -> None:
    """Save forever, saying what it is about to do and what returned (one line each)."""
    rng = random.Random(seed)

    def say(**msg: Any) -> None:
        os.write(fd, (json.dumps(msg) + "\n").encode())  # < PIPE_BUF: never half a line

    store = open_store(data)
    if store.problems:
        say(error=store.problems)
        return
    unfinished = [s for s in store.list_games() if s.hand_count < HANDS_PER_GAME]
    game = store.get_game(unfinished[0].id) if unfinished else None
    while True:
        if game is None or len(game.doc["hands"]) >= HANDS_PER_GAME:
            doc = game_doc(0, target=100_000)
            say(intent="create", digest=digest([]))
            game = store.create_game(doc)
        else:
            hands = copy.deepcopy(game.doc["hands"])
            roll = rng.random()
            if hands and roll < 0.2:
                hands.pop()
                say(intent=game.id, rev=game.revision + 1, digest=digest(hands))
                game = store.undo_last_hand(game.id, game.revision)
            elif hands and roll < 0.4:
                i = rng.randrange(len(hands))
                hands[i] = hand(rng)
                say(intent=game.id, rev=game.revision + 1, digest=digest(hands))
                game = store.replace_hand(game.id, i, hands[i], game.revision)
            else:
                hands.append(hand(rng))
                say(intent=game.id, rev=game.revision + 1, digest=digest(hands))
                game = store.add_hand(game.id, hands[-1], game.revision)
        say(done=game.id, rev=game.revision, digest=digest(game.doc["hands"]))


def run_child_until_killed(data: Path | str, seed: int, saves: int,
                           delay: float) -> list[dict[str, Any]]:
    """Fork a child saving in a loop; once it has said `saves` saves returned (0: at
    once), let it run `delay` seconds more and SIGKILL it: a random moment of its work,
    however busy the machine is. What it said, line by line."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(read_end)
            child(data, write_end, seed)
        except BaseException as e:
            os.write(write_end, (json.dumps({"error": repr(e)}) + "\n").encode())
        finally:
            os._exit(code)
    os.close(write_end)
    said = b""
    deadline = time.monotonic() + CHILD_SAVES_WITHIN_S
    while said.count(b'"done"') < saves:
        ready, _, _ = select.select([read_end], [], [], max(0.0, deadline - time.monotonic()))
        chunk = os.read(read_end, 65536) if ready else b""
        if not chunk:  # the bound passed, or the child ended (an error it said)
            break
        said += chunk
    time.sleep(delay)  # not a wait: the kill lands at a random point of the next save
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    chunks = [said]
    while chunk := os.read(read_end, 65536):
        chunks.append(chunk)
    os.close(read_end)
    lines = [json.loads(line) for line in b"".join(chunks).decode().splitlines()]
    returned = sum("done" in line for line in lines)
    assert returned >= saves or any("error" in line for line in lines), (
        f"the child returned {returned} of {saves} saves in {CHILD_SAVES_WITHIN_S} s")
    return lines


def check_kill(kill: int, saved: dict[str, tuple[int, str]], in_flight: dict[str, Any] | None,
               on_disk: dict[str, tuple[int, str]]) -> int:
    """Every returned save is there; only the save in flight may have landed beyond it.
    Brings `saved` up to what is stored; returns 1 if the save in flight landed."""
    landed = 0
    for game_id, state in saved.items():
        assert game_id in on_disk, f"game {game_id} lost after kill {kill}"
        if on_disk[game_id] != state:
            assert in_flight is not None and in_flight["intent"] == game_id, (
                f"kill {kill}: {game_id} is {on_disk[game_id]}, reported {state}"
            )
            assert on_disk[game_id] == (in_flight["rev"], in_flight["digest"])
            landed = 1
    extra = set(on_disk) - set(saved)
    if extra:  # a game whose creation was under way when the kill came
        assert len(extra) == 1 and in_flight is not None
        assert in_flight["intent"] == "create"
        [new_id] = extra
        assert on_disk[new_id] == (1, in_flight["digest"])
    saved.update({game_id: on_disk[game_id] for game_id in extra})
    for game_id in saved:
        saved[game_id] = on_disk[game_id]
    return landed


def replay(lines: list[dict[str, Any]], saved: dict[str, tuple[int, str]]) -> tuple[
        dict[str, Any] | None, int]:
    """Takes in what the child said: the save in flight at the kill, and saves returned."""
    errors = [m["error"] for m in lines if "error" in m]
    assert errors == [], errors
    in_flight: dict[str, Any] | None = None
    returned = 0
    for msg in lines:
        if "intent" in msg:
            in_flight = msg
        else:
            saved[msg["done"]] = (msg["rev"], msg["digest"])
            in_flight = None
            returned += 1
    return in_flight, returned


@pytest.mark.slow  # 220 children killed in turn
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    GameStore(data)  # folders exist before the first kill
    rng = random.Random(1234)
    saved: dict[str, tuple[int, str]] = {}  # game id -> (revision, digest) last seen returned
    saves = 0
    landed_in_flight = 0
    killed_mid_write = 0
    temp_files: set[str] = set()
    started = time.monotonic()
    for kill in range(KILLS):
        lines = run_child_until_killed(data, seed=kill, saves=rng.randint(0, 3),
                                       delay=rng.uniform(0.0, 0.02))
        in_flight, returned = replay(lines, saved)
        saves += returned

        # Every file parses, and is a whole game.
        on_disk: dict[str, tuple[int, str]] = {}
        for path in (data / "games").glob("*.json"):
            record = read_record(path)
            on_disk[path.stem] = (record["revision"], digest(record["doc"]["hands"]))
        assert not (data / "damaged").exists()
        if (data / "index.json").exists():
            json.loads((data / "index.json").read_bytes())
        temps = {p.name for p in (data / "games").glob(".*.tmp")}
        killed_mid_write += bool(temps - temp_files)  # a write cut off before its rename
        temp_files |= temps
        landed_in_flight += check_kill(kill, saved, in_flight, on_disk)

    # And the store itself opens clean, with every game listed.
    store = GameStore(data)
    assert store.problems == []
    assert {s.id for s in store.list_games()} == set(saved)
    elapsed = time.monotonic() - started
    print(f"{KILLS} kills ({killed_mid_write} in the middle of writing a file), "
          f"{saves} saves returned, {landed_in_flight} in-flight saves landed, "
          f"{len(saved)} games, {elapsed:.1f} s")
    assert saves > KILLS  # the children really were saving between kills


PG_KILLS = 40


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_a_process_killed_while_saving_to_postgresql_loses_nothing(pg_url: str) -> None:
    """The database rolls back the transaction of a process that died in it: every
    row is a whole game, as last reported or as the save in flight left it."""
    rng = random.Random(99)
    saved: dict[str, tuple[int, str]] = {}
    saves = 0
    for kill in range(PG_KILLS):
        lines = run_child_until_killed(pg_url, seed=kill, saves=rng.randint(0, 3),
                                       delay=rng.uniform(0.0, 0.02))
        in_flight, returned = replay(lines, saved)
        saves += returned
        with psycopg.connect(pg_url) as conn:
            rows = conn.execute("SELECT id, revision, record FROM games").fetchall()
        on_disk = {}
        for game_id, revision, record in rows:
            assert record["revision"] == revision
            on_disk[game_id] = (revision, digest(record["doc"]["hands"]))
        check_kill(kill, saved, in_flight, on_disk)
    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=Path("/nonexistent"))
        assert {s.id for s in store.list_games()} == set(saved) and store.problems == []
    finally:
        db.close()
    assert saves > PG_KILLS
