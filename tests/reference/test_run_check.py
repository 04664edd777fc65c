"""The run checker's verdict without a browser, and which game and hand it helps."""

from __future__ import annotations

from pathlib import Path

from rules.cards import Card, Suit, parse_card
from rules.house_rules import HouseRules
from rules.names import TableNames
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.recording.draft import HandDraft
from scorer.reference.hand_link import HandLink, link_from_query, rules_route
from scorer.reference.run_check import bella_line, check_table, headline
from scorer.store.game_store import GameStore

NAMES = TableNames.of(("Ann", "Bob", "Cid", "Dee"))


def hand(text: str) -> frozenset[Card]:
    return frozenset(parse_card(word) for word in text.split())


def check(hands: dict[int, str], trump: Suit | None = Suit.HEARTS,
          whole: dict[int, bool] | None = None, rules: HouseRules | None = None):
    return check_table({seat: hand(text) for seat, text in hands.items()}, whole or {}, trump,
                       True, rules or HouseRules(), 3, NAMES)


def test_trump_run_wins_a_tie_and_bella_is_found() -> None:
    verdict = check({0: "JS QS KS", 1: "JC QC KC"}, trump=Suit.CLUBS)
    assert verdict.ok
    assert headline(verdict, NAMES) == "Bob's runs count: 20 to Bob & Dee"
    assert "the trump run wins" in verdict.reasons[0].text
    assert verdict.bella_seat == 1
    assert bella_line(verdict, Suit.CLUBS, NAMES) == (
        "Bob holds bella (Q♣ K♣): 20 to Bob & Dee when called")


def test_equal_plain_runs_cancel_and_turn_order_house_rule() -> None:
    hands = {0: "JS QS KS", 1: "JD QD KD", 2: "6C 7C 8C"}
    assert headline(check(hands), NAMES) == "Equal plain runs cancel: nobody scores runs"
    turn = check(hands, rules=HouseRules(run_ties="turn_order"))
    assert headline(turn, NAMES) == "Ann's runs count: 20 to Ann & Cid"
    assert turn.reasons[0].section == "house-run-ties"


def test_clashing_and_stray_cards_are_pointed_at() -> None:
    verdict = check({0: "9H 10H JH QH", 1: "QH KH AH 6S"})
    assert not verdict.ok and verdict.ruling is None
    assert verdict.bad_cards == {(0, parse_card("QH")), (1, parse_card("QH")),
                                 (1, parse_card("6S"))}
    assert verdict.problems == (
        "Q♥ is in both Ann's and Bob's cards: there is only one queen of hearts",
        "Bob: 6♠ is in no run (a run is three or more in a row of one suit)",
    )


def test_whole_hand_keeps_stray_cards_and_finds_runs() -> None:
    verdict = check({2: "AS 6H 7H 8H 9H 10D JD QC KC"}, trump=Suit.CLUBS, whole={2: True})
    assert verdict.ok
    assert verdict.run_cards == frozenset((2, parse_card(c)) for c in ("6H", "7H", "8H", "9H"))
    assert verdict.bella_seat == 2
    assert headline(verdict, NAMES) == "Cid's runs count: 50 to Ann & Cid"


def test_ten_cards_is_too_many_even_for_a_whole_hand() -> None:
    verdict = check({0: "6S 7S 8S 9S 10S JS QS KS AS 6H"}, whole={0: True})
    assert verdict.problems == ("Ann has 10 cards: a hand is 9",)


def test_no_trump_yet_is_not_ready() -> None:
    verdict = check_table({0: hand("6S 7S 8S")}, {}, None, False, HouseRules(), 3, NAMES)
    assert not verdict.ok and verdict.needs_trump


def seeded(tmp_path: Path) -> tuple[GameStore, str]:
    store = GameStore(tmp_path)
    stored = store.create_game({"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid",
                                                                         "Dee"],
                                "first_dealer": 3, "rules": {"run_ties": "turn_order"},
                                "hands": [{"caller": 0, "trump": "H",
                                           "runs": [{"seat": 1, "cards": ["6S", "7S", "8S"]}],
                                           "points": {"team": 0, "tricks": 100}}]})
    return store, stored.id


def test_links_to_a_game_and_hand(tmp_path: Path) -> None:
    store, gid = seeded(tmp_path)
    try:
        new = link_from_query(store, {"game": gid, "hand": "new"}, GameModel.load)
        assert new.linked and new.index is None and new.dealer == 0  # Ann deals hand 2
        assert new.draft_key == f"{gid}/new" and new.back_route == f"/game/{gid}/hand"
        assert new.draft({}) == HandDraft()
        assert new.rules.run_ties == "turn_order"
        first = link_from_query(store, {"game": gid, "hand": "1"}, GameModel.load)
        # The same keys the record-hand screen keeps its drafts under.
        assert new.draft_key == AppContext.draft_key(gid, None)
        assert first.draft_key == AppContext.draft_key(gid, 0)
        assert first.dealer == 3 and first.back_route == f"/game/{gid}/hand/1"
        draft = first.draft({})
        assert draft is not None and draft.run_cards == frozenset(
            (1, parse_card(c)) for c in ("6S", "7S", "8S"))
        sheet = link_from_query(store, {"game": gid}, GameModel.load)
        assert not sheet.linked and sheet.back_route == f"/game/{gid}"
        assert rules_route("runs", first, "check") == (
            f"/rules?section=runs&game={gid}&hand=1&from=check")
        assert link_from_query(store, {"game": gid, "hand": "7"}, GameModel.load).problem == (
            "This game has no hand 7")
        assert link_from_query(store, {"game": "zzz"}, GameModel.load).standalone
        missing = link_from_query(store, {"game": "0123abcd"}, GameModel.load)
        assert missing.standalone and missing.problem
    finally:
        store.close()


def test_standalone_link() -> None:
    link = HandLink()
    assert link.names.players == ("Player 1", "Player 2", "Player 3", "Player 4")
    assert link.names.teams == ("Players 1 & 3", "Players 2 & 4")
    assert link.dealer == 3 and link.back_route == "/" and not link.linked
    assert [str(t) for t in link.trumps()] == ["S", "H", "D", "C"]

