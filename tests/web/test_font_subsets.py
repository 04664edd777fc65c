"""The font subsets the server sends instead of the full fonts
(`tools/subset_fonts.py`, committed in assets/fonts/):

- every `ft.Icons.X` named in scorer/ (and every icon Flutter's own widgets
  draw) has its glyph, at the code point Flutter asks for, in the icon subset;
- every character of every string literal in scorer/ and rules/, and the
  eight suit symbols, is in the DejaVu Sans subset;
- the committed files are what the script makes from today's sources, so an
  icon or a character added without regenerating fails here;
- the server answers Flutter's Material Icons request with the subset, and
  the page registers the DejaVu subset.
"""

from __future__ import annotations

import ast
import gzip
import importlib.util
import re
import tempfile
import unicodedata
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from fontTools.ttLib import TTFont

with warnings.catch_warnings():  # starlette's TestClient on httpx: deprecated, still fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

REPO = Path(__file__).resolve().parents[2]
FONTS_DIR = REPO / "assets" / "fonts"
REGENERATE = ("run `uv run python tools/subset_fonts.py` and commit "
              "assets/fonts/DejaVuSans-subset.ttf and assets/fonts/MaterialIcons-subset.otf")
SUITS = "♠♥♦♣♤♡♢♧"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("subset_fonts", REPO / "tools" / "subset_fonts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cmap_of(path: Path) -> dict[int, str]:
    return dict(TTFont(path, lazy=True).getBestCmap())


def used_icons() -> set[str]:
    """`ft.Icons.NAME` in scorer/, found independently of the script."""
    names: set[str] = set()
    for path in (REPO / "scorer").rglob("*.py"):
        names.update(n.lower() for n in re.findall(r"ft\.Icons\.(\w+)", path.read_text("utf-8")))
    return names


def text_characters() -> dict[str, str]:
    """Character -> a file whose string literals use it (scorer/ and rules/)."""
    found: dict[str, str] = {}
    for folder in ("scorer", "rules"):
        for path in sorted((REPO / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    for ch in node.value:
                        if unicodedata.category(ch) != "Cc":
                            found.setdefault(ch, str(path.relative_to(REPO)))
    for ch in SUITS:
        found.setdefault(ch, "the suits")
    return found


def test_scorer_names_icons(tool: ModuleType) -> None:
    # The scan works: the app's own icons are found, both ways.
    assert {"menu_book", "delete_outline", "qr_code_2"} <= used_icons()
    assert used_icons() <= tool.icon_names()
    assert set(tool.FLUTTER_ICONS) <= tool.icon_names()


def test_every_icon_has_its_glyph_in_the_subset(tool: ModuleType) -> None:
    full = TTFont(tool.material_icons_source(), lazy=True)
    subset = cmap_of(FONTS_DIR / tool.ICONS_SUBSET_NAME)
    # Raises, naming the icon, if a name has no glyph in the full font.
    wanted = tool.icon_codepoints(full, used_icons() | set(tool.FLUTTER_ICONS))
    full_cmap = full.getBestCmap()
    missing = [f"{name} (U+{cp:04X} {full_cmap[cp]})"
               for name, cps in sorted(wanted.items()) for cp in cps
               if subset.get(cp) != full_cmap[cp]]
    assert not missing, f"icons missing from the subset: {', '.join(missing)}; {REGENERATE}"


def test_icon_names_resolve_like_flutter(tool: ModuleType) -> None:
    # Flutter's Icons.add is U+E047 and Icons.arrow_back U+E092 (icons.dart);
    # a style suffix picks that style's glyph.
    full = TTFont(tool.material_icons_source(), lazy=True)
    codes = tool.icon_codepoints(full, ["add", "arrow_back", "delete_outline",
                                        "delete_outline_rounded", "copy"])
    assert 0xE047 in codes["add"] and 0xE092 in codes["arrow_back"]
    glyphs = full.getBestCmap()
    assert glyphs[codes["delete_outline"][0]] == "delete_outline_baseline"
    assert glyphs[codes["delete_outline_rounded"][0]] == "delete_outline_rounded"
    assert glyphs[codes["copy"][0]] == "content_copy_baseline"
    with pytest.raises(tool.IconNotFoundError, match="no_such_icon"):
        tool.icon_codepoints(full, ["no_such_icon"])


def test_every_text_character_is_in_the_dejavu_subset(tool: ModuleType) -> None:
    full = cmap_of(FONTS_DIR / "DejaVuSans.ttf")
    subset = cmap_of(FONTS_DIR / tool.DEJAVU_SUBSET_NAME)
    chars = text_characters()
    not_in_dejavu = [f"U+{ord(c):04X} {c!r} ({where})" for c, where in sorted(chars.items())
                     if ord(c) not in full]
    assert not not_in_dejavu, ("DejaVu Sans cannot draw these (they would show with a "
                               f"fallback font or as boxes): {', '.join(not_in_dejavu)}")
    missing = [f"U+{ord(c):04X} {c!r} ({where})" for c, where in sorted(chars.items())
               if ord(c) not in subset]
    assert not missing, f"characters missing from the DejaVu subset: {missing}; {REGENERATE}"
    # Names with accents and the usual punctuation, whatever the texts hold.
    for ch in "éèêëàâäçñöüßøåæœłŁčšžőűÉÀÇ–—‘’“”•…½×÷€":
        assert ord(ch) in subset, ch


@pytest.fixture(scope="module")
def regenerated(tool: ModuleType) -> Iterator[tuple[Path, Path]]:
    with tempfile.TemporaryDirectory() as tmp:
        yield tool.make_subsets(Path(tmp))


def test_committed_subsets_are_up_to_date(tool: ModuleType,
                                          regenerated: tuple[Path, Path]) -> None:
    dejavu, icons = regenerated
    for fresh, committed in ((dejavu, FONTS_DIR / tool.DEJAVU_SUBSET_NAME),
                             (icons, FONTS_DIR / tool.ICONS_SUBSET_NAME)):
        assert committed.is_file(), f"{committed} is missing; {REGENERATE}"
        now, then = cmap_of(fresh), cmap_of(committed)
        added = sorted(set(now) - set(then))
        dropped = sorted(set(then) - set(now))
        assert now == then, (
            f"{committed.name} is out of date (code points to add: "
            f"{[f'U+{c:04X} {now[c]}' for c in added][:20]}, to drop: "
            f"{[f'U+{c:04X} {then[c]}' for c in dropped][:20]}); {REGENERATE}")


def test_subsets_are_small() -> None:
    assert (FONTS_DIR / "DejaVuSans-subset.ttf").stat().st_size < 150_000
    assert (FONTS_DIR / "MaterialIcons-subset.otf").stat().st_size < 50_000


def test_the_page_registers_the_dejavu_subset(tool: ModuleType) -> None:
    from scorer.app import FONTS, SUIT_FONT

    assert list(FONTS) == [SUIT_FONT]
    assert FONTS[SUIT_FONT] == f"fonts/{tool.DEJAVU_SUBSET_NAME}"
    assert (REPO / "assets" / FONTS[SUIT_FONT]).is_file()


def test_the_server_answers_the_icon_font_with_the_subset(tmp_path: Path) -> None:
    from scorer import server

    client = TestClient(server.build_app(tmp_path))
    subset = (FONTS_DIR / server.ICON_FONT_SUBSET).read_bytes()
    url = server.ICON_FONT_URL
    assert url in server.WARM_PATHS
    resp = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert resp.status_code == 200
    assert resp.headers["content-encoding"] == "gzip"
    assert resp.headers["cache-control"] == "no-cache"
    assert resp.content == subset  # httpx decodes the gzip body
    assert len(gzip.compress(subset)) < 20_000
    again = client.get(url, headers={"Accept-Encoding": "gzip",
                                     "If-None-Match": resp.headers["etag"]})
    assert again.status_code == 304
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and plain.content == subset
    assert plain.headers["content-type"] == "font/otf"
