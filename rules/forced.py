"""The forced-at variation: which teams must not let the call reach the other dealer."""

from __future__ import annotations


def forced_teams(totals: tuple[int, int], forced_at: int | None) -> tuple[int, ...]:
    """Teams forced before a hand: over the threshold; the leader if both are; both if level."""
    if forced_at is None:
        return ()
    over = [team for team in (0, 1) if totals[team] > forced_at]
    if len(over) == 2 and totals[0] != totals[1]:
        return (0,) if totals[0] > totals[1] else (1,)
    return tuple(over)
