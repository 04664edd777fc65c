"""One stored game's facts for the statistics, from its tarabish-game/1 document."""

from __future__ import annotations

from typing import Any

from rules.errors import GameFileError
from rules.game_file import parse_game
from rules.stats import GameFacts, game_facts


def facts_of_doc(doc: dict[str, Any]) -> GameFacts:
    """Replay the document; hands the engine cannot read count for nothing.

    Like the game list's score: a hand too malformed to read stops the replay
    there, and a game whose header is refused still counts as a game sat in.
    """
    try:
        return game_facts(parse_game(doc))
    except GameFileError as e:
        hands = doc.get("hands")
        if e.hand is not None and isinstance(hands, list):
            try:
                return game_facts(parse_game({**doc, "hands": hands[: e.hand]}))
            except GameFileError:
                pass
    raw = doc.get("players")
    names = [str(name).strip() for name in raw] if isinstance(raw, list) else []
    names = [*names, "?", "?", "?", "?"][:4]
    count = len(doc["hands"]) if isinstance(doc.get("hands"), list) else 0
    return GameFacts(players=(names[0], names[1], names[2], names[3]), hands=count)
