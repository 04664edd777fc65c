"""resolve_data_dir: --data-dir, then TARABISH_DATA, then the platform's data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.machine.paths import resolve_data_dir

HOME = {"HOME": "/home/ann"}


def test_explicit_wins_over_env(tmp_path: Path) -> None:
    env = {**HOME, "TARABISH_DATA": "/env/dir"}
    assert resolve_data_dir(tmp_path / "x", environ=env, platform="linux") == tmp_path / "x"
    assert resolve_data_dir(str(tmp_path), environ=env, platform="linux") == tmp_path


def test_env_wins_over_platform() -> None:
    env = {**HOME, "TARABISH_DATA": "/env/dir", "XDG_DATA_HOME": "/xdg"}
    assert resolve_data_dir(None, environ=env, platform="linux") == Path("/env/dir")


def test_empty_values_are_ignored() -> None:
    env = {**HOME, "TARABISH_DATA": "  "}
    assert resolve_data_dir("", environ=env, platform="linux") == Path(
        "/home/ann/.local/share/tarabish"
    )


def test_relative_explicit_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve_data_dir("games", environ=HOME, platform="linux") == tmp_path / "games"


def test_tilde_is_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/bob")
    assert resolve_data_dir("~/t", environ={}, platform="linux") == Path("/home/bob/t")


@pytest.mark.parametrize(
    ("platform", "env", "expected"),
    [
        ("linux", HOME, "/home/ann/.local/share/tarabish"),
        ("linux", {**HOME, "XDG_DATA_HOME": "/data"}, "/data/tarabish"),
        ("linux", {**HOME, "XDG_DATA_HOME": "rel/ative"}, "/home/ann/.local/share/tarabish"),
        ("freebsd14", HOME, "/home/ann/.local/share/tarabish"),
        ("darwin", HOME, "/home/ann/Library/Application Support/Tarabish"),
        ("win32", {"USERPROFILE": "/users/ann", "APPDATA": "/users/ann/roam"},
         "/users/ann/roam/Tarabish"),
        ("win32", {"USERPROFILE": "/users/ann"}, "/users/ann/AppData/Roaming/Tarabish"),
    ],
)
def test_platform_defaults(platform: str, env: dict[str, str], expected: str) -> None:
    assert resolve_data_dir(None, environ=env, platform=platform) == Path(expected)


def test_never_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TARABISH_DATA", raising=False)
    assert resolve_data_dir(None) != Path.cwd()
    assert resolve_data_dir(None).is_absolute()
