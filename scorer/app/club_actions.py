"""Every change a phone makes to a club night goes through here, after the server
checks that this phone organises the event (it made it, entered its organiser
code, or is the host). Values and errors only; the screens draw them.

A table's game is changed like any game (`TableActions`): its table code opens it,
and so does the event's organiser code (`TableRights.also_allow`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scorer.app import CONFIG
from scorer.app.actions import TableActions
from scorer.app.event_access import get_events
from scorer.app.game_sight import games_private
from scorer.events.model import EventSpec
from scorer.events.organisers import NotOrganiser
from scorer.events.service import EventService, EventView
from scorer.events.store import StoredEvent
from scorer.events.tickets import mint
from scorer.rights.limiter import RateWindow
from scorer.rights.service import TooManyGames

if TYPE_CHECKING:  # a phone alone has no groups, nor a database
    from scorer.groups.model import Group
    from scorer.ratings.chances import Proposal
    from scorer.rights.pg_limiter import PgRateWindow

EVENTS_PER_HOUR = 5
"""Club nights one address may create an hour (a hall has one a night)."""
_new_events = RateWindow(EVENTS_PER_HOUR, 3600.0)


class ClubActions:
    """Club night actions of one browser session."""

    def __init__(self, actions: TableActions, address: str) -> None:
        self.actions = actions
        self.address = address

    @property
    def service(self) -> EventService:
        service = get_events(self.actions.ctx.store)
        if not CONFIG.alone:
            # The one store of groups of this process (its keeper-code brakes are shared).
            from scorer.app.group_access import get_groups  # a phone alone has no groups

            service.use_groups(get_groups(self.actions.ctx.store))
        return service

    def listed_events(self) -> list[StoredEvent]:
        """The club nights this phone is shown on Club night: every one on a laptop and
        to the host; on a community those it organises (another night is opened by its
        own address, as its organiser shares it, or read on its board)."""
        events = self.service.list_events()
        store = self.actions.ctx.store
        device = self.device
        if not games_private(store) or (device and self.actions.rights.is_host(device)):
            return events
        held = self.service.organised_events(device)
        return [stored for stored in events if stored.id in held]

    def kept_groups(self) -> list[Group]:
        """The groups this phone keeps (a club night may be run for them), by name."""
        if CONFIG.alone or self.device is None:
            return []
        return self.service.groups.kept_by(self.device)

    def group_members(self, group_id: str) -> tuple[str, ...]:
        """A group's members, as it spells them (looking is open to anyone)."""
        return self.service.groups.get(group_id).members

    def fair_teams(self, group_id: str, present: list[str]) -> Proposal:
        """The fairest teams for the members present, from the group's ratings now
        (ValueError, said as it is, for fewer than 4 or more than 8)."""
        # Imported here: a phone alone has no ratings.
        from scorer.ratings.chances import MAX_PRESENT, fair_teams
        from scorer.ratings.model import compute_ratings
        from scorer.ratings.sources import stored_matches

        if len(present) > MAX_PRESENT:
            raise ValueError(f"Fair teams is for up to {MAX_PRESENT} players: with more, "
                             "pair them by hand.")
        games = self.service.groups.get(group_id).games
        ratings = compute_ratings(stored_matches(self.actions.ctx.store, games))
        return fair_teams(ratings, present, count=1)[0]

    def group_name(self, group_id: str | None) -> str | None:
        """The name of a night's group (None: no group, or it is gone)."""
        if group_id is None or CONFIG.alone:
            return None
        from scorer.groups.model import GroupNotFound

        try:
            return self.service.groups.get(group_id).name
        except GroupNotFound:
            return None

    @property
    def device(self) -> str | None:
        return self.actions.device

    def _known(self) -> str:
        """This phone's device token; refused while the browser has not said it yet."""
        device = self.actions.device
        if device is None:
            raise NotOrganiser("One moment: this phone is still being recognised. Tap again.")
        return device

    def night_of_game(self, game_id: str) -> str | None:
        """The club night whose table plays `game_id` (None for a game of its own)."""
        return self.service.event_of_game(game_id)

    def organises(self, event_id: str) -> bool:
        return self.device is not None and self.service.may_organise(event_id, self.device)

    def _require(self, event_id: str) -> None:
        if not self.organises(event_id):
            raise NotOrganiser()

    def view(self, event_id: str) -> EventView:
        return self.service.view(event_id)

    def code(self, event_id: str) -> str | None:
        """The organiser code, for an organiser's phone only."""
        return self.service.codes.code(event_id) if self.organises(event_id) else None

    def create(self, spec: EventSpec) -> StoredEvent:
        """A new event organised by this phone (a few an hour per address)."""
        window = self._new_events()
        wait = window.wait_left(self.address)
        if wait > 0:
            raise TooManyGames(wait)
        device = self._known()
        if spec.group is not None:
            # Checked here on the server, whatever the screen offered.
            self.service.groups.must_keep(spec.group, device)
        stored, _code = self.service.create(spec, device)
        window.record(self.address)
        return stored

    def _new_events(self) -> RateWindow | PgRateWindow:
        """The count of new events per address: on a community in its database, which
        its processes share (each process's own count let an address make five in each)."""
        db = getattr(self.actions.ctx.store, "db", None)
        if db is None:
            return _new_events
        from scorer.rights.pg_limiter import PgRateWindow  # psycopg: a community's only

        return PgRateWindow(db, "new-events", EVENTS_PER_HOUR, 3600.0)

    def enter_code(self, event_id: str, code: str) -> None:
        """Make this phone an organiser for a right code (WrongCode / TooManyTries)."""
        self.service.get(event_id)  # an unknown event is said as such, not as a wrong code
        self.service.codes.enter(event_id, self._known(), self.address, code)

    def add_entrant(self, event_id: str, names: list[str]) -> None:
        self._require(event_id)
        self.service.add_entrant(event_id, names)

    def withdraw(self, event_id: str, entrant: int) -> None:
        self._require(event_id)
        self.service.withdraw(event_id, entrant)

    def start_round(self, event_id: str) -> None:
        self._require(event_id)
        self.service.start_round(event_id)

    def call_time(self, event_id: str) -> None:
        self._require(event_id)
        self.service.call_time(event_id)

    def enter_result(self, event_id: str, round_number: int, table: int,
                     points: tuple[int, int] | None) -> None:
        self._require(event_id)
        self.service.enter_result(event_id, round_number, table, points, by="the organiser")

    def cards_url(self, event_id: str) -> str:
        """The table cards page with a ticket that shows the codes (organisers only)."""
        self._require(event_id)
        return f"/event/{event_id}/cards?ticket={mint(event_id)}"

    def export(self, event_id: str) -> dict[str, Any]:
        return self.service.export(event_id)
