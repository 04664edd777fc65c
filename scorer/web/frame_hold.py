"""Flutter's frames held back while a page has nothing of ours to draw: frame_hold.js,
put into the page scripts that need it (reconnect.js, the phone-alone site's boot.js)
where they say __FRAME_HOLD__, so the code exists once."""

from __future__ import annotations

from pathlib import Path

FRAME_HOLD_JS = Path(__file__).with_name("frame_hold.js").read_text(encoding="utf-8")
MARK = "  /* __FRAME_HOLD__: scorer/web/frame_hold.js, put in here when served or built */\n"


def with_frame_hold(script: str) -> str:
    """`script` with frame_hold.js in place of its one mark."""
    if script.count(MARK) != 1:
        raise ValueError("the script has no single __FRAME_HOLD__ mark")
    return script.replace(MARK, FRAME_HOLD_JS)
