"""Every screen at phone size, light and dark, saved for a person to look at
(test-artifacts/screenshots/). Each shot also checks the screen's main words. The
screens are walked once, at 360x640, and each is shot at both sizes (`at_each_size`);
Record hand is walked at each size (see there)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fits import assert_fits
from playwright.sync_api import Page, expect
from table_steps import (
    Phone,
    at_each_size,
    each_size_checked,
    each_size_walked,
    enter_seeded_code,
    route_to,
    see,
    seed_game,
    shoot,
    tap,
    type_into,
    type_points,
)

HANDS: list[dict[str, Any]] = [
    {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 92}, "bella": 2},
    {"caller": 1, "trump": "S", "points": {"team": 1, "tricks": 60},
     "runs": [{"seat": 1, "cards": ["9S", "10S", "JS", "QS"]}]},
    {"caller": 2, "trump": "C", "points": {"team": 0, "tricks": 81}},
    {"caller": 3, "trump": "D", "misplay": {"called_by": 0, "upheld": True}},
]

SEATED = ("Theresa", "Angus", "Margaret", "Duncan")
"""Seats 1 to 4 of New game's shot with its names in (partners opposite)."""


@each_size_checked
def test_every_screen_at_phone_size(
    phone: Phone, app_url: str, app_server: Any,
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
) -> None:
    page = phone.page
    game = seed_game(app_server.data_dir, HANDS, rules={"forced_at": 400})
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)  # this phone records: Undo and Record hand show
    shots = [
        ("", "Past games", "home"),
        ("new", "Who sits where", "new-game"),
        (f"game/{game}", "Undo last hand", "sheet"),
        ("games", "Past games", "past-games"),
        ("rules", "Rules", "rules"),
        ("check", "Run checker", "run-checker"),
        ("count", "Card counter", "card-counter"),
    ]
    for path, words, name in shots:
        route_to(page, path, words)  # a walk through the app: each screen, not each load

        def fits(phone: Phone, name: str = name) -> None:
            assert page.evaluate("document.documentElement.scrollWidth") <= phone.width
            shoot(page, f"{name}-{phone.tag}", screenshot)

        at_each_size(phone, fits)

    # The dialogs: Share (this phone holds the game: its code first) and the colours.
    route_to(page, f"game/{game}", "Undo last hand")

    def share(phone: Phone) -> None:
        # Opened at each size: the server sizes the code for the phone's height when it
        # draws the dialog, and a resize draws no dialog again.
        tap(page, "Share this game")
        see(page, re.compile(r"^Table code \d{6}$"))
        shoot(page, f"share-{phone.tag}", screenshot)
        # Nothing cut, nothing covered (issue 31): what the phone holding the game reads
        # there, clear of Close (test_screens_fit.py's checks, on this walk's dialog).
        assert_fits(page, [re.compile(r"^Table code \d{6}$"),
                           "Give it to whoever records hands on another phone.",
                           "Phone name", re.compile("^This server only listens")],
                    floating=["Close"])
        tap(page, "Close")
        expect(page.get_by_text(re.compile(r"^Table code \d{6}$"))).to_have_count(0)

    at_each_size(phone, share)
    # Home is drawn again once the phone's stored choices are read (its Continue card):
    # a tap on the first drawing's colours button in that moment is lost.
    route_to(page, "", "Past games")
    expect(page.get_by_role("button", name=re.compile("^Continue"))).to_be_visible()
    page.get_by_label("Screen colours").click()
    see(page, "For this phone only.")
    at_each_size(phone, lambda phone: shoot(page, f"colours-{phone.tag}", screenshot))
    tap(page, "Close")

    # New game with its names filled in, a target of its own and the house rules open.
    # The names come in its address, as fair teams' Start this game fills them (a
    # thumb typing them is walked in test_table_flow.py, test_groups_phone.py and
    # test_sharing.py, `type_names`); the screen holds them as it holds typed ones.
    route_to(page, f"new?seats={quote('|'.join(SEATED), safe='')}", "Who sits where")
    # The felt names both teams from the four seats (Flutter's text boxes show the
    # accessibility tree no value until they are typed in).
    see(page, re.compile(r"^Theresa & Margaret\s+vs\s+Angus & Duncan$"))
    type_into(page, "Other", "750")
    # The dealer last: a tap on Other while the dealer's buttons are drawn again for
    # the names can land on one of them.
    tap(page, "Duncan")
    see(page, "Duncan deals first")
    page.get_by_role("button", name=re.compile("House rules")).click()
    see(page, "Dealer may pass")
    at_each_size(phone, lambda phone: shoot(page, f"new-game-typed-{phone.tag}", screenshot))


POINTS_RULING = re.compile(r"needed 82")


# Walked from the start at each size: the server draws Record hand for the phone's height
# (record_hand.SMALL_SCREEN: a smaller ruling under 700 px) and does not draw it again on
# a resize that keeps a phone's margins (Router.resized), and its jumps (to the figures at
# the trump's tap, to the points at an ending's) are made for the size at the tap.
@each_size_walked
def test_record_hand_at_phone_size(
    phone: Phone, app_url: str, app_server: Any,
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
) -> None:
    page, width, tag = phone.page, phone.width, phone.tag
    game = seed_game(app_server.data_dir, HANDS, rules={"forced_at": 400})
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)  # this phone records
    tap(page, "Record hand")  # drawn for the size the phone is opened at, as a load draws it
    see(page, "Who called?")
    tap(page, "Bob called")
    tap(page, re.compile("Hearts"))
    # Points typed (issue 31, section 5): the ruling pinned above Save is whole, the pad's
    # bottom row clear of it, and at 390x844 the runs come next without a scroll.
    type_points(page, "40")
    see(page, POINTS_RULING)
    shoot(page, f"fit-record-points-{tag}", screenshot)
    texts: list[str | re.Pattern[str]] = ["1", "Clear", "0", "Backspace"]
    if width >= 390:
        texts += ["Ann twenty", "Bob fifty", "Cid hundred", "Dee has bella"]
    assert_fits(page, texts, floating=["Bait", POINTS_RULING, "Save hand"])
    for _ in "40":  # the points typed again below, once the runs are in
        tap(page, "⌫")
    tap(page, "Bob fifty")
    tap(page, "Ann twenty")
    see(page, re.compile("Bob's fifty beats Ann's twenty"))
    page.mouse.move(width / 2, 300)
    page.mouse.wheel(0, 500)  # down past the number pad, as a thumb does
    shoot(page, f"record-quick-runs-{tag}", screenshot)
    tap(page, "Bob fifty")  # off again: Dee's cards come next
    tap(page, "Ann twenty")
    tap(page, "Enter the cards of the runs")
    tap(page, "Dee shows runs")
    tap(page, "clubs")
    for rank in ("10", "J", "Q"):
        tap(page, f"run card {rank}")
    tap(page, "Bob has bella")
    shoot(page, f"record-runs-{tag}", screenshot)
    type_points(page, "95")
    see(page, re.compile("Bob & Dee called"))
    shoot(page, f"record-points-{tag}", screenshot)
    # A misplay: who called it and whether it stood, clear of the ruling pinned below.
    tap(page, "Misplay")
    tap(page, "misplay called by Ann & Cid")
    see(page, "Not upheld")
    shoot(page, f"record-misplay-{tag}", screenshot)
    expect(page.get_by_role("button", name="Not upheld")).to_be_in_viewport()
