"""A whole game as entered: seats, house rules and the hands, never the scores."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rules.hands import Hand
from rules.house_rules import HouseRules
from rules.names import TableNames, default_team_names
from rules.plain_text import describe, first_unsafe, shown
from rules.table import Seat

MAX_HANDS = 1000
"""Far more than any table plays (a hand takes minutes); it bounds the work of a replay."""
MAX_NAME_LENGTH = 30
MAX_TEAM_NAME_LENGTH = 2 * MAX_NAME_LENGTH + len(" & ")
"""Room for the default "<name> & <name>" of two longest names."""


def check_plain(text: str, whose: str) -> None:
    """Refuse a name holding a control or invisible format character (see rules.plain_text)."""
    char = first_unsafe(text)
    if char is not None:
        raise ValueError(
            f"{whose} has a hidden control character in it ({describe(char)}): "
            "use letters, numbers, spaces and punctuation only"
        )


class Game(BaseModel):
    """Who sat where, the house rules and what was entered for each hand."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: tuple[str, str, str, str]
    teams: tuple[str, str] | None = None
    first_dealer: Seat = 0
    rules: HouseRules = Field(default_factory=HouseRules)
    hands: tuple[Hand, ...] = Field(default=(), max_length=MAX_HANDS)

    @field_validator("players")
    @classmethod
    def _player_names(cls, players: tuple[str, str, str, str]) -> tuple[str, str, str, str]:
        cleaned = tuple(name.strip() for name in players)
        for seat, name in enumerate(cleaned):
            if not name:
                raise ValueError(f"the player in seat {seat + 1} needs a name")
            if len(name) > MAX_NAME_LENGTH:
                raise ValueError(
                    f"{shown(name)} is too long: keep names to {MAX_NAME_LENGTH} letters"
                )
            check_plain(name, f"the name of the player in seat {seat + 1}")
        folded = [name.casefold() for name in cleaned]
        for name in cleaned:
            if folded.count(name.casefold()) > 1:
                raise ValueError(f"two players are called '{name}': give each a different name")
        return (cleaned[0], cleaned[1], cleaned[2], cleaned[3])

    @field_validator("teams")
    @classmethod
    def _team_names(cls, teams: tuple[str, str] | None) -> tuple[str, str] | None:
        if teams is None:
            return None
        cleaned = (teams[0].strip(), teams[1].strip())
        if not all(cleaned):
            raise ValueError("a team name cannot be blank")
        for team, name in enumerate(cleaned):
            if len(name) > MAX_TEAM_NAME_LENGTH:
                raise ValueError(
                    f"the name of team {team + 1} is too long: keep it to "
                    f"{MAX_TEAM_NAME_LENGTH} letters"
                )
            check_plain(name, f"the name of team {team + 1}")
        if cleaned[0].casefold() == cleaned[1].casefold():
            raise ValueError("the two teams need different names")
        return cleaned

    @property
    def team_names(self) -> tuple[str, str]:
        return self.teams or default_team_names(self.players)

    @property
    def names(self) -> TableNames:
        return TableNames(players=self.players, teams=self.team_names)

    def with_hands(self, hands: tuple[Hand, ...]) -> Game:
        return self.model_copy(update={"hands": hands})

    def add_hand(self, hand: Hand) -> Game:
        return self.with_hands((*self.hands, hand))

    def replace_hand(self, index: int, hand: Hand) -> Game:
        self._check_index(index)
        return self.with_hands((*self.hands[:index], hand, *self.hands[index + 1 :]))

    def remove_hand(self, index: int) -> Game:
        self._check_index(index)
        return self.with_hands((*self.hands[:index], *self.hands[index + 1 :]))

    def _check_index(self, index: int) -> None:
        if not 0 <= index < len(self.hands):
            raise IndexError(f"there is no hand {index + 1}: the game has {len(self.hands)}")
