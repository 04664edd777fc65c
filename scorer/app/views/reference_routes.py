"""Routes of the table helpers, picked up by `scorer.app.router`: the rules
reference, the run checker and the card counter. Each takes `?game=<id>` (and
`&hand=<new|n>` from a hand being recorded) to work for that game."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import flet as ft

from scorer.app.context import AppContext

Builder = Callable[[AppContext, dict[str, str], dict[str, str]], ft.View]
MODULES = ("card_counter", "rules_reference", "run_checker")


def _view(module: str) -> Callable[[AppContext, dict[str, str]], ft.View]:
    """The screen of scorer.app.views.`module`, imported when first shown."""
    built: Callable[[AppContext, dict[str, str]], ft.View] = getattr(
        importlib.import_module(f"scorer.app.views.{module}"), f"{module}_view")
    return built


def import_views() -> None:
    for module in MODULES:
        importlib.import_module(f"scorer.app.views.{module}")


ROUTES: list[tuple[str, Builder]] = [
    (r"/rules", lambda ctx, _p, q: _view("rules_reference")(ctx, q)),
    (r"/check", lambda ctx, _p, q: _view("run_checker")(ctx, q)),
    (r"/count", lambda ctx, _p, q: _view("card_counter")(ctx, q)),
]
