"""Page function of the table app: Flet calls `main(page)` once per browser session."""

from __future__ import annotations

from scorer.app.table_app import main

__all__ = ["main"]
