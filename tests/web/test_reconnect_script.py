"""Every page of the table server carries the lost-server script (scorer.web.reconnect),
compressed or not, and /alive answers with nothing; other files are left as they are."""

from __future__ import annotations

import gzip
import warnings
from pathlib import Path

import pytest

from scorer import server
from scorer.web.frame_hold import FRAME_HOLD_JS, MARK, with_frame_hold
from scorer.web.reconnect import ALIVE_PATH, SCRIPT, SCRIPT_PATH, SCRIPT_TAG, with_script
from scorer.webbuild.site import HERE as BUILD

with warnings.catch_warnings():  # starlette's TestClient on httpx: deprecated, still fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_the_tag_goes_in_once_before_the_head_ends() -> None:
    page = b"<html><head><title>x</title></head><body></body></html>"
    once = with_script(page)
    assert once.count(SCRIPT_TAG) == 1
    assert once.index(SCRIPT_TAG) < once.index(b"</head>")
    assert with_script(once) == once
    assert with_script(b"<p>no head</p>") == b"<p>no head</p>"


def test_every_page_route_has_the_script_and_the_server_answers_alive(tmp_path: Path) -> None:
    with TestClient(server.build_app(tmp_path)) as client:
        for path in ("/", "/game/1234abcd", "/club/x"):
            page = client.get(path, headers={"Accept-Encoding": "identity"})
            assert page.status_code == 200
            assert page.content.count(SCRIPT_TAG) == 1, path
            assert int(page.headers["content-length"]) == len(page.content)
        raw = client.get("/", headers={"Accept-Encoding": "gzip"})
        assert raw.content.count(SCRIPT_TAG) == 1  # httpx decoded the gzip body
        assert raw.headers.get("content-encoding") == "gzip"
        script = client.get(SCRIPT_PATH)
        assert script.content == SCRIPT
        assert client.get(SCRIPT_PATH, headers={"If-None-Match": script.headers["etag"]}
                          ).status_code == 304
        alive = client.get(ALIVE_PATH)
        assert alive.status_code == 204 and not alive.content
        assert alive.headers["cache-control"] == "no-store"
        bootstrap = client.get("/flutter_bootstrap.js")
        assert SCRIPT_TAG not in bootstrap.content


def test_the_script_asks_only_its_own_server() -> None:
    text = SCRIPT.decode()
    assert "http://" not in text and "https://" not in text and "//" + "cdn" not in text
    assert len(gzip.compress(SCRIPT)) < 4_000  # a few KB on the first visit


def test_the_phone_alone_site_has_no_server_to_watch(tmp_path: Path) -> None:
    """`tarabish build-web` writes its index.html from Flet's own: no tag, no /alive."""
    import shutil

    from flet_web import get_package_web_dir

    from scorer.webbuild.site import _write_index

    shutil.copyfile(Path(get_package_web_dir()) / "index.html", tmp_path / "index.html")
    _write_index(tmp_path, "/")
    page = (tmp_path / "index.html").read_bytes()
    assert b"flet.pyodide = true" in page
    assert SCRIPT_TAG not in page and SCRIPT_PATH.encode() not in page


def test_the_frame_hold_is_written_once_and_put_in_both_page_scripts() -> None:
    """frame_hold.js goes where reconnect.js and the phone-alone site's boot.js mark it:
    the served script holds it, and a script without its one mark is refused."""
    assert "function holdFrames" in FRAME_HOLD_JS and FRAME_HOLD_JS in SCRIPT.decode()
    boot = (BUILD / "boot.js").read_text(encoding="utf-8")
    assert "function holdFrames" not in boot and FRAME_HOLD_JS in with_frame_hold(boot)
    with pytest.raises(ValueError):
        with_frame_hold(MARK + MARK)
