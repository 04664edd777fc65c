"""A keeper starts a progressive club night for a group on the phone: New club night
offers the groups this phone keeps, the members are tapped in, the night's page says
whom it is for, and the games round 1 seats join the group. At 390x844 and 360x640,
light and dark. Screenshots: test-artifacts/screenshots/group-night-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect
from table_steps import (
    Phone,
    at_each_size,
    each_size_checked,
    see,
    seed_won_games,
    shoot,
    tap,
    type_into,
)

from scorer.groups.folder import FolderGroups
from scorer.store.game_store import GameStore
from tests.server_zygote import run_cli

PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
TOKEN = "KeeperPhoneOfFridayBish00000001"
"""The device token of a phone that already keeps the group (it entered the code once)."""
KEEPS_THE_GROUP = f"""
if (!localStorage.getItem('flutter.tarabish.device'))
  localStorage.setItem('flutter.tarabish.device', {json.dumps(json.dumps(TOKEN))});
"""


def seed_group(data: Path) -> str:
    """"Friday bish" (nine members), kept by TOKEN's phone, with three won games (Ann &
    Cid won)."""
    seed_won_games(data, [["Ann", "Bob", "Cid", "Dee"]] * 3)
    with GameStore(data) as store:
        won = [(s.id, list(s.players)) for s in store.list_games()]
    groups = FolderGroups(data)
    group, _code = groups.create("Friday bish", [*PLAYERS, "Ida"], keeper=TOKEN)
    groups.add_games(group.id, won)
    return group.id


def scroll_to(page: Page, target: Locator) -> None:
    """Turn the wheel (a thumb's swipe) until `target` is near the top of the screen
    (back up if it is above it: a screen turned to another size keeps its offset)."""
    page.mouse.move(page.viewport_size["width"] / 2 if page.viewport_size else 180, 300)
    for _ in range(20):
        box = target.first.bounding_box()
        if box is not None and 0 <= box["y"] < 160:
            return
        page.mouse.wheel(0, -120 if box is not None and box["y"] < 0 else 120)
        page.wait_for_timeout(150)


def near_the_top(page: Page, target: Locator, name: str,
                 screenshot: Callable[[Page, str], Path]) -> Callable[[Phone], None]:
    """A check for `at_each_size`: `target` near the top at that size, then the shot."""

    def check(phone: Phone) -> None:
        scroll_to(page, target)
        shoot(page, f"{name}-{phone.tag}", screenshot)

    return check


def here(page: Page, name: str) -> None:
    """Tap the player in, and wait until the screen says so: a tap that lands while the
    list is redrawn for the one before is lost, as a thumb's is, and is made again."""
    shown_here = page.get_by_role("button", name=f"{name} here", exact=True)
    for _attempt in range(3):
        if not shown_here.count():  # the last tap may be drawn late: never tap twice
            tap(page, f"{name} not here")
        try:
            expect(shown_here).to_have_count(1, timeout=5_000)
            return
        except AssertionError:
            continue
    expect(shown_here, f"{name} shown as here").to_have_count(1)


@each_size_checked
def test_a_keeper_starts_a_progressive_night_for_the_group(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    group_id = seed_group(data)
    server = start_server(data_dir=data)
    page = phone.page
    page.context.add_init_script(KEEPS_THE_GROUP)
    open_app(page, f"{server.url}club/new", first_text="New club night")
    see(page, "For a group")
    def four_in_fair_teams() -> None:
        type_into(page, "Name of the night", "Friday")
        tap(page, "Friday bish")
        see(page, "Who is here")
        # A team night first: the four here make the fairest two teams (Ann and Cid, who
        # won every game, are split up).
        for name in PLAYERS[:4]:
            here(page, name)
        tap(page, "Fair teams (4)")
        see(page, re.compile(r"\d+\u00a0% · .* \d+\u00a0%"))
        see(page, "2 teams")
        scroll_to(page, page.get_by_text("Who is here"))

    four_in_fair_teams()
    expect(page.get_by_text(re.compile(r"Ann & Cid|Cid & Ann"))).to_have_count(0)
    who = page.get_by_text("Who is here")
    at_each_size(phone, near_the_top(page, who, "group-night-fair-teams", screenshot))

    def nine_here() -> None:  # fair teams is for up to eight; the teams are typed by hand
        for name in [*PLAYERS[4:], "Ida"]:
            here(page, name)
        see(page, "Fair teams is for up to 8 players: with more, type the teams by hand.")
        scroll_to(page, page.get_by_text("Who is here"))

    nine_here()
    expect(page.get_by_role("button", name="Fair teams (9)")).to_be_disabled()
    at_each_size(phone, near_the_top(page, who, "group-night-nine", screenshot))

    def progressive_of_eight() -> None:  # Ida went home
        tap(page, "Ida here")
        expect(page.get_by_role("button", name="Ida not here", exact=True)).to_have_count(1)
        # A tap while the list is drawn again for Ida is lost, as a thumb's is: again.
        single = page.get_by_text("Tap who came, then put them in the list of players.")
        for _attempt in range(3):
            if not single.count():
                tap(page, "Progressive (single players)")
            try:
                expect(single).to_have_count(1, timeout=5_000)
                break
            except AssertionError:
                continue
        expect(single, "the night made progressive").to_have_count(1)
        scroll_to(page, page.get_by_text("Who is here"))

    progressive_of_eight()
    at_each_size(phone, near_the_top(page, who, "group-night-new", screenshot))
    tap(page, "Put them in the list (8)")
    see(page, "8 players")
    create = page.get_by_role("button", name="Create club night")
    create.click()
    page.wait_for_url(re.compile(r"/club/[0-9a-f]{8}$"), timeout=15_000)
    see(page, "for Friday bish")
    start = page.get_by_role("button", name="Start round 1")
    start.scroll_into_view_if_needed()
    start.click()
    see(page, "Round 1", timeout=15_000)
    expect(page.get_by_role("button", name="Start round 2")).to_be_disabled(timeout=15_000)
    page.evaluate("window.scrollTo(0, 0)")
    at_each_size(phone, lambda phone: shoot(page, f"group-night-round-{phone.tag}", screenshot))

    page.wait_for_url(re.compile(r"/club/[0-9a-f]{8}$"))  # the address follows the screen
    made = re.search(r"/club/([0-9a-f]{8})$", page.url)
    assert made
    night = json.loads((data / "events" / f"{made.group(1)}.json").read_text())
    text = json.dumps(night)
    assert f'"group": "{group_id}"' in text
    seated = set(re.findall(r'"game": "([0-9a-f]+)"', text))
    assert len(seated) == 2
    group = FolderGroups(data).get(group_id)
    assert seated <= set(group.games) and len(group.games) == 5


def test_a_night_for_a_group_made_beside_a_running_server(
    start_server: Callable[..., Any], tmp_path: Path,
) -> None:
    """`tarabish event new --group` and `event round` while the table server holds the
    folder: handed to the server, whose seated games join the group."""
    import subprocess

    data = tmp_path / "data"
    group_id = seed_group(data)
    start_server(data_dir=data)
    spec = tmp_path / "night.json"
    spec.write_text(json.dumps({"name": "Friday", "format": "progressive",
                                "players": PLAYERS, "seed": 2}), encoding="utf-8")

    def cli(*argv: str) -> subprocess.CompletedProcess[str]:
        return run_cli([*argv, "--data-dir", str(data)])

    made = cli("event", "new", str(spec), "--group", "Friday bish")
    assert made.returncode == 0, made.stderr
    played = cli("event", "round", made.stdout.strip(), "--json")
    assert played.returncode == 0, played.stderr
    seated = {t["game"] for t in json.loads(played.stdout)["tables"]}
    assert seated <= set(FolderGroups(data).get(group_id).games)
    missing = cli("event", "new", str(spec), "--group", "Saturday")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
