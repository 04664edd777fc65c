"""Where saved games live: `--data-dir`, else $TARABISH_DATA, else the user data folder.

Never the current directory unless asked for explicitly. Also where work worth
keeping between runs goes (compressed page files, build steps): $TARABISH_CACHE,
else the user cache folder; never inside the data folder.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

ENV_VAR = "TARABISH_DATA"
CACHE_ENV_VAR = "TARABISH_CACHE"


def resolve_data_dir(
    explicit: str | Path | None,
    *,
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
) -> Path:
    """The data folder to use (not created here).

    `environ` and `platform` (a `sys.platform` value) default to the real
    ones; tests pass their own.
    """
    env = os.environ if environ is None else environ
    if explicit is not None and str(explicit).strip():
        return _absolute(Path(explicit).expanduser())
    from_env = env.get(ENV_VAR, "").strip()
    if from_env:
        return _absolute(Path(from_env).expanduser())
    return user_data_dir(environ=env, platform=platform or sys.platform)


def user_data_dir(*, environ: Mapping[str, str], platform: str) -> Path:
    """The platform's per-user data folder for Tarabish, without extra dependencies."""
    home = _home(environ)
    if platform.startswith("win"):
        appdata = environ.get("APPDATA", "").strip()
        base = Path(appdata) if appdata else home / "AppData" / "Roaming"
        return base / "Tarabish"
    if platform == "darwin":
        return home / "Library" / "Application Support" / "Tarabish"
    # Linux and other Unixes: the XDG base directory spec. A relative
    # XDG_DATA_HOME is invalid per the spec and must be ignored.
    xdg = environ.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base / "tarabish"


def user_cache_dir(*, environ: Mapping[str, str] | None = None,
                   platform: str | None = None) -> Path:
    """$TARABISH_CACHE, else the platform's per-user cache folder for Tarabish
    (`~/.cache/tarabish`, XDG_CACHE_HOME respected). Everything in it can be
    deleted at any time: it is only made again, more slowly."""
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    from_env = env.get(CACHE_ENV_VAR, "").strip()
    if from_env:
        return _absolute(Path(from_env).expanduser())
    home = _home(env)
    if platform.startswith("win"):
        local = env.get("LOCALAPPDATA", "").strip()
        base = Path(local) if local else home / "AppData" / "Local"
        return base / "Tarabish" / "Cache"
    if platform == "darwin":
        return home / "Library" / "Caches" / "Tarabish"
    xdg = env.get("XDG_CACHE_HOME", "").strip()  # a relative one is invalid: ignored
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache"
    return base / "tarabish"


def _home(environ: Mapping[str, str]) -> Path:
    for key in ("HOME", "USERPROFILE"):
        value = environ.get(key, "").strip()
        if value:
            return Path(value)
    return Path.home()


def _absolute(path: Path) -> Path:
    # An explicit relative path is the user's choice; make it absolute now so a
    # later chdir cannot move the data.
    return path if path.is_absolute() else Path.cwd() / path
