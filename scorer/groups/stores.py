"""Which group store goes with a game store: the folder's `groups.json`, or the
community's database when the games live there."""

from __future__ import annotations

from typing import Any

from scorer.groups.folder import FolderGroups
from scorer.groups.service import Groups


def groups_for(store: Any) -> Groups:
    """The groups kept where `store` keeps its games (a new `Groups` each call: the
    app keeps one per process, `scorer.app.group_access.get_groups`)."""
    db = getattr(store, "db", None)
    if db is not None:
        # Imported here: the phone-alone build has no psycopg.
        from scorer.groups.pg import PgGroups

        return PgGroups(db)
    return FolderGroups(store.data_dir)
