"""The Flet table app: one page function per browser session.

`scorer.server` sets `CONFIG` before it starts serving; page code reads it
(for example the data directory) instead of taking extra arguments, because
Flet calls the page function with the page only.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from scorer.sharing import Reach

if TYPE_CHECKING:  # a server's only: the phone-alone app has no database
    from scorer.rights.ports import RightsPort
    from scorer.store.database import Database
    from scorer.sync.phone import PhoneSync


class PageSessions(Protocol):
    """What the edge serving the app keeps of each page's session. The table
    server counts them per connection address (`scorer.web.sessions`); the app
    only reports when a page starts, reconnects and closes."""

    def opened(self, session: Any) -> str:
        """A page started: the address of its connection, as the server's socket saw it."""
        ...

    def reconnected(self, session: Any) -> None:
        """A reloaded page reattached `session` to a new connection."""
        ...

    def closed(self, session: Any) -> None:
        """The page's session ended."""
        ...


class NoSessions:
    """Served with no table server (one phone alone, plain tests): nothing to count."""

    def opened(self, session: Any) -> str:
        return "unknown"

    def reconnected(self, session: Any) -> None:
        pass

    def closed(self, session: Any) -> None:
        pass


@dataclass
class AppConfig:
    """Settings chosen on the command line, shared by every session."""

    data_dir: Path | None = None
    """Folder of the game store; None lets the store pick its default
    (TARABISH_DATA, then the platform's user-data folder)."""

    database: Database | None = None
    """The community's database when the server runs on one (`tarabish --database`):
    games, rights and club nights are kept there, shared by every process; None
    keeps them in `data_dir`."""

    reach: Reach = field(default_factory=Reach)
    """How phones reach the server (`--public-url`, `--trusted-proxy`, the addresses it
    answers on): its `bases` is the rule of every address drawn, "Share this game"
    and its QR code first. Empty when the app is served some other way: the page's
    own address is used then."""

    via_proxy: Callable[[], bool] = lambda: False
    """Whether the page starting now came through a trusted proxy (the table server
    sets `scorer.web.forwarded.via_proxy`): its own address is then the one phones open."""

    import_key: str | None = None
    """Secret that `tarabish import` must send to hand games to this server
    (`scorer.handoff.local_import`); None refuses every such request."""

    alone: bool = False
    """The app runs inside one phone's browser with no server (`tarabish
    build-web`, `scorer.browser`): the games live on this phone, which owns
    every one of them; there is no table code and nothing to share live."""

    private_games: bool | None = None
    """Whether each phone sees only its own games (`scorer.app.game_sight`); None:
    on a community's database, not on a laptop's table server."""

    server_game: str | None = None
    """On a phone running the app, the id of the server's game its address named
    (`/alone/game/<id>`, scorer.browser.server_game): the app opens on that game. Until
    the phone keeps a server's games itself, its sheet links to the server's page."""

    phone_site: str | None = None
    """Where this server serves the phone-alone site (`--phone-site`: "/alone/"), for
    the start screen's link to it; None when it serves none."""
    send_to_server: Callable[[str, bytes, dict[str, str]],
                             Awaitable[tuple[int, str]]] | None = None
    """On a phone alone served by a table server: POST (path, body, headers) to that
    server, answering (status, text) (`scorer.browser` sets the browser's fetch); None
    where no table server serves the page (nowhere to send a game)."""
    phone_sync: PhoneSync | None = None
    """On a phone running the app that keeps a server's games itself (`scorer.browser`
    sets it once it has a server to meet): hands not sent yet, the line when the phone
    records alone, clashes and refusals, for the screens (`scorer.sync.phone`)."""
    phone_rights: RightsPort | None = None
    """On such a phone: what it may do, as the server said (None: a phone alone owns
    every game)."""
    sessions: PageSessions = field(default_factory=NoSessions)
    """Where page sessions are reported (`scorer.server` sets the table server's)."""

    game_saved: Callable[[str], None] = lambda _game_id: None
    """Told of every change to a game (by id: a save, Play again, a delete), from any
    thread: the table server passes it on to the club night boards and to the phones
    that keep the game (`scorer.web.sync_socket`)."""

    club_changed: Callable[[str], None] = lambda _event_id: None
    """Told of every change to a club night or one of its games (by event id), from
    any thread: the table server wakes the boards that show it."""


CONFIG = AppConfig()

# Fonts registered on every page, through the FontManifest the server serves
# (`scorer.server.trimmed_font_manifest`: loaded before the first frame, so no
# text falls back to a Noto font asked of the server). Files live in the
# repository's assets/ folder, which the server serves at the site root.
# Roboto (Flet's default) has no card-suit glyphs, so text showing ♠ ♥ ♦ ♣
# must use `font_family=SUIT_FONT` (the theme uses it for all text).
# The page downloads every registered font on each first load, so the
# registered face is a subset of DejaVu Sans (48 KB instead of 0.76 MB: Latin,
# punctuation, suits and every character of the app's texts), made by
# `uv run python tools/subset_fonts.py`; run it again after adding a text with
# a character outside those ranges (tests/web/test_font_subsets.py checks).
# Bold suit text is synthesized by Flutter; fonts/DejaVuSans-Bold.ttf is
# bundled, unregistered.
SUIT_FONT = "DejaVu Sans"
FONTS: dict[str, str] = {
    SUIT_FONT: "fonts/DejaVuSans-subset.ttf",
}
