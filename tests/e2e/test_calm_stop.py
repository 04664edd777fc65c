"""A stop (Ctrl-C) prints one calm line, whatever pages are open (issue 31, section 1):
a board waiting for news, the table cards, the board page and a phone on a game. No
"Exception in ASGI application" from the board's long wait, cut off by the stop."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page
from table_steps import see, seed_game

from scorer.server import not_cut_off_at_stop
from tests.server_zygote import run_cli

HAND = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 92}}


def make_event(data_dir: Path) -> str:
    """A club night of four teams, made with `tarabish event new`; its id."""
    data_dir.mkdir(parents=True, exist_ok=True)
    spec = data_dir.parent / "night.json"
    spec.write_text(json.dumps({"name": "Legion", "format": "swiss", "rounds": 3,
                                "target": 300, "house_rules": {}, "seed": 1,
                                "teams": [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"],
                                          ["Gus", "Hal"]]}), encoding="utf-8")
    done = run_cli(["event", "new", str(spec), "--data-dir", str(data_dir)], check=True)
    return done.stdout.strip()


def test_a_stop_with_pages_open_prints_one_calm_line(
        tmp_path: Path, start_server: Callable[..., Any], page: Page,
        open_app: Callable[..., float]) -> None:
    data = tmp_path / "data"
    event_id = make_event(data)
    game = seed_game(data, [HAND])
    srv = start_server(data_dir=data)
    with urllib.request.urlopen(f"{srv.url}board/{event_id}/state", timeout=10) as answer:
        tag = answer.headers["X-Board-Version"]
    with urllib.request.urlopen(f"{srv.url}event/{event_id}/cards", timeout=10) as answer:
        assert answer.status == 200
    answers: list[int] = []

    def wait_for_news() -> None:  # as a board does, for up to 25 s
        with urllib.request.urlopen(f"{srv.url}board/{event_id}/state?after={tag}",
                                    timeout=40) as answer:
            answers.append(answer.status)

    waiting = threading.Thread(target=wait_for_news, daemon=True)
    waiting.start()
    board = page.context.new_page()
    board.goto(f"{srv.url}board/{event_id}")
    board.get_by_text("Legion").first.wait_for()
    open_app(page, f"{srv.url}game/{game}", first_text="Score sheet")
    see(page, "Watching")
    time.sleep(1)  # the board's own long wait has begun

    before = len(srv.log())
    assert srv.stop() == 0
    waiting.join(10)
    said = srv.log()[before:]
    assert "Traceback" not in said and "Exception in ASGI" not in said, said
    assert said.strip().splitlines() == ["Tarabish server stopped."], said
    assert answers == [204]  # the waiting board was answered "nothing new", not cut off


def test_what_the_stop_cuts_off_is_not_printed() -> None:
    """On a busy laptop a page may still be talking when the grace runs out: uvicorn
    cancels it and would print a traceback; other errors are still printed."""
    def record(msg: str, exc: BaseException | None = None) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, msg, (),
                                 (type(exc), exc, None) if exc else None)

    assert not not_cut_off_at_stop(record("Exception in ASGI application\n",
                                          asyncio.CancelledError()))
    assert not not_cut_off_at_stop(record(
        "Cancel %s running task(s), timeout graceful shutdown exceeded"))
    assert not_cut_off_at_stop(record("Exception in ASGI application\n", ValueError("bug")))
    assert not_cut_off_at_stop(record("something else"))
