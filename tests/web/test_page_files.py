"""The script and style files of the club board and the TV leaderboard
(`scorer.web.page_files`): every one their pages link is served with its type and an
ETag, 304 while unchanged; no other name is. Linked: from the page, or from the
module's own small pages (the table cards)."""

from __future__ import annotations

import re
import warnings

import pytest
from fastapi import FastAPI

from scorer.web.club import BOARD_FILES
from scorer.web.leaderboard import PAGES, TV_FILES
from scorer.web.page_files import add_page_files

with warnings.catch_warnings():  # starlette's TestClient on httpx: deprecated, still fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PAGE_SETS = [("/_tv", TV_FILES, "leaderboard.html", "leaderboard.py"),
             ("/_club", BOARD_FILES, "board.html", "club.py")]


@pytest.mark.parametrize(("prefix", "names", "page", "module"), PAGE_SETS)
def test_every_file_a_page_links_is_served_then_not_modified(
    prefix: str, names: tuple[str, ...], page: str, module: str
) -> None:
    app = FastAPI()
    add_page_files(app, prefix, PAGES, names)
    client = TestClient(app)
    text = (PAGES / page).read_text(encoding="utf-8") + (
        PAGES.parent / module).read_text(encoding="utf-8")
    linked = set(re.findall(rf"""["']({prefix}/[\w.]+)["']""", text))
    assert linked
    for path in linked:
        first = client.get(path)
        assert first.status_code == 200, path
        assert first.content == (PAGES / path.rsplit("/", 1)[1]).read_bytes()
        kind = "text/css" if path.endswith(".css") else "text/javascript"
        assert first.headers["content-type"].startswith(kind)
        again = client.get(path, headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200
    for stranger in ("board.html", "..%2Fclub.py", "nothing.js"):
        assert client.get(f"{prefix}/{stranger}").status_code == 404
