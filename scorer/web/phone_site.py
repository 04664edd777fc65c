"""The phone-alone site at the table server's own address, under PREFIX (`/alone/`).

`tarabish --phone-site DIR` serves a site built once with `tarabish build-web DIR`;
without it a table server serves the one it built for its own version (scorer.web.phone_app),
once there is one. Any build works, whatever its `--base`:
the page (index.html) is answered with its base set to PREFIX, so its service
worker (scope: the folder of sw.js) and its manifest (start_url and scope "./")
stay under PREFIX and never touch the table server's own page. The precompressed
copies (`.br`, `.gz`) are sent where the browser takes them; every file is
revalidated (ETag), the service worker keeps them for offline use.
"""

from __future__ import annotations

import json
import mimetypes
import re
from collections.abc import Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response

PREFIX = "/alone/"
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".json": "application/json", ".otf": "font/otf", ".ttf": "font/ttf",
         ".woff2": "font/woff2", ".zip": "application/zip", ".html": "text/html; charset=utf-8"}
"""Browsers compile wasm while it downloads and run module scripts only with these."""
MARKER = ".tarabish-site"
"""The file `tarabish build-web` leaves in every site it writes (scorer.webbuild.site)."""
VERSION_PATH = PREFIX + "version.json"
"""The server's version for the app to compare with its own: {"rules", "site"}."""
_BASE = re.compile(r'<base href="(/[^"]*)">')
_HEX = re.compile(r"[0-9a-f]{8,64}")
_GAME = re.compile(r"game/([0-9a-f]{8})/?")


def rebased(html: str) -> str:
    """The site's page with its base set to PREFIX: the `<base>` and every address the
    build set from it (`flet.pyodideUrl`, `canvasKitBaseUrl`, `entrypointBaseUrl`,
    `assetBase`): with any left at another path the page would load them from the
    table server's own client, which works online but not offline."""
    found = _BASE.search(html)
    if found is None:
        raise NoPhoneSite("its index.html names no base path: build it again with "
                          "'tarabish build-web'")
    old = found.group(1)
    html = _BASE.sub(f'<base href="{PREFIX}">', html, count=1)
    return re.sub(r'(\nflet\.\w+=")' + re.escape(old), lambda m: m.group(1) + PREFIX, html)


class NoPhoneSite(ValueError):
    """The folder holds no site built by `tarabish build-web`; the message says so."""


class PhoneSite:
    """A built site in `root`, answered under PREFIX."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root).expanduser().resolve()
        if not (self.root / "index.html").is_file() or not (self.root / "sw.js").is_file():
            raise NoPhoneSite(f"{self.root} holds no phone-alone site: build one with "
                              f"'tarabish build-web {self.root}'")
        self.index = rebased((self.root / "index.html").read_text(encoding="utf-8"))
        self.version, self.rules = built_version(self.root)

    def answer(self, request: Request, rel: str) -> Response:
        """GET/HEAD of PREFIX + `rel`."""
        if rel in ("", "index.html"):
            return Response(self.index, media_type=TYPES[".html"],
                            headers={"Cache-Control": "no-cache"})
        path = self._file(rel)
        if path is None:
            # A page route of the app (the hash router keeps these rare): the page.
            if "." not in rel.rsplit("/", 1)[-1]:
                return Response(self.index, media_type=TYPES[".html"],
                                headers={"Cache-Control": "no-cache"})
            return Response("Not found", status_code=404, media_type="text/plain")
        ctype = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
        headers = {"Cache-Control": "no-cache"}
        accepted = request.headers.get("accept-encoding", "")
        for suffix, name in ((".br", "br"), (".gz", "gzip")):
            copy = path.with_name(path.name + suffix)
            if name in accepted and copy.is_file():
                headers |= {"Content-Encoding": name, "Vary": "Accept-Encoding"}
                return FileResponse(copy, media_type=ctype, headers=headers)
        return FileResponse(path, media_type=ctype or "application/octet-stream",
                            headers=headers)

    def _file(self, rel: str) -> Path | None:
        """The site's file `rel` names, or None (nothing outside the site)."""
        if "\\" in rel or "\0" in rel or any(part in ("", ".", "..") for part in rel.split("/")):
            return None
        path = (self.root / rel).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            return None
        return None if path.name == MARKER else path


def built_version(root: Path) -> tuple[str | None, str | None]:
    """The site's version and the rules it was built from (its version.json), or Nones
    for a site built before there was one."""
    try:
        found = json.loads((root / "version.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, None
    if not isinstance(found, dict):
        return None, None
    site, rules = found.get("site"), found.get("rules")
    return (site if isinstance(site, str) and _HEX.fullmatch(site) else None,
            rules if isinstance(rules, str) and _HEX.fullmatch(rules) else None)


NOT_READY = "The app for phones is not ready on this server yet: open the server's address."


def add_phone_site(app: object, site: PhoneSite | Callable[[], PhoneSite | None],
                   version: Callable[[], dict[str, str | None]] | None = None) -> None:
    """Routes of `site` on the FastAPI `app` (before its catch-all mount). `site`: the
    site, or what gives the one served now (None while it is built: its start page and
    its game addresses then lead to the server's own pages). `version`: what
    VERSION_PATH answers (the server's rules and site, for the app to compare)."""
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse

    assert isinstance(app, FastAPI)
    current = site if callable(site) else (lambda: site)

    @app.api_route(PREFIX.rstrip("/"), methods=["GET", "HEAD"], include_in_schema=False)
    def to_site() -> Response:
        return RedirectResponse(PREFIX, status_code=308)

    if version is not None:
        answer_version = version

        @app.api_route(VERSION_PATH, methods=["GET", "HEAD"], include_in_schema=False)
        def server_version() -> Response:
            return JSONResponse(answer_version(), headers={"Cache-Control": "no-store"})

    @app.api_route(PREFIX + "{rel:path}", methods=["GET", "HEAD"], include_in_schema=False)
    def phone_site(request: Request, rel: str) -> Response:
        served = current()
        if served is not None:
            return served.answer(request, rel)
        # Not built yet: the server's own pages meanwhile.
        if rel in ("", "index.html"):
            return RedirectResponse("/", status_code=307)
        game = _GAME.fullmatch(rel)
        if game is not None:
            return RedirectResponse(f"/game/{game.group(1)}?drawn=1", status_code=307)
        return Response(NOT_READY, status_code=404, media_type="text/plain")
