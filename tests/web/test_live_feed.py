"""DatabaseFeed hands another process's changes to this process's sessions (through
any session's pubsub client) and boards; a batch of "everything" redraws all."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.app import CONFIG, live
from scorer.store.database.feed import Batch
from scorer.web.live_feed import DatabaseFeed


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
