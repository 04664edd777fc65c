"""The wheels the app needs inside the browser, pinned by uv.lock and fetched with pip.

The phone runs CPython 3.14 compiled to WebAssembly (Pyodide 314.0.7, shipped
in the flet-web wheel), so compiled packages need wheels built for its
platform tag; the others are pure. Versions and sha256 hashes come from
uv.lock (the same versions the table server runs), and pip downloads them
with `--require-hashes`, so the site holds exactly what the lock names.
Downloads are kept in a cache folder: a second build needs no network.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

PYODIDE_VERSION = "314.0.7"
PYTHON_VERSION = "3.14"
PLATFORM = "pyemscripten_2026_0_wasm32"
ABI = "cp314"
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


def download(pins: list[Pin], cache_dir: Path) -> list[Path]:
    """Every pinned wheel for the browser's platform, in `cache_dir`; the paths."""
    cache_dir.mkdir(parents=True, exist_ok=True)
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
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise WheelError("pip could not download the browser's wheels:\n"
                         + (done.stderr.strip() or done.stdout.strip()))
    found: list[Path] = []
    for pin in pins:
        stem = pin.name.replace("-", "_").lower() + "-" + pin.version + "-"
        matches = sorted(w for w in cache_dir.glob("*.whl") if w.name.lower().startswith(stem))
        usable = [w for w in matches if w.name.endswith(("-none-any.whl", f"-{PLATFORM}.whl"))]
        if not usable:
            raise WheelError(f"no {PLATFORM} or pure wheel of {pin.name} {pin.version}")
        found.append(usable[0])
    return found


def _pip() -> list[str]:
    """pip of this Python if it has one (a plain venv), else uv's (uv-made venvs have none)."""
    import importlib.util
    import shutil

    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    uvx = shutil.which("uvx")
    if uvx is None:
        raise WheelError("building the site needs pip: install uv (pip install uv) or pip")
    return [uvx, "--quiet", "--from", f"pip=={PIP_VERSION}", "pip"]


def default_cache_dir() -> Path:
    """wheels/ of the user cache folder (~/.cache/tarabish, or $TARABISH_CACHE)."""
    from scorer.paths import user_cache_dir

    return user_cache_dir() / "wheels" / PLATFORM
