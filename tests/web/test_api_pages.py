"""Pages a guest has no use for are not served: FastAPI's API pages that Flet's
inner app keeps (/docs pulls its script from a CDN, /openapi.json lists routes)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from scorer import server

with warnings.catch_warnings():  # starlette's TestClient on httpx: deprecated, still fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.mark.parametrize("path", sorted(server.API_PAGES))
def test_fastapi_pages_are_not_served(tmp_path: Path, path: str) -> None:
    with TestClient(server.build_app(tmp_path)) as client:
        r = client.get(path)
        assert b"swagger" not in r.content.lower() and b"redoc" not in r.content.lower()
        assert b'"openapi"' not in r.content
        assert r.status_code == 404 or r.content.lstrip().lower().startswith(b"<!doctype html")
