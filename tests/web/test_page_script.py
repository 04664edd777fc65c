"""The page the table server and the phone-alone site hand out asks no other host:
Flet's Rive loader is answered in the page, and our font comes in the FontManifest
(ready before the first frame, so Flutter asks for no Noto fallback)."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

from scorer import server
from scorer.app import FONTS, SUIT_FONT
from scorer.web.page_script import NO_RIVE, PAGE_SCRIPT, RIVE_CDN, with_page_script

with warnings.catch_warnings():  # starlette's TestClient on httpx: deprecated, still fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def flet_web_dir() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


def test_the_rive_address_is_still_the_one_flet_compiles_in() -> None:
    # A new flet-web with another address would slip past the page script.
    web = flet_web_dir()
    for name in ("main.dart.js", "main.dart.wasm"):
        data = (web / name).read_bytes()
        addresses = set(re.findall(rb"https://cdn\.jsdelivr\.net/[\x21-\x7e]*", data))
        assert addresses, name
        assert all(a.startswith(RIVE_CDN.encode()) for a in addresses), (name, addresses)


def test_the_script_goes_in_once_before_flutter_starts() -> None:
    html = (flet_web_dir() / "index.html").read_text(encoding="utf-8")
    once = with_page_script(html)
    assert with_page_script(once) == once
    assert once.count(PAGE_SCRIPT) == 1
    assert once.index(PAGE_SCRIPT) < once.index("flutter_bootstrap.js")
    assert NO_RIVE.startswith("data:") and "//" not in NO_RIVE.removeprefix("data:")


SCREEN_ADDRESSES = ("/", "/new", "/game/0123abcd", "/game/0123abcd/hand", "/rules", "/check",
                    "/count", "/stats", "/games", "/club", "/club/new", "/club/0123abcd")
"""The address of every screen a player reaches (a player opens any of them, from a
bookmark or a shared link); tests/e2e/test_offline_page.py shows each in one page."""


def test_every_page_address_gets_the_script_and_the_length_it_has(tmp_path: Path) -> None:
    plain = {"accept-encoding": "identity"}
    with TestClient(server.build_app(tmp_path)) as client:
        pages: set[str] = set()
        for path in SCREEN_ADDRESSES:
            r = client.get(path, headers=plain)
            assert r.status_code == 200, path
            assert PAGE_SCRIPT in r.text, path
            assert int(r.headers["content-length"]) == len(r.content)
            pages.add(r.text)
        # One page at every address, its files asked from the site's root: a load at any
        # address asks for what a load at / does (and a screen shown in the app, no more).
        assert len(pages) == 1
        assert '<base href="/">' in r.text
        head = client.head("/", headers=plain)
        assert head.status_code == 200
        assert head.headers.get("content-length") in (None, str(len(r.content)))
        again = client.get("/", headers={**plain, "if-none-match": r.headers["etag"]})
        assert again.status_code == 304  # a reload still costs no body
        # Other files are left as they are.
        js = client.get("/flutter_bootstrap.js", headers=plain)
        assert PAGE_SCRIPT not in js.text
        assert int(js.headers["content-length"]) == len(js.content)


def test_our_font_is_in_the_font_manifest_where_the_server_serves_it(tmp_path: Path) -> None:
    families = {f["family"]: f["fonts"] for f in json.loads(server.trimmed_font_manifest())}
    assert families[SUIT_FONT] == [{"asset": f"../{FONTS[SUIT_FONT]}"}]
    with TestClient(server.build_app(tmp_path)) as client:
        # Flutter asks for assets/<asset>; the browser resolves the "..".
        r = client.get("/" + FONTS[SUIT_FONT])
        assert r.status_code == 200 and len(r.content) > 10_000


def test_one_injector_puts_both_scripts_in_order_and_leaves_the_phone_site(
        tmp_path: Path) -> None:
    """The table server's pages get the Rive answer then the lost-server tag, each once;
    the phone-alone site under /alone/ keeps its own index.html (no server to watch)."""
    from scorer.web.phone_site import PhoneSite
    from scorer.web.reconnect import SCRIPT_TAG
    from tests.web.test_send_game import fake_site

    site = PhoneSite(fake_site(tmp_path / "site"))
    plain = {"accept-encoding": "identity"}
    with TestClient(server.build_app(tmp_path / "data", phone_site=site)) as client:
        page = client.get("/game/0123abcd", headers=plain).text
        assert page.count(PAGE_SCRIPT) == 1 and page.count(SCRIPT_TAG.decode()) == 1
        assert page.index(PAGE_SCRIPT) < page.index(SCRIPT_TAG.decode()) < page.index("</head>")
        alone = client.get("/alone/", headers=plain)
        assert alone.status_code == 200 and "</head>" in alone.text
        assert PAGE_SCRIPT not in alone.text and SCRIPT_TAG.decode() not in alone.text
