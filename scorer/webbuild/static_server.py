"""A static file server for a built site that sends the precompressed copies (.br,
.gz) the way GitHub Pages or a CDN sends compressed files. For trying the site on
this machine, the tests and the benchmark; any static host works as well."""

from __future__ import annotations

import contextlib
import mimetypes
import threading
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".json": "application/json", ".otf": "font/otf", ".ttf": "font/ttf",
         ".woff2": "font/woff2", ".gz": "application/gzip", ".zip": "application/zip"}


class SiteHandler(SimpleHTTPRequestHandler):
    """GET/HEAD of the site's files; picks `name.br` / `name.gz` when the browser takes them."""

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            return super().send_head()
        accepted = self.headers.get("Accept-Encoding", "")
        chosen, encoding = path, None
        for suffix, name in ((".br", "br"), (".gz", "gzip")):
            candidate = path.with_name(path.name + suffix)
            if name in accepted and candidate.is_file():
                chosen, encoding = candidate, name
                break
        try:
            f = chosen.open("rb")
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        size = chosen.stat().st_size
        counter = getattr(self.server, "count_bytes", None)
        if counter is not None and self.command == "GET":
            counter(size)
        self.send_response(HTTPStatus.OK)
        ctype = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
        self.send_header("Content-Type", ctype or "application/octet-stream")
        self.send_header("Content-Length", str(size))
        if encoding:
            self.send_header("Content-Encoding", encoding)
            self.send_header("Vary", "Accept-Encoding")
        # As GitHub Pages does: cache briefly, then revalidate.
        self.send_header("Cache-Control", "max-age=600")
        self.send_header("Last-Modified", self.date_time_string(int(path.stat().st_mtime)))
        self.end_headers()
        return f

    def handle(self) -> None:
        # The browser may give up on a request (a font it does not need after all).
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            super().handle()

    def log_message(self, format: str, *args: Any) -> None:  # quiet in tests
        pass


class SiteServer:
    """The site in `root` on 127.0.0.1:`port` (0: any free port), in a thread."""

    def __init__(self, root: Path, port: int = 0, host: str = "127.0.0.1") -> None:
        handler = partial(SiteHandler, directory=str(root))
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.httpd.daemon_threads = True
        self.bytes_sent = 0
        """Bytes of file bodies sent (compressed as sent): what phones downloaded."""
        self._count_lock = threading.Lock()
        self.httpd.count_bytes = self._count  # type: ignore[attr-defined]
        self.port = int(self.httpd.server_address[1])
        self.url = f"http://{host}:{self.port}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True,
                                        name="site-server")

        self.running = False

    def _count(self, size: int) -> None:
        with self._count_lock:
            self.bytes_sent += size

    def start(self) -> SiteServer:
        self._thread.start()
        self.running = True
        return self

    def stop(self) -> None:
        self.running = False
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=10)
