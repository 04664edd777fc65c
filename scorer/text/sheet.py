"""The readable score sheet `tarabish check` prints without --json."""

from __future__ import annotations

from rules.game import Game
from rules.hands import NO_TRUMP, PassedHand
from rules.replay import GameReplay, HandResult


def trump_label(trump: str | None) -> str:
    if trump is None:
        return "-"
    if trump == NO_TRUMP:
        return "no trump"
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[trump]


def _row(result: HandResult, game: Game, widths: tuple[int, int]) -> list[str]:
    names = game.names
    number = f"{result.number:>3}"
    dealer = names.player(result.dealer)
    if result.ruling is None:
        return [f"{number}  {dealer:<10} INVALID: {result.error}"]
    ruling = result.ruling
    hand = result.hand
    caller = "-" if isinstance(hand, PassedHand) else names.player(hand.caller)
    trump = trump_label(None if ruling.trump is None else str(ruling.trump))
    score_a = f"{ruling.scores[0]:>{widths[0]}}"
    score_b = f"{ruling.scores[1]:>{widths[1]}}"
    tags = ", ".join(ruling.named_tags(game.names))
    row = f"{number}  {dealer:<10} {caller:<10} {trump:<8} {score_a}  {score_b}  {tags}"
    lines = [row.rstrip()]
    lines.extend(f"       {reason.text}" for reason in ruling.reasons)
    return lines


def render_sheet(game: Game, result: GameReplay) -> str:
    """The whole game as text: one line per hand, its reasons, the totals."""
    teams = game.team_names
    widths = (max(len(teams[0]), 5), max(len(teams[1]), 5))
    header = (f"{'#':>3}  {'Dealer':<10} {'Caller':<10} {'Trump':<8} "
              f"{teams[0]:>{widths[0]}}  {teams[1]:>{widths[1]}}  Notes")
    lines = [header, "-" * len(header)]
    for hand in result.hands:
        lines.extend(_row(hand, game, widths))
    lines.append("-" * len(header))
    lines.append(f"{'Totals':<36}{result.totals[0]:>{widths[0]}}  "
                 f"{result.totals[1]:>{widths[1]}}")
    names = game.names
    if result.winner is not None:
        # The reason names the winners: "Ann & Cid win, 508 to 423 (target 500)".
        reason = result.winner_reason
        lines.append(f"{reason.text}." if reason else f"{names.team(result.winner)} win.")
    else:
        lines.append(
            f"Target {result.target}: {teams[0]} need {result.to_go(0)}, "
            f"{teams[1]} need {result.to_go(1)}."
        )
        if result.winner_reason is not None:
            lines.append(result.winner_reason.text + ".")
        lines.append(f"Next dealer: {names.player(result.next_dealer)}.")
        if result.forced:
            forced = " and ".join(names.team(t) for t in result.forced)
            lines.append(f"Forced to call next hand: {forced} (over {game.rules.forced_at}).")
    return "\n".join(lines)
