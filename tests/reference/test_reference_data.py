"""The rules reference as data: every ruling's section exists, every house rule
is explained, figures come from the engine, and worked examples agree with it."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules.cards import PLAIN_POINTS, TRUMP_POINTS
from rules.game_file import parse_game
from rules.house_rules import HouseRules
from rules.replay import replay
from scorer.reference.house import changed_keys, setting
from scorer.reference.search import search
from scorer.reference.sections import BY_ID, CARD_TABLE, HOUSE, SECTIONS, house_section_id
from scorer.reference.tables import card_points_rows, card_points_text

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = {"runs", "bella", "calling", "making-it", "bait", "misplay", "throwing-in", "winning",
            "house-run-ties", "house-half-bait-is-bait", "house-bella-kept-on-bait",
            "house-target-tie"}


def _names(target: ast.expr, value: ast.expr) -> list[tuple[str, ast.expr]]:
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
        return [pair for t, v in zip(target.elts, value.elts, strict=False)
                for pair in _names(t, v)]
    return []


def sections_used_in_code() -> set[str]:
    """Every section id a ruling can carry, read from the source of rules/ and scorer/:
    `section="..."` arguments, `SECTION = "..."` and `section = "..."` assignments (tuple
    assignments too), so a new section cannot be forgotten."""
    found: set[str] = set()
    for folder in ("rules", "scorer"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                values: list[ast.expr] = []
                if isinstance(node, ast.keyword) and node.arg == "section":
                    values.append(node.value)
                elif isinstance(node, ast.Assign):
                    values += [v for target in node.targets
                               for name, v in _names(target, node.value)
                               if name.lower() == "section"]
                found |= {v.value for v in values
                          if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    return found


def sections_in_golden_rulings() -> set[str]:
    """Every section the engine gives in the golden games (a second net)."""
    found: set[str] = set()
    for path in (ROOT / "tests" / "golden").glob("*.json"):
        for case in json.loads(path.read_text(encoding="utf-8")):
            try:
                result = replay(parse_game(case.get("game")))
            except ValueError:
                continue
            for hand in result.hands:
                if hand.ruling is not None:
                    found |= {r.section for r in hand.ruling.reasons}
            if result.winner_reason is not None:
                found.add(result.winner_reason.section)
    return found


def test_every_section_a_ruling_uses_exists() -> None:
    used = sections_used_in_code()
    assert used >= REQUIRED, f"the source scan missed {sorted(REQUIRED - used)}"
    missing = used - set(BY_ID)
    assert not missing, f"the reference has no section for {sorted(missing)}"


def test_every_section_in_golden_rulings_exists() -> None:
    used = sections_in_golden_rulings()
    assert {"runs", "bait", "making-it"} <= used
    assert not used - set(BY_ID), f"the reference has no section for {sorted(used - set(BY_ID))}"


def test_section_ids_are_unique_and_tidy() -> None:
    ids = [s.id for s in SECTIONS]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z][a-z0-9-]*", i) for i in ids)
    assert all(s.title and s.body for s in SECTIONS)
    assert all("${" not in s.body for s in SECTIONS), "a figure placeholder was left"


def test_every_house_rule_has_a_section_with_an_example() -> None:
    for key in HouseRules.model_fields:
        section = BY_ID[house_section_id(key)]
        assert section.group == HOUSE and section.house_rule == key
        assert "**Standard" in section.body
        assert "\n> " in "\n" + section.body, f"{key} has no worked example"
    assert {s.house_rule for s in SECTIONS if s.group == HOUSE} == set(HouseRules.model_fields)


def test_card_table_comes_from_the_engine() -> None:
    rows = card_points_rows()
    assert [(r.trump_rank, r.trump_points) for r in rows] == list(TRUMP_POINTS.items())
    assert [(r.plain_rank, r.plain_points) for r in rows] == list(PLAIN_POINTS.items())
    assert CARD_TABLE in BY_ID["cards"].body
    assert "J 20, 9 14, A 11" in card_points_text()
    assert "162" in BY_ID["cards"].body and "130" in BY_ID["cards"].body


def test_impossible_figures_are_stated() -> None:
    assert "**1 and 161**" in BY_ID["counting"].body
    assert "1 and 129" in BY_ID["counting"].body


@pytest.mark.parametrize(("query", "expected"), [
    ("bait", "bait"), ("nerf", "glossary"), ("Johnny", "cards"), ("half-bait", "bait"),
    ("linganer", "glossary"), ("renege", "misplay"), ("dry ten", "glossary"),
    ("forced", "house-forced-at"), ("161", "counting"), ("no trump", "house-no-trump"),
])
def test_search_finds_the_section(query: str, expected: str) -> None:
    assert expected in [s.id for s in search(query)]


def test_search_puts_title_hits_first_and_empty_shows_all() -> None:
    assert search("bait")[0].id == "bait"
    assert search("  ") == SECTIONS
    assert search("xylophone") == ()


def test_house_rule_settings_in_words() -> None:
    rules = HouseRules(target=1000, half_bait_is_bait=True)
    assert setting(rules, "target") == (True, "In this game: target 1000 (house rule)")
    assert setting(rules, "run_ties") == (False, "In this game: cancel (standard)")
    assert setting(HouseRules(forced_at=400), "forced_at").text.startswith(
        "In this game: forced over 400")
    assert changed_keys(rules) == ("target", "half_bait_is_bait")


# Worked examples in the text, replayed through the engine: (section, house rules,
# hand, the scores the engine gives, the words the example states). Ann, Bob, Cid,
# Dee are seats 0-3; Dee deals the hand.
EXAMPLES: list[tuple[str, dict[str, Any], dict[str, Any], tuple[int, int], tuple[str, ...]]] = [
    ("making-it", {}, {"caller": 0, "trump": "H", "bella": 0,
                       "runs": [{"seat": 2, "cards": ["6S", "7S", "8S", "9S"]}],
                       "points": {"team": 0, "tricks": 70}}, (140, 92),
     ("232", "117", "Ann & Cid score 140, Bob & Dee their 92")),
    ("bait", {}, {"caller": 0, "trump": "H", "runs": [{"seat": 1, "cards": ["6S", "7S", "8S"]}],
                  "points": {"team": 0, "tricks": 88}}, (0, 182),
     ("need 92", "Ann & Cid score 0, Bob & Dee all 182")),
    ("bait", {}, {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 81}}, (0, 81),
     ("Cid score 0, Bob & Dee keep their 81",)),
    ("house-half-bait-is-bait", {}, {"caller": 0, "trump": "H",
                                     "points": {"team": 0, "tricks": 81}}, (0, 81),
     ("Standard: Bob & Dee\n> score 81",)),
    ("house-half-bait-is-bait", {"half_bait_is_bait": True},
     {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 81}}, (0, 162),
     ("Half-bait is bait: Bob & Dee score 162",)),
    ("house-bella-kept-on-bait", {}, {"caller": 0, "trump": "H", "bella": 0,
                                      "points": {"team": 0, "tricks": 60}}, (0, 182),
     ("need 92 and have 80", "Standard: Bob & Dee score 182")),
    ("house-bella-kept-on-bait", {"bella_kept_on_bait": True},
     {"caller": 0, "trump": "H", "bella": 0, "points": {"team": 0, "tricks": 60}}, (20, 162),
     ("Ann & Cid score 20, Bob & Dee 162",)),
    ("house-no-trump", {"no_trump": True},
     {"caller": 0, "trump": "NT", "points": {"team": 0, "tricks": 70}}, (70, 60),
     ("needed 66", "Ann & Cid score 70, Bob & Dee 60")),
    ("runs", {}, {"caller": 0, "trump": "H", "runs": [
        {"seat": 0, "cards": ["9S", "10S", "JS", "QS"]},
        {"seat": 1, "cards": ["10D", "JD", "QD", "KD"]}],
        "points": {"team": 0, "tricks": 120}}, (120, 92),
     ("50 to Bob & Dee",)),
    ("runs", {}, {"caller": 0, "trump": "C", "runs": [
        {"seat": 0, "cards": ["JC", "QC", "KC"]}, {"seat": 1, "cards": ["JD", "QD", "KD"]}],
        "points": {"team": 0, "tricks": 100}}, (120, 62),
     ("the trump run wins, 20 to Ann & Cid",)),
    ("runs", {}, {"caller": 0, "trump": "C", "runs": [
        {"seat": 0, "cards": ["JS", "QS", "KS"]}, {"seat": 1, "cards": ["JD", "QD", "KD"]},
        {"seat": 2, "cards": ["6H", "7H", "8H"]}],
        "points": {"team": 0, "tricks": 100}}, (100, 62),
     ("they cancel",)),
    ("house-run-ties", {"run_ties": "turn_order"}, {"caller": 0, "trump": "C", "runs": [
        {"seat": 0, "cards": ["JS", "QS", "KS"]}, {"seat": 1, "cards": ["JD", "QD", "KD"]}],
        "points": {"team": 0, "tricks": 100}}, (120, 62),
     ("counts, 20 to Ann & Cid",)),
    ("house-partner-runs", {}, {"caller": 0, "trump": "H", "runs": [
        {"seat": 0, "cards": ["6S", "7S", "8S", "9S"]}, {"seat": 1, "cards": ["6D", "7D", "8D"]},
        {"seat": 2, "cards": ["6C", "7C", "8C"]}],
        "points": {"team": 0, "tricks": 100}}, (150, 62),
     ("Ann & Cid score 50",)),
    ("house-partner-runs", {"partner_runs": True}, {"caller": 0, "trump": "H", "runs": [
        {"seat": 0, "cards": ["6S", "7S", "8S", "9S"]}, {"seat": 1, "cards": ["6D", "7D", "8D"]},
        {"seat": 2, "cards": ["6C", "7C", "8C"]}],
        "points": {"team": 0, "tricks": 100}}, (170, 62),
     ("50 + 20 = 70",)),
    ("house-long-runs", {}, {"caller": 0, "trump": "S", "runs": [
        {"seat": 0, "cards": ["6H", "7H", "8H", "9H", "10H", "JH", "QH"]}],
        "points": {"team": 0, "tricks": 100}}, (170, 62), ("70",)),
    ("house-long-runs", {"long_runs": "single"}, {"caller": 0, "trump": "S", "runs": [
        {"seat": 0, "cards": ["6H", "7H", "8H", "9H", "10H", "JH", "QH"]}],
        "points": {"team": 0, "tricks": 100}}, (150, 62), ("One fifty: 50",)),
    ("misplay", {}, {"caller": 0, "trump": "H", "runs": [
        {"seat": 0, "cards": ["6S", "7S", "8S", "9S"]}],
        "misplay": {"called_by": 1, "upheld": True}}, (0, 212),
     ("Bob & Dee score 162 + 50 = 212, Ann & Cid score 0",)),
    ("throwing-in", {}, {"caller": 0, "trump": "H", "thrown_by": 3}, (162, 0),
     ("Ann & Cid score 162, Bob & Dee 0",)),
]


@pytest.mark.parametrize(("section", "rules", "hand", "scores", "stated"), EXAMPLES)
def test_worked_examples_agree_with_the_engine(
    section: str, rules: dict[str, Any], hand: dict[str, Any], scores: tuple[int, int],
    stated: tuple[str, ...],
) -> None:
    game = parse_game({"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                       "first_dealer": 3, "rules": rules, "hands": [hand]})
    result = replay(game).hands[0]
    assert result.ruling is not None, result.error
    assert result.ruling.scores == scores
    body = BY_ID[section].body
    for words in stated:
        assert words in body, f"{section} should say {words!r}"


def test_counting_example_agrees_with_the_counter() -> None:
    from rules.cards import Suit, parse_card
    from rules.counting import count_tricks

    pile = [parse_card(c) for c in ("JH", "9H", "AS", "10D", "KC", "QC", "JC", "6S", "7S",
                                    "8S", "6D", "7D")]
    count = count_tricks(pile, Suit.HEARTS, last_trick=True)
    assert (count.points, count.other, count.problem) == (74, 88, None)
    assert "64 + 10 = 74" in BY_ID["counting"].body and "162 − 74 = 88" in BY_ID["counting"].body
