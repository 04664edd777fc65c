"""Fixtures of the store tests; the small games they store are in store_docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.store import GameStore


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "data")
