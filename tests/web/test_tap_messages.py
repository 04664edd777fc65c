"""A tap on Record hand answers in one small message (issue 11).

Driven over Flet's own protocol against a real table server: each tap must come
back as one message (two arrived a Flutter frame or more apart on a slow phone),
small, and with what the player expects to read, also after a part of the
screen was taken off and put back (the misplay toggle hides the number pad).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.hostile.conftest import StartServer, make_game, start_server  # noqa: F401
from tests.hostile.flet_client import FletClient, _walk

HOLDER = "holder-token-0123456789"
PATCH = 2
"""Flet's message action for an update of the controls on screen."""


def game_server(start_server: StartServer, tmp_path: Path) -> tuple[Any, str]:  # noqa: F811
    """A table server with one game on it (Ann deals first): the server, the game's id."""
    data = tmp_path / "data"
    game_id, _code = make_game(data, holder=HOLDER)
    return start_server(data), game_id


@contextlib.contextmanager
def holder_phone(server: Any, route: str, first_text: str) -> Iterator[FletClient]:
    """The game holder's phone on `route`, once `first_text` has come."""
    with FletClient(server.port, route=route, device=HOLDER) as phone:
        phone.pump(1.5)
        phone.wait_for(first_text)
        yield phone


def tap(phone: FletClient, label: str, wait: float = 1.0) -> tuple[list[int], list[str]]:
    """Tap the newest button showing `label`: the sizes of the screen updates that
    came back (not the scroll to the number pad, a call of its own) and the texts
    in them."""
    mark, first = phone.mark(), len(phone.frames)
    phone.click(label)
    phone.pump(wait)
    return [size for action, size in phone.frames[first:] if action == PATCH], phone.said(mark)


def test_each_tap_on_record_hand_comes_back_as_one_small_message(
    start_server: StartServer, tmp_path: Path,  # noqa: F811
) -> None:
    server, game_id = game_server(start_server, tmp_path)
    with holder_phone(server, f"/game/{game_id}/hand", "Who called?") as phone:
        sizes, said = tap(phone, "Bob")  # Ann deals
        assert len(sizes) == 1 and "Tap the trump suit" in said
        sizes, said = tap(phone, "♥")
        assert len(sizes) == 1 and "Enter the trick points" in said
        # Two toggles and the ruling: the runs and bella grid stays put.
        assert sizes[0] < 450 and "Runs and bella" not in said, (sizes, said)
        for digit, figure, other in (("9", "9", "153"), ("0", "90", "72")):
            sizes, said = tap(phone, digit)
            assert len(sizes) == 1, sizes
            assert sizes[0] < 1_500, sizes  # the figures and the ruling, not the screen
            assert figure in said and other in said, said
            assert any(f"called: {figure} of 162" in text for text in said), said
            assert "Who called?" not in said and "Trump" not in said

        # The pad goes with Misplay and comes back with Counted, figure and all.
        sizes, said = tap(phone, "Misplay")
        assert len(sizes) == 1 and "Called by" in said
        sizes, said = tap(phone, "Counted")
        assert len(sizes) == 1 and "90" in said
        sizes, said = tap(phone, "⌫")
        assert len(sizes) == 1 and any("9 of 162" in text for text in said), said
    assert "Traceback" not in server.log()


def test_a_screen_switch_sends_the_screen_then_the_address(
    start_server: StartServer, tmp_path: Path,  # noqa: F811
) -> None:
    """The phone rebuilds the whole screen on show when its address changes, and
    the address and the screen reach it a frame apart: the screen goes first, so
    that it shows without waiting for the old one's rebuild. Either way the screen
    is sent once: the browser's announcement of its new address does not send it
    again. Record hand is laid over the sheet, which stays on the phone: the way
    back only takes it away."""
    server, game_id = game_server(start_server, tmp_path)
    with holder_phone(server, f"/game/{game_id}", "Record hand") as phone:
        for label, shown, most in (("Record hand", "Who called?", 20_000),
                                   ("Back", "Score sheet", 1_000)):
            mark, first = phone.mark(), len(phone.frames)
            phone.click(label)
            phone.pump(1.5)
            pushes = [n for n, name in phone.calls if n > mark and name == "push_route"]
            screens = [(mark + 1 + i, size) for i, (action, size)
                       in enumerate(phone.frames[first:]) if action == PATCH and size > 300]
            assert len(pushes) == 1 and len(screens) == 1, (pushes, screens, phone.frames[first:])
            assert screens[0][0] < pushes[0], (label, pushes, screens)
            assert screens[0][1] < most, (label, screens)
            assert shown in phone.said(mark)
        # Save: the new row, the totals and Undo come, not the whole sheet again.
        for caller, row in (("Bob", "1. Ann dealt · Bob called\u00a0♥"),
                            ("Cid", "2. Bob dealt · Cid called\u00a0♥")):
            mark = phone.mark()
            phone.click("Record hand")
            phone.wait_for("Who called?", since=mark)
            for label in (caller, "♥", "9", "0"):
                phone.click(label, since=mark)
                phone.pump(0.2)
            first = len(phone.frames)
            phone.click("Save hand", since=mark)
            phone.wait_for(row, since=mark)
            phone.pump(0.5)
            sizes = [size for action, size in phone.frames[first:] if action == PATCH]
        assert sum(sizes) < 1_500, sizes  # the whole sheet of two hands: 4.2 KB
    assert "Traceback" not in server.log()


def screen_updates(phone: FletClient, mark: int) -> list[dict[str, Any]]:
    """Each screen update since `mark` (not the keep-awake service's coming and going)."""
    return [body for number, (action, body) in phone.recent
            if number > mark and action == PATCH and "_services" not in body["patch"][0][1]]


def screen_patches(phone: FletClient, mark: int) -> list[list[Any]]:
    """The patch operations of each screen update since `mark`."""
    return [body["patch"][1:] for body in screen_updates(phone, mark)]


def test_a_switch_or_a_save_is_one_message_with_nothing_sent_again_after_it(
    start_server: StartServer, tmp_path: Path,  # noqa: F811
) -> None:
    """Flet updates the page itself after each tap, and with 1.0.5 that update sent
    again the fields last set on the sheet laid under Record hand (its key, its
    opacity): a message of its own before the switch and one after, and each made
    the phone rebuild the whole sheet (`flet_tuning.forget_sent_changes`)."""
    server, game_id = game_server(start_server, tmp_path)
    with holder_phone(server, f"/game/{game_id}", "Record hand") as phone:
        for label, shown in (("Record hand", "Who called?"), ("Back", "Score sheet"),
                             ("Record hand", "Who called?")):
            mark = phone.mark()
            phone.click(label)
            phone.wait_for(shown, since=mark)
            phone.pump(0.8)
            patches = screen_patches(phone, mark)
            assert len(patches) == 1, (label, patches)
            keys = [op for op in patches[0] if op[0] == 0 and op[2] == "key"]
            assert not keys, (label, keys)  # a kept control's key never changes
        opened = mark
        for label in ("Bob", "♥", "9", "0"):
            phone.click(label, since=opened)
            phone.pump(0.3)
        mark = phone.mark()
        phone.click("Save hand", since=opened)
        phone.wait_for("1. Ann dealt", since=mark)
        phone.pump(0.8)
        patches = screen_patches(phone, mark)
        assert len(patches) == 1, patches
        assert not [op for op in patches[0] if op[0] == 0 and op[2] == "key"], patches
    assert "Traceback" not in server.log()


def test_the_sheet_home_and_new_game_share_one_view(
    start_server: StartServer, tmp_path: Path,  # noqa: F811
) -> None:
    """A new View costs the phone twice the work of refilling the one on show (its
    300 ms transition paints both pages). A switch between the sheet, home and New
    game refills the View on show (each starts with a kind of control of its own, so
    the phone builds it afresh: browser test in test_small_screens); Past games gets
    a View of its own."""
    server, game_id = game_server(start_server, tmp_path)
    with holder_phone(server, f"/game/{game_id}", "Record hand") as phone:
        for go, shown, new_view in ((lambda: phone.click("Back"), "Past games", False),
                                    (lambda: phone.click("New game"), "Who sits where", False),
                                    (lambda: phone.click("Back"), "Past games", False),
                                    (lambda: phone.click("Past games"), "Import a game file",
                                     True),
                                    (lambda: phone.go(f"/game/{game_id}"), "Score sheet", True)):
            mark = phone.mark()
            go()
            phone.wait_for(shown, since=mark)
            phone.pump(0.8)
            screens = screen_updates(phone, mark)
            assert len(screens) == 1, (shown, screens)
            # A new View goes into the page's list of views; a refill patches the View.
            assert ("views" in screens[0]["patch"][0][1]) == new_view, (shown, screens)
    assert "Traceback" not in server.log()


def test_the_theme_carries_no_button_style_and_does_not_animate(
        start_server: StartServer, tmp_path: Path) -> None:  # noqa: F811
    """The phone parses the theme again at every switch, and one with a button style
    never equals its last copy: every control on show was rebuilt (and, animated,
    redrawn for 200 ms) after each switch."""
    server = start_server(tmp_path / "data")
    with FletClient(server.port, route="/") as phone:
        phone.pump(1.5)
        phone.wait_for("New game")
        # Patch operations are lists: [operation, node, property, value].
        styles = [item[3] for item in _walk(phone.first_messages) if isinstance(item, list)
                  and len(item) == 4 and item[2] == "theme_animation_style"]
        themes = [item[3] for item in _walk(phone.first_messages) if isinstance(item, list)
                  and len(item) == 4 and item[2] in ("theme", "dark_theme")]
    assert len(styles) == 1, styles
    # Duration() goes out with its zero fields left off: no time at all.
    assert styles[0] == {"duration": {}, "reverse_duration": {}}, styles
    assert len(themes) == 2, themes
    for theme in themes:
        assert theme.get("color_scheme_seed"), theme  # the page's own theme, not an empty one
        styled = sorted(key for key in theme if key.endswith("button_theme"))
        assert not styled, styled


ANSWER_WAIT_S = 15.0
"""How long a tap may wait for the server's answer (a loaded 2-core machine)."""


def tap_answered(phone: FletClient, label: str, since: int) -> None:
    """Tap the newest button showing `label` sent after `since`, and wait for the
    screen update that answers it (as a player taps what is on show: the caller's tap
    draws the trumps anew)."""
    before = phone.mark()
    phone.click(label, since=since)
    answered = time.monotonic() + ANSWER_WAIT_S
    while not screen_updates(phone, before):
        assert time.monotonic() < answered, f"no answer to the tap on {label!r}"
        phone.pump(0.1)


def record(phone: FletClient, caller: str, row: str, digits: str = "90") -> None:
    """Record hand → caller → ♥ → the digits → Save hand, each tap once the server has
    answered the one before, until the sheet shows the saved hand's `row`."""
    mark = phone.mark()
    phone.click("Record hand")
    phone.wait_for("Who called?", since=mark)
    for label in (caller, "♥", *digits):
        tap_answered(phone, label, since=mark)
    phone.click("Save hand", since=mark)
    # The sheet under Record hand is kept: only its title and what changed come.
    phone.wait_for(row, since=mark)


def test_a_tap_before_the_phone_takes_its_address_is_not_undone_by_it(
    start_server: StartServer, tmp_path: Path,  # noqa: F811
) -> None:
    """The screen goes to the phone before its address (`AppContext._switch`), so a
    player can tap on a screen whose address the phone has not taken yet: its
    announcement of that address then comes after the tap, and must not draw that
    screen again (Back, then a quick tap on Record hand: the sheet came again, then
    Record hand again, and a tap on the first Record hand was lost)."""
    server, game_id = game_server(start_server, tmp_path)
    with holder_phone(server, f"/game/{game_id}/hand", "Who called?") as phone:
        phone.hold_routes = True
        mark = phone.mark()
        phone.click("Back")
        phone.wait_for("Score sheet", since=mark)
        mark = phone.mark()
        phone.click("Record hand")
        phone.wait_for("Who called?", since=mark)
        end = time.monotonic() + ANSWER_WAIT_S
        while len(phone.held) < 2:  # the addresses of the sheet and of Record hand
            assert time.monotonic() < end, phone.held
            phone.pump(0.1)
        assert phone.held == [f"/game/{game_id}", f"/game/{game_id}/hand"], phone.held
        phone.hold_routes = False
        released = phone.mark()
        phone.release_routes()
        # The announcements are handled before the tap that follows them.
        tap_answered(phone, "Bob", since=mark)
        updates = screen_updates(phone, released)
        said = phone.said(released)
        assert "Score sheet" not in said, said  # the screen left, drawn again
        assert len(updates) == 1 and "Tap the trump suit" in said, said
    assert "Traceback" not in server.log()


def test_a_watching_phone_gets_the_new_hand_not_the_whole_sheet_and_every_row_still_answers(
    start_server: StartServer, tmp_path: Path,  # noqa: F811
) -> None:
    """A redrawn sheet is compared with the one on show part by part (keys on the
    screen's parts and on each hand row; unchanged parts are the same controls):
    a Save sends a watching phone the new row and what changed, and every row,
    old or new, still opens its own ruling; Undo removes the newest hand."""
    server, game_id = game_server(start_server, tmp_path)
    with (holder_phone(server, f"/game/{game_id}", "Record hand") as watcher,
          holder_phone(server, f"/game/{game_id}", "Record hand") as recorder):
        sizes = []
        for caller, row in (("Bob", "1. Ann dealt · Bob called\u00a0♥"),
                            ("Cid", "2. Bob dealt · Cid called\u00a0♥"),
                            ("Dee", "3. Cid dealt · Dee called\u00a0♥")):
            mark, first = watcher.mark(), len(watcher.frames)
            record(recorder, caller, row)
            watcher.wait_for(row, since=mark)
            said = watcher.said(mark)
            assert not any(text.startswith("1. ") for text in said[1:] if text != row), said
            sizes.append(sum(size for action, size in watcher.frames[first:] if action == PATCH))
        assert max(sizes[1:]) < 2_500, sizes  # a whole sheet of three hands is over 6 KB

        # Every row answers with its own ruling, the newest and the oldest alike.
        for number, row in ((3, "3. Cid dealt · Dee called\u00a0♥"), (1, "1. Ann dealt · Bob called\u00a0♥")):
            mark = watcher.mark()
            watcher.click(row)
            watcher.wait_for(f"Hand {number}: ", since=mark)
            watcher.click("Close")
            watcher.pump(0.3)
        # Flet freezes what it compared by keys: the race opens by drawing the sheet
        # again, not by changing the redrawn one in place (that crashed the session).
        # (This client keeps each control as first sent, so the toggle is found by its
        # first label; a redraw by keys keeps the control's id.)
        toggle = watcher.buttons("Show the race")[0]
        for then in ("Hide the race", "Show the race"):
            mark = watcher.mark()
            watcher.event(toggle, "click")
            watcher.wait_for(then, since=mark)
        assert not watcher.crashed
        # Undo is drawn again for every revision (rows are kept): it removes the
        # newest hand, saved on the other phone.
        mark = watcher.mark()
        watcher.click("Undo last hand")
        watcher.wait_for("Undo hand 3?", since=mark)
        watcher.click("Remove hand")
        watcher.wait_for("Hand 3: Cid deals", since=mark)
        # The oldest row's Edit opens that hand with its figures.
        mark = watcher.mark()
        watcher.click("1. Ann dealt · Bob called\u00a0♥")
        watcher.wait_for("Hand 1: ", since=mark)
        watcher.click("Edit this hand")
        watcher.wait_for("Save hand 1", since=mark)
    assert "Traceback" not in server.log()
