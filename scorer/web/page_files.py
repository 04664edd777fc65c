"""The script and style files of the plain pages the table server serves itself (the
club night board, the TV leaderboard), each with an ETag: a TV reloads them at every
page load and gets 304 while they are unchanged."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from fastapi import FastAPI, Request, Response

TYPES = {".js": "text/javascript", ".css": "text/css"}


def add_page_files(app: FastAPI, prefix: str, folder: Path, names: Iterable[str]) -> None:
    """`GET {prefix}/{name}` for each of `names` (read from `folder` once, now); any
    other name is 404. Before the mount, like every route of the server's own."""
    files = {name: (folder / name).read_bytes() for name in names}
    tags = {name: '"' + hashlib.sha256(data).hexdigest()[:20] + '"'
            for name, data in files.items()}

    @app.get(f"{prefix}/{{name}}", include_in_schema=False)
    def page_file(name: str, request: Request) -> Response:
        if name not in files:
            return Response(status_code=404)
        headers = {"ETag": tags[name], "Cache-Control": "no-cache"}
        if tags[name] in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(files[name], media_type=TYPES[name[name.rindex("."):]],
                        headers=headers)
