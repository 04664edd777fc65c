"""Cut the two big fonts every phone downloads down to what the app can show.

    uv run python tools/subset_fonts.py [--out-dir DIR]

Run it by hand (not at server start) after adding an `ft.Icons.X` to
`scorer/`, or a character outside the kept ranges to a text in `scorer/` or
`rules/`; commit the two files it writes. `tests/web/test_font_subsets.py`
fails while they are out of date.

- `assets/fonts/DejaVuSans-subset.ttf`, from `assets/fonts/DejaVuSans.ttf`
  (DejaVu Sans 2.37, Debian's fonts-dejavu-core): the theme draws every text
  with it. Kept: Basic Latin, Latin-1 Supplement and Latin Extended-A (player
  names with accents), General Punctuation (– — ’ “ ” • … and spaces), the
  four suits black and white, a few arrows and maths signs, and every
  character of every string literal in `scorer/` and `rules/`. A character
  outside the subset (a Cyrillic player name, say) is drawn by Flutter's
  fallback, the Roboto that Flet serves. Hinting is dropped (the browser
  draws with anti-aliasing and no TrueType hinting); names and layout
  features (kerning, ligatures) are kept.
- `assets/fonts/MaterialIcons-subset.otf`, from the Material Icons font in the
  installed flet-web wheel (`flet_web/web/assets/fonts/MaterialIcons-Regular.otf`,
  the one Flutter's FontManifest asks for): the icons named by `ft.Icons.X`
  in `scorer/`, plus `FLUTTER_ICONS`, the icons Flutter's own Material
  widgets draw. `scorer.server` serves it in place of the full font.

The Material Icons font names each glyph after its Flutter icon and style:
`Icons.delete_outline` is glyph `delete_outline_baseline`,
`Icons.delete_outline_rounded` is `delete_outline_rounded`. A name that does
not resolve stops the script with an error (add it to `ICON_ALIASES`).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

REPO = Path(__file__).resolve().parents[1]
FONTS_DIR = REPO / "assets" / "fonts"
DEJAVU_SOURCE = FONTS_DIR / "DejaVuSans.ttf"
DEJAVU_SUBSET_NAME = "DejaVuSans-subset.ttf"
ICONS_SUBSET_NAME = "MaterialIcons-subset.otf"
ICONS_IN_WHEEL = "assets/fonts/MaterialIcons-Regular.otf"
"""Path of the Material Icons font under flet-web's web folder (and in URLs)."""

ICON_SCAN_DIRS = ("scorer",)
TEXT_SCAN_DIRS = ("scorer", "rules")

TEXT_RANGES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x00FF),  # Latin-1 Supplement: é ü ½ × ÷ · « » ©
    (0x0100, 0x017F),  # Latin Extended-A: ł č ő œ š ž (names)
    (0x2000, 0x206F),  # General Punctuation: spaces, ‑ – — ’ “ ” • … ′ ″
    (0x2190, 0x2195),  # ← ↑ → ↓ ↔ ↕
    (0x2660, 0x2667),  # ♠ ♡ ♢ ♣ ♤ ♥ ♦ ♧
)
TEXT_EXTRA = "€™−∓±≤≥≠≈✓✔✗✘⌫"
"""Single characters kept besides the ranges (maths signs, ticks, the erase key)."""

FLUTTER_ICONS: tuple[str, ...] = (
    # AppBar back/close/drawer buttons (BackButtonIcon: arrow_back, or
    # arrow_back_ios on iPhones and Macs; newer Flutter: arrow_back_ios_new).
    "arrow_back", "arrow_back_ios", "arrow_back_ios_new", "arrow_forward",
    "arrow_forward_ios", "close", "menu",
    # ExpansionTile, Dropdown/DropdownMenu, PopupMenuButton (Icons.adaptive.more),
    # SearchBar/SearchAnchor, SnackBar close, Chip delete, SegmentedButton check.
    "expand_more", "expand_less", "keyboard_arrow_down", "keyboard_arrow_up",
    "keyboard_arrow_left", "keyboard_arrow_right", "arrow_drop_down", "arrow_drop_up",
    "more_vert", "more_horiz", "search", "clear", "cancel", "check",
    # Date/time pickers, data tables, reorderable lists.
    "chevron_left", "chevron_right", "edit", "calendar_today", "access_time",
    "keyboard", "arrow_upward", "arrow_downward", "drag_handle",
    # TextField(password=True, can_reveal_password=True).
    "visibility", "visibility_off",
    # Error, info and warning icons Flet's client and dialogs may show.
    "error", "error_outline", "info", "info_outline", "warning", "warning_amber",
    "refresh",
)
"""Icons Flutter's Material widgets (and Flet's client) draw on their own, whatever
the app names: kept so the widgets Flet builds never show an empty box."""

ICON_ALIASES: dict[str, str] = {
    # Flutter names that differ from the font's glyph names (checked against the
    # flet-web 1.0.5 font: these have no glyph of their own name).
    "bookmark_outline": "bookmark_border",
    "copy": "content_copy",
    "cut": "content_cut",
    "paste": "content_paste",
}
"""ft.Icons name (lower case, style suffix removed) -> the font's glyph base name."""

ICON_STYLES = ("_outlined", "_rounded", "_sharp")


class IconNotFoundError(LookupError):
    pass


def material_icons_source() -> Path:
    """The Material Icons font of the installed flet-web wheel."""
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir()) / ICONS_IN_WHEEL


def used_icon_names(dirs: Iterable[Path]) -> set[str]:
    """Lower-case names of every `ft.Icons.NAME` written in the .py files under dirs."""
    pattern = re.compile(r"\bft\.Icons\.([A-Z0-9_]+)\b")
    names: set[str] = set()
    for folder in dirs:
        for path in sorted(folder.rglob("*.py")):
            names.update(m.lower() for m in pattern.findall(path.read_text(encoding="utf-8")))
    return names


def string_literal_chars(dirs: Iterable[Path]) -> dict[str, str]:
    """Every character of every string literal (f-strings included) in the .py
    files under dirs -> one file it appears in."""
    found: dict[str, str] = {}
    for folder in dirs:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    for ch in node.value:
                        found.setdefault(ch, str(path.relative_to(folder.parent)))
    return found


def is_drawn(ch: str) -> bool:
    """False for control characters (newline, tab...), which no font draws."""
    return unicodedata.category(ch) != "Cc"


def text_codepoints(dirs: Iterable[Path]) -> set[int]:
    """Code points the DejaVu subset keeps (those the full font has are kept)."""
    points = {cp for lo, hi in TEXT_RANGES for cp in range(lo, hi + 1)}
    points.update(ord(ch) for ch in TEXT_EXTRA)
    points.update(ord(ch) for ch in string_literal_chars(dirs) if is_drawn(ch))
    return points


def icon_glyph(name: str, glyph_names: set[str]) -> str:
    """The font's glyph for a Flutter icon name (`delete_outline` ->
    `delete_outline_baseline`); IconNotFoundError if there is none."""
    name = name.lower()
    if name.endswith(ICON_STYLES) and name in glyph_names:
        return name
    style = next((s for s in ICON_STYLES if name.endswith(s)), "")
    base = name[: len(name) - len(style)] if style else name
    base = ICON_ALIASES.get(base, base)
    glyph = base + (style or "_baseline")
    if glyph in glyph_names:
        return glyph
    raise IconNotFoundError(
        f"icon {name!r} has no glyph {glyph!r} in the Material Icons font; "
        "add its glyph name to ICON_ALIASES in tools/subset_fonts.py")


def icon_codepoints(font: TTFont, names: Iterable[str]) -> dict[str, list[int]]:
    """Icon name -> the code points of its glyph (several if the font aliases it)."""
    cmap = font.getBestCmap()
    by_glyph: dict[str, list[int]] = {}
    for cp, glyph in cmap.items():
        by_glyph.setdefault(glyph, []).append(cp)
    glyph_names = set(by_glyph)
    missing: list[str] = []
    result: dict[str, list[int]] = {}
    for name in sorted(set(names)):
        try:
            result[name] = sorted(by_glyph[icon_glyph(name, glyph_names)])
        except IconNotFoundError as exc:
            missing.append(str(exc))
    if missing:
        raise IconNotFoundError("\n".join(missing))
    return result


def icon_names(repo: Path = REPO) -> set[str]:
    """The icons to keep: those scorer/ names, plus FLUTTER_ICONS."""
    return used_icon_names(repo / d for d in ICON_SCAN_DIRS) | set(FLUTTER_ICONS)


def _subset(source: Path, target: Path, codepoints: Iterable[int], hinting: bool) -> None:
    options = subset.Options()
    options.name_IDs = ["*"]  # keep copyright and licence names
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = hinting
    options.recalc_timestamp = False
    options.drop_tables += ["FFTM"]  # FontForge timestamps
    font = TTFont(source, recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(set(codepoints)))
    subsetter.subset(font)
    target.parent.mkdir(parents=True, exist_ok=True)
    font.save(target)


def make_subsets(out_dir: Path = FONTS_DIR, repo: Path = REPO,
                 icons_source: Path | None = None) -> tuple[Path, Path]:
    """Write both subsets into out_dir; returns (DejaVu path, icons path)."""
    icons_source = icons_source or material_icons_source()
    dejavu = out_dir / DEJAVU_SUBSET_NAME
    _subset(repo / "assets" / "fonts" / DEJAVU_SOURCE.name, dejavu,
            text_codepoints(repo / d for d in TEXT_SCAN_DIRS), hinting=False)
    codes = icon_codepoints(TTFont(icons_source, lazy=True), icon_names(repo))
    icons = out_dir / ICONS_SUBSET_NAME
    _subset(icons_source, icons, (cp for cps in codes.values() for cp in cps), hinting=True)
    return dejavu, icons


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out-dir", type=Path, default=FONTS_DIR)
    args = parser.parse_args(argv)
    try:
        written = make_subsets(args.out_dir)
    except IconNotFoundError as exc:
        print(f"subset_fonts: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"{path} ({path.stat().st_size:,} bytes)")
    print("icons kept:", " ".join(sorted(icon_names())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
