"""Output piped into `head` or `less` whose reader leaves ends quietly, for every
command (issue 31, section 1): no BrokenPipeError traceback on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TEAMS = [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"], ["Gus", "Hal"]]
WON_GAME = Path(__file__).resolve().parents[1] / "data" / "won_game.json"


@pytest.fixture
def night(tmp_path: Path) -> tuple[Path, str, Path]:
    """A data folder with a club night (no round drawn yet) and two saved games:
    (data folder, event id, a game file)."""
    tmp = tmp_path
    data = tmp / "data"
    spec = tmp / "event.json"
    spec.write_text(json.dumps({"name": "Legion", "format": "swiss", "rounds": 3,
                                "target": 300, "house_rules": {}, "teams": TEAMS,
                                "seed": 11}), encoding="utf-8")
    game = tmp / "game.json"
    doc = json.loads(WON_GAME.read_text(encoding="utf-8"))
    doc.pop("_about")
    game.write_text(json.dumps(doc), encoding="utf-8")
    event_id = _run_to_end("event", "new", str(spec), "--data-dir", str(data)).strip()
    _run_to_end("import", str(game), str(game), "--data-dir", str(data))
    return data, event_id, game


def _run_to_end(*argv: str) -> str:
    done = subprocess.run([sys.executable, "-m", "scorer.cli", *argv], capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stdout


def _into_closed_pipe(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run a command whose stdout is a pipe nobody reads any more (as `head` leaves)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "scorer.cli", *argv], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    finally:
        os.close(write_end)


def _commands(data: Path, event_id: str, game: Path) -> list[list[str]]:
    d = ["--data-dir", str(data)]
    return [
        ["--help"],
        ["event", "round", "--help"],
        ["event", "round", event_id, "--json", *d],
        ["event", "standings", event_id, *d],
        ["event", "export", event_id, *d],
        ["stats", *d],
        ["stats", "--json", *d],
        ["games", "--json", *d],
        ["export", "--csv", *d],
        ["check", str(game)],
        ["check", str(game), "--json"],
    ]


@pytest.mark.slow  # every command, each in a process of its own
def test_every_command_ends_quietly_when_the_reader_leaves(
        night: tuple[Path, str, Path]) -> None:
    for argv in _commands(*night):
        done = _into_closed_pipe(*argv)
        assert "Traceback" not in done.stderr, (argv, done.stderr)
        assert "BrokenPipeError" not in done.stderr, (argv, done.stderr)
        assert done.stderr.strip() == "", (argv, done.stderr)
        assert done.returncode in (0, 141), (argv, done.returncode)


def test_head_reads_a_few_bytes_then_leaves(night: tuple[Path, str, Path]) -> None:
    """As `tarabish event round EVENT --json | head -c 300`: the first bytes arrive."""
    data, event_id, _game = night
    proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "event", "round", event_id,
                             "--json", "--data-dir", str(data)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.read(30)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert first.startswith(b"{")
    assert "Traceback" not in err, err
