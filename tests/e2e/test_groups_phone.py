"""Groups on the phone, as players tap through them at the table: one phone makes a
group and reads its keeper code once; a second enters a wrong code, then the right
one, starts a game for the group and records a hand; the game is on the group's page;
a third phone without the code has no keeper buttons."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import (
    PLAYERS,
    Phone,
    at_each_size,
    draw_dealer,
    each_size_checked,
    record_counted_hand,
    route_to,
    see,
    seed_game,
    shoot,
    tap,
    type_into,
    type_names,
)

CODE = re.compile(r"^Keeper code (\d{8})$")
KEEPER_BUTTONS = ("Start a game", "Add a game", "New keeper code")


def make_group(page: Page, name: str, members: str = "") -> tuple[str, str]:
    """From home: Groups, New group; (the group's id, its keeper code as shown)."""
    tap(page, "Groups")
    see(page, "New group")
    type_into(page, "Group name", name)
    if members:
        type_into(page, "Members (optional)", members)
    tap(page, "Make the group")
    see(page, "Write it down now: it is shown only this once.", timeout=15_000)
    shown = page.get_by_text(CODE).first
    expect(shown).to_be_visible()
    found = CODE.match(shown.inner_text().strip())
    assert found, shown.inner_text()
    tap(page, "Open the group")
    expect(page).to_have_url(re.compile(r"/group/[0-9a-f]{8}$"))
    group_id = page.url.rsplit("/", 1)[1]
    return group_id, found.group(1)


def enter_code(page: Page, code: str) -> None:
    """The keeper code on the number pad (its dialog opened if it is not open yet)."""
    if page.get_by_text("Enter the keeper code", exact=True).count() == 0:
        tap(page, "Enter keeper code")
        see(page, "Enter the keeper code")
    for digit in code:
        page.get_by_role("button", name=digit, exact=True).click()


def start_game_for_group(page: Page, group: str) -> None:
    """On the group's page (a keeper): Start a game, four names, Start game."""
    tap(page, "Start a game")
    see(page, f"This game will count for {group}.")
    # type_names waits for the felt to name both teams: its redraw moves the buttons under
    # it, so a tap before it could land where Draw at random was (lost).
    type_names(page, PLAYERS)
    draw_dealer(page)
    tap(page, "Start game")
    see(page, "Record hand")


def test_a_group_made_on_one_phone_counts_a_game_started_on_another(
    page: Page, new_context: Callable[..., Any], start_server: Callable[..., Any],
    open_app: Callable[..., float],
) -> None:
    server = start_server()
    open_app(page, server.url)
    group_id, code = make_group(page, "Friday bish", "Ann, Bob")
    for button in KEEPER_BUTTONS:
        expect(page.get_by_role("button", name=button)).to_be_visible()
    # Shown once: the group's page and the list never show it again.
    expect(page.get_by_text(CODE)).to_have_count(0)
    page.get_by_label("Back", exact=True).click()
    see(page, re.compile(r"^Friday bish\n2 members, 0 games$"))
    expect(page.get_by_text(CODE)).to_have_count(0)
    expect(page.get_by_text(code[:4])).to_have_count(0)

    second = new_context().new_page()
    open_app(second, f"{server.url}group/{group_id}", first_text="Enter keeper code")
    for button in KEEPER_BUTTONS:
        expect(second.get_by_role("button", name=button)).to_have_count(0)
    wrong = "00000000" if code != "00000000" else "11111111"
    enter_code(second, wrong)
    see(second, re.compile(r"^That is not the keeper code \(2 more tries before a wait\)\.$"))
    expect(second.get_by_role("button", name="Start a game")).to_have_count(0)
    enter_code(second, code)
    see(second, "This phone keeps the group now.")
    start_game_for_group(second, "Friday bish")
    record_counted_hand(second, "Bob", "Clubs", "100")
    # The sheet names the group; a tap goes to its page, where the game is listed.
    tap(second, "Counts for Friday bish")
    see(second, re.compile(r"^Ann & Cid vs Bob & Dee\n\d+–\d+ · 1 hand · "))
    see(second, "4 members, 1 game")

    third = new_context().new_page()
    open_app(third, f"{server.url}group/{group_id}", first_text="Enter keeper code")
    see(third, re.compile(r"^Ann & Cid vs Bob & Dee\n"))
    for button in (*KEEPER_BUTTONS, "Take out"):
        expect(third.get_by_role("button", name=button)).to_have_count(0)
    expect(third.get_by_label("Take out")).to_have_count(0)
    # The keeper's picker, opened by its address, lists nothing and says why (an
    # address shown in the page already open: no second load).
    route_to(third, f"group/{group_id}/add", "Add a game")
    see(third, re.compile(r"^Only the group's keeper can change it"))
    expect(third.get_by_role("button", name=re.compile(r"^Ann & Cid vs"))).to_have_count(0)
    # New game for the group, opened by its address, says this phone cannot.
    route_to(third, f"new?group={group_id}", "New game")
    see(third, re.compile(r"^Only the group's keeper can start a game for Friday bish"))

    # The keeper takes the game out again, after a confirm; the game itself is kept.
    second.get_by_label("Take out", exact=True).click()
    see(second, "Take this game out?")
    second.get_by_role("button", name="Take out", exact=True).last.click()
    see(second, "Taken out of the group.")
    see(second, "No games yet.")


def test_a_route_that_is_no_group_is_refused_plainly(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
) -> None:
    server = start_server()
    open_app(page, server.url, first_text="Past games")
    for route in ("group/0badc0de", "group/NOT-AN-ID", "group/%3Cscript%3E/add"):
        # Each address shown in the page already open, from home (one load in all).
        route_to(page, route, "No such group")
        see(page, "There is no group at this address. Open Groups from the home screen.")
        route_to(page, "", "Past games")


@each_size_checked
def test_group_screens_at_phone_size(
    phone: Phone, new_context: Callable[..., Any], start_server: Callable[..., Any],
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Any],
) -> None:
    """Walked at 360x640, each screen checked and shot at both sizes (`at_each_size`)."""
    page = phone.page
    server = start_server()
    seed_game(server.data_dir, [])  # Ann & Cid against Bob & Dee, no hand yet

    def shot(name: str, on: Phone = phone) -> Callable[[Phone], None]:
        """A check that saves the screen of `on` as NAME-SIZE, light and dark."""
        return lambda size: shoot(on.page, f"{name}-{size.tag}", screenshot)

    open_app(page, server.url)
    tap(page, "Groups")
    see(page, "New group")
    type_into(page, "Group name", "Friday bish")
    type_into(page, "Members (optional)", "Ann, Bob, Cid, Dee, Eve")
    tap(page, "Make the group")
    see(page, "Write it down now: it is shown only this once.", timeout=15_000)
    expect(page.get_by_text("New group")).to_have_count(0)
    page.wait_for_timeout(600)  # the accessibility tree runs a few frames ahead of paint

    def code_once(phone: Phone) -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= phone.width
        # The code is shown once: a phone turning dark (and back) still shows it (`shoot`
        # checks the screen's words in each scheme), and so does one turned to another
        # size.
        see(page, CODE)
        shoot(page, f"group-code-once-{phone.tag}", screenshot)

    at_each_size(phone, code_once)
    tap(page, "Open the group")
    see(page, "Start a game")
    # The address follows the screen: read it once it is the group's.
    expect(page).to_have_url(re.compile(r"/group/[0-9a-f]{8}$"))
    group_id = page.url.rsplit("/", 1)[1]
    tap(page, "Add a game")
    see(page, "Tap a game to count it for Friday bish.")
    at_each_size(phone, shot("group-add-game"))
    tap(page, re.compile(r"^Ann & Cid vs Bob & Dee\s"))
    see(page, "Added to Friday bish.")
    see(page, "5 members, 1 game")
    expect(page.get_by_label("Take out")).to_have_count(1)
    at_each_size(phone, shot("group-keeper"))
    tap(page, re.compile(r"^Ann & Cid vs Bob & Dee\s"))
    see(page, "Counts for Friday bish")
    at_each_size(phone, shot("group-sheet-line"))
    page.go_back()
    see(page, "Start a game")
    tap(page, "Start a game")
    see(page, "This game will count for Friday bish.")
    at_each_size(phone, shot("group-new-game"))
    route_to(page, "groups", "Groups")  # a walk in the app: no second load
    see(page, "All games")
    at_each_size(phone, shot("groups-list"))
    # A second phone of the size the walk is at, checked at each size as the first.
    other = Phone(new_context(color_scheme="light").new_page(), phone.sizes)  # shot both ways too
    other.page.set_viewport_size(page.viewport_size or {"width": phone.width, "height": 640})
    open_app(other.page, f"{server.url}group/{group_id}", first_text="Enter keeper code")

    def not_keeper(other: Phone) -> None:
        assert other.page.evaluate("document.documentElement.scrollWidth") <= other.width
        shoot(other.page, f"group-not-keeper-{other.tag}", screenshot)

    at_each_size(other, not_keeper)
    # The keeper code on the same pad as a table code, its two halves as it is shown.
    tap(other.page, "Enter keeper code")
    see(other.page, "Enter the keeper code")
    for digit in "1234":
        other.page.get_by_role("button", name=digit, exact=True).click()
    see(other.page, "Digits typed: 1 2 3 4")
    other.page.wait_for_timeout(400)
    at_each_size(other, shot("group-keeper-pad", other))
