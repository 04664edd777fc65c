"""The brake on new groups counts phones, and their address with a larger bound (issue 38
§2): a club hall's phones share one address, and each table makes its group on the
first night; a stranger who makes up new phones is still held per address. On both
stores (a community counts in its database)."""

from __future__ import annotations

import pytest

import scorer.app.group_actions as group_actions
from scorer.app.group_actions import GROUPS_PER_ADDRESS_HOUR, GROUPS_PER_HOUR, TooManyGroups
from scorer.rights.limiter import RateWindow
from tests.groups.test_group_actions import AnyStore, phone

HALL = "198.51.100.20"


@pytest.fixture(autouse=True)
def fresh_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new process's counts (a folder's are in its memory)."""
    monkeypatch.setattr(group_actions, "_new_groups", RateWindow(GROUPS_PER_HOUR, 3600.0))
    monkeypatch.setattr(group_actions, "_new_groups_here",
                        RateWindow(GROUPS_PER_ADDRESS_HOUR, 3600.0))


def test_a_halls_tables_each_make_their_group(store: AnyStore) -> None:
    for table in range(12):  # twelve tables' phones, one address
        phone(store, f"hall-table-{table:013d}", HALL).create(f"Table {table + 1}")
    one = phone(store, "hall-table-0000000000000", HALL)
    for n in range(GROUPS_PER_HOUR - 1):
        one.create(f"More {n}")
    with pytest.raises(TooManyGroups, match="This phone has made"):
        one.create("One too many")
    phone(store, "hall-table-0000000000099", HALL).create("Another table")


def test_a_stranger_making_up_phones_is_held_at_the_address(store: AnyStore) -> None:
    for n in range(GROUPS_PER_ADDRESS_HOUR):
        phone(store, f"made-up-{n:016d}", "203.0.113.66").create(f"Spam {n}")
    with pytest.raises(TooManyGroups, match="Phones on this network have made"):
        phone(store, "made-up-9999999999999999", "203.0.113.66").create("Spam")
    phone(store, "someone-else-000000000001", "203.0.113.67").create("Friday")
