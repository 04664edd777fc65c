"""How one game sets each house rule, in words, for marking the reference."""

from __future__ import annotations

from typing import NamedTuple

from rules.house_rules import HouseRules

_CHOICE_WORDS = {
    "long_runs": {"split": "split", "single": "one fifty"},
    "run_ties": {"cancel": "cancel", "turn_order": "first to speak"},
    "target_tie": {"play_on": "play on", "caller_wins": "caller wins"},
}


class Setting(NamedTuple):
    """A house rule in one game: changed from standard or not, and a short line."""

    changed: bool
    text: str


def setting(rules: HouseRules, key: str) -> Setting:
    """E.g. `Setting(True, "On in this game: target 1000")`."""
    value = getattr(rules, key)
    standard = HouseRules.model_fields[key].default
    changed = value != standard
    if key == "target":
        shown = f"target {value}"
    elif key == "forced_at":
        shown = "off" if value is None else f"forced over {value}"
    elif isinstance(value, bool):
        shown = "on" if value else "off"
    else:
        shown = _CHOICE_WORDS.get(key, {}).get(str(value), str(value))
    if changed:
        return Setting(True, f"In this game: {shown} (house rule)")
    return Setting(False, f"In this game: {shown} (standard)")


def changed_keys(rules: HouseRules) -> tuple[str, ...]:
    """The house rules this game changes, in the model's order."""
    return tuple(key for key in HouseRules.model_fields if setting(rules, key).changed)
