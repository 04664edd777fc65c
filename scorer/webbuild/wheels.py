"""The wheels the app needs inside the browser, pinned by uv.lock and fetched with pip.

The phone runs CPython 3.14 compiled to WebAssembly (Pyodide 314.0.7, shipped
in the flet-web wheel), so compiled packages need wheels built for its
platform tag; the others are pure. Versions and sha256 hashes come from
uv.lock (the same versions the table server runs), and pip downloads them
with `--require-hashes`, so the site holds exactly what the lock names.
Downloads are kept in a cache folder: a second build needs no network.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from scorer.webbuild.progress import Step, run_watched

PYODIDE_VERSION = "314.0.7"
PYTHON_VERSION = "3.14"
PLATFORM = "pyemscripten_2026_0_wasm32"
ABI = "cp314"
PIP_TIMEOUT_S = 600
MAX_WHEELS = 64
"""The wheel folder keeps this many at most (several versions of each)."""
PIP_VERSION = "26.3"
"""pip run through uvx when this Python has none (pinned: its options are relied on)."""

BROWSER_PACKAGES = (
    "flet", "flet-charts", "msgpack", "repath", "six",
    "pydantic", "pydantic-core", "annotated-types", "typing-extensions", "typing-inspection",
    "tinydb", "segno",
)
"""What `scorer.app` imports in the browser, with their dependencies. Left out:
flet's httpx/oauthlib (not used on Emscripten), and the server's own
(uvicorn, fastapi, brotli, zopfli)."""


class WheelError(RuntimeError):
    """A wheel could not be pinned or downloaded; the message says which and why."""


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    hashes: tuple[str, ...]
    """sha256 of every wheel uv.lock lists for this version (pip picks one)."""

    def requirement(self) -> str:
        hashes = " ".join(f"--hash=sha256:{h}" for h in self.hashes)
        return f"{self.name}=={self.version} {hashes}"


def read_pins(lock_path: Path, names: tuple[str, ...] = BROWSER_PACKAGES) -> list[Pin]:
    """The locked version and wheel hashes of each package in `names`."""
    try:
        lock = tomllib.loads(lock_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise WheelError(f"cannot read {lock_path}: {e}") from e
    by_name = {p["name"]: p for p in lock.get("package", [])}
    pins: list[Pin] = []
    for name in names:
        package = by_name.get(name)
        if package is None:
            raise WheelError(f"{name} is not in {lock_path.name}")
        hashes = tuple(
            str(w["hash"]).removeprefix("sha256:")
            for w in package.get("wheels", [])
            if str(w.get("hash", "")).startswith("sha256:")
        )
        if not hashes:
            raise WheelError(f"{lock_path.name} lists no wheel hashes for {name}")
        pins.append(Pin(name, str(package["version"]), hashes))
    return pins


def download(pins: list[Pin], cache_dir: Path, step: Step | None = None) -> list[Path]:
    """Every pinned wheel for the browser's platform, in `cache_dir`; the paths. A wheel
    already there with a hash the lock names is used as it is (no pip, no network)."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    if step is not None:
        step.grow(len(pins))
    found = {pin.name: _kept(pin, cache_dir) for pin in pins}
    missing = [pin for pin in pins if found[pin.name] is None]
    if step is not None:
        step.reuse(len(pins) - len(missing))
    if missing:
        _pip_download(missing, cache_dir, step)
        for pin in missing:
            found[pin.name] = _kept(pin, cache_dir)
            if found[pin.name] is None:
                raise WheelError(f"no {PLATFORM} or pure wheel of {pin.name} {pin.version} "
                                 "with the hash uv.lock names")
    wheels = [w for pin in pins if (w := found[pin.name]) is not None]
    for wheel in wheels:
        with contextlib.suppress(OSError):
            os.utime(wheel)  # used now: trimmed last
    _trim(cache_dir)
    return wheels


def _kept(pin: Pin, cache_dir: Path) -> Path | None:
    """The wheel of `pin` for the phone in `cache_dir`, if one is there whole."""
    stem = pin.name.replace("-", "_").lower() + "-" + pin.version + "-"
    for wheel in sorted(cache_dir.glob("*.whl")):
        if (wheel.name.lower().startswith(stem)
                and wheel.name.endswith(("-none-any.whl", f"-{PLATFORM}.whl"))
                and hashlib.sha256(wheel.read_bytes()).hexdigest() in pin.hashes):
            return wheel
    return None


def _pip_download(pins: list[Pin], cache_dir: Path, step: Step | None) -> None:
    requirements = cache_dir / "requirements.txt"
    requirements.write_text("\n".join(p.requirement() for p in pins) + "\n", encoding="utf-8")
    command = [
        *_pip(), "download",
        "--only-binary=:all:", "--no-deps", "--require-hashes",
        "--platform", PLATFORM, "--platform", "any",
        "--python-version", PYTHON_VERSION, "--implementation", "cp",
        "--abi", ABI, "--abi", "none",
        "--dest", str(cache_dir), "--quiet", "--disable-pip-version-check",
        "-r", str(requirements),
    ]
    arrived: set[str] = set()

    def count() -> None:  # the bar follows the wheels as they arrive
        for pin in pins:
            if pin.name not in arrived and _kept(pin, cache_dir) is not None:
                arrived.add(pin.name)
                if step is not None:
                    step.make()

    code, out, errors = run_watched(command, PIP_TIMEOUT_S, count)
    if code != 0:
        raise WheelError("pip could not download the browser's wheels:\n"
                         + (errors.strip() or out.strip()))
    if step is not None:
        step.make(len(pins) - len(arrived))


def _trim(cache_dir: Path, keep: int = MAX_WHEELS) -> None:
    """At most `keep` wheels in the folder: the least recently used go."""
    wheels = sorted(cache_dir.glob("*.whl"), key=lambda w: w.stat().st_mtime, reverse=True)
    for old in wheels[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()


NO_PIP = ("building the site needs pip, and neither pip nor uv was found: install uv "
          "(the README says how) and run the command with 'uv run', or install pip")


def _pip() -> list[str]:
    """pip of this Python if it has one (a plain venv), else run by uv (uv-made venvs have
    none): `uvx`, else `uv tool run` (the same; a server may have only `uv` installed,
    and `uv run` names itself in $UV)."""
    import importlib.util
    import shutil

    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    # This Python, for pip: uv would otherwise look for one, or download one.
    pinned = ["--quiet", "--python", sys.executable, "--from", f"pip=={PIP_VERSION}", "pip"]
    uvx = shutil.which("uvx")
    if uvx is not None:
        return [uvx, *pinned]
    uv = os.environ.get("UV") or shutil.which("uv")
    if uv:
        return [uv, "tool", "run", *pinned]
    raise WheelError(NO_PIP)


def default_cache_dir() -> Path:
    """wheels/ of the user cache folder (~/.cache/tarabish, or $TARABISH_CACHE)."""
    from scorer.machine.paths import user_cache_dir

    return user_cache_dir() / "wheels" / PLATFORM
