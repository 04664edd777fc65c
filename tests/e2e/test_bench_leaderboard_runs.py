"""The leaderboard benchmark, run tiny so the script cannot rot. No timing is judged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_leaderboard.py"


def test_bench_leaderboard_prints_its_ratio() -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--members", "12", "--games", "40",
                           "--rounds", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "home → Leaderboard (12 of 12 rows)" in done.stdout
    assert "leaderboard / sheet: " in done.stdout
