"""Short headings for each outcome, as players say them."""

from __future__ import annotations

from rules.ruling import Outcome

WORDS = {
    Outcome.MADE: "Made",
    Outcome.HALF_BAIT: "Half-bait",
    Outcome.BAIT: "Bait",
    Outcome.MISPLAY: "Misplay",
    Outcome.THROWN: "Thrown in",
    Outcome.PASSED: "All passed",
}


def outcome_word(outcome: Outcome) -> str:
    return WORDS[outcome]
