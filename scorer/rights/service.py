"""Table rights as the app uses them: codes on disk plus the guessing brake."""

from __future__ import annotations

from scorer.rights.codes import TableCodes
from scorer.rights.limiter import Backoff, TooManyTries, WrongCode


class TableRights:
    """Edit rights of every game in one data folder."""

    def __init__(self, codes: TableCodes, backoff: Backoff | None = None) -> None:
        self.codes = codes
        self.backoff = backoff or Backoff()

    def may_edit(self, game_id: str, device: str | None) -> bool:
        return self.codes.may_edit(game_id, device)

    def code(self, game_id: str) -> str | None:
        return self.codes.code(game_id)

    def unclaimed(self, game_id: str) -> bool:
        """No device holds this game (made before table codes, imported, or the
        codes file was lost): the first phone to ask may take charge."""
        return self.codes.holders(game_id) == 0

    def start(self, game_id: str, device: str) -> str:
        """A new game: its code, held by the device that started it."""
        return self.codes.start(game_id, device)

    def claim(self, game_id: str, device: str) -> str:
        return self.codes.claim(game_id, device)

    def enter_code(self, game_id: str, device: str, client: str, code: str) -> None:
        """Grant `device` edit rights if `code` is right; raises WrongCode or
        TooManyTries (with the wait) otherwise. `client` is the phone's IP address."""
        keys = (f"{game_id}|device|{device}", f"{game_id}|ip|{client}")
        wait = self.backoff.wait_left(*keys)
        if wait > 0:
            raise TooManyTries(wait)
        if not self.codes.matches(game_id, code):
            wait = self.backoff.failed(*keys)
            if wait > 0:
                raise TooManyTries(wait)
            left = self.backoff.tries_left(*keys)
            raise WrongCode(f"That is not this game's table code ({left} more "
                            f"{'try' if left == 1 else 'tries'} before a wait).")
        self.backoff.succeeded(*keys)
        self.codes.grant(game_id, device)
