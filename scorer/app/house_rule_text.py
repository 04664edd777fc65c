"""One line per house rule for the new-game screen (the rules reference has the detail)."""

from __future__ import annotations

from typing import Final

SWITCHES: Final[tuple[tuple[str, str, str], ...]] = (
    ("dealer_may_pass", "Dealer may pass",
     "If all four pass, nobody scores and the deal moves on."),
    ("partner_runs", "Partner's runs count",
     "The partner of the player whose runs win scores their runs too."),
    ("first_of_bells", "Bella on the first card",
     "Bella may be called when the first of king and queen is played."),
    ("half_bait_is_bait", "Half-bait is bait",
     "A caller with exactly half loses everything, as in a bait."),
    ("bella_kept_on_bait", "Bella kept on bait",
     "A team that goes bait still keeps its own bella."),
    ("no_trump", "No trump allowed",
     "The caller may call no trump: 130 in the tricks, no bella."),
)

CHOICES: Final[tuple[tuple[str, str, tuple[tuple[str, str], ...], str], ...]] = (
    ("long_runs", "Runs of five or more",
     (("split", "Split"), ("single", "One fifty")),
     "Split: 5 or 6 in a row is a fifty, 7 is a fifty and a twenty, 8 or 9 are two "
     "fifties. One fifty: 4 or more in a row is only ever one fifty."),
    ("run_ties", "Equal plain runs",
     (("cancel", "Cancel"), ("turn_order", "First to speak")),
     "Cancel: nobody scores runs. First to speak: the tied player nearer the eldest wins."),
    ("target_tie", "Level at the target",
     (("play_on", "Play on"), ("caller_wins", "Caller wins")),
     "Both teams level at or over the target: play another hand, or the last caller wins."),
)

FORCED_TITLE: Final = "Forced to call"


def forced_line(mark: int) -> str:
    """The forced rule in a sentence, for the mark the table plays (400 unless changed)."""
    return (f"A team with more than {mark} points may not pass the choice of trump round "
            "to the other team's dealer: one of them must call.")


def changed_text(count: int) -> str:
    """The house rules' summary line: 'Standard rules', '1 house rule changed', '2 ...'."""
    if not count:
        return "Standard rules"
    return f"{count} house rule{'' if count == 1 else 's'} changed"
