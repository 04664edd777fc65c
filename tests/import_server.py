"""A table server in this process that takes `tarabish import`'s hand-offs (key KEY)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorer.app import CONFIG, store_access

KEY = "k" * 43


def server_taking_imports(data: Path, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    """The table server's app on `data`, as after a start with the lock file's key KEY."""
    from scorer.server import build_app

    monkeypatch.setattr(store_access, "_backends", None)
    monkeypatch.setattr(CONFIG, "data_dir", None)
    monkeypatch.setattr(CONFIG, "import_key", KEY)
    return TestClient(build_app(data))
