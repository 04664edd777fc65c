"""A tap on Record hand answers in one small message (issue 11).

Driven over Flet's own protocol against a real table server: each tap must come
back as one message (two arrived a Flutter frame or more apart on a slow phone),
small, and with what the player expects to read, also after a part of the
screen was taken off and put back (the misplay toggle hides the number pad).
"""

from __future__ import annotations

from pathlib import Path

from tests.hostile.conftest import StartServer, make_game, start_server  # noqa: F401
from tests.hostile.flet_client import FletClient, _walk

HOLDER = "holder-token-0123456789"
PATCH = 2
"""Flet's message action for an update of the controls on screen."""


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
    data = tmp_path / "data"
    game_id, _code = make_game(data, holder=HOLDER)
    server = start_server(data)
    with FletClient(server.port, route=f"/game/{game_id}/hand", device=HOLDER) as phone:
        phone.pump(1.5)
        phone.wait_for("Who called?")
        sizes, said = tap(phone, "Bob")  # Ann deals
        assert len(sizes) == 1 and "Tap the trump suit" in said
        sizes, said = tap(phone, "♥")
        assert len(sizes) == 1 and "Enter the trick points" in said
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


def test_a_screen_switch_sends_the_address_while_the_lighter_screen_shows(
    start_server: StartServer, tmp_path: Path,  # noqa: F811
) -> None:
    """The phone rebuilds the whole screen on show when its address changes, and
    the address and the screen reach it a frame apart: the address goes first
    from the sheet to the heavier Record hand (the sheet is rebuilt), after the
    screen on the way back. Either way the screen is sent once: the browser's
    announcement of its new address does not send it again."""
    data = tmp_path / "data"
    game_id, _code = make_game(data, holder=HOLDER)
    server = start_server(data)
    with FletClient(server.port, route=f"/game/{game_id}", device=HOLDER) as phone:
        phone.pump(1.5)
        phone.wait_for("Record hand")
        for label, shown, address_first in (("Record hand", "Who called?", True),
                                            ("Back", "Record hand", False)):
            mark, first = phone.mark(), len(phone.frames)
            phone.click(label)
            phone.pump(1.5)
            pushes = [n for n, name in phone.calls if n > mark and name == "push_route"]
            screens = [mark + 1 + i for i, (action, size) in enumerate(phone.frames[first:])
                       if action == PATCH and size > 1_000]
            assert len(pushes) == 1 and len(screens) == 1, (pushes, screens, phone.frames[first:])
            assert (pushes[0] < screens[0]) == address_first, (label, pushes, screens)
            assert shown in phone.said(mark)
    assert "Traceback" not in server.log()


def test_the_theme_does_not_animate(start_server: StartServer, tmp_path: Path) -> None:  # noqa: F811
    """The phone rebuilds the theme on every switch, and a theme with button styles
    never equals its rebuilt copy: animated, that redrew the whole screen for
    200 ms after each switch."""
    server = start_server(tmp_path / "data")
    with FletClient(server.port, route="/") as phone:
        phone.pump(1.5)
        phone.wait_for("New game")
        # Patch operations are lists: [operation, node, property, value].
        styles = [item[3] for item in _walk(phone.first_messages) if isinstance(item, list)
                  and len(item) == 4 and item[2] == "theme_animation_style"]
    assert len(styles) == 1, styles
    # Duration() goes out with its zero fields left off: no time at all.
    assert styles[0] == {"duration": {}, "reverse_duration": {}}, styles
