"""Fixtures for every test folder, and the markers a test gets from what it uses.

Every test is marked by what it needs (pytest_itemcollected below), so a
quick loop can leave out the slow kinds: `browser` (Chromium: tests/e2e,
tests/pwa, any test using a browser fixture), `postgres` (a PostgreSQL cluster:
the `pg_url` family, or the "postgresql" side of a store fixture) and `slow` (the
real table server started in a subprocess, and tests marked so by hand).
The run is spread over several processes (pytest-xdist, `-n` in pyproject.toml):
a session fixture here is made once per worker, unless it says otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from playwright.sync_api import expect

from scorer.groups.folder import FolderGroups
from scorer.groups.pg import PgGroups
from scorer.groups.service import Groups
from scorer.store import GameStore
from scorer.store.database import Database
from scorer.store.pg_games import PgGameStore
from tests.pg_cluster import Cluster, running_cluster
from tests.run_order import longest_first, recorded
from tests.run_shared import held, run_folder

# No deadline per example (Hypothesis' default is 200 ms): a test's verdict must not
# hang on how busy the machine is, and the workers share two cores.
settings.register_profile("tarabish", deadline=None)
settings.load_profile("tarabish")

# How long a browser test's `expect(...)` waits for what a player would see
# (Playwright's default is 5 s): the run's workers share two cores with their
# browsers and servers, and a screen drawn late is not a wrong screen. A check that
# something is absent passes at once.
EXPECT_TIMEOUT_MS = 15_000
expect.set_options(timeout=EXPECT_TIMEOUT_MS)

TESTS = Path(__file__).resolve().parent
BROWSER_FOLDERS = ("e2e", "pwa")
"""Folders whose every test drives Chromium (or a script that does)."""
BROWSER_FIXTURES = frozenset({"browser", "pwa_browser"})
POSTGRES_FIXTURES = frozenset({"pg_cluster"})
SERVER_FIXTURES = frozenset({"start_server", "app_server", "table_server"})
"""Fixtures that start the real table server in a subprocess: its tests are `slow`."""
POSTGRES_PARAM = "postgresql"
"""The parameter of the both-stores fixtures (`store`, `groups`...) that opens
PostgreSQL by `request.getfixturevalue`, which the fixture closure cannot see."""


def pytest_itemcollected(item: pytest.Item) -> None:
    """Mark each test `browser`, `postgres` and/or `slow` by what it uses (see the
    docstring), as it is collected: before `-m` deselects by these marks."""
    used = set(getattr(item, "fixturenames", ()))
    params = getattr(getattr(item, "callspec", None), "params", {})
    try:
        folder = item.path.relative_to(TESTS).parts[0]
    except ValueError:
        folder = ""
    if folder in BROWSER_FOLDERS or used & BROWSER_FIXTURES:
        item.add_marker(pytest.mark.browser)
    if used & SERVER_FIXTURES:
        item.add_marker(pytest.mark.slow)
    if used & POSTGRES_FIXTURES or any(
            isinstance(value, str) and value == POSTGRES_PARAM for value in params.values()):
        item.add_marker(pytest.mark.postgres)


@pytest.hookimpl(trylast=True)  # after pytest's own reordering (its fixtures' params)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest first, so the run does not end on one worker's long test
    (tests/run_order.py)."""
    longest_first(items, recorded(), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))

# The table servers tests start build no app for phones in the background (minutes of
# CPU each); the tests of it name theirs (scorer.web.phone_app).
os.environ.setdefault("TARABISH_PHONE_APP", "off")
# Nor their page files' Zopfli pass: each server would start its minutes of CPU again
# (with its own session it is no low priority against the tests: the kernel shares the
# CPU between sessions first) and be stopped before it ends. Measured on 13 browser
# tests: 97 and 84 s of CPU with it, 75 and 68 without. The passes' own tests make
# their CompressedCache themselves (tests/web/test_compression.py and its neighbours).
os.environ.setdefault("TARABISH_BEST_GZIP", "off")


@pytest.fixture(scope="session")
def page_file_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cache folder (TARABISH_CACHE) of every table server a test starts, not the
    user's: the first server compresses the page files, the others read them, as later
    starts of `tarabish` do. One folder for every worker of the run: the cache is made
    to be shared by several processes (scorer/machine/disk_cache.py)."""
    folder = run_folder(tmp_path_factory) / "page-file-cache"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def phone_wheels(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The phone's wheels, as `tarabish build-web` fetches them into the user's cache:
    one worker at a time, so two never pip-download into that folder at once."""
    from scorer.webbuild.wheels import default_cache_dir, download, read_pins

    with held(run_folder(tmp_path_factory) / "phone-wheels.lock"):
        return download(read_pins(TESTS.parent / "uv.lock"), default_cache_dir())


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the whole run of a worker (tests/pg_cluster.py:
    its own port and folder, so the workers' clusters never meet). Skipped
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


# --------------------------------------------------------------------------
# The stores: each fixture with "folder" and "postgresql" sides runs its tests on
# both (the laptop's data folder and a community's database).
# --------------------------------------------------------------------------


@pytest.fixture(params=["folder", "postgresql"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store(store_kind: str, tmp_path: Path,
          request: pytest.FixtureRequest) -> Iterator[GameStore | PgGameStore]:
    """Each game store the app can have: a data folder's (tmp_path/data) and a
    community's (a fresh database; its caches in tmp_path/cache)."""
    if store_kind == "folder":
        with GameStore(tmp_path / "data") as folder:
            yield folder
        return
    db = Database(request.getfixturevalue("pg_url"))
    try:
        yield PgGameStore(db, data_dir=tmp_path / "cache")
    finally:
        db.close()


@pytest.fixture
def folder_store(tmp_path: Path) -> GameStore:
    """A folder's store, for what only a folder has (its files)."""
    return GameStore(tmp_path / "data")


@pytest.fixture
def pg_store(pg_url: str, tmp_path: Path) -> Iterator[PgGameStore]:
    """A community's store, beside `folder_store` where both are compared."""
    db = Database(pg_url)
    try:
        yield PgGameStore(db, data_dir=tmp_path / "cache")
    finally:
        db.close()
