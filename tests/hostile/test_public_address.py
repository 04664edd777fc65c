"""The address a server gives out, by the one rule (`scorer.sharing.Reach.bases`), on
the real server: behind a trusted proxy, the host and scheme the proxy forwarded (a
community's Send answered http://localhost:8551/...); with `--public-url`, that
address whatever a request says; from a stranger, a forged X-Forwarded-Host changes
nothing. The same for Send's answer, the club night's table cards and the lines
printed at start, on both stores."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.store.records import new_origin
from scorer.web.send import DEVICE_HEADER, ORIGIN_HEADER, SEND_PATH
from tests.hostile.conftest import REPO_ROOT, Server, StartServer
from tests.hostile.test_club_night import TEAMS
from tests.web.test_send_game import DEVICE, game_file

PROXY = "127.0.0.9"
PUBLIC = "https://bish.example.org"
FORWARDED = {"X-Forwarded-Host": "bish.example.org", "X-Forwarded-Proto": "https",
             "X-Forwarded-For": "203.0.113.9"}
FORGED = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https",
          "X-Forwarded-For": "203.0.113.66"}


def ask(port: int, path: str, source: str = "127.0.0.1", headers: dict[str, str] | None = None,
        body: bytes | None = None) -> tuple[int, str]:
    """One request from `source` (a loopback address standing for the proxy or not)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                      source_address=(source, 0))
    try:
        conn.request("GET" if body is None else "POST", path, body=body,
                     headers=headers or {})
        answer = conn.getresponse()
        return answer.status, answer.read().decode()
    finally:
        conn.close()


def sent_address(port: int, source: str = "127.0.0.1",
                 headers: dict[str, str] | None = None) -> str:
    status, body = ask(port, SEND_PATH, source, {
        ORIGIN_HEADER: new_origin(), DEVICE_HEADER: DEVICE, **(headers or {})}, game_file(1))
    assert status == 200, body
    answer = json.loads(body)
    assert answer["address"].endswith(f"/game/{answer['id']}")
    return str(answer["address"])


def start(start_server: StartServer, request: pytest.FixtureRequest, store: str,
          *options: str) -> tuple[Server, str]:
    """The server on a data folder or on a community's database: (server, its URL)."""
    if store == "folder":
        return start_server(args=options), ""
    url = request.getfixturevalue("pg_url")
    return start_server(args=("--database", url, *options)), url


def event(server: Server, url: str) -> str:
    """A club night with round 1 started, by the command line: its id."""
    spec = server.log_path.parent / "night.json"
    spec.write_text(json.dumps({"name": "Legion", "format": "swiss", "rounds": 3,
                                "target": 300, "house_rules": {}, "teams": TEAMS}))
    where = ["--database", url] if url else ["--data-dir", str(server.data_dir)]

    def run(*argv: str) -> str:
        done = subprocess.run([sys.executable, "-m", "scorer.cli", *argv, *where],
                              cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                              check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    event_id = run("event", "new", str(spec)).strip()
    run("event", "round", event_id)
    return event_id


def card_addresses(page: str) -> list[str]:
    return re.findall(r"<p class=address>([^<]*)</p>", page)


@pytest.mark.parametrize("store", ["folder", "postgresql"])
def test_behind_a_trusted_proxy_the_forwarded_address_is_given_out(
        start_server: StartServer, request: pytest.FixtureRequest, store: str) -> None:
    server, url = start(start_server, request, store, "--trusted-proxy", PROXY)
    assert sent_address(server.port, PROXY, FORWARDED).startswith(f"{PUBLIC}/game/")
    # A stranger's forged header (not from the proxy) changes nothing.
    mine = sent_address(server.port, "127.0.0.1", FORGED)
    assert "evil" not in mine and mine.startswith(f"http://127.0.0.1:{server.port}/game/")
    event_id = event(server, url)
    status, page = ask(server.port, f"/event/{event_id}/cards", PROXY, FORWARDED)
    assert status == 200
    cards = card_addresses(page)
    assert len(cards) == 2 and all(c.startswith(f"{PUBLIC}/game/") for c in cards), cards
    _status, page = ask(server.port, f"/event/{event_id}/cards", "127.0.0.1", FORGED)
    assert "evil" not in page
    said = server.log()
    assert "behind a proxy" in said and "Open one of these addresses" not in said


@pytest.mark.parametrize("store", ["folder", "postgresql"])
def test_a_public_url_is_every_address_whatever_a_request_says(
        start_server: StartServer, request: pytest.FixtureRequest, store: str) -> None:
    server, url = start(start_server, request, store, "--trusted-proxy", PROXY,
                        "--public-url", PUBLIC)
    for source, headers in ((PROXY, FORWARDED), (PROXY, FORGED), ("127.0.0.1", FORGED),
                            ("127.0.0.1", {"Host": "evil.example"})):
        assert sent_address(server.port, source, headers).startswith(f"{PUBLIC}/game/")
    event_id = event(server, url)
    _status, page = ask(server.port, f"/event/{event_id}/cards", "127.0.0.1",
                        {"Host": "evil.example"})
    assert all(c.startswith(f"{PUBLIC}/game/") for c in card_addresses(page))
    said = server.log()
    assert f"  {PUBLIC}/\n" in said and "█" in said  # printed, with its QR code
    assert "Open one of these addresses" not in said


def test_a_bad_public_url_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "--no-open", "--data-dir",
                           str(tmp_path / "data"), "--public-url", "bish.example.org/x"],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "--public-url" in done.stderr
