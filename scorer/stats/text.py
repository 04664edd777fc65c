"""The statistics as plain-text tables for `tarabish stats`."""

from __future__ import annotations

from collections.abc import Sequence

from rules.stats import Relation, Stats, StatsFilter


def _table(
    header: Sequence[str], rows: Sequence[Sequence[str]], text: frozenset[int] = frozenset({0})
) -> list[str]:
    """Columns padded to fit: names (columns in `text`) to the left, figures to the right."""
    every = [list(header), *[list(row) for row in rows]]
    widths = [max(len(row[i]) for row in every) for i in range(len(header))]
    return [
        "  ".join(
            cell.ljust(width) if i in text else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in every
    ]


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "-"


def describe_filter(wanted: StatsFilter, player: str | None = None) -> str:
    """The filter in words, e.g. "Ann and partners, from 2026-01-01"; `player` is
    the player's name as shown (`Stats.player`), else the name as given."""
    parts = []
    if wanted.player is not None:
        who = "partners" if wanted.relation is Relation.PARTNERS else "opponents"
        parts.append(f"{player or wanted.player.strip()} and {who}")
    if wanted.since is not None:
        parts.append(f"from {wanted.since.isoformat()}")
    if wanted.until is not None:
        parts.append(f"to {wanted.until.isoformat()}")
    return ", ".join(parts)


def format_stats(stats: Stats, wanted: StatsFilter | None = None) -> str:
    """Players, partnerships and head to head, one table each."""
    scope = describe_filter(wanted, stats.player) if wanted is not None else ""
    if not stats.games:
        return f"No games to count ({scope})." if scope else "No games to count."
    count = f"{stats.games} game{'s' if stats.games != 1 else ''}"
    lines = [f"{count}: {scope}" if scope else count, "", "Players"]
    lines += _table(
        ("NAME", "GAMES", "FINISHED", "WINS", "CALLS", "MADE", "½ BAIT", "BAIT", "PTS/CALL",
         "FORCED", "BELLA", "RUNS SHOWN", "RUNS SCORED"),
        [
            (
                p.name, str(p.games), str(p.finished), str(p.wins), str(p.calls), str(p.made),
                str(p.half_baits), str(p.baits),
                f"{p.average_call_points:.0f}" if p.average_call_points is not None else "-",
                str(p.forced_calls), str(p.bellas), str(p.runs_shown), str(p.runs_scored),
            )
            for p in stats.players
        ],
    )
    if stats.partnerships:
        lines += ["", "Partnerships"]
        lines += _table(
            ("PARTNERS", "GAMES", "FINISHED", "WINS", "WON"),
            [
                (" & ".join(q.players), str(q.games), str(q.finished), str(q.wins),
                 _percent(q.wins, q.finished))
                for q in stats.partnerships
            ],
        )
    if any(p.forced_calls for p in stats.players):
        lines += ["", "FORCED: calls the forced rule made (the call came round to the player "
                      "before the dealer while their team was over the mark)."]
    if stats.matchups:
        lines += ["", "Head to head (finished games)"]
        lines += _table(
            ("PARTNERS", "WINS", "WINS", "PARTNERS", "GAMES"),
            [
                (" & ".join(m.sides[0]), str(m.wins[0]), str(m.wins[1]), " & ".join(m.sides[1]),
                 str(m.games))
                for m in stats.matchups
            ],
        )
    lines += ["", "PTS/CALL: what the caller's team scored on average on that player's calls."]
    return "\n".join(lines)
