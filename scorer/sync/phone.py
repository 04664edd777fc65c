"""What the screens ask of a phone that keeps a server's games itself (issue 40): the
phone runs the app, its changes are applied there at once and sent when they can be.

The phone's edge (`scorer.browser.phone_sync`) implements `PhoneSync`, and the app finds
it in `scorer.app.CONFIG.phone_sync`; the screens read it to mark the hands not sent
yet, say in one line that the phone records alone, show a clash from another phone
with both versions, and tell why a waiting change was refused. Nothing here sends
anything: the games themselves are read and changed through the games port as ever.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from scorer.store.errors import StoreError
from scorer.sync.client import Choice, Notice, SyncClash

NEEDS_NETWORK = ("Entering a table code needs the table server, and this phone cannot "
                 "reach it now. Try again once it is back online.")
CODE_SENT = "Checking the code with the table server…"


class CodeSent(StoreError):
    """A table code went to the server; its answer redraws the sheet (held, or why not)."""

    def __init__(self) -> None:
        super().__init__(CODE_SENT)


class NeedsNetwork(StoreError):
    """A table code cannot be checked offline."""

    def __init__(self) -> None:
        super().__init__(NEEDS_NETWORK)


class SyncLine(BaseModel):
    """How this phone stands with the server, for the sheet's one line."""

    model_config = ConfigDict(frozen=True)

    alone: bool
    """The server cannot be reached now (after a first try): the phone records alone."""
    waiting: int
    """Changes not yet saved by the server (every game)."""
    hands_only: bool = True
    """Every waiting change is a hand recorded or edited (the line says "hands")."""
    update: bool = False
    """The server runs newer rules: the app must be reloaded before it sends more."""


class PhoneSync(Protocol):
    """A phone's synced games, as the screens see them (`scorer.browser.phone_sync`)."""

    def watch(self, game_changed: Callable[[str], object], everything: Callable[[], object]
              ) -> None:
        """The screen to redraw when the server's word changes a game (by the id it is
        shown under) or the line every sheet shows (the page's one session, its router)."""
        ...

    def meets_server(self) -> bool:
        """The server has answered this phone's Hello once (it speaks sync)."""
        ...

    def synced(self, game_id: str) -> bool:
        """Whether the game is a server's (or started here to be sent to one)."""
        ...

    def line(self) -> SyncLine: ...

    def unsent(self, game_id: str) -> frozenset[int]:
        """Numbers of the game's hands recorded or edited here that the server does not
        have yet (each carries the "not sent yet" mark)."""
        ...

    def clash(self, game_id: str) -> SyncClash | None:
        """A hand of this phone that another phone also recorded, differently: the
        player chooses (`choose`) before recording more."""
        ...

    def choose(self, game_id: str, choice: Choice) -> None: ...

    def notices(self, game_id: str) -> list[Notice]:
        """What the player should read about this game's changes (refused, already
        recorded, kept theirs), oldest first."""
        ...

    def dismiss(self, game_id: str) -> None:
        """The player read the game's notices."""
        ...

    def shared_address(self, game_id: str) -> str | None:
        """The game's address on the server (None until the server has it)."""
        ...
