"""A weekly group's second night (issue 41), on phones at 390x844 and 360x640, light and
dark: Play again keeps the group (and a club night's table goes on to the night's next
round). Each test walks at 360x640 and checks each screen at both sizes
(`at_each_size`). Screenshots: test-artifacts/screenshots/second-night-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import (
    Phone,
    at_each_size,
    each_size_checked,
    route_to,
    see,
    seed_won_games,
    shoot,
    tap,
    type_into,
)

from scorer.events.model import EventSpec, Format
from scorer.events.service import EventService
from scorer.groups.folder import FolderGroups
from scorer.rights import get_rights
from scorer.store.game_store import GameStore
from tests.server_zygote import run_cli

TABLE = "TablePhoneOfFridayBish0000001"
"""The device token of the phone that started the table's game (not the keeper)."""
KEEPER = "KeeperPhoneOfFridayBish000001"
WON_HANDS = json.loads((Path(__file__).parents[1] / "data" / "won_game.json")
                       .read_text("utf-8"))["hands"]


def as_phone(page: Page, token: str) -> None:
    """The browser is a phone known by `token` (as if it had entered its codes before)."""
    page.context.add_init_script(
        "if (!localStorage.getItem('flutter.tarabish.device'))"
        f" localStorage.setItem('flutter.tarabish.device', {json.dumps(json.dumps(token))});")


def seed_group_game(data: Path) -> tuple[str, str]:
    """"Friday bish" (kept by KEEPER) with a finished game that TABLE's phone holds."""
    seed_won_games(data, [["Ann", "Bob", "Cid", "Dee"]])
    with GameStore(data) as store:
        game = store.list_games()[0]
    rights = get_rights(data)
    rights.start(game.id, TABLE)
    rights.start(game.id, KEEPER)
    groups = FolderGroups(data)
    group, _code = groups.create("Friday bish", keeper=KEEPER)
    groups.add_games(group.id, [(game.id, list(game.players))])
    return group.id, game.id


@each_size_checked
def test_play_again_on_a_groups_game_counts_for_the_group(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    group_id, finished = seed_group_game(data)
    server = start_server(data_dir=data)
    page = phone.page
    as_phone(page, TABLE)
    open_app(page, f"{server.url}game/{finished}", first_text="Score sheet")
    see(page, "Counts for Friday bish")
    tap(page, "Play again")
    see(page, "This game will count for Friday bish, as the last one did.")
    page.wait_for_timeout(400)
    at_each_size(phone, lambda phone: shoot(
        page, f"second-night-play-again-{phone.tag}", screenshot))
    tap(page, "Start game")
    see(page, "Record hand")
    see(page, "Counts for Friday bish")
    at_each_size(phone, lambda phone: shoot(
        page, f"second-night-next-sheet-{phone.tag}", screenshot))
    expect(page).to_have_url(re.compile(r"/game/[0-9a-f]{8}$"))  # the address follows the screen
    next_id = page.url.rsplit("/", 1)[1]
    assert next_id != finished
    assert next_id in FolderGroups(data).get(group_id).games


def test_the_keeper_may_leave_the_next_game_out_of_the_group(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    group_id, finished = seed_group_game(data)
    server = start_server(data_dir=data)
    as_phone(page, KEEPER)
    open_app(page, f"{server.url}game/{finished}", first_text="Score sheet")
    tap(page, "Play again")
    box = page.get_by_role("checkbox", name="Counts for Friday bish")
    expect(box).to_be_checked()
    screenshot(page, "second-night-keeper-play-again")
    box.click()
    expect(box).not_to_be_checked()
    tap(page, "Start game")
    see(page, "Record hand")
    expect(page.get_by_role("button", name="Counts for Friday bish")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/game/[0-9a-f]{8}$"))  # the address follows the screen
    next_id = page.url.rsplit("/", 1)[1]
    assert next_id not in FolderGroups(data).get(group_id).games


@each_size_checked
def test_a_club_night_tables_finished_game_goes_on_to_the_nights_next_round(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    with GameStore(data) as store:
        service = EventService(store)
        night, _code = service.create(EventSpec(
            name="Legion Thursday", format=Format.PROGRESSIVE, rounds=3, seed=5,
            players=("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")))
        night = service.start_round(night.id)
        game = night.night.played[0].tables[0].game
        assert game is not None
        for hand in WON_HANDS:
            store.add_hand(game, hand, expected_revision=store.get_game(game).revision)
        service.events.close()
    server = start_server(data_dir=data)
    page = phone.page
    open_app(page, f"{server.url}game/{game}", first_text="Score sheet")
    see(page, "Next round: club night")
    expect(page.get_by_role("button", name="Play again", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="Play again outside the night")).to_be_visible()
    page.wait_for_timeout(400)
    at_each_size(phone, lambda phone: shoot(
        page, f"second-night-club-table-{phone.tag}", screenshot))
    tap(page, "Next round: club night")
    expect(page).to_have_url(re.compile(rf"/club/{night.id}$"))
    see(page, "Round 1")


def in_window(page: Page, target: Any, within_ms: int = 5_000) -> bool:
    """The whole of `target` is inside the window (not only in the tree), once the
    screen has settled (its layout may move for a few frames after it shows)."""
    size = page.viewport_size or {"width": 0, "height": 0}
    for _ in range(within_ms // 100):
        box = target.bounding_box()
        if box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]:
            return True
        page.wait_for_timeout(100)
    return False


@each_size_checked
def test_with_twenty_groups_the_board_starts_on_the_first_screen(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    seed_won_games(data, [["Ann", "Bob", "Cid", "Dee"], ["Ann", "Dee", "Cid", "Bob"]])
    with GameStore(data) as store:
        games = [(s.id, list(s.players)) for s in store.list_games()]
    groups = FolderGroups(data)
    friday, _code = groups.create("Margaree Legion Friday night league")
    groups.add_games(friday.id, games)
    for n in range(19):
        groups.create(f"Table {n + 1:02d} of the Legion")
    server = start_server(data_dir=data)
    page = phone.page
    open_app(page, f"{server.url}ratings?group={friday.id}", first_text="Leaderboard")
    first = page.get_by_role("button", name=re.compile(r"^1\. \w+, rating"))
    expect(first).to_be_visible()
    expect(page.get_by_role("button", name="Table 01 of the Legion")).to_have_count(0)
    page.wait_for_timeout(400)

    def board(phone: Phone) -> None:
        # The board as opened (nothing scrolled it), laid out at this size.
        expect(first).to_be_visible()
        assert in_window(page, first), (phone.tag, first.bounding_box())
        assert page.evaluate("document.documentElement.scrollWidth") <= phone.width
        shoot(page, f"second-night-board-{phone.tag}", screenshot)

    at_each_size(phone, board)
    tap(page, "Change group")
    see(page, "Which games does the board count?")
    page.wait_for_timeout(400)
    at_each_size(phone, lambda phone: shoot(
        page, f"second-night-board-pick-{phone.tag}", screenshot))
    tap(page, "Table 07 of the Legion")
    see(page, "0 finished games in this group")
    tap(page, "Change group")
    tap(page, "All games")
    see(page, "2 finished games on this server")


@each_size_checked
def test_fair_teams_is_one_tap_and_the_group_page_shows_the_newest_games(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    seed_won_games(data, [["Ann", "Bob", "Cid", "Dee"], ["Ann", "Dee", "Cid", "Bob"],
                          ["Eve", "Bob", "Fay", "Dee"]] * 10)
    with GameStore(data) as store:
        games = [(s.id, list(s.players)) for s in store.list_games()]
    groups = FolderGroups(data)
    group, _code = groups.create("Friday bish")
    groups.add_games(group.id, games)
    server = start_server(data_dir=data)
    page = phone.page
    open_app(page, f"{server.url}group/{group.id}", first_text="Friday bish")
    fair = page.get_by_role("button", name="Fair teams")
    expect(fair).to_be_visible()
    rows = page.get_by_role("button", name=re.compile(r"^\w+ & \w+ vs \w+ & \w+\s"))
    expect(rows).to_have_count(5)
    expect(page.get_by_role("button", name="All 30 games")).to_have_count(1)
    page.wait_for_timeout(400)

    def group_page(phone: Phone) -> None:
        assert in_window(page, fair), (phone.tag, fair.bounding_box())
        shoot(page, f"second-night-group-page-{phone.tag}", screenshot)

    at_each_size(phone, group_page)
    tap(page, "Fair teams")
    expect(page).to_have_url(re.compile(rf"/group/{group.id}/teams$"))
    see(page, "Tap the 4 to 8 members here tonight.")
    ann = page.get_by_role("button", name="Ann not here")

    def teams(phone: Phone) -> None:
        assert in_window(page, ann), (phone.tag, ann.bounding_box())

    at_each_size(phone, teams)

    for name in ("Ann", "Bob", "Cid", "Dee"):
        tap(page, f"{name} not here")
    see(page, "Proposed teams")
    page.wait_for_timeout(400)
    at_each_size(phone, lambda phone: shoot(
        page, f"second-night-fair-teams-{phone.tag}", screenshot))
    page.get_by_label("Back", exact=True).click()
    tap(page, "All 30 games")
    expect(page).to_have_url(re.compile(rf"/group/{group.id}/games$"))
    expect(rows).to_have_count(30)
    # The leaderboard's Fair teams lands on the same screen, not on the group's page.
    route_to(page, f"ratings?group={group.id}", "Leaderboard")  # in the page already open
    tap(page, "Fair teams")
    see(page, "Tap the 4 to 8 members here tonight.")
    expect(page).to_have_url(re.compile(rf"/group/{group.id}/teams$"))


@each_size_checked
def test_the_keeper_renames_a_member_from_the_groups_statistics(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    group_id, _finished = seed_group_game(data)
    seed_won_games(data, [["Ann", "dee", "Cid", "Bob"]])  # typed small, held by no phone
    with GameStore(data) as store:
        games = [(s.id, list(s.players)) for s in store.list_games()]
    FolderGroups(data).add_games(group_id, games)
    server = start_server(data_dir=data)
    page = phone.page
    as_phone(page, KEEPER)
    open_app(page, f"{server.url}statistics?group={group_id}", first_text="2 games counted")
    page.get_by_label("Rename Dee", exact=True).click()
    type_into(page, "New name", "Deirdre")
    page.get_by_role("button", name="Rename", exact=True).click()
    see(page, "Dee is now Deirdre in 2 games.")
    see(page, "Deirdre")
    page.wait_for_timeout(400)
    at_each_size(phone, lambda phone: shoot(
        page, f"second-night-renamed-{phone.tag}", screenshot))
    route_to(page, f"group/{group_id}", "Members")  # the group's page, in the page open
    expect(page.get_by_role("button", name="Deirdre", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Dee", exact=True)).to_have_count(0)
    assert "Deirdre" in FolderGroups(data).get(group_id).members
    # A phone that keeps no group has no pencil on the group's statistics.
    other = page.context.browser.new_context().new_page() if page.context.browser else None
    assert other is not None
    open_app(other, f"{server.url}statistics?group={group_id}", first_text="2 games counted")
    expect(other.get_by_label("Rename Ann", exact=True)).to_have_count(0)
    other.context.close()


@each_size_checked
def test_a_keeper_takes_a_member_out_and_removes_a_phone(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    group_id, finished = seed_group_game(data)
    groups = FolderGroups(data)
    groups.add_member(group_id, "Eve")
    code = groups.new_code(group_id, None)
    groups.enter_code(group_id, TABLE, "10.0.0.2", code)  # a second phone keeps it too
    server = start_server(data_dir=data)
    page = phone.page
    as_phone(page, KEEPER)
    open_app(page, f"{server.url}group/{group_id}", first_text="Friday bish")
    tap(page, "Members and phones")
    see(page, "Phones that keep the group")
    see(page, re.compile(r"^This phone\s+keeper since "))
    see(page, re.compile(r"^Phone 2\s+keeper since "))
    page.wait_for_timeout(400)
    at_each_size(phone, lambda phone: shoot(
        page, f"second-night-people-{phone.tag}", screenshot))
    page.get_by_label("Take Eve out", exact=True).click()
    see(page, "Take Eve out?")
    page.get_by_role("button", name="Take out", exact=True).click()
    see(page, "Eve is no longer a member.")
    expect(page.get_by_label("Take Eve out", exact=True)).to_have_count(0)
    page.get_by_label("Remove phone 2", exact=True).click()
    page.get_by_role("button", name="Remove", exact=True).click()
    see(page, "Phone 2 no longer keeps the group.")
    after = FolderGroups(data)
    assert "Eve" not in after.get(group_id).members
    assert finished in after.get(group_id).games
    assert not after.holds(group_id, TABLE) and after.holds(group_id, KEEPER)


LONG = ["Mary Catherine MacDonald", "Angus Ronald MacNeil", "Flora Bell MacIsaac",
        "John Archie Gillis"]
LONG_GROUP = "Margaree Legion Friday Night League"
MARK_SHOWN = """() => [...document.querySelectorAll("#board tbody td.who")]
  .filter((td) => td.getClientRects().length).map((td) => {
    const mark = td.querySelector(".prov"), cell = td.getBoundingClientRect();
    const r = mark ? mark.getBoundingClientRect() : null;
    return {name: td.textContent, marked: !!mark,
            whole: !!r && r.width > 0 && r.left >= cell.left - 0.5 && r.right <= cell.right + 0.5};
  })"""


def seed_long_names(data: Path) -> tuple[str, str]:
    """A group with a long name and one finished game of four long names (held by
    TABLE's phone); (group id, game id)."""
    seed_won_games(data, [LONG])
    with GameStore(data) as store:
        game = store.list_games()[0]
    get_rights(data).start(game.id, TABLE)
    groups = FolderGroups(data)
    group, _code = groups.create(LONG_GROUP)
    groups.add_games(group.id, [(game.id, list(game.players))])
    return group.id, game.id


@each_size_checked
def test_long_names_wrap_or_end_in_an_ellipsis_and_keep_their_marks(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    from fits import assert_fits

    data = tmp_path / "data"
    group_id, _game_id = seed_long_names(data)
    server = start_server(data_dir=data)
    page = phone.page
    as_phone(page, TABLE)
    open_app(page, f"{server.url}group/{group_id}", first_text=LONG_GROUP)
    row = page.get_by_role("button", name=re.compile(r"^Mary Catherine MacDonald & "))
    expect(row).to_contain_text(re.compile(r"\d+–\d+ · finished · \d\d \w{3}"))

    def group_page(phone: Phone) -> None:
        assert_fits(page, [LONG_GROUP])  # the title wraps, whole
        box = row.bounding_box()
        # Room for two lines of names and the line of score and date (a fixed 64 px row
        # hid the score under the names).
        assert box is not None and box["height"] >= 3 * 20 + 12, (phone.tag, box)
        assert box["x"] + box["width"] <= phone.width, (phone.tag, box)
        page.wait_for_timeout(400)
        shoot(page, f"second-night-long-group-{phone.tag}", screenshot)

    at_each_size(phone, group_page)
    row.click()
    see(page, "Score sheet")
    counts = f"Counts for {LONG_GROUP}"
    expect(page.get_by_role("button", name=counts)).to_be_visible()

    def sheet(phone: Phone) -> None:
        assert_fits(page, [counts])
        page.wait_for_timeout(400)
        shoot(page, f"second-night-long-sheet-{phone.tag}", screenshot)

    at_each_size(phone, sheet)
    # The TV board beside each phone size: a page of plain HTML, loaded at each size.
    board = page.context.new_page()
    for width, height in phone.sizes:
        for size in ({"width": 1280, "height": 720}, {"width": width, "height": height}):
            board.set_viewport_size(size)
            board.goto(f"{server.url}leaderboard?group={group_id}")
            expect(board.locator("#title")).to_have_text(LONG_GROUP)
            expect(board.locator("#board tbody td.who").first).to_contain_text("provisional")
            shown = board.evaluate(MARK_SHOWN)
            assert shown and all(r["marked"] and r["whole"] for r in shown), (size, shown)
            shoot(board, f"second-night-long-tv-{size['width']}-{width}x{height}", screenshot)


@each_size_checked
def test_a_players_page_is_titled_as_the_group_writes_them(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    group_id, _finished = seed_group_game(data)
    server = start_server(data_dir=data)
    page = phone.page
    open_app(page, f"{server.url}player/ann?group={group_id}", first_text="With each partner")
    expect(page.get_by_text("Ann", exact=True).first).to_be_visible()  # the title
    expect(page.get_by_text("ann", exact=True)).to_have_count(0)
    see(page, re.compile(r"^Over all seasons: 1 game, 1 win"))
    expect(page.get_by_text(re.compile(r"^All games: "))).to_have_count(0)
    page.wait_for_timeout(400)
    at_each_size(phone, lambda phone: shoot(
        page, f"second-night-player-{phone.tag}", screenshot))


def test_group_new_beside_a_running_server_is_handed_to_it(
    start_server: Callable[..., Any], tmp_path: Path,
) -> None:
    """`tarabish group new` while the table server holds the folder: the server makes
    the group (as `tarabish import` hands it the games), and the code is printed once."""
    import subprocess

    data = tmp_path / "data"
    data.mkdir(parents=True)
    start_server(data_dir=data)

    def cli(*argv: str) -> subprocess.CompletedProcess[str]:
        return run_cli([*argv, "--data-dir", str(data)])

    made = cli("group", "new", "Friday bish", "--member", "Ann")
    assert made.returncode == 0, made.stderr
    code = re.search(r"Keeper code: (\d{4}) (\d{4})", made.stdout)
    assert code, made.stdout
    group = FolderGroups(data).find("Friday bish")
    assert group.members == ("Ann",)
    FolderGroups(data).enter_code(group.id, "a-phone-token-000000001", "10.0.0.4",
                                  f"{code.group(1)} {code.group(2)}")
    twice = cli("group", "new", "friday BISH")
    assert twice.returncode == 2 and "already a group named" in twice.stderr
    assert twice.stderr.count("\n") == 1
