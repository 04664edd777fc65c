"""Rights when the app runs alone on one phone: that phone owns every game.

There is no other phone to keep out, so there are no table codes; the same
`TableRights` questions get the answers of a phone that holds every game.
"""

from __future__ import annotations

from scorer.rights.service import TableRights

PHONE_DEVICE = "this-phone-owns-every-game"
"""The device token of the only phone (never compared with any other)."""


class OwnerRights(TableRights):
    """Every game may be edited; no code exists: the one phone is its own host."""

    def __init__(self) -> None:  # no codes file, no guessing brake: nobody to refuse
        pass

    def may_edit(self, game_id: str, device: str | None) -> bool:
        return True

    def code(self, game_id: str) -> str | None:
        return None

    def held_by(self, device: str | None) -> set[str]:
        return set()  # every game is this phone's: nobody asks which

    def opened_by(self, device: str | None) -> set[str]:
        return set()

    def opened(self, game_id: str, device: str) -> None:
        return None

    def game_address_wait(self, address: str) -> float:
        return 0.0

    def missed_game_address(self, address: str) -> float:
        return 0.0

    def is_host(self, device: str | None) -> bool:
        return True

    def start(self, game_id: str, device: str) -> str:
        return ""

    def start_next(self, game_id: str, device: str, follows: str) -> str:
        return ""

    def give_codes(self, game_ids: list[str]) -> list[str]:
        return []

    def forget(self, game_id: str) -> None:
        return None

    def new_game_wait(self, address: str) -> float:
        return 0.0

    def check_new_game(self, address: str) -> None:
        return None  # one phone: no stranger to slow down

    def game_started(self, address: str) -> None:
        return None

    def enter_code(self, game_id: str, device: str, address: str, code: str) -> None:
        return None

    def enter_host_code(self, device: str, address: str, code: str) -> None:
        return None

    def phone_label(self, device: str) -> str | None:
        return None  # one phone: its changes need no name

    def phone_name(self, device: str) -> str | None:
        return None

    def name_phone(self, device: str, name: str) -> str:
        return ""
