"""Fixtures for every test folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.groups.folder import FolderGroups
from scorer.groups.pg import PgGroups
from scorer.groups.service import Groups
from scorer.store.database import Database
from tests.pg_cluster import Cluster, running_cluster

# The table servers tests start build no app for phones in the background (minutes of
# CPU each); the tests of it name theirs (scorer.web.phone_app).
os.environ.setdefault("TARABISH_PHONE_APP", "off")


@pytest.fixture(scope="session")
def page_file_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cache folder (TARABISH_CACHE) of every table server a test starts, not the
    user's: the first server compresses the page files, the others read them, as later
    starts of `tarabish` do."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the whole run (tests/pg_cluster.py). Skipped
    without PostgreSQL on this machine, failed in CI (CI=true), which installs it."""
    with running_cluster() as cluster:
        if cluster is None:
            message = ("PostgreSQL is not installed (apt-get install postgresql, or set "
                       "TARABISH_PG_BIN to its bin folder)")
            if os.environ.get("CI") == "true":
                pytest.fail(message)
            pytest.skip(message)
        yield cluster


@pytest.fixture(scope="session")
def pg_schema_template(pg_cluster: Cluster) -> str:
    """The name of a database with the community schema, copied for each test."""
    from scorer.store.database import ensure_schema

    url = pg_cluster.new_database()
    ensure_schema(url)
    name = url.rsplit("/", 1)[1]
    return name


@pytest.fixture
def pg_url(pg_cluster: Cluster, pg_schema_template: str) -> str:
    """A fresh database with the community schema (a copy of the template): its URL."""
    return pg_cluster.new_database(template=pg_schema_template)


@pytest.fixture
def pg_empty_url(pg_cluster: Cluster) -> str:
    """A fresh empty database (no schema yet): its URL."""
    return pg_cluster.new_database()


@pytest.fixture(params=["folder", "postgresql"])
def groups(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Groups]:
    """Each group store the app can have: a data folder's and a community's."""
    if request.param == "folder":
        yield FolderGroups(tmp_path / "data")
        return
    db = Database(request.getfixturevalue("pg_url"))
    try:
        yield PgGroups(db)
    finally:
        db.close()
