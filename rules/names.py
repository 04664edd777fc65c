"""How the table's players and teams are named in rulings."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from rules.table import team_of


class TableNames(BaseModel):
    """Player names by seat and team names by team, for the reasons' sentences."""

    model_config = ConfigDict(frozen=True)

    players: tuple[str, str, str, str] = ("Seat 1", "Seat 2", "Seat 3", "Seat 4")
    teams: tuple[str, str] = ("Seat 1 & Seat 3", "Seat 2 & Seat 4")

    @classmethod
    def of(
        cls, players: tuple[str, str, str, str], teams: tuple[str, str] | None = None
    ) -> TableNames:
        return cls(players=players, teams=teams or default_team_names(players))

    def player(self, seat: int) -> str:
        return self.players[seat]

    def team(self, team: int) -> str:
        return self.teams[team]

    def team_of_seat(self, seat: int) -> str:
        return self.teams[team_of(seat)]


def default_team_names(players: tuple[str, str, str, str]) -> tuple[str, str]:
    """"Ann & Cid" and "Bob & Dee": partners sit opposite."""
    return (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")
