"""Sending a game from a phone alone to the table server that serves its page: the
browser's fetch, for `CONFIG.send_to_server` (the app's side: `scorer.app.send_game`)."""

from __future__ import annotations

from typing import Any

SITE_PREFIX = "/alone/"
"""Where a table server serves the phone-alone site (`tarabish --phone-site`)."""


def served_by_table_server() -> bool:
    """Whether this page came from a table server (its site path), not a static host."""
    import js

    return str(js.location.pathname).startswith(SITE_PREFIX)


async def post(path: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    """POST `body` to `path` of this page's own address; (status, answer text). Raises
    on no answer at all (offline)."""
    import js
    from pyodide.ffi import to_js

    options: Any = to_js({"method": "POST", "body": body.decode("utf-8"), "headers": headers,
                          "cache": "no-store", "credentials": "same-origin"},
                         dict_converter=js.Object.fromEntries)
    response = await js.fetch(str(js.location.origin) + path, options)
    return int(response.status), str(await response.text())
