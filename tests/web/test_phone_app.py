"""The app for phones a server offers (scorer.web.phone_app, scorer.web.game_address): a
game's address opens it where it should, the drawn page stays one address away, the
server says its version, and a laptop builds the app once, in the background, once the
first phones have loaded, then serves it (a fake builder here; tests/pwa builds for real).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

from scorer import server
from scorer.store.validation import scoring_fingerprint
from scorer.web import phone_app as phone_app_module
from scorer.web.game_address import DRAWN_COOKIE
from scorer.web.phone_app import (
    BackgroundBuild,
    PhoneApp,
    build_when_quiet,
    kept_site,
    phone_app_for,
)
from scorer.web.phone_site import PhoneSite
from scorer.webbuild import for_server
from scorer.webbuild.wheels import WheelError

with warnings.catch_warnings():  # starlette's TestClient on httpx: deprecated, still fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

GAME = "0123abcd"
PLAIN = {"accept-encoding": "identity"}


def built_site(root: Path, rules: str | None = None, version: str = "5173ab5173ab5173") -> Path:
    """A site as `tarabish build-web` leaves it, as far as the server reads it."""
    root.mkdir(parents=True)
    (root / "index.html").write_text(
        '<html><head><base href="/">\n<script>var flet = {}\n'
        'flet.entrypointBaseUrl="/";\n</script></head><body>the app</body></html>')
    (root / "sw.js").write_text("// the service worker")
    (root / ".tarabish-site").write_text(version + "\n")
    (root / "version.json").write_text(json.dumps(
        {"site": version, "rules": rules or scoring_fingerprint()}))
    return root


def client(tmp_path: Path, app: PhoneApp) -> TestClient:
    return TestClient(server.build_app(tmp_path / "data", phone_site=app))


def test_on_a_community_a_games_address_opens_the_app_where_the_phone_can_run_it(
        tmp_path: Path) -> None:
    app = PhoneApp(games_in_app=True, site=PhoneSite(built_site(tmp_path / "site")))
    with client(tmp_path, app) as c:
        page = c.get(f"/game/{GAME}", headers=PLAIN)
        assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
        # Capable phones go to the app under its own scope; the rest to the drawn page.
        assert f'"/alone/game/{GAME}"' in page.text
        assert f'"/game/{GAME}?drawn=1"' in page.text
        for check in ("typeof WebAssembly", "navigator.serviceWorker", "navigator.deviceMemory"):
            assert check in page.text
        assert "flutter" not in page.text  # a few hundred bytes, not the drawn page
        assert len(page.content) < 2_000
        # The app's address is the app's page, on that game's path.
        assert "the app" in c.get(f"/alone/game/{GAME}", headers=PLAIN).text


def test_the_drawn_address_gives_the_drawn_page_and_keeps_it_for_this_browser(
        tmp_path: Path) -> None:
    app = PhoneApp(games_in_app=True, site=PhoneSite(built_site(tmp_path / "site")))
    with client(tmp_path, app) as c:
        drawn = c.get(f"/game/{GAME}?drawn=1", headers=PLAIN)
        assert drawn.status_code == 200 and "flutter" in drawn.text
        assert f"{DRAWN_COOKIE}=1" in drawn.headers["set-cookie"]
        # The cookie sends this browser's game addresses to the drawn pages.
        again = c.get(f"/game/{GAME}", headers=PLAIN)
        assert "flutter" in again.text and "/alone/game/" not in again.text


def test_on_a_laptop_a_games_address_is_the_drawn_page_and_the_app_one_address_away(
        tmp_path: Path) -> None:
    app = PhoneApp(games_in_app=False, site=PhoneSite(built_site(tmp_path / "site")))
    with client(tmp_path, app) as c:
        assert "flutter" in c.get(f"/game/{GAME}", headers=PLAIN).text
        assert "the app" in c.get(f"/alone/game/{GAME}", headers=PLAIN).text


def test_the_server_says_the_rules_it_judges_by_and_the_app_it_serves(tmp_path: Path) -> None:
    app = PhoneApp(games_in_app=True, site=PhoneSite(built_site(tmp_path / "site")))
    with client(tmp_path, app) as c:
        version = c.get("/alone/version.json")
        assert version.headers["cache-control"] == "no-store"
        assert version.json() == {"rules": scoring_fingerprint(), "site": "5173ab5173ab5173"}


def test_an_app_of_other_rules_opens_no_game_and_is_no_version_to_take(tmp_path: Path) -> None:
    site = PhoneSite(built_site(tmp_path / "site", rules="0000000000000000"))
    app = PhoneApp(games_in_app=True, site=site)
    assert not app.opens_games() and app.unfit(site) is not None
    with client(tmp_path, app) as c:
        assert "flutter" in c.get(f"/game/{GAME}", headers=PLAIN).text
        assert c.get("/alone/version.json").json()["site"] is None


def test_a_site_built_for_other_rules_is_said_in_one_line_and_not_offered(
        tmp_path: Path) -> None:
    said: list[str] = []
    app = phone_app_for(built_site(tmp_path / "site", rules="0000000000000000"),
                        community=True, games_in_app=None, say=said.append)
    assert app is not None and app.site is None and not app.opens_games()
    assert len(said) == 1 and "other rules" in said[0] and "build-web" in said[0]


def test_until_the_app_is_built_its_addresses_lead_to_the_drawn_pages(tmp_path: Path) -> None:
    app = PhoneApp(games_in_app=True)
    with client(tmp_path, app) as c:
        assert "flutter" in c.get(f"/game/{GAME}", headers=PLAIN).text
        start = c.get("/alone/", follow_redirects=False)
        assert start.status_code == 307 and start.headers["location"] == "/"
        game = c.get(f"/alone/game/{GAME}", follow_redirects=False)
        assert game.status_code == 307 and game.headers["location"] == f"/game/{GAME}?drawn=1"
        assert c.get("/alone/main.dart.wasm").status_code == 404
        assert c.get("/alone/version.json").json() == {"rules": scoring_fingerprint(),
                                                        "site": None}


class Clock:
    """The server's quiet time, moved on by the waits."""

    def __init__(self) -> None:
        self.idle = 0.0
        self.slept = 0.0

    def sleep(self, seconds: float) -> None:
        self.slept += seconds
        self.idle += seconds


def test_a_laptop_builds_the_app_once_quiet_then_serves_it(tmp_path: Path) -> None:
    app = PhoneApp(games_in_app=True)
    clock = Clock()
    built: list[tuple[Path, float]] = []
    said: list[str] = []

    def build(folder: Path) -> bool:
        built.append((folder, clock.idle))
        built_site(folder)
        return True

    folder = tmp_path / "cache" / "phone-app" / "key"
    with client(tmp_path, app) as c:
        assert c.get("/alone/", follow_redirects=False).status_code == 307  # not yet
        assert build_when_quiet(app, folder, started=lambda: True, stopping=lambda: False,
                                idle_s=lambda: clock.idle, quiet_s=10.0, build=build,
                                say=said.append, sleep=clock.sleep, url="http://x/")
        # Built once, only after 10 s without a request (the first phones loaded).
        assert [f for f, _ in built] == [folder] and built[0][1] >= 10.0
        assert said == ["The app for phones is ready at http://x/alone/"]
        # Served from now on, and game addresses open it.
        assert "the app" in c.get("/alone/", headers=PLAIN).text
        assert "/alone/game/" in c.get(f"/game/{GAME}", headers=PLAIN).text
        assert c.get("/alone/version.json").json()["site"] == "5173ab5173ab5173"
    # A later start finds it in the cache at once, keyed by content.
    assert kept_site(folder) is not None


def test_a_build_that_fails_or_a_server_that_stops_serves_nothing_new(tmp_path: Path) -> None:
    app = PhoneApp(games_in_app=True)
    clock = Clock()
    assert not build_when_quiet(app, tmp_path / "f", started=lambda: True,
                                stopping=lambda: False, idle_s=lambda: clock.idle,
                                quiet_s=1.0, build=lambda _f: False, say=lambda _l: None,
                                sleep=clock.sleep)
    assert app.site is None

    def never(_folder: Path) -> bool:
        raise AssertionError("built while the server stops")

    assert not build_when_quiet(app, tmp_path / "f", started=lambda: True,
                                stopping=lambda: True, idle_s=lambda: 0.0, quiet_s=1.0,
                                build=never, say=lambda _l: None, sleep=clock.sleep)


def test_a_laptop_start_takes_the_app_kept_for_its_version_without_building(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TARABISH_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("TARABISH_PHONE_APP", raising=False)  # the suite's servers' "off"
    monkeypatch.setattr(phone_app_module, "app_key", lambda root=None: "thekey")
    said: list[str] = []
    app = phone_app_for(None, community=False, games_in_app=None, say=said.append)
    assert app is not None and app.site is None and app.auto and not app.games_in_app
    assert server.phone_site_wanted(app)  # nothing kept: built in the background
    built_site(tmp_path / "cache" / "phone-app" / "thekey")
    app = phone_app_for(None, community=False, games_in_app=None, say=said.append)
    assert app is not None and app.site is not None and not server.phone_site_wanted(app)
    assert said == []  # a laptop's start stays quiet


def test_a_community_never_builds_and_says_so_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TARABISH_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("TARABISH_PHONE_APP", raising=False)  # the suite's servers' "off"
    said: list[str] = []
    app = phone_app_for(None, community=True, games_in_app=None, say=said.append)
    assert app is not None and app.site is None and app.games_in_app
    assert len(said) == 1 and "docs/HOSTING.md" in said[0]
    off = phone_app_for("off", community=False, games_in_app=None, say=said.append)
    assert off is not None and not off.auto and not server.phone_site_wanted(off)


def test_app_key_follows_the_content(tmp_path: Path) -> None:
    for folder in ("rules", "scorer", "assets"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a.py").write_text("x = 1\n")
    (tmp_path / "uv.lock").write_text("lock")
    first = phone_app_module.app_key(tmp_path)
    assert phone_app_module.app_key(tmp_path) == first
    (tmp_path / "rules" / "a.py").write_text("x = 2\n")
    assert phone_app_module.app_key(tmp_path) != first


def test_offline_with_no_wheels_the_build_says_why_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def offline(*_args: object, **_kwargs: object) -> list[Path]:
        raise WheelError("pip could not download the browser's wheels:\nERROR: ...\nmore")

    monkeypatch.setattr(for_server, "download", offline)
    assert for_server.build(tmp_path / "site") == for_server.NOT_BUILT
    assert capsys.readouterr().out.splitlines() == [for_server.NO_WHEELS]
    assert not (tmp_path / "site").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="process groups: POSIX")
def test_a_server_that_stops_ends_its_build_and_every_worker_of_it(tmp_path: Path) -> None:
    # A build whose worker writes its pid, then both wait (as the compress step's pool).
    build = BackgroundBuild([sys.executable, "-c", (
        "import pathlib, subprocess, sys, time\n"
        "worker = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
        "pathlib.Path(sys.argv[1]).write_text(str(worker.pid))\n"
        "time.sleep(120)\n")])
    pid_file = tmp_path / "worker.pid"
    done: list[bool] = []
    runner = threading.Thread(target=lambda: done.append(build(pid_file)))
    runner.start()
    deadline = time.monotonic() + 60
    while not pid_file.is_file() or not pid_file.read_text():
        assert time.monotonic() < deadline, "the build's worker never started"
        time.sleep(0.05)
    worker = int(pid_file.read_text())
    build.stop()
    runner.join(30)
    assert done == [False]
    deadline = time.monotonic() + 30
    while _alive(worker):
        assert time.monotonic() < deadline, "the build's worker outlived the server"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (ended, not yet reaped by its orphaned parent's reaper) counts as gone.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.is_file() and stat.read_text().split(")")[-1].split()[0] == "Z")
