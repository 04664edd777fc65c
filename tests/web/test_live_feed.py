"""DatabaseFeed hands another process's changes to this process's sessions (through
any session's pubsub client) and boards; a batch of "everything" redraws all."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.app import CONFIG, live
from scorer.store.database.feed import Batch
from scorer.web.live_feed import DatabaseFeed
from tests.in_thread import run_async


class FakePubSub:
    def __init__(self) -> None:
        self.sent: list[tuple[Any, ...]] = []

    def send_all_on_topic(self, topic: str, message: str) -> None:
        self.sent.append(("topic", topic, message))

    def send_all(self, message: str) -> None:
        self.sent.append(("all", message))


@pytest.fixture
def pubsub(monkeypatch: pytest.MonkeyPatch) -> FakePubSub:
    fake = FakePubSub()
    monkeypatch.setattr(live, "_pubsub", None)
    live.hear(fake)
    return fake


def test_games_reach_their_topic_and_the_boards(pubsub: FakePubSub,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    saved: list[str] = []
    monkeypatch.setattr(CONFIG, "game_saved", saved.append)
    feed = DatabaseFeed(db=None, writer="me")  # type: ignore[arg-type]
    feed.deliver(Batch(games={"0123abcd": 4, "89abcdef": 1}))
    assert sorted(pubsub.sent) == [("topic", "game:0123abcd", "0123abcd"),
                                   ("topic", "game:89abcdef", "89abcdef")]
    assert sorted(saved) == ["0123abcd", "89abcdef"]


def test_everything_redraws_every_open_game_and_board(pubsub: FakePubSub) -> None:
    boards: list[bool] = []
    feed = DatabaseFeed(db=None, writer="me",  # type: ignore[arg-type]
                        redraw_boards=lambda: boards.append(True))
    feed.deliver(Batch(everything=True))
    assert pubsub.sent == [("all", live.REDRAW_ALL)]
    assert boards == [True]


def test_no_session_yet_is_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "_pubsub", None)
    live.game_changed("0123abcd")
    live.redraw_everything()


def test_after_a_drop_every_board_works_its_state_out_again() -> None:
    """BoardHub.changed_all (the feed was cut off): each event a board has shown or
    waits on is bumped, from another thread, on the server's loop."""
    import asyncio
    import threading

    from scorer.web.club import BoardHub

    async def run() -> dict[str, int]:
        hub = BoardHub(lambda: None)  # type: ignore[arg-type, return-value]
        hub.loop = asyncio.get_running_loop()
        hub.changed("0123abcd")
        hub._states["89abcdef"] = (0, "tag", b"{}")  # shown once, unchanged since
        before = dict(hub._versions)
        worker = threading.Thread(target=hub.changed_all)
        worker.start()
        worker.join()
        await asyncio.sleep(0.05)
        assert before == {"0123abcd": 1}
        return dict(hub._versions)

    assert run_async(run()) == {"0123abcd": 2, "89abcdef": 1}
