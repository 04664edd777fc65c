"""A table's games are the table's (issue 38 §3): on a community a stranger's phone
sees no other home's game, in no list, statistic, picker or export; it sees the games
it holds, opened by their address, keeps in a group or organises in a club night;
the host sees all. Checked on the server through the app's actions, as a phone's
taps reach them (a fake phone session, as tests/groups/test_group_actions.py),
on both stores: a community's PostgreSQL, and a folder with games made private.
A laptop's table server keeps showing every game to every phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from scorer.app import CONFIG
from scorer.app.actions import TableActions
from scorer.app.club_actions import ClubActions
from scorer.app.game_files import export
from scorer.app.group_actions import GroupActions
from scorer.app.views.statistics import StatisticsScreen
from scorer.events.model import EventSpec
from scorer.rights import TableCodes, TableRights, TooManyTries, use_rights
from scorer.rights.service import GAME_ADDRESS_FREE_TRIES
from scorer.stats import RenameError, hands_csv, rename_player
from scorer.store.database import Database
from scorer.store.errors import GameNotFound
from scorer.store.game_store import GameStore
from scorer.store.pg_games import PgGameStore

AnyStore = GameStore | PgGameStore
HOME = ("Ann", "Bob", "Cid", "Dee")
AWAY = ("Eve", "Fay", "Gus", "Hal")


def doc(players: tuple[str, str, str, str]) -> dict[str, Any]:
    return {"format": "tarabish-game/1", "players": list(players), "first_dealer": 0,
            "rules": {}, "hands": [{"caller": 0, "trump": "S",
                                    "points": {"team": 0, "tricks": 100}}]}


class Page:
    pubsub = SimpleNamespace(send_others_on_topic=lambda *_a: None)
    url = "https://bish.example.org/games"
    route = "/games"

    def run_task(self, *_a: Any) -> None:
        raise RuntimeError("no session")


class Phone:
    """One phone's session on the server: its actions, and what it downloaded or read."""

    def __init__(self, store: AnyStore, device: str, address: str) -> None:
        self.downloads: list[str] = []
        self.toasts: list[str] = []
        ctx: Any = SimpleNamespace(
            page=Page(), store=store, router_refresh=lambda: None,
            game_changed=lambda _g: None, address=address,
            download=lambda name, _data: self.downloads.append(name),
            toast=lambda text, error=False: self.toasts.append(text))
        self.ctx = ctx
        self.actions = TableActions(ctx)
        self.actions.device = device
        ctx.actions = self.actions
        self.groups = GroupActions(self.actions, address)

    def start(self, players: tuple[str, str, str, str] = HOME) -> str:
        """A game started on this phone (it holds it)."""
        return self.actions.create_game(doc(players)).id

    def listed(self) -> list[str]:
        return [s.id for s in self.actions.visible_games()]


@pytest.fixture(params=["folder", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> Iterator[AnyStore]:
    """A community's store and rights: PostgreSQL as `tarabish --database` has them,
    or a folder whose games are made private (`CONFIG.private_games`)."""
    if request.param == "folder":
        monkeypatch.setattr(CONFIG, "private_games", True)
        with GameStore(tmp_path / "data") as opened:
            yield opened
        return
    db = Database(request.getfixturevalue("pg_url"))
    monkeypatch.setattr(CONFIG, "database", db)
    use_rights(TableRights.on_database(db))
    try:
        yield PgGameStore(db, data_dir=tmp_path / "cache")
    finally:
        use_rights(None)
        db.close()


def test_a_strangers_lists_and_exports_show_no_other_homes_game(store: AnyStore) -> None:
    home = Phone(store, "home-phone-token-0000000001", "203.0.113.10")
    stranger = Phone(store, "stranger-token-00000000001", "198.51.100.7")
    game = home.start()
    assert home.listed() == [game]
    assert stranger.listed() == []
    assert not stranger.actions.sees(game)
    with pytest.raises(GameNotFound):
        stranger.actions.require_sight(game)
    # Export, asked for the home's game (a forged tap): refused on the server.
    summary = store.list_games()[0]
    export(stranger.ctx, summary)
    assert stranger.downloads == [] and stranger.toasts
    export(home.ctx, summary)
    assert len(home.downloads) == 1
    # Home's Continue card: a game id the browser claims to have shown proves nothing.
    stranger.actions.phone.shown = [game]
    assert stranger.actions.game_to_continue() is None
    home.actions.phone.shown = [game]
    continued = home.actions.game_to_continue()
    assert continued is not None and continued.id == game
    # A phone not known yet sees nothing.
    assert Phone(store, "x" * 20, "198.51.100.8").actions.sight().games == frozenset()
    unknown = Phone(store, "y" * 20, "198.51.100.9")
    unknown.actions.device = None
    assert unknown.listed() == []


def test_the_games_address_lets_a_phone_see_it_from_then_on(store: AnyStore) -> None:
    home = Phone(store, "home-phone-token-0000000002", "203.0.113.11")
    friend = Phone(store, "friend-phone-token-00000002", "198.51.100.20")
    game = home.start()
    other = home.start(AWAY)
    friend.actions.open_game(game)  # opened /game/<id>, as Share gave it
    assert friend.listed() == [game]
    # Kept on the server: the same phone tomorrow, in a new session, on another process.
    again = Phone(store, "friend-phone-token-00000002", "198.51.100.21")
    assert again.listed() == [game]
    assert not again.actions.sees(other)


def test_guessed_game_addresses_are_braked_per_address(store: AnyStore) -> None:
    home = Phone(store, "home-phone-token-0000000003", "203.0.113.12")
    guesser = Phone(store, "guesser-token-0000000000003", "198.51.100.30")
    game = home.start()
    for n in range(GAME_ADDRESS_FREE_TRIES - 1):
        guesser.actions.open_game(f"{n:08x}")  # no such game: its screen says so
    with pytest.raises(TooManyTries, match="addresses of games that do not exist"):
        guesser.actions.open_game("abcdef01")  # the tenth: a wait starts
    with pytest.raises(TooManyTries):  # even a real game's address waits now...
        guesser.actions.open_game(game)
    assert guesser.listed() == []
    # ...but another address, and a phone that sees the game, are not slowed.
    home.actions.open_game(game)
    Phone(store, "friend-phone-token-00000003", "198.51.100.31").actions.open_game(game)


def test_a_groups_keepers_and_a_nights_organisers_see_its_games(store: AnyStore) -> None:
    keeper = Phone(store, "keeper-phone-token-00000004", "203.0.113.13")
    second = Phone(store, "second-keeper-token-0000004", "203.0.113.14")
    stranger = Phone(store, "stranger-token-00000000004", "198.51.100.40")
    group, code = keeper.groups.create("Friday bish")
    game = keeper.start()
    alone = keeper.start(AWAY)
    keeper.groups.add_game(group.id, game)
    # A stranger's groups list and picker show nothing of the home's.
    assert [g.id for g in keeper.groups.list_groups()] == [group.id]
    assert stranger.groups.list_groups() == []
    assert second.listed() == []
    second.groups.enter_code(group.id, code)  # a second keeper: the group's games
    assert second.listed() == [game]
    shown, more = second.groups.candidates(second.groups.get(group.id))
    assert shown == [] and more == 0  # nothing of the keeper's own other game
    assert {s.id for s in keeper.groups.candidates(keeper.groups.get(group.id))[0]} == {alone}
    # A keeper cannot add a game it does not see (that would let it see it).
    with pytest.raises(GameNotFound):
        second.groups.add_game(group.id, alone)
    # A club night: its organiser sees its tables' games; a stranger not.
    club = ClubActions(keeper.actions, keeper.ctx.address)
    night = club.create(EventSpec(name="Hall night", rounds=1,
                                  teams=(("Ann", "Bob"), ("Cid", "Dee"))))
    club.start_round(night.id)
    tables = [t.game for t in club.service.view(night.id).stored.night.current.tables]
    assert tables and all(tables)
    assert set(tables) <= set(keeper.listed())
    assert not set(tables) & set(stranger.listed())
    assert [e.id for e in club.listed_events()] == [night.id]
    assert ClubActions(stranger.actions, stranger.ctx.address).listed_events() == []


def test_the_host_sees_every_game(store: AnyStore) -> None:
    home = Phone(store, "home-phone-token-0000000005", "203.0.113.15")
    host = Phone(store, "admin-phone-token-000000005", "198.51.100.50")
    game = home.start()
    host.actions.rights.codes.add_host("admin-phone-token-000000005")
    assert host.listed() == [game]
    assert host.actions.sight().everything


def test_statistics_the_csv_and_renames_count_only_this_phones_games(
        store: AnyStore) -> None:
    home = Phone(store, "home-phone-token-0000000006", "203.0.113.16")
    stranger = Phone(store, "stranger-token-00000000006", "198.51.100.60")
    home.start(HOME)
    mine = stranger.start(AWAY)
    screen = StatisticsScreen(stranger.ctx)
    screen.fill()
    assert screen.names == sorted(AWAY)
    assert screen.counted == [mine]
    csv = hands_csv(store, screen.counted)
    assert "Eve" in csv and "Ann" not in csv
    home_screen = StatisticsScreen(home.ctx)
    home_screen.fill()
    assert home_screen.names == sorted(HOME)
    # Renaming a player of the home's game from the stranger's phone: nothing, and
    # no word that such a game exists.
    with pytest.raises(RenameError, match="No saved game has a player called 'Ann'"):
        rename_player(store, "Ann", "Zed", among=screen.counted)
    assert rename_player(store, "Eve", "Eva", among=screen.counted).renamed == [mine]
    assert any("Ann" in s.players for s in store.list_games())  # the home's, unchanged


def test_a_laptops_table_server_shows_every_game_to_every_phone(tmp_path: Path) -> None:
    """The kitchen's Wi-Fi: unchanged (SECURITY.md, "What a guest on the same Wi-Fi
    can do")."""
    with GameStore(tmp_path / "data") as store:
        home = Phone(store, "home-phone-token-0000000007", "192.168.1.10")
        guest = Phone(store, "guest-phone-token-000000007", "192.168.1.11")
        game = home.start()
        assert guest.listed() == [game]
        assert guest.actions.sees(game)
        guest.actions.open_game("0badc0de")  # nothing counted, nothing recorded
        assert TableCodes(tmp_path / "data").opened_by("guest-phone-token-000000007") == set()


@pytest.mark.parametrize("kind", ["folder", "postgresql"])
def test_both_stores_list_only_the_games_asked_for(kind: str, tmp_path: Path,
                                                   request: pytest.FixtureRequest) -> None:
    db = None
    if kind == "folder":
        store: AnyStore = GameStore(tmp_path / "data")
    else:
        db = Database(request.getfixturevalue("pg_url"))
        store = PgGameStore(db, data_dir=tmp_path / "cache")
    try:
        a, b, c = (store.create_game(doc(HOME)).id for _ in range(3))
        listed = store.list_games_in({a, c, "0badc0de", "not an id"})
        assert {s.id for s in listed} == {a, c}
        assert listed == [s for s in store.list_games() if s.id in (a, c)]  # same order
        assert store.list_games_in([]) == []
        store.delete_game(c)
        assert {s.id for s in store.list_games_in([a, b, c])} == {a, b}
    finally:
        store.close()
        if db is not None:
            db.close()
