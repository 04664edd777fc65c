"""The ratings benchmark, run tiny so the script cannot rot. No timing is judged."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_ratings.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ratings", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_ratings", module)
    spec.loader.exec_module(module)
    return module


def test_bench_prints_every_pool(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    figures = bench.main(["--games", "30", "--repeats", "1", "--documents", "--stored"])
    assert set(figures.seconds) == {20, 60, 200}
    assert figures.documents is not None and figures.stored is not None
    out = capsys.readouterr().out
    assert "30 games" in out and "200 players" in out and "game documents" in out
    assert "30 saved games" in out


def test_synthetic_documents_are_won_by_seats_0_and_2(bench: ModuleType) -> None:
    from scorer.ratings.sources import match_of_doc

    docs = bench.synthetic_docs(5, 20)
    matches = bench.synthetic_matches(5, 20)
    assert [match_of_doc(doc) for doc in docs] == matches


def test_bench_times_a_group(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    figures = bench.main(["--games", "8", "--repeats", "1", "--group", "--members", "12",
                          "--group-games", "40"])
    assert set(figures.group) >= {"ratings", "season All games", "fair teams of 8"}
    assert "group of 12 members, 40 games" in capsys.readouterr().out
