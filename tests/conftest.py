"""Fixtures for every test folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def page_file_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cache folder (TARABISH_CACHE) of every table server a test starts, not the
    user's: the first server compresses the page files, the others read them, as later
    starts of `tarabish` do."""
    return tmp_path_factory.mktemp("cache")
