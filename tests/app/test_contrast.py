"""Every text the app and the club pages draw is readable: WCAG contrast of at
least 4.5:1 (3:1 for large words), in light and in dark."""

from __future__ import annotations

import re
from pathlib import Path

import flet as ft
import pytest

from scorer.app import theme

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "scorer" / "app"
CLUB_PAGES = ROOT / "scorer" / "web" / "club_pages"
# Lines and marks of the race chart: graphics, not words (its words are muted text).
GRAPHICS_ONLY = {"race_chart.py"}


def luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of #RGB or #RRGGBB."""
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_is_wcag() -> None:
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    # The club screens' error snack bar before the fix: the snack bar's own
    # (inverse) words on the error colour.
    assert contrast(theme.LIGHT_ROLES["on_inverse_surface"],
                    theme.LIGHT_ROLES["error_container"]) < 1.2


MODES = [pytest.param(False, id="light"), pytest.param(True, id="dark")]


@pytest.mark.parametrize("dark", MODES)
@pytest.mark.parametrize("name", sorted(theme.PAIRS))
def test_theme_pair_is_readable(name: str, dark: bool) -> None:
    pair = theme.PAIRS[name]
    ratio = contrast(theme.hex_of(pair.fg, dark), theme.hex_of(pair.bg, dark))
    assert ratio >= (3 if pair.large else 4.5), f"{name}: {ratio:.2f}:1"


def test_both_modes_give_every_role() -> None:
    assert theme.LIGHT_ROLES.keys() == theme.DARK_ROLES.keys()
    for roles in (theme.LIGHT_ROLES, theme.DARK_ROLES):
        assert all(re.fullmatch(r"#[0-9A-F]{6}", v) for v in roles.values())


def test_the_theme_pins_the_roles() -> None:
    """What the test measures is what the phone draws: the scheme is set, not guessed."""
    for mode, roles in ((ft.Brightness.LIGHT, theme.LIGHT_ROLES),
                        (ft.Brightness.DARK, theme.DARK_ROLES)):
        scheme = theme.build_theme(mode).color_scheme
        assert scheme is not None
        assert {k: getattr(scheme, k) for k in roles} == roles


def colours_used(path: Path) -> set[str]:
    return {getattr(ft.Colors, name) for name in
            re.findall(r"(?:ft\.)?Colors\.([A-Z][A-Z_0-9]*)", path.read_text())}


def test_every_colour_of_the_app_is_in_a_pair() -> None:
    """A colour drawn anywhere in scorer/app has a hex and is measured in some pair:
    a new colour must be added to theme.PAIRS to pass."""
    paired = {c for p in theme.PAIRS.values() for c in (p.fg, p.bg)}
    not_words = {ft.Colors.OUTLINE, theme.SEED}  # borders; the seed the scheme grows from
    missing: dict[str, set[str]] = {}
    for path in APP.rglob("*.py"):
        if path.name in GRAPHICS_ONLY or path.name == "theme.py":
            continue
        for colour in colours_used(path) - paired - not_words:
            missing.setdefault(path.name, set()).add(colour)
    assert not missing, f"colours in no theme pair: {missing}"
    for colour in paired:
        theme.hex_of(colour, False)
        theme.hex_of(colour, True)


# The club pages (board and table cards): plain CSS, light and dark.

def css_blocks(css: str) -> tuple[str, str]:
    """The page's light rules and its dark-mode block (print rules left out)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    dark = re.search(r"@media \(prefers-color-scheme: dark\) \{(.*?\})\s*\}", css, re.S)
    assert dark is not None
    light = css.replace(dark.group(0), "")
    light = re.sub(r"@media print \{.*?\}\s*\}", "", light, flags=re.S)
    return light, dark.group(1)


def variables(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", block))


def board_pairs(name: str = "board.css", grounds_of_words: tuple[str, ...] = ("bg", "card")
                ) -> list[tuple[str, str, str, str]]:
    """(mode, rule, words, ground) for every rule of a page (board.css) that colours
    words; words on their own ground, else on each of `grounds_of_words`."""
    light, dark = css_blocks((CLUB_PAGES / name).read_text())
    out = []
    for mode, values in (("light", variables(light)), ("dark", variables(light) | variables(dark))):
        for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", light):
            words = re.search(r"(?<![-\w])color:\s*var\(--([\w-]+)\)", body)
            if words is None:
                continue
            own = re.search(r"background:\s*var\(--([\w-]+)\)", body)
            # Words on their own ground, else on the page or on a table's card.
            grounds = [own.group(1)] if own else list(grounds_of_words)
            for ground in grounds:
                out.append((mode, selector.strip(), values[words.group(1)], values[ground]))
    return out


def cards_pairs() -> list[tuple[str, str, str, str]]:
    light, dark = css_blocks((CLUB_PAGES / "cards.css").read_text())
    out = []
    for mode, block in (("light", light), ("dark", dark)):
        ground = re.search(r"body\s*\{[^}]*background:\s*(#\w+)", block)
        assert ground is not None
        for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", block):
            for words in re.findall(r"(?<![-\w])color:\s*(#\w+)", body):
                out.append((mode, selector.strip(), words, ground.group(1)))
    return out


def test_the_css_pairs_are_found() -> None:
    board, cards = board_pairs(), cards_pairs()
    assert len(board) >= 20 and any(".winners" in p[1] for p in board)
    assert {p[0] for p in cards} == {"light", "dark"} and len(cards) >= 4


@pytest.mark.parametrize("page", ["board", "cards", "leaderboard"])
def test_club_page_colours_are_readable(page: str) -> None:
    # The TV leaderboard's words lie on the page and on every other row's band.
    pairs = (board_pairs() if page == "board" else cards_pairs() if page == "cards"
             else board_pairs("leaderboard.css", ("bg", "band")))
    assert pairs
    low = [f"{mode} {rule}: {contrast(fg, bg):.2f}:1" for mode, rule, fg, bg in pairs
           if contrast(fg, bg) < 4.5]
    assert not low
