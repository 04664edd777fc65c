"""Which server game the app was opened for, read from the page's address.

A community's game address (`/game/<id>`) sends a phone that can run the app to
`/alone/game/<id>` of the same server (scorer.web.game_address): the app, under its
own scope, on that game. `server_game_of` reads the game's id from that address;
`scorer.browser.start` puts it in `CONFIG.server_game`, where the app and its synced
store find it: the phone follows the game on the sync socket and keeps it. Until the
game has reached the phone once, a first try that fails (a server without the socket)
shows where the game lives, with a link to the server's own page of it.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from scorer.browser.send import SITE_PREFIX

SERVER_GAME = re.compile(r"game/([0-9a-f]{8})/?")
"""The path after the site's prefix: game/<id>."""


def server_game_of(document_url: str, prefix: str = SITE_PREFIX) -> str | None:
    """The game id of a page at `<prefix>game/<id>` (a server's game), else None (the
    app's own start page, a static host's site)."""
    path = urlsplit(document_url).path
    if not path.startswith(prefix):
        return None
    found = SERVER_GAME.fullmatch(path[len(prefix):])
    return found.group(1) if found else None

