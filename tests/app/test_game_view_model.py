"""What the score sheet says about a game, derived by replaying it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from scorer.app.game_view_model import _REPLAYED, REPLAYED_GAMES, GameModel
from scorer.store.models import StoredGame


def model(hands: list[dict[str, Any]], **extra: Any) -> GameModel:
    doc = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
           "first_dealer": 0, "rules": {}, "hands": hands, **extra}
    now = datetime.now(UTC)
    return GameModel.load(StoredGame(id="0123abcd", revision=1, created=now, updated=now, doc=doc))


def full(caller: int) -> dict[str, Any]:
    return {"caller": caller, "trump": "H", "points": {"team": caller % 2, "tricks": 162}}


def test_next_hand_names_dealer_and_leader() -> None:
    m = model([full(1)])
    assert m.next_hand_line() == "Hand 2: Bob deals, Cid speaks and leads"
    assert m.describe(m.replay.hands[0]) == "Ann dealt · Bob called ♥"


def test_forced_banner_names_the_team_and_who_must_call() -> None:
    m = model([full(1), full(1), full(3)], rules={"forced_at": 400})
    assert m.replay.totals == (0, 486)
    # hand 4 is dealt by Dee (team 1 is forced, and is the dealing team)
    assert m.forced_line() == "Bob & Dee are forced (over 400)."
    m = model([full(1), full(1), full(3), full(0)], rules={"forced_at": 400})
    line = m.forced_line()
    assert line is not None and "Dee must call" in line and "Ann (dealing)" in line


def test_no_forced_banner_without_the_variation() -> None:
    assert model([full(1), full(1), full(3)]).forced_line() is None


def test_winner_line_after_the_target() -> None:
    m = model([full(0), full(0), full(0), full(0)])
    assert m.replay.winner == 0
    line = m.winner_line()
    assert line is not None and "Ann & Cid win, 648 to 0" in line


def test_a_game_read_again_unchanged_reuses_its_replay_and_nothing_else() -> None:
    """Every watching phone loads the game after a Save: one replay serves them all,
    but a game changed in any way (even behind the store's back, same revision) is
    replayed anew, and each caller keeps its own stored copy."""
    first = model([full(1)])
    again = model([full(1)])
    assert again.replay is first.replay and again.game is first.game
    assert again.stored is not first.stored
    again.stored.doc["hands"].append(full(2))  # a caller's own copy: no effect
    assert model([full(1)]).replay is first.replay
    edited = model([full(3)])  # same id and revision, other hands
    assert edited.replay is not first.replay
    assert edited.describe(edited.replay.hands[0]) == "Ann dealt · Dee called ♥"


def test_replays_are_kept_for_a_bounded_number_of_games() -> None:
    now = datetime.now(UTC)
    doc = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
           "first_dealer": 0, "rules": {}, "hands": [full(1)]}
    for n in range(REPLAYED_GAMES * 2):
        GameModel.load(StoredGame(id=f"{n:08x}", revision=1, created=now, updated=now, doc=doc))
    assert len(_REPLAYED) == REPLAYED_GAMES
    assert f"{REPLAYED_GAMES * 2 - 1:08x}" in _REPLAYED and "00000000" not in _REPLAYED
