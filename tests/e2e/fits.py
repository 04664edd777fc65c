"""Does a screen fit the phone? Read from Flutter's accessibility tree (FLET_NOTES 6).

Flutter draws on a canvas, so a test sees a control only as a semantics node: a box
and the control's whole text (a Text cut short with "…" still carries every word).
`assert_fits` checks, for each text a player needs:

- its box lies inside the window (no scroll needed) and clear of the floating bar
  (a bar pinned at the bottom of the screen, given by texts inside it);
- its words fit its box: the text is laid out again in the app's font at the width
  of its box, and must need no more lines than the box has (a Text with `max_lines`
  cut short has fewer lines than its words need);
- a button is tall enough to tap (a scrolling list clips the box of a button it
  half hides).

`one_line` texts must also not wrap (a hand's title with its suit alone below).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from playwright.sync_api import Locator, Page, expect

Wanted = str | re.Pattern[str]

LINE_HEIGHT = 1.43
"""Material 3's body text is 20 px high for a 14 px font: lines are 1.43 font sizes."""
FONT_URL = "/fonts/DejaVuSans-subset.ttf"
"""The app's font (`scorer.app.SUIT_FONT`), served by the app itself."""
MIN_TAP = 40
"""Below this a button's box is cut by the edge of a scrolling list (ours are 48+)."""
SLACK = 1.0

#: Lays `text` out in the app's font at the box's width for each number of lines the
#: box could hold (the font size is not in the tree: a box of height h holds n lines of
#: h / (n * LINE_HEIGHT) px); returns the fewest lines the words need at a size where
#: the box holds that many, or 0 when no size fits them.
FIT_JS = """async ([text, width, height, url, lineHeight, oneLine]) => {
  if (!window.tarabishProbeFont) {
    window.tarabishProbeFont = new FontFace('TarabishProbe', `url(${url})`).load();
    document.fonts.add(await window.tarabishProbeFont);
  }
  await window.tarabishProbeFont;
  const ctx = document.createElement('canvas').getContext('2d');
  const linesAt = (size) => {
    ctx.font = `${size}px TarabishProbe`;
    let lines = 0;
    for (const para of text.split('\\n')) {
      let line = '';
      lines += 1;
      for (const word of para.split(' ')) {
        const next = line ? line + ' ' + word : word;
        if (ctx.measureText(next).width > width + 1 && line) { lines += 1; line = word; }
        else line = next;
      }
    }
    return lines;
  };
  const MIN_SIZE = 10.5;
  const most = oneLine ? 1 : Math.max(1, Math.round(height / (10 * lineHeight)));
  for (let held = 1; held <= most; held++) {
    const size = height / (held * lineHeight);
    if (size < MIN_SIZE || size > 60) continue;
    if (Math.abs(size * held * lineHeight - height) > 3 * held) continue;
    if (linesAt(size) <= held) return held;
  }
  return 0;
}"""


def node(page: Page, text: Wanted) -> Locator:
    """A text on screen, or a button or labelled control named by it."""
    exact = isinstance(text, str)
    return (page.get_by_text(text, exact=exact)
            .or_(page.get_by_role("button", name=text, exact=exact))
            .or_(page.get_by_label(text, exact=exact))).first


def box_of(page: Page, text: Wanted) -> dict[str, float]:
    found = node(page, text)
    expect(found).to_be_attached()
    box = found.bounding_box()
    assert box is not None, f"{text!r} has no box"
    return box


def band(page: Page, floating: Sequence[Wanted]) -> tuple[float, float] | None:
    """The rows the floating bar covers: from its highest part to its lowest."""
    if not floating:
        return None
    boxes = [box_of(page, f) for f in floating]
    return min(b["y"] for b in boxes), max(b["y"] + b["height"] for b in boxes)


def problems(page: Page, texts: Sequence[Wanted], floating: Sequence[Wanted] = (),
             one_line: Sequence[Wanted] = ()) -> list[str]:
    """What is wrong with each text: empty when everything fits."""
    size = page.viewport_size
    assert size is not None
    bar = band(page, floating)
    floating_ids = {repr(f) for f in floating}
    found: list[str] = []
    wanted = [*texts, *floating, *one_line]
    for text in [t for n, t in enumerate(wanted) if t not in wanted[:n]]:
        where = node(page, text)
        try:
            expect(where).to_be_attached(timeout=5_000)
        except AssertionError:
            found.append(f"{text!r}: not on screen")
            continue
        box = where.bounding_box()
        if box is None:
            found.append(f"{text!r}: no box")
            continue
        top, bottom = box["y"], box["y"] + box["height"]
        left, right = box["x"], box["x"] + box["width"]
        if top < -SLACK or bottom > size["height"] + SLACK or left < -SLACK \
                or right > size["width"] + SLACK:
            found.append(f"{text!r}: outside the window at {_where(box)}")
            continue
        if bar and repr(text) not in floating_ids and top < bar[1] - SLACK \
                and bottom > bar[0] + SLACK:
            found.append(f"{text!r}: under the floating bar ({bar[0]:.0f}-{bar[1]:.0f}) "
                         f"at {_where(box)}")
        info: dict[str, Any] = where.evaluate(
            "e => ({role: e.getAttribute('role') || (e.getAttribute('aria-label') &&"
            " e.querySelector('[role=button]') ? 'button' : null),"
            " words: e.closest('flt-semantics')"
            " ?.querySelector(':scope > span')?.textContent ?? null})")
        if info["role"] == "button" and box["height"] < MIN_TAP:
            found.append(f"{text!r}: button cut to {box['height']:.0f} px high")
        words = info["words"]
        if words and not _words_fit(page, words, box, text in one_line):
            how = "wraps" if text in one_line else "is cut short"
            found.append(f"{text!r}: {how} in its box {_where(box)}: {words!r}")
    return found


def raw_text(found: Locator) -> str:
    """A node's words as the app sent them (Playwright's names turn no-break spaces
    into plain ones)."""
    return str(found.evaluate("e => (e.getAttribute('aria-label') || '') + e.textContent"))


def assert_fits(page: Page, texts: Sequence[Wanted], floating: Sequence[Wanted] = (),
                one_line: Sequence[Wanted] = ()) -> None:
    """Every text is whole, in the window and clear of the floating bar (texts inside
    it); `one_line` texts do not wrap."""
    page.wait_for_timeout(300)  # a scroll jump or a redraw lands
    found = problems(page, texts, floating, one_line)
    assert not found, "\n".join(found)


def _words_fit(page: Page, words: str, box: dict[str, float], one_line: bool) -> bool:
    held = page.evaluate(FIT_JS, [words, box["width"], box["height"], FONT_URL,
                                  LINE_HEIGHT, one_line])
    return bool(held)


def _where(box: dict[str, float]) -> str:
    return f"x {box['x']:.0f} y {box['y']:.0f} {box['width']:.0f}x{box['height']:.0f}"
