"""Each group store the app can have: a data folder's and a community's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.groups.folder import FolderGroups
from scorer.groups.pg import PgGroups
from scorer.groups.service import Groups
from scorer.store.database import Database


@pytest.fixture(params=["folder", "postgresql"])
def groups(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Groups]:
    if request.param == "folder":
        yield FolderGroups(tmp_path / "data")
        return
    db = Database(request.getfixturevalue("pg_url"))
    try:
        yield PgGroups(db)
    finally:
        db.close()
