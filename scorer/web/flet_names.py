"""The Flet names the app's code uses, and resolving them ahead of the first page.

Flet imports a control's module the first time its name is used (`ft.TextField`
imports flet.controls.material.textfield) and reads its icon table at the first
icon. Left to the first page, that is ~0.15 s of the server's event loop while
the first phone waits; a phone alone does it while building its memory snapshot
(scorer.webbuild.site.snapshot_imports). Not shipped to phones.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

FLET_NAME = re.compile(r"\bft\.([A-Za-z][A-Za-z0-9_]*)")
ICON_NAME = re.compile(r"\bft\.((?:Cupertino)?Icons\.[A-Z0-9_]+)")
SCORER = Path(__file__).resolve().parent.parent


def flet_names(sources: Iterable[str]) -> set[str]:
    """`Text` for every `ft.Text` in the sources, `Icons.ADD` for every `ft.Icons.ADD`."""
    names: set[str] = set()
    for source in sources:
        names.update(FLET_NAME.findall(source))
        names.update(ICON_NAME.findall(source))
    return names


def app_sources() -> Iterator[str]:
    """The text of every module of the app's screens (scorer/app)."""
    for path in sorted((SCORER / "app").rglob("*.py")):
        yield path.read_text(encoding="utf-8", errors="replace")


def resolve_flet_names(names: Iterable[str]) -> None:
    """Look every name up in flet now (a name that is not Flet's is passed over)."""
    import flet

    for dotted in sorted(names):
        found: object = flet
        with contextlib.suppress(AttributeError):
            for part in dotted.split("."):
                found = getattr(found, part)
