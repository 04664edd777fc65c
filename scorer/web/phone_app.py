"""The app for phones a server offers (the phone-alone site under /alone/): where it
comes from, its version, and whether a game's address opens in it.

- `--phone-site DIR`: that site, built by hand (`tarabish build-web DIR`); an override.
- A laptop's table server: the site built for this very version of Tarabish, kept in
  the cache folder by a digest of what it is made from (`app_key`), so every later
  start serves it at once. If there is none, it is built once, in the background, in a
  process of the lowest CPU priority, once the first phones have loaded
  (`build_when_quiet`); the server-drawn pages serve until it is ready.
- A community's server never builds it (every process would, at every start): its
  operator builds it at install and upgrade (docs/HOSTING.md); without one the server
  says so in one line and phones get the drawn pages.

A site is offered only if it was built from the server's own rules (its version.json):
a phone must never run other rules than the server judges by.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path

from scorer.app import CONFIG
from scorer.machine.paths import user_cache_dir
from scorer.store.validation import scoring_fingerprint
from scorer.web.phone_site import PREFIX, NoPhoneSite, PhoneSite

REPO_ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("rules", "scorer", "assets")
"""What the site is made from, beside uv.lock (the phone's wheels) and flet-web."""
KEPT_SITES = 2
"""Built sites kept in the cache folder (about 170 MB each): this version and the last."""
OFF_ENV = "TARABISH_PHONE_APP"
"""Set to "off", as `--phone-site off`: no app for phones (the test suite's servers)."""
BUILD_MODULE = "scorer.webbuild.for_server"
"""What builds it, in a process of its own (`python -m`)."""


def app_key(root: Path = REPO_ROOT) -> str:
    """A digest of everything the site is made from: the app's sources, its assets, the
    locked wheels, the web client's version and whether Node.js is at hand (without it
    the site starts slower). ~10 ms: read at every start."""
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    with contextlib.suppress(OSError):
        digest.update((root / "uv.lock").read_bytes())
    with contextlib.suppress(PackageNotFoundError):
        digest.update(package_version("flet-web").encode())
    digest.update(b"node" if shutil.which("node") else b"no node")
    return digest.hexdigest()[:20]


def sites_dir() -> Path:
    """Where a table server keeps the sites it built (`phone-app/` of the cache folder)."""
    return user_cache_dir() / "phone-app"


def site_folder(key: str | None = None) -> Path:
    return sites_dir() / (key or app_key())


def kept_site(folder: Path) -> PhoneSite | None:
    """The site built in `folder`, if a whole one is there."""
    if not (folder / "version.json").is_file():  # written last but the marker
        return None
    try:
        return PhoneSite(folder)
    except (NoPhoneSite, OSError):
        return None


@dataclass
class PhoneApp:
    """The app this server offers now, and how its game addresses open."""

    games_in_app: bool = False
    """A game's address opens the app (a community's default): scorer.web.game_address."""
    site: PhoneSite | None = None
    rules: str = field(default_factory=scoring_fingerprint)
    auto: bool = False
    """No site named (`--phone-site`): the one kept for this version, or built."""
    builder: BackgroundBuild | None = None

    def use(self, site: PhoneSite) -> None:
        """Serve `site` from now on (the start screen links to it)."""
        self.site = site
        CONFIG.phone_site = PREFIX

    def unfit(self, site: PhoneSite) -> str | None:
        """Why `site` cannot open this server's games (other rules), or None."""
        if site.rules is None:
            return "it was built by an older Tarabish"
        if site.rules != self.rules:
            return "it was built for other rules than this server's"
        return None

    def current(self) -> PhoneSite | None:
        return self.site

    def opens_games(self) -> bool:
        """Whether a game's address opens the app now."""
        return self.games_in_app and self.site is not None and self.unfit(self.site) is None

    def version(self) -> dict[str, str | None]:
        """What /alone/version.json answers: the rules the server judges by, and the
        version of the site it serves (None: none yet, or one of other rules)."""
        fit = self.site is not None and self.unfit(self.site) is None
        return {"rules": self.rules, "site": self.site.version if fit and self.site else None}

    def stop(self) -> None:
        if self.builder is not None:
            self.builder.stop()


# -- building it in the background ------------------------------------------------------------

BUILDING = ("App for phones: building it in the background (once for this version, a few "
            "minutes at the lowest priority); phones get the server's pages meanwhile.")
READY = "The app for phones is ready at {url}alone/"
NO_LOCK = ("The app for phones is not offered: no uv.lock beside Tarabish to build it from "
           "(run it from the Tarabish folder).")


class BackgroundBuild:
    """`python -m scorer.webbuild.for_server FOLDER` in a process of the lowest CPU
    priority (it lowers its own on Unix; on Windows it starts in the idle class). Its
    progress goes to this terminal; when it cannot build it says why in one line.
    `command`: what to run instead, FOLDER appended (tests)."""

    def __init__(self, command: list[str] | None = None) -> None:
        self.command = command or [sys.executable, "-m", BUILD_MODULE]
        self.process: subprocess.Popen[bytes] | None = None
        self.stopped = False

    def __call__(self, folder: Path) -> bool:
        if self.stopped:
            return False
        windows = sys.platform == "win32"
        flags = getattr(subprocess, "IDLE_PRIORITY_CLASS", 0) if windows else 0
        # A process group of its own: its compressing workers end with it (`stop`).
        self.process = subprocess.Popen(
            [*self.command, str(folder)], cwd=REPO_ROOT, stdin=subprocess.DEVNULL,
            creationflags=flags, start_new_session=not windows)
        return self.process.wait() == 0 and not self.stopped

    def stop(self) -> None:
        """End the build and every process it started (the server stops): what it made so
        far stays in the build cache."""
        self.stopped = True
        process = self.process
        if process is None:
            return
        if sys.platform == "win32":
            if process.poll() is None:
                process.kill()
            return
        for signal_number in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal_number)  # the group: its workers too
            try:
                process.wait(5)
                return
            except subprocess.TimeoutExpired:
                continue


def build_when_quiet(app: PhoneApp, folder: Path, *, started: Callable[[], bool],
                     stopping: Callable[[], bool], idle_s: Callable[[], float], quiet_s: float,
                     build: Callable[[Path], bool], say: Callable[[str], None],
                     url: str = "/", sleep: Callable[[float], None] = time.sleep) -> bool:
    """Once the server answers and has had no request for `quiet_s` (the first phones have
    loaded), `build` the site into `folder` (which says what it does, or in one line why
    it cannot), then serve it; whether it is served."""
    if not started():
        return False
    while not stopping() and (idle := idle_s()) < quiet_s:
        sleep(min(1.0, quiet_s - idle))
    if stopping() or not build(folder) or stopping():
        return False
    site = kept_site(folder)
    if site is None or app.unfit(site) is not None:
        say("The app for phones is not offered: its build did not make a whole site.")
        return False
    app.use(site)
    say(READY.format(url=url))
    return True


def trim_sites(keep: Path, kept: int = KEPT_SITES) -> None:
    """At most `kept` built sites beside `keep` (the least recently made go; `keep` stays),
    and no folder of a build that died."""
    folders = [p for p in keep.parent.iterdir() if p.is_dir() and p != keep]
    for stale in [p for p in folders if ".building-" in p.name]:
        if time.time() - stale.stat().st_mtime > 3600:  # not one being made now
            shutil.rmtree(stale, ignore_errors=True)
    built = sorted((p for p in folders if ".building-" not in p.name),
                   key=lambda p: p.stat().st_mtime, reverse=True)
    for old in built[kept - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def phone_app_for(phone_site: str | os.PathLike[str] | None, *, community: bool,
                  games_in_app: bool | None, say: Callable[[str], None]) -> PhoneApp | None:
    """This server's app: `phone_site` ("off": none; a folder: that site), else the one
    kept for this version. None: the command line named a folder with no site (said on
    stderr: the server does not start). A site that cannot open games is said in one
    line and left out."""
    app = PhoneApp(games_in_app=community if games_in_app is None else games_in_app)
    if phone_site is None and os.environ.get(OFF_ENV, "").strip() == "off":
        phone_site = "off"
    if phone_site is not None and os.fspath(phone_site) == "off":
        return app
    if phone_site is not None:
        try:
            site = PhoneSite(Path(phone_site))
        except NoPhoneSite as exc:
            print(f"tarabish: {exc}", file=sys.stderr)
            return None
        why = app.unfit(site)
        if why is not None and site.rules is not None:
            say(f"The app for phones in {site.root} is not offered: {why}. Build it again "
                f"(tarabish build-web {site.root}); phones get the server's pages meanwhile.")
            return app
        app.use(site)  # an older build without a version: served, not for games
        return app
    app.auto = True
    kept = kept_site(site_folder())
    if kept is not None and app.unfit(kept) is None:
        app.use(kept)
    elif community:
        say("This server offers no app for phones: build it at install and upgrade "
            "(tarabish build-web DIR, then --phone-site DIR: docs/HOSTING.md).")
    return app
