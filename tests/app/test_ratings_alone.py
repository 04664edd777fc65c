"""On a phone alone (no ratings, no openskill in its site) the ratings screens say
plainly where they are, and the score sheet gives no chance to win."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from scorer.app import CONFIG
from scorer.app.router import RATINGS_ALONE, Router, compiled_routes
from scorer.app.views.chances import chance_line
from tests.fake_phone import texts


@pytest.mark.parametrize("route", ["/ratings", "/ratings?season=month", "/player/Ann",
                                   "/group"])
def test_a_phone_alone_says_the_ratings_are_the_table_servers(
    route: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(CONFIG, "alone", True)
    router = Router.__new__(Router)
    router.ctx = cast(Any, SimpleNamespace(go=lambda _route: None))
    router.routes = compiled_routes()
    view = router.build(route)
    shown = [t for c in view.controls for t in texts(c)]
    assert RATINGS_ALONE in shown


def test_no_chance_on_a_phone_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(CONFIG, "alone", True)
    assert chance_line(cast(Any, None), cast(Any, None)) is None
