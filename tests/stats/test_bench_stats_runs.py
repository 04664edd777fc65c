"""The statistics benchmark, run tiny so the script cannot rot. No timing is judged."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_stats.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_stats", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_stats", module)
    spec.loader.exec_module(module)
    return module


def test_stored_games_are_valid_varied_and_counted(bench: ModuleType, tmp_path: Path) -> None:
    store = bench.fill_store(tmp_path / "data", games=4, hands=6)
    games = store.list_games()
    assert len(games) == 4
    assert all(g.hand_count == 6 and g.invalid_from is None for g in games)
    assert len({name for g in games for name in g.players}) > 4


def test_bench_prints_every_state(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    figures = bench.main(["--games", "3", "--hands", "4", "--repeats", "1", "--no-screen",
                          "--dir", str(tmp_path)])
    assert figures.hands == 12
    assert set(figures.command) == set(figures.in_process) == {"cold", "warm", "one edited"}
    assert all(t[0] > 0 and t[1] >= 0 for t in [*figures.command.values(), *figures.in_process.values()])
    out = capsys.readouterr().out
    assert "3 games, 12 hands" in out and "warm command" in out and "floor" in out
