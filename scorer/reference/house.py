"""How one game sets each house rule, in words, for marking the reference."""

from __future__ import annotations

from typing import NamedTuple

from rules.house_rules import HouseRules
from scorer.reference.sections import BY_ID, house_section_id

_CHOICE_WORDS = {
    "long_runs": {"split": "split", "single": "one fifty"},
    "run_ties": {"cancel": "cancel", "turn_order": "first to speak"},
    "target_tie": {"play_on": "play on", "caller_wins": "caller wins"},
}


class Setting(NamedTuple):
    """A house rule in one game: changed from standard or not, and a short line."""

    changed: bool
    text: str


def value_words(rules: HouseRules, key: str) -> str:
    """The house rule's value in a player's words: `target 1000`, `on`, `first to speak`."""
    value = getattr(rules, key)
    if key == "target":
        return f"target {value}"
    if key == "forced_at":
        return "off" if value is None else f"forced over {value}"
    if isinstance(value, bool):
        return "on" if value else "off"
    return _CHOICE_WORDS.get(key, {}).get(str(value), str(value))


def setting(rules: HouseRules, key: str) -> Setting:
    """E.g. `Setting(True, "In this game: target 1000 (house rule)")`."""
    changed = getattr(rules, key) != HouseRules.model_fields[key].default
    kind = "house rule" if changed else "standard"
    return Setting(changed, f"In this game: {value_words(rules, key)} ({kind})")


def changed_keys(rules: HouseRules) -> tuple[str, ...]:
    """The house rules this game changes, in the model's order."""
    return tuple(key for key in HouseRules.model_fields if setting(rules, key).changed)


def in_few_words(rules: HouseRules, key: str) -> str:
    """One house rule as this game sets it: `target 1000`, `forced over 400`,
    `no trump allowed`, `equal plain runs: first to speak`."""
    if key in ("target", "forced_at"):
        return value_words(rules, key)
    title = BY_ID[house_section_id(key)].title
    title = title[0].lower() + title[1:]
    value = getattr(rules, key)
    if isinstance(value, bool):
        return title if value else f"{title}: off"
    return f"{title}: {value_words(rules, key)}"


def house_rules_line(rules: HouseRules) -> str:
    """The house rules a game changes, in one line for a printed sheet."""
    keys = changed_keys(rules)
    if not keys:
        return "House rules: none (the standard game)."
    return "House rules: " + "; ".join(in_few_words(rules, key) for key in keys) + "."
