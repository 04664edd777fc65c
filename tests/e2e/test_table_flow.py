"""A table runs a game on a phone: what the players tap, and what they read."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import (
    PLAYERS,
    enter_seeded_code,
    record_counted_hand,
    see,
    seed_game,
    tap,
    type_into,
    type_names,
    type_points,
)

from rules.game_file import check_game

Open = Callable[..., float]


def reload_app(page: Page, first_text: str) -> None:
    """The browser's Reload, then as `open_app` after a load: the accessibility tree
    turned on, `first_text` shown and the first frame painted (one load, not a reload
    and a second load of the same address)."""
    page.reload(wait_until="commit")
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    expect(page.get_by_text(first_text, exact=True).first,
           f"'{first_text}' after the reload").to_be_visible(timeout=60_000)
    page.wait_for_selector("flt-scene canvas", state="attached", timeout=60_000)


def full_hand(caller: int) -> dict[str, Any]:
    return {"caller": caller, "trump": "H", "points": {"team": caller % 2, "tricks": 162}}


def test_start_a_game_and_record_a_made_hand(page: Page, app_url: str, open_app: Open) -> None:
    open_app(page, app_url)
    tap(page, "New game")
    see(page, "Who sits where")
    type_names(page, PLAYERS)
    see(page, "Ann & Cid")  # the table in the middle names the partnerships
    see(page, "Bob & Dee")
    tap(page, "Dee")
    see(page, "Dee deals first")
    tap(page, "Start game")

    see(page, "Hand 1: Dee deals, Ann speaks and leads")
    expect(page.get_by_text("500 to go")).to_have_count(2)
    tap(page, "Record hand")
    tap(page, "Ann called")
    tap(page, re.compile("Hearts"))
    type_points(page, "100")
    see(page, "Ann & Cid called: 100 of 162, needed 82: made")
    see(page, "62")  # Bob & Dee's figure follows from the 162
    tap(page, "Save hand")

    see(page, "400 to go")
    see(page, "438 to go")
    see(page, "1. Dee dealt · Ann called ♥")
    see(page, "Hand 2: Ann deals, Bob speaks and leads")


def test_home_continues_the_game_this_phone_was_at_and_a_reload_brings_it_back(
    page: Page, app_url: str, open_app: Open, app_server: Any
) -> None:
    """After Back, home offers the game in progress as one big card: names and score.
    The game it opens comes back the same after a reload."""
    seed_game(app_server.data_dir, [full_hand(1)], teams=["Kitchen", "Porch"])  # not this phone's
    game = seed_game(app_server.data_dir, [full_hand(0)], teams=["Reds", "Blues"])
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)
    record_counted_hand(page, "Bob", "Clubs", "100")
    page.get_by_label("Back").click()
    card = page.get_by_role("button", name=re.compile(r"^Continue"))
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Reds  224 – 100  Blues")
    expect(card).to_contain_text("In progress · 2 hands")
    expect(card).to_contain_text(re.compile(r"\d\d:\d\d · last played \d\d:\d\d"))
    expect(page.get_by_text("Kitchen", exact=False)).to_have_count(0)
    card.click()
    see(page, "2. Ann dealt · Bob called ♣")
    expect(page).to_have_url(re.compile(rf"/game/{game}$"))

    # A reload brings back the same game: the hand saved on this phone, the totals.
    reload_app(page, first_text="Record hand")
    see(page, "2. Ann dealt · Bob called ♣")
    see(page, "276 to go")  # Reds: 162 + 62
    see(page, "400 to go")  # Blues: 0 + 100


def test_new_game_to_any_target_with_team_names_at_the_top_and_house_rules_on_request(
    page: Page, app_url: str, open_app: Open
) -> None:
    """New game's choices reach the game: team names (right after the seats), a target
    of any number, and house rules, opened on request."""
    open_app(page, app_url)
    tap(page, "New game")
    see(page, "Who sits where")
    # The team names come right after the seats, before the dealer and the rules.
    team = page.get_by_role("textbox", name="Team 1 name").bounding_box()
    dealer = page.get_by_text("Who deals first").bounding_box()
    assert team and dealer and team["y"] < dealer["y"], (
        f"the team names above the dealer: team box {team}, dealer {dealer}")

    see(page, "Standard rules")
    expect(page.get_by_text("Dealer may pass"),
           "house rules not built until opened").to_have_count(0)
    page.get_by_role("button", name=re.compile("House rules")).click()
    see(page, "Dealer may pass")
    page.get_by_role("switch").first.click()
    see(page, "1 house rule changed")
    page.get_by_role("switch", name="Forced to call").click()
    see(page, "2 house rules changed")
    see(page, "A team with more than 400 points may not pass the choice of trump round")
    tap(page, "Over 450")
    see(page, "A team with more than 450 points")
    see(page, "Split: 5 or 6 in a row is a fifty")

    type_names(page, PLAYERS)
    type_into(page, "Team 1 name", "Reds")
    tap(page, "Dee")
    type_into(page, "Other", "50")
    tap(page, "Start game")
    see(page, "Play to a number from 100 to 5000, or tap 300, 500 or 1000.")
    type_into(page, "Other", "750")
    tap(page, "Start game")
    see(page, "Hand 1: Dee deals, Ann speaks and leads")
    expect(page.get_by_text("750 to go"), "750 to go for both teams").to_have_count(2)
    see(page, "Reds")
    tap(page, "Record hand")
    tap(page, "All passed")  # only offered when the dealer may pass
    see(page, "nobody scores and the deal moves on")


def test_bait_half_bait_and_runs_with_bella(
    page: Page, app_url: str, open_app: Open, app_server: Any
) -> None:
    game = seed_game(app_server.data_dir, [])
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)

    # Bob calls spades, his side counts 70 of 162: bait.
    record_counted_hand(page, "Bob", "Spades", "70")
    see(page, "BAIT")
    see(page, "162")

    # Cid calls clubs, Ann & Cid count exactly 81: half-bait, Bob & Dee keep 81.
    tap(page, "Record hand")
    tap(page, "Cid called")
    tap(page, re.compile("Clubs"))
    type_points(page, "81")
    see(page, re.compile("exactly half, half-bait"))
    tap(page, "Save hand")
    see(page, "½ BAIT")

    # Dee deals hand 3... Ann calls hearts; Bob shows a fifty, Ann a twenty, Cid bella.
    tap(page, "Record hand")
    tap(page, "Ann called")
    tap(page, re.compile("Hearts"))
    tap(page, "Enter the cards of the runs")
    tap(page, "Bob shows runs")
    tap(page, "spades")
    for rank in ("9", "10", "J", "Q"):
        tap(page, f"run card {rank}")
    tap(page, "Ann shows runs")
    tap(page, "hearts")
    for rank in ("6", "7", "8"):
        tap(page, f"run card {rank}")
    see(page, re.compile(r"Bob's fifty to the queen beats Ann's twenty to the eight of trumps"))
    tap(page, "Cid has bella")
    type_points(page, "100")
    see(page, re.compile(r"Ann & Cid called: 100 \+ 20 = 120 of 232, needed 117: made"))
    tap(page, "Save hand")
    see(page, "RUN 50 Bob & Dee")  # the runs went to the non-callers: the tag says whose
    see(page, "BELLA")
    see(page, "120")
    see(page, "112")


def test_a_fifty_a_twenty_and_bella_in_six_taps_and_impossible_points_refused(
    page: Page, app_url: str, open_app: Open, app_server: Any
) -> None:
    """Runs entered as paper writes them ("+50"), each one tap: counted. Then, on the
    next hand, impossible points are refused with the reason, and two twenties ask for
    their cards."""
    game = seed_game(app_server.data_dir, [])
    open_app(page, f"{app_url}game/{game}/hand", first_text="Enter the table code")
    enter_seeded_code(page, game)
    see(page, "Who called?")
    taps = 0

    def counted(name: str | re.Pattern[str]) -> None:
        nonlocal taps
        taps += 1
        tap(page, name)

    counted("Ann called")
    counted(re.compile("Hearts"))
    counted("Bob fifty")
    counted("Ann twenty")
    counted("Cid has bella")
    see(page, re.compile(r"Bob's fifty beats Ann's twenty"))
    type_points(page, "100")
    see(page, re.compile(r"Ann & Cid called: 100 \+ 20 = 120 of 232, needed 117: made"))
    counted("Save hand")
    see(page, "RUN 50 Bob & Dee")
    assert taps <= 6, f"a fifty, a twenty and bella in {taps} taps plus the digits, not 6"

    # Impossible points are refused with the reason, and the problem does not push
    # the keys down.
    tap(page, "Record hand")
    tap(page, "Bob called")
    tap(page, re.compile("Diamonds"))
    key = page.get_by_role("button", name="1", exact=True)
    before = key.bounding_box()
    type_points(page, "161")
    see(page, "No team can take 161: trick points are never 1 or 161")
    expect(page.get_by_role("button", name="Save hand"),
           "Save hand refused for 161").to_be_disabled()
    assert key.bounding_box() == before, "the problem did not push the keys down"

    # Two twenties cannot be told apart by their worth: the cards are asked for, and why.
    for _ in range(3):
        tap(page, "⌫")
    tap(page, re.compile("Spades"))
    tap(page, "Ann twenty")
    tap(page, "Bob twenty")
    see(page, re.compile(r"Ann and Bob each show a twenty: equal runs are told apart by the "
                         r"higher top card"))
    expect(page.get_by_role("button", name="Save hand")).to_be_disabled()


def test_undo_the_last_hand_says_what_goes(
    page: Page, app_url: str, open_app: Open, app_server: Any
) -> None:
    game = seed_game(app_server.data_dir, [full_hand(0), full_hand(1)])
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)
    see(page, "338 to go")
    tap(page, "Undo last hand")
    see(page, "Undo hand 2?")
    see(page, re.compile(r"Hand 2 \(Ann dealt · Bob called ♥: 0 – 162\) will be taken off"))
    tap(page, "Remove hand")
    expect(page.get_by_text("338 to go")).to_have_count(1)  # only Ann & Cid's is left
    see(page, "500 to go")
    see(page, "Hand 2: Ann deals, Bob speaks and leads")
    # The undone hand leaves a trace under the sheet, folded; it can be put back.
    tap(page, "1 undone hand")
    see(page, "2. Bob called ♥")
    tap(page, "Put hand 2 back")
    expect(page.get_by_text("338 to go")).to_have_count(2)
    see(page, "Hand 3: Bob deals, Cid speaks and leads")


def test_edit_an_early_hand_rescores_the_sheet(
    page: Page, app_url: str, open_app: Open, app_server: Any
) -> None:
    hands = [{"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}},
             full_hand(1), full_hand(2)]
    game = seed_game(app_server.data_dir, hands)
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)
    see(page, "238 to go")  # Ann & Cid: 100 + 0 + 162 = 262
    see(page, "276 to go")  # Bob & Dee: 62 + 162 + 0 = 224
    page.get_by_text("1. Dee dealt · Ann called ♠").click()
    see(page, "Ann & Cid called: 100 of 162, needed 82: made")
    tap(page, "Edit this hand")
    see(page, "Edit hand 1")
    tap(page, "⌫")
    tap(page, "⌫")
    tap(page, "⌫")
    type_points(page, "60")
    see(page, re.compile("needed 82: short"))
    tap(page, "Save hand 1")
    see(page, "1. Dee dealt · Ann called ♠")
    see(page, "BAIT")
    see(page, "338 to go")   # Ann & Cid: 0 + 0 + 162 = 162
    see(page, "176 to go")   # Bob & Dee: 162 + 162 + 0 = 324
    # The edit leaves its mark, and the hand's detail says what it was and became.
    see(page, "EDITED")
    page.get_by_text("1. Dee dealt · Ann called ♠").click()
    see(page, "History")
    see(page, re.compile(r"Edited on phone \d+ at \d\d:\d\d: Ann & Cid's tricks: 100 → 60"))


def test_forced_team_makes_the_dealer_untappable(
    page: Page, app_url: str, open_app: Open, app_server: Any
) -> None:
    # Bob & Dee reach 486 (over 400); hand 4 is dealt by Bob? first dealer 3: hands are dealt by
    # Dee, Ann, Bob, Cid... hand 4 is Cid's deal, and Cid's team is not forced.
    game = seed_game(app_server.data_dir, [full_hand(1), full_hand(3), full_hand(1)],
                     rules={"forced_at": 400})
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)
    see(page, "Bob & Dee are forced (over 400).")
    see(page, re.compile(r"Bob must call if it comes round: Cid \(dealing\) cannot be left"))
    tap(page, "Record hand")
    expect(page.get_by_role("button", name="Cid called")).to_be_disabled()
    see(page, "Bob & Dee are forced (over 400): Bob must call before the dealer")


def test_a_won_game_opens_on_its_winner_and_plays_again(
    page: Page, app_url: str, open_app: Open, app_server: Any
) -> None:
    """The winning Save shows the winner, not the rows the sheet was scrolled to; the
    finished game takes no hand, and Play again starts the next with the next dealer."""
    made = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 82}}
    game = seed_game(app_server.data_dir, [made] * 5)  # 410 to 400
    page.set_viewport_size({"width": 360, "height": 640})
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)
    see(page, "90 to go")
    page.mouse.move(180, 300)
    page.mouse.wheel(0, 3000)  # down to the first hands
    expect(page.get_by_text("1. Dee dealt · Ann called ♥")).to_be_in_viewport()
    expect(page.get_by_text("90 to go")).not_to_be_in_viewport()
    # Counted by the side that did not call: Bob & Dee's 62 leave Ann & Cid 100.
    record_counted_hand(page, "Cid", "Clubs", "62", counted_by="Bob & Dee")
    see(page, "Ann & Cid win, 510 to 462 (target 500)")
    expect(page.get_by_text("WINNER"), "the winner shown after the winning Save"
           ).to_be_in_viewport()
    expect(page.get_by_role("button", name="Record hand"),
           "no Record hand on a won game").to_have_count(0)
    tap(page, "Play again")
    see(page, "Who sits where")
    # Dee, Ann, Bob, Cid, Dee and Ann dealt the six hands: Bob deals next.
    see(page, "Bob deals first")
    tap(page, "Start game")
    see(page, "Hand 1: Bob deals, Cid speaks and leads")
    expect(page.get_by_text("500 to go"), "500 to go for both teams").to_have_count(2)


def test_past_games_open_a_game_export_another_and_delete_a_third(
    page: Page, app_url: str, open_app: Open, app_server: Any
) -> None:
    """Past games, reached from home: a game's row reads its score and winner and opens
    its sheet; another exports to a file that replays to its score; a third, whose code
    this phone holds, is deleted."""
    seed_game(app_server.data_dir, [full_hand(0), full_hand(0), full_hand(2), full_hand(0)],
              teams=["Crimson", "Navy"])  # names no other test on this server gives
    seed_game(app_server.data_dir, [full_hand(1)], teams=["Hearts Club", "Legion"])
    old = seed_game(app_server.data_dir, [full_hand(0)], teams=["Old Pals", "New Pals"])
    # Deleting needs the game's code: the one `tarabish import` printed.
    open_app(page, f"{app_url}game/{old}", first_text="Score sheet")
    enter_seeded_code(page, old)
    page.get_by_label("Back").click()
    tap(page, "Past games")
    see(page, "Crimson  648 – 0  Navy")
    see(page, "Won by Crimson")

    with page.expect_download() as download:
        tap(page, "Export Hearts Club vs Legion")
    name = download.value.suggested_filename
    assert name.startswith("tarabish-") and name.endswith("-hearts-club-vs-legion.json"), name
    doc = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert doc["format"] == "tarabish-game/1", doc["format"]
    assert doc["teams"] == ["Hearts Club", "Legion"], doc["teams"]
    assert check_game(doc).totals == (0, 162), "the file replays to the same score"

    tap(page, "Delete Old Pals vs New Pals")
    see(page, "Delete this game?")
    tap(page, "Delete")
    expect(page.get_by_text("Old Pals  162 – 0  New Pals"),
           "the deleted game gone from Past games").to_have_count(0)
    see(page, "Hearts Club  0 – 162  Legion")

    tap(page, "Open Crimson vs Navy")
    see(page, "Score sheet")
    see(page, "Crimson win, 648 to 0 (target 500)")
    see(page, "4. Cid dealt · Ann called ♥")
