"""A full disk or a read-only data folder: reading keeps working, a failed write
says so in plain words, and nothing is half-saved (no temp file left behind)."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from faults import failing_writes, snapshot
from store_docs import MADE, MADE_0, game_doc

from scorer.cli import main
from scorer.store import GameStore
from scorer.store.errors import NotSaved

DISK_FULL = "The disk is full: nothing was saved."
READ_ONLY = "The data folder is read-only: nothing was saved."


@pytest.mark.parametrize(("code", "message"), [(errno.ENOSPC, DISK_FULL),
                                               (errno.EROFS, READ_ONLY)])
@pytest.mark.parametrize("call", ["open", "write", "fsync", "replace"])
def test_a_failed_save_says_so_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str, code: int, message: str
) -> None:
    data = tmp_path / "data"
    store = GameStore(data)
    game = store.create_game(game_doc(1))
    before = snapshot(data)
    with failing_writes(monkeypatch, data, code, calls=(call,)) as refused:
        for save in (
            lambda: store.add_hand(game.id, MADE_0, game.revision),
            lambda: store.replace_hand(game.id, 0, MADE_0, game.revision),
            lambda: store.undo_last_hand(game.id, game.revision),
            lambda: store.create_game(game_doc(0)),
        ):
            with pytest.raises(NotSaved) as caught:
                save()
            assert str(caught.value) == message
        assert refused, "the store did not even try to write"
        # Reading still works, and shows the game as it was.
        assert store.get_game(game.id).revision == game.revision
        assert [s.id for s in store.list_games()] == [game.id]
    assert snapshot(data) == before  # no temp file, no half-written game
    # Once there is room again, saving works as before.
    assert store.add_hand(game.id, MADE, game.revision).revision == game.revision + 1


def test_reading_needs_no_free_space(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening the store, listing and reading, with every write under DATA failing:
    the game list cache is stale and a damaged file cannot be moved aside."""
    data = tmp_path / "data"
    store = GameStore(data)
    ids = [store.create_game(game_doc(n)).id for n in range(3)]
    store.close()
    (data / "index.json").write_text("{torn")  # the cache must be rebuilt (and written)
    (data / "games" / "0badf00d.json").write_text("{torn")  # must be moved aside
    with failing_writes(monkeypatch, data) as refused:
        for read_only in (False, True):
            opened = GameStore(data, read_only=read_only)
            assert sorted(s.id for s in opened.list_games()) == sorted(ids)
            assert opened.get_game(ids[2]).doc["hands"] == game_doc(2)["hands"]
            assert any("0badf00d" in p and "left where it is" in p for p in opened.problems)
            opened.close()
    assert refused  # the writable store did try its housekeeping, and shrugged
    assert (data / "games" / "0badf00d.json").exists()


def test_a_read_only_store_writes_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with GameStore(data) as store:
        game = store.create_game(game_doc(1))
    (data / "index.json").unlink()
    (data / "games" / "0badf00d.json").write_text("{torn")
    before = snapshot(data)
    reader = GameStore(data, read_only=True)
    assert [s.id for s in reader.list_games()] == [game.id]
    with pytest.raises(NotSaved):
        reader.add_hand(game.id, MADE)
    reader.close()
    assert snapshot(data) == before
    assert GameStore(tmp_path / "never-made", read_only=True).list_games() == []
    assert not (tmp_path / "never-made").exists()


def test_import_on_a_full_disk_stores_nothing_and_says_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    with GameStore(data) as store:
        kept = store.create_game(game_doc(2)).id
    files = []
    for n in range(3):
        files.append(tmp_path / f"g{n}.json")
        files[-1].write_text(json.dumps(game_doc(n)), encoding="utf-8")
    before = snapshot(data)

    with failing_writes(monkeypatch, data, errno.ENOSPC):
        assert main(["import", *map(str, files), "--data-dir", str(data)]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err == f"tarabish: {DISK_FULL}\n"
        # Everything else keeps working on the full disk.
        assert main(["games", "--data-dir", str(data)]) == 0
        assert kept in capsys.readouterr().out
        assert main(["export", kept, "--data-dir", str(data)]) == 0
        assert json.loads(capsys.readouterr().out) == game_doc(2)
    assert snapshot(data) == before


def test_an_import_that_fills_the_disk_halfway_takes_back_what_it_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    GameStore(data).close()
    files = []
    for n in range(3):
        files.append(tmp_path / f"g{n}.json")
        files[-1].write_text(json.dumps(game_doc(n)), encoding="utf-8")
    import scorer.store.records as records

    real = records.write_record
    writes = 0

    def second_write_fills_the_disk(*args: object, **kwargs: object) -> None:
        nonlocal writes
        writes += 1
        if writes == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("scorer.store.game_store.write_record", second_write_fills_the_disk)
    assert main(["import", *map(str, files), "--data-dir", str(data)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"tarabish: {DISK_FULL}\n")
    assert writes == 2
    assert list((data / "games").iterdir()) == []
    assert GameStore(data, read_only=True).list_games() == []
