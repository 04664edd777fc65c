"""Routes of the table helpers, picked up by `scorer.app.router`: the rules
reference, the run checker and the card counter. Each takes `?game=<id>` (and
`&hand=<new|n>` from a hand being recorded) to work for that game."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.app.context import AppContext
from scorer.app.views.card_counter import card_counter_view
from scorer.app.views.rules_reference import rules_reference_view
from scorer.app.views.run_checker import run_checker_view

Builder = Callable[[AppContext, dict[str, str], dict[str, str]], ft.View]

ROUTES: list[tuple[str, Builder]] = [
    (r"/rules", lambda ctx, _p, q: rules_reference_view(ctx, q)),
    (r"/check", lambda ctx, _p, q: run_checker_view(ctx, q)),
    (r"/count", lambda ctx, _p, q: card_counter_view(ctx, q)),
]
