"""Fixtures of the group tests."""

from __future__ import annotations

import pytest

from scorer.app import group_actions
from scorer.rights import RateWindow


@pytest.fixture(autouse=True)
def fresh_group_brakes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no groups made this hour: the brakes are one per process
    (on a laptop), and tests making groups with one phone's token would share them."""
    monkeypatch.setattr(group_actions, "_new_groups",
                        RateWindow(group_actions.GROUPS_PER_HOUR, 3600.0))
    monkeypatch.setattr(group_actions, "_new_groups_here",
                        RateWindow(group_actions.GROUPS_PER_ADDRESS_HOUR, 3600.0))
