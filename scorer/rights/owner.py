"""Rights when the app runs alone on one phone: that phone owns every game.

There is no other phone to keep out, so there are no table codes; the same
`TableRights` questions get the answers of a phone that holds every game.
"""

from __future__ import annotations

from scorer.rights.service import TableRights

PHONE_DEVICE = "this-phone-owns-every-game"
"""The device token of the only phone (never compared with any other)."""


class OwnerRights(TableRights):
    """Every game may be edited; no code exists, nothing is unclaimed."""

    def __init__(self) -> None:  # no codes file, no guessing brake: nobody to refuse
        pass

    def may_edit(self, game_id: str, device: str | None) -> bool:
        return True

    def code(self, game_id: str) -> str | None:
        return None

    def unclaimed(self, game_id: str) -> bool:
        return False

    def start(self, game_id: str, device: str) -> str:
        return ""

    def claim(self, game_id: str, device: str) -> str:
        return ""

    def forget(self, game_id: str) -> None:
        return None

    def check_new_game(self, address: str) -> None:
        return None  # one phone: no stranger to slow down

    def game_started(self, address: str) -> None:
        return None

    def enter_code(self, game_id: str, device: str, address: str, code: str) -> None:
        return None
