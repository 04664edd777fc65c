"""What Save and a pad tap send now that the phone keeps a hand while its Save is on
its way (issue 38, section 4), over Flet's own protocol against a real table server:
a pad tap sends no more than before (no call to the phone's storage), and Save asks
the phone to keep the hand before the sheet comes, and to drop it after."""

from __future__ import annotations

from pathlib import Path

from tests.hostile.conftest import StartServer, start_server  # noqa: F401
from tests.hostile.flet_client import PATCH
from tests.web.test_tap_messages import game_server, holder_phone

STORAGE = ("get", "set", "remove", "contains_key", "get_keys")
"""SharedPreferences' methods (the trump tap's scroll to the pad is a call too)."""


def test_only_save_speaks_to_the_phones_storage_keep_before_the_sheet_drop_after(
    start_server: StartServer, tmp_path: Path,  # noqa: F811
) -> None:
    server, game_id = game_server(start_server, tmp_path)
    with holder_phone(server, f"/game/{game_id}/hand", "Who called?") as phone:
        for label in ("Bob", "♥", "9", "0"):
            mark = phone.mark()
            phone.click(label, since=0)
            phone.pump(0.3)
            storage = [name for n, name in phone.calls if n > mark and name in STORAGE]
            assert storage == [], label
        mark, first = phone.mark(), len(phone.frames)
        phone.click("Save hand")
        phone.wait_for("1. Ann dealt · Bob called\u00a0♥", since=mark)
        phone.pump(0.5)
        screens = [number for number, (action, body) in phone.recent if number > mark
                   and action == PATCH and "_services" not in body["patch"][0][1]]
        calls = [(n, name) for n, name in phone.calls if n > mark]
        kept = [n for n, name in calls if name == "set"]
        dropped = [n for n, name in calls if name == "remove"]
        assert len(kept) == 1 and len(dropped) == 1 and len(screens) == 1, (calls, screens)
        assert kept[0] < screens[0], (calls, screens)  # kept before the store saw it
        assert kept[0] < dropped[0], calls
        print(f"\nSave: {len(phone.frames) - first} messages, "
              f"{sum(size for _a, size in phone.frames[first:])} bytes: {phone.frames[first:]}")
    assert "Traceback" not in server.log()
