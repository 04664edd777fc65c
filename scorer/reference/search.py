"""Finding reference sections by the words a player types ("bait", "nerf")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from scorer.reference.sections import SECTIONS, Section

_WORD = re.compile(r"[\w♠♥♦♣]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold().replace("-", " "))


def _flat(text: str) -> str:
    return " ".join(_words(text))


def search(query: str, sections: Sequence[Section] = SECTIONS) -> tuple[Section, ...]:
    """Sections holding every typed word (or the start of one), best first:
    a hit in the title, then in the keywords, then in the text; the book order
    among equals. An empty query gives every section."""
    words = _words(query)
    if not words:
        return tuple(sections)

    def found(text: str) -> bool:
        padded = f" {_flat(text)}"
        return all(f" {word}" in padded for word in words)

    ranked: list[tuple[int, int, Section]] = []
    for order, section in enumerate(sections):
        if not found(section.search_text):
            continue
        if found(section.title):
            score = 0
        elif found(" ".join(section.keywords)):
            score = 1
        else:
            score = 2
        ranked.append((score, order, section))
    return tuple(section for _score, _order, section in sorted(ranked, key=lambda r: r[:2]))
