"""A game's edit trail in words: for the sheet, the notices and `tarabish check --history`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rules.game import Game
from rules.hand_diff import differences, trump_words
from rules.hands import Hand, PassedHand
from rules.history import Added, Details, Edited, Entry, Redone, Started, Undone
from rules.house_rules import HouseRules
from rules.names import TableNames


def hand_line(hand: Hand, names: TableNames) -> str:
    """`Bob called ♠`, or `all passed`."""
    if isinstance(hand, PassedHand):
        return "all passed"
    return f"{names.player(hand.caller)} called {trump_words(str(hand.trump))}"


def change_text(entry: Entry, game: Game) -> str:
    """The change in words, e.g. `hand 4 edited: Ann & Cid's tricks 120 → 130`."""
    names = game.names
    if isinstance(entry, Started):
        return "the game was started"
    if isinstance(entry, Added):
        return f"hand {entry.hand} recorded"
    if isinstance(entry, Redone):
        return f"hand {entry.hand} put back"
    if isinstance(entry, Undone):
        return f"hand {entry.hand} undone ({hand_line(entry.before, names)})"
    if isinstance(entry, Edited):
        found = differences(entry.before, entry.after, names)
        what = "; ".join(d.text for d in found) or "saved again unchanged"
        return f"hand {entry.hand} edited: {what}"
    return "changed " + "; ".join(details_lines(entry, game))


def notice_text(entry: Entry, game: Game) -> str | None:
    """What a phone showing the game is told of a change made on another phone, e.g.
    `Hand 4 was changed on another phone (phone 2): Ann & Cid's tricks: 120 → 130`;
    None for a new hand (the sheet shows it) or the start."""
    where = f"on another phone ({entry.by})" if entry.by else "on another phone"
    names = game.names
    if isinstance(entry, Edited):
        found = differences(entry.before, entry.after, names)
        return f"Hand {entry.hand} was changed {where}: " + "; ".join(d.text for d in found)
    if isinstance(entry, Undone):
        return f"Hand {entry.hand} was undone {where} ({hand_line(entry.before, names)})"
    if isinstance(entry, Redone):
        return f"Hand {entry.hand} was put back {where}"
    if isinstance(entry, Details):
        return f"The game was changed {where}: " + "; ".join(details_lines(entry, game))
    return None


def details_lines(entry: Details, game: Game) -> list[str]:
    """What a `details` change did, a short line per part."""
    lines = []
    before, after = entry.before, entry.after
    if "players" in after:
        old, new = before.get("players") or [], after.get("players") or []
        moved = [f"{a} → {b}" for a, b in zip(old, new, strict=False) if a != b]
        lines.append("player names: " + ", ".join(moved))
    if "teams" in after:
        lines.append(f"team names: {_teams(before.get('teams'))} → {_teams(after.get('teams'))}")
    if "first_dealer" in after:
        lines.append(f"first dealer: {_seat(game, before.get('first_dealer'))} → "
                     f"{_seat(game, after.get('first_dealer'))}")
    if "rules" in after:
        lines.append("house rules: " + _rules_change(before.get("rules"), after.get("rules")))
    return lines


def _teams(teams: Any) -> str:
    return " and ".join(str(t) for t in teams) if isinstance(teams, list) else "by their players"


def _seat(game: Game, seat: Any) -> str:
    return game.names.player(seat) if isinstance(seat, int) and 0 <= seat <= 3 else str(seat)


def _rules_change(before: Any, after: Any) -> str:
    old = before if isinstance(before, dict) else {}
    new = after if isinstance(after, dict) else {}
    standard = HouseRules().model_dump(mode="json")
    keys = sorted(set(old) | set(new))
    parts = [f"{key.replace('_', ' ')} {old.get(key, standard.get(key))} → "
             f"{new.get(key, standard.get(key))}"
             for key in keys if old.get(key, standard.get(key)) != new.get(key, standard.get(key))]
    return ", ".join(parts) or "saved again unchanged"


def trail_rows(trail: tuple[Entry, ...], game: Game) -> list[dict[str, Any]]:
    """The trail as `check --json --history` prints it (`phone_at`: when the phone made
    the change by its clock, or null)."""
    return [{"revision": entry.revision, "at": entry.at.isoformat(), "by": entry.by,
             "change": entry.change.value, "hand": getattr(entry, "hand", None),
             "text": change_text(entry, game),
             "phone_at": entry.phone_at.isoformat() if entry.phone_at else None}
            for entry in trail]


def trail_lines(trail: tuple[Entry, ...], game: Game) -> list[str]:
    """The trail as `check --history` prints it: one line a change."""
    if not trail:
        return ["No edit history in this file."]
    lines = [f"History ({len(trail)} change{'' if len(trail) == 1 else 's'}):"]
    for entry in trail:
        who = entry.by or "-"
        phone = phone_time(entry)
        lines.append(f"  {entry.revision:>4}  {local_time(entry.at)}  {who:<12} "
                     f"{change_text(entry, game)}" + (f" ({phone})" if phone else ""))
    return lines


def local_time(at: datetime) -> str:
    return at.astimezone().strftime("%Y-%m-%d %H:%M")


def phone_time(entry: Entry) -> str | None:
    """When the phone made the change by its own clock, in words, when that is not the
    minute the server saved it (a change kept on a phone offline and sent later), e.g.
    `made on the phone at 20:13`; None otherwise."""
    if entry.phone_at is None:
        return None
    made, saved = local_time(entry.phone_at), local_time(entry.at)
    if made == saved:
        return None
    return f"made on the phone at {made[-5:] if made[:10] == saved[:10] else made}"
