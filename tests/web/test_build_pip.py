"""build-web runs pip (a uv-made venv has none) through uv: `uvx`, or `uv tool run` where
only `uv` is installed (HOSTING.md's server puts uv in /usr/local/bin; build-web said
"install uv" there, with uv installed)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.webbuild import wheels
from scorer.webbuild.wheels import NO_PIP, PIP_VERSION, WheelError


@pytest.fixture
def no_pip_here(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pip" else real(name, *a))


def only(monkeypatch: pytest.MonkeyPatch, found: dict[str, str], uv_env: str | None) -> None:
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: found.get(name))
    if uv_env is None:
        monkeypatch.delenv("UV", raising=False)
    else:
        monkeypatch.setenv("UV", uv_env)


def test_uvx_when_there_is_one(no_pip_here: None, monkeypatch: pytest.MonkeyPatch) -> None:
    only(monkeypatch, {"uvx": "/usr/bin/uvx", "uv": "/usr/bin/uv"}, None)
    assert wheels._pip() == ["/usr/bin/uvx", "--quiet", "--python", sys.executable, "--from",
                             f"pip=={PIP_VERSION}", "pip"]


@pytest.mark.parametrize(("found", "uv_env", "uv"), [
    ({"uv": "/usr/local/bin/uv"}, None, "/usr/local/bin/uv"),  # uv alone on the PATH
    ({}, "/usr/local/bin/uv", "/usr/local/bin/uv"),  # run by `uv run`, which sets $UV
])
def test_uv_alone_runs_pip(no_pip_here: None, monkeypatch: pytest.MonkeyPatch,
                           found: dict[str, str], uv_env: str | None, uv: str) -> None:
    only(monkeypatch, found, uv_env)
    assert wheels._pip() == [uv, "tool", "run", "--quiet", "--python", sys.executable,
                             "--from", f"pip=={PIP_VERSION}", "pip"]


def test_neither_is_said_in_words(no_pip_here: None, monkeypatch: pytest.MonkeyPatch) -> None:
    only(monkeypatch, {}, None)
    with pytest.raises(WheelError) as raised:
        wheels._pip()
    assert str(raised.value) == NO_PIP and "neither pip nor uv" in NO_PIP


def test_uv_tool_run_gives_the_pinned_pip(no_pip_here: None, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The command as built, run for real with uv alone on the PATH (its own cache)."""
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "uv").symlink_to(uv)
    only(monkeypatch, {"uv": str(bin_dir / "uv")}, None)
    env = {k: v for k, v in os.environ.items() if k != "UV"}  # the index, its certificates
    done = subprocess.run([*wheels._pip(), "--version"], capture_output=True, text=True,
                          timeout=300, check=False, env={**env, "PATH": f"{bin_dir}:/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"pip {PIP_VERSION} ")
