"""Which games one phone may see: every game on a laptop's table server, only its
own on a community (issue 38: a table on the internet is not a kitchen's Wi-Fi).

Where games are private (`games_private`: a community's database) a phone sees
the games it started or entered the table code of (`TableRights.held_by`), those
whose own address (`/game/<id>`) it opened (`TableRights.opened`, recorded as it
opens them), every game of the groups it keeps (`Groups.kept_games`) and of the
club nights it organises (`EventService.organised_games`). The host, or on a
community a phone that entered the admin code, sees every game. Lists,
statistics, the pickers and exports read only what `Sight` allows; the checks
are made here, on the server, for every read, never by hiding a button.

A game's id is 32 random bits: a stranger who guesses addresses hits a game of a
community of 10,000 once in 430,000 tries, and each address that names no game
counts against the connection's address (`TableRights.missed_game_address`: ten,
then waits doubling to 15 min).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scorer.app import CONFIG
from scorer.rights import RightsPort
from scorer.store.models import GameSummary
from scorer.store.ports import GamesPort

if TYPE_CHECKING:  # groups are a server's: the phone-alone site leaves them out
    from scorer.groups.model import Group
    from scorer.groups.ports import GroupsPort


def games_private(store: GamesPort) -> bool:
    """Whether each phone sees only its own games: on a community's server (its
    database), unless `CONFIG.private_games` says otherwise. A laptop's table server
    and a phone alone show every game to every phone, as a kitchen table does."""
    if CONFIG.alone:
        return False
    if CONFIG.private_games is not None:
        return CONFIG.private_games
    return CONFIG.database is not None or getattr(store, "db", None) is not None


@dataclass(frozen=True)
class Sight:
    """The games one phone may see: all of them (`everything`), or those in `games`."""

    everything: bool
    games: frozenset[str] = field(default_factory=frozenset)

    def sees(self, game_id: str) -> bool:
        return self.everything or game_id in self.games

    def among(self, summaries: list[GameSummary]) -> list[GameSummary]:
        return summaries if self.everything else [s for s in summaries if s.id in self.games]


EVERYTHING = Sight(everything=True)
NOTHING = Sight(everything=False)


def sight_of(store: GamesPort, rights: RightsPort, device: str | None) -> Sight:
    """What the phone with this device token may see (None: not known yet, nothing on
    a community). A few reads, one per kind of right; no game is read."""
    if not games_private(store):
        return EVERYTHING
    if not device:
        return NOTHING
    if rights.is_host(device):
        return EVERYTHING
    games = rights.held_by(device) | rights.opened_by(device)
    games |= _groups(store).kept_games(device)
    games |= _organised(store, device)
    return Sight(everything=False, games=frozenset(games))


def sees_game(store: GamesPort, rights: RightsPort, device: str | None,
              game_id: str) -> bool:
    """Whether the phone may see one game: the cheap rights asked first (a sheet
    asks at every redraw), the groups and club nights last."""
    if not games_private(store):
        return True
    if not device:
        return False
    if rights.may_edit(game_id, device) or game_id in rights.opened_by(device):
        return True  # may_edit: held, the host, a club night's organiser
    return (game_id in _groups(store).kept_games(device)
            or game_id in _organised(store, device))


def visible_games(store: GamesPort, sight: Sight) -> list[GameSummary]:
    """The games `sight` allows, newest activity first: on a community only those rows
    are read (`list_games_in`)."""
    if sight.everything:
        return store.list_games()
    return store.list_games_in(sight.games)


def visible_groups(store: GamesPort, rights: RightsPort, device: str | None) -> list[Group]:
    """The groups a phone is shown in lists (Groups, the leaderboard's picker): every
    group on a laptop and to the host; on a community only those it keeps (another
    group is opened by its own address, `/group/<id>`, as its keeper shares it)."""
    groups = _groups(store)
    if not games_private(store) or (device and rights.is_host(device)):
        return groups.list_groups()
    return groups.kept_by(device)


def _groups(store: GamesPort) -> GroupsPort:
    # Imported here: never on a phone alone, whose site has no groups (its games are
    # all its own, `games_private` is False there).
    from scorer.app.group_access import get_groups

    return get_groups(store)


def _organised(store: GamesPort, device: str) -> set[str]:
    from scorer.app.event_access import get_events

    return get_events(store).organised_games(device)
