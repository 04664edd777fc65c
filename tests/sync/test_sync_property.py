"""The property of sync: three phones recording one game through a network that delays,
cuts, duplicates and reorders between sessions, restarting now and then. Once the
network heals and every clash is chosen, every phone equals the server, and no hand
is lost or doubled.

"Lost" and "doubled", precisely. Every hand a player records (an add or an edit,
tied to the player's tap by `Pending.first` however often it is made again) ends
in exactly one of these:
- applied: the server saved it, once (the ids its records keep: `synced`);
- dropped because an identical hand was already at its place ("already recorded"),
  or because the player chose "keep theirs" for a clash, or refused by the rules or
  the server (each with a notice in the player's words, naming the tap).
A clash is never dropped silently: it stays until the player chooses. Doubled: two
copies of one tap both applied.
"""

from __future__ import annotations

import shutil
import tempfile
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sync_setup import ANN, BOB, CID, Clock, game_doc, made, phone

from scorer.rights import RateWindow, TableCodes, TableRights
from scorer.store import GameStore, StoreError
from scorer.store.database import Database
from scorer.store.pg_games import PgGameStore
from scorer.sync.client import MemoryKeeper, SyncClient
from scorer.sync.loopback import Network
from scorer.sync.messages import AddHand, Details, Redo, ReplaceHand, Undo
from scorer.sync.service import Brake, SyncService

PHONES = ("ann", "bob", "cid")
DEVICES = {"ann": ANN, "bob": BOB, "cid": CID}
HAND_KINDS = ("add_hand", "replace_hand")
_runs = count(1)
phones = st.sampled_from(PHONES)


class Table(RuleBasedStateMachine):
    """One table's game on three phones. `make_store` is set by each test."""

    pg_url: str | None = None

    @initialize()
    def start(self) -> None:
        run = self.run = next(_runs)
        self.folder = Path(tempfile.mkdtemp(prefix="sync-prop-"))
        self.db: Database | None = None
        if self.pg_url is None:
            store: Any = GameStore(self.folder / "data")
            rights = TableRights(TableCodes(self.folder / "data"),
                                 new_games=RateWindow(10**6, 3600.0))
        else:
            self.db = Database(self.pg_url)
            store = PgGameStore(self.db, data_dir=self.folder / "cache")
            rights = TableRights.on_database(self.db)
        self.store = store
        self.service = SyncService(store, rights, brake=Brake(burst=10**6))
        self.net = Network(self.service)
        self.keepers = {name: MemoryKeeper() for name in PHONES}
        self.clocks = {name: Clock() for name in PHONES}
        self.made_ids = count(1)
        self.address = {name: f"10.{run % 250}.{i}.1" for i, name in enumerate(PHONES)}
        for i, name in enumerate(PHONES):
            self.net.add(name, self._phone(name, i))
            self.net.connect(name, self.address[name])
        self.net.settle()
        ann = self.net.phones["ann"]
        key = ann.start(game_doc(target=1_000_000))
        self.net.settle()
        self.game = ann.key_of(key)
        code = ann.games[self.game].code
        assert code is not None
        for name in ("bob", "cid"):
            self.net.phones[name].claim(self.game, code)
        self.net.settle()
        self.first_of: dict[str, str] = {}
        """Every change id a phone sent or kept, to the tap it came from."""
        self.hand_taps: set[str] = set()
        self.capture()

    def _phone(self, name: str, i: int) -> SyncClient:
        # Ids go on across restarts and examples (a database outlives an example): a
        # phone never makes an id twice.
        return phone(DEVICES[name], self.run * 4096 + 256 * (i + 1) + next(self.made_ids),
                     self.keepers[name], self.clocks[name])

    def teardown(self) -> None:
        try:
            if hasattr(self, "net"):
                self.heal_and_check()
        finally:
            if getattr(self, "db", None) is not None:
                self.db.close()  # type: ignore[union-attr]
            shutil.rmtree(getattr(self, "folder", "/nonexistent"), ignore_errors=True)

    # -- what players do ----------------------------------------------------------------

    def _record(self, name: str, kind: Any) -> None:
        client = self.net.phones[name]
        try:
            made_id = client.record(self.game, kind)
        except StoreError:
            return  # refused on the phone (no such hand, a clash to choose first...)
        if made_id is not None and kind.kind in HAND_KINDS:
            self.hand_taps.add(made_id)
        self.net.pump(name)

    @rule(name=phones, tricks=st.integers(0, 80))
    def add_hand(self, name: str, tricks: int) -> None:
        self._record(name, AddHand(hand=made(tricks)))

    @rule(name=phones, index=st.integers(0, 30), tricks=st.integers(0, 80))
    def edit_hand(self, name: str, index: int, tricks: int) -> None:
        view = self.net.phones[name].view(self.game)
        hands = [] if view is None else view.doc["hands"]
        if hands:
            self._record(name, ReplaceHand(index=index % len(hands), hand=made(tricks)))

    @rule(name=phones)
    def undo(self, name: str) -> None:
        self._record(name, Undo())

    @rule(name=phones)
    def redo(self, name: str) -> None:
        self._record(name, Redo())

    @rule(name=phones, team=st.sampled_from(["Us", "Them", "Aces", "Kings"]))
    def rename_team(self, name: str, team: str) -> None:
        self._record(name, Details(doc=_details(team)))

    @rule(name=phones, pick=st.integers(0, 2))
    def choose(self, name: str, pick: int) -> None:
        clash = self.net.phones[name].clash(self.game)
        if clash is not None:
            self.net.phones[name].choose(self.game, clash.choices[pick % len(clash.choices)])
            self.net.pump(name)

    # -- what the network does ------------------------------------------------------------

    @rule(name=phones)
    def deliver_up(self, name: str) -> None:
        self.net.deliver_up(name)

    @rule(name=phones, times=st.integers(1, 4))
    def deliver_down(self, name: str, times: int) -> None:
        for _ in range(times):
            self.net.deliver_down(name)

    @rule(index=st.integers(0, 3))
    def late_frame(self, index: int) -> None:
        self.net.deliver_zombie(index)

    @rule(name=phones)
    def duplicate(self, name: str) -> None:
        self.net.duplicate_up(name)

    @rule(name=phones, half_open=st.booleans())
    def cut(self, name: str, half_open: bool) -> None:
        self.net.disconnect(name, half_open=half_open)

    @rule(name=phones)
    def reconnect(self, name: str) -> None:
        self.net.connect(name, self.address[name])

    @rule(name=phones)
    def restart(self, name: str) -> None:
        """The tab is closed and opened again: a new client from what the phone kept."""
        i = PHONES.index(name)
        self.net.replace(name, self._phone(name, i))

    @precondition(lambda self: hasattr(self, "net"))
    @invariant()
    def capture(self) -> None:
        """Note which tap every id a phone holds came from (made again: a new id)."""
        for client in self.net.phones.values():
            for sync in client.games.values():
                for entry in sync.pending:
                    self.first_of[entry.change.id] = entry.first or entry.change.id

    # -- healed -------------------------------------------------------------------------

    def heal_and_check(self) -> None:
        for name in PHONES:
            self.net.connect(name, self.address[name])
        for round_ in range(60):
            self._settle_capturing()
            clashes = [(n, c) for n, c in self.net.phones.items()
                       if c.clash(self.game) is not None]
            if not clashes and all(c.waiting() == 0 for c in self.net.phones.values()):
                break
            for i, (_name, client) in enumerate(clashes):
                clash = client.clash(self.game)
                assert clash is not None
                client.choose(self.game, clash.choices[(i + round_) % len(clash.choices)])
        else:
            raise AssertionError("the table did not settle in 60 rounds")
        synced = self.store.get_synced(self.game)
        server = synced.game
        for name, client in self.net.phones.items():
            assert client.status().waiting == 0 and client.status().clashes == 0, name
            view = client.view(self.game)
            assert view is not None
            assert (view.revision, view.doc, view.history) == (
                server.revision, server.doc, server.history), f"{name} differs from the server"
        self._check_fates([m.change for m in synced.marks])

    def _settle_capturing(self) -> None:
        for _ in range(10_000):
            moved = False
            for name in PHONES:
                self.net.pump(name)
            if self.net.zombies:
                moved = self.net.deliver_zombie() or moved
            for name in PHONES:
                moved = self.net.deliver_up(name) or moved
                self.capture()
                moved = self.net.deliver_down(name) or moved
                self.capture()
            if not moved:
                return
        raise AssertionError("the network did not settle")

    def _check_fates(self, applied_ids: list[str]) -> None:
        applied: dict[str, int] = {}
        for change_id in applied_ids:
            first = self.first_of.get(change_id, change_id)
            applied[first] = applied.get(first, 0) + 1
        doubled = {tap: n for tap, n in applied.items() if n > 1}
        assert not doubled, f"taps applied more than once: {doubled}"
        noticed: dict[str, list[str]] = {}
        for client in self.net.phones.values():
            for notice in client.notices():
                if notice.change is not None:
                    noticed.setdefault(notice.change, []).append(notice.reason)
        allowed = {"already_recorded", "kept_theirs", "invalid", "not_applicable"}
        for tap in self.hand_taps:
            fates = (["applied"] if tap in applied else []) + noticed.get(tap, [])
            assert len(fates) == 1, f"hand tap {tap}: {fates or 'lost'}"
            assert fates[0] == "applied" or fates[0] in allowed, fates


def _details(team: str) -> dict[str, Any]:
    doc = game_doc(target=1_000_000)
    doc.pop("hands")
    return {**doc, "teams": [team, "Others"]}


def test_every_phone_ends_equal_to_the_server_on_a_folder() -> None:
    Table.pg_url = None
    run_state_machine_as_test(Table, settings=settings(
        max_examples=60, stateful_step_count=50, deadline=None,
        suppress_health_check=[HealthCheck.too_slow]))


@pytest.mark.slow
def test_every_phone_ends_equal_to_the_server_on_postgresql(pg_url: str) -> None:
    Table.pg_url = pg_url
    try:
        run_state_machine_as_test(Table, settings=settings(
            max_examples=15, stateful_step_count=40, deadline=None,
            suppress_health_check=[HealthCheck.too_slow]))
    finally:
        Table.pg_url = None
