"""The club night's phone screens as an organiser and a table see them, at 390x844 and
360x640, light and dark: counts in plain words ("1 hand so far"), Start round
refused before the tap with the reason beside it, both exports on a line of their own,
any target from 100 to 5000 for a new night (as on New game), and a table's code pad
that says where a club table's code is. And the printed table cards keep each team on
one line. Screenshots: test-artifacts/screenshots/club-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from club_seats import seed_night
from playwright.sync_api import Page, expect
from table_steps import (
    Phone,
    at_each_size,
    become_host,
    each_size_checked,
    route_to,
    see,
    shoot,
    tap,
    type_into,
)
from test_club_night import board_state


@each_size_checked
def test_an_organiser_and_a_table_read_the_night(
    phone: Phone, new_context: Callable[..., Any], start_server: Callable[..., Any],
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    event_id = seed_night(data, 2, "first hand")
    server = start_server(data_dir=data)
    page = phone.page
    open_app(page, f"{server.url}host", first_text="Host")
    become_host(page, server.log())  # the host organises every night
    route_to(page, f"club/{event_id}", "Legion 2 tables first hand")
    expect(page.get_by_text("This phone is now the host")).to_have_count(0, timeout=15_000)
    see(page, "1 hand so far")
    see(page, "0 hands so far")
    # Round 2 cannot start while round 1 plays on: it says so before anyone taps.
    expect(page.get_by_role("button", name="Start round 2")).to_be_disabled()
    see(page, "Round 1 has 2 tables still playing (1, 2). Round 2 starts once each has "
              "ended or has a result.")
    at_each_size(phone, lambda phone: shoot(
        page, f"club-organiser-waiting-{phone.tag}", screenshot))
    export = page.get_by_role("button", name="Export results")

    def tools(phone: Phone) -> None:
        export.scroll_into_view_if_needed()
        box = export.bounding_box()
        # A line of its own: room for its words.
        assert box and box["width"] > phone.width - 80, (phone.tag, box)
        shoot(page, f"club-organiser-tools-{phone.tag}", screenshot)

    at_each_size(phone, tools)

    # A table's phone scans its card: the code pad says the code is on that card.
    # Shot both ways and at each size, as the phone.
    table = new_context(color_scheme="light").new_page()
    table.set_viewport_size(page.viewport_size or {"width": phone.width, "height": 640})
    game = board_state(server.url, event_id)["tables"][0]["game"]
    open_app(table, f"{server.url}game/{game}", first_text="Score sheet")
    tap(table, "Enter table code")
    see(table, "This table plays in a club night: its code is on the table card. No card? "
               "Ask the organiser.")
    expect(table.get_by_text("Ask the phone that started the game")).to_have_count(0)
    at_each_size(Phone(table, phone.sizes), lambda size: shoot(
        table, f"club-table-code-{size.tag}", screenshot))

    # A new night plays to any number New game takes (typed), not only 300/500/1000.
    route_to(page, "club/new", "New club night")  # a walk in the app: no second load

    type_into(page, "Name of the night", "Legion Friday")
    type_into(page, "Entrants", "Ann & Bob\nCid & Dee")
    see(page, "2 teams")
    other = page.get_by_role("textbox", name="Other")
    other.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    type_into(page, "Other", "750")
    page.wait_for_timeout(500)
    see(page, "2 teams")  # still a night of teams: no tap went astray
    at_each_size(phone, lambda phone: shoot(page, f"club-new-target-{phone.tag}", screenshot))
    tap(page, "Create club night")
    page.wait_for_url(re.compile(r"/club/[0-9a-f]{8}$"))
    made = re.search(r"/club/([0-9a-f]{8})$", page.url)
    assert made
    stored = json.loads((data / "events" / f"{made.group(1)}.json").read_text())
    assert '"target": 750' in json.dumps(stored)
    see(page, "2 rounds, not started")


def test_table_cards_keep_each_team_on_one_line(
    new_context: Callable[..., Any], start_server: Callable[..., Any],
    screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    event_id = seed_night(data, 4, "started")
    server = start_server(data_dir=data)
    cards = new_context(color_scheme="light").new_page()
    cards.set_viewport_size({"width": 900, "height": 900})
    for scheme in ("light", "dark"):
        cards.emulate_media(color_scheme=scheme)  # before the load: it opens in it
        cards.goto(f"{server.url}event/{event_id}/cards")
        expect(cards.locator(".card")).to_have_count(4)
        lines = cards.evaluate("""() => [...document.querySelectorAll(".seats li")].map((li) => {
          const range = document.createRange();
          range.selectNodeContents(li);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        })""")
        assert lines == [1] * 8, lines  # "Margaret M. & Catherine M." on one line
        cut = cards.evaluate("""() => [...document.querySelectorAll(".card *")]
          .filter((el) => el.clientWidth && el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.textContent)""")
        assert cut == []
        screenshot(cards, f"club-cards-900-{scheme}")
