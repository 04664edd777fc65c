"""The rules benchmarks, run tiny so the script cannot rot. No timing is judged."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rules.replay import replay

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_rules.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_rules", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_rules", module)
    spec.loader.exec_module(module)
    return module


def test_generated_hands_are_valid_and_varied(bench: ModuleType) -> None:
    result = replay(bench.big_game(300))
    assert result.invalid_hands == ()
    assert result.winner is None
    rulings = [hand.ruling for hand in result.hands if hand.ruling is not None]
    assert len(rulings) == 300
    assert {"made", "bait"} <= {ruling.outcome.value for ruling in rulings}
    assert any(ruling.runs_to is not None for ruling in rulings)
    assert any(ruling.bella_to is not None for ruling in rulings)


def test_replay_benchmark_runs(bench: ModuleType) -> None:
    figures = bench.bench_replay(hands=40, repeats=1)
    assert figures.hands == 40
    assert figures.hands_per_second > 0
    assert "invalid 0" in figures.summary


def test_edit_benchmark_runs(bench: ModuleType) -> None:
    figures = bench.bench_edit(hands=6, edits=5, index=3)
    assert figures.edits == 5
    assert 0 < figures.median_ms <= figures.p95_ms <= figures.max_ms
    assert figures.p95_frames == figures.p95_ms / bench.FRAME_MS


def test_profile_and_gc_share_run(bench: ModuleType) -> None:
    on, off = bench.gc_share(hands=20, repeats=1)
    assert on > 0 and off > 0
    report = bench.profile_replay(hands=20, top=3)
    assert "pydantic" in report and "rule_hand" in report


def test_main_prints_every_figure(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--hands", "30", "--repeats", "1", "--edit-hands", "5", "--edits", "3",
                "--profile"])
    out = capsys.readouterr().out
    for text in ("(a) replay of a 30-hand game", "hands/s", "(b) replace hand 3",
                 "median", "p95", "60 Hz", "garbage collector", "profiled replay"):
        assert text in out
