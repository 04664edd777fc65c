"""Which table the run checker and card counter are helping: a game's hand
(`?game=<id>&hand=<new|n>`), a game without a hand, or nobody (standalone).

No Flet here: it reads the store and the session's drafts and says where to
go back to, so the screens stay thin and this stays testable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from rules.game import Game
from rules.hands import TrumpCall
from rules.house_rules import HouseRules
from rules.names import TableNames
from rules.replay import GameReplay
from scorer.recording.draft import HandDraft, trump_options
from scorer.store.errors import StoreError
from scorer.store.models import StoredGame
from scorer.store.ports import GamesPort

STANDALONE_PLAYERS = ("Player 1", "Player 2", "Player 3", "Player 4")
STANDALONE_TEAMS = ("Players 1 & 3", "Players 2 & 4")
STANDALONE_DEALER = 3
"""Without a game, Player 4 deals, so Player 1 speaks first (for the turn-order tie rule)."""
_GAME_ID = re.compile(r"^[0-9a-f]{8}$")
_HAND = re.compile(r"^(new|[1-9][0-9]{0,3})$")


class LinkedGame(Protocol):
    """A stored game replayed, as the app keeps one (its `GameModel`): the app
    hands its own replay in, so the helpers share its cache of replays."""

    @property
    def id(self) -> str: ...

    @property
    def game(self) -> Game: ...

    @property
    def replay(self) -> GameReplay: ...


@dataclass(frozen=True)
class HandLink:
    """The game (if any) and the hand being recorded (if any) behind a helper screen."""

    model: LinkedGame | None = None
    index: int | None = None
    """0-based hand being edited; None with `hand=new` (or without a hand)."""
    hand: str | None = None
    """The `hand` parameter as given: "new", "3", or None."""
    problem: str | None = None
    """Why the game or hand in the address could not be used (shown on screen)."""

    # --- who is playing -------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        return self.model.game if self.model else None

    @property
    def standalone(self) -> bool:
        return self.model is None

    @property
    def names(self) -> TableNames:
        if self.model is None:
            return TableNames.of(STANDALONE_PLAYERS, STANDALONE_TEAMS)
        return self.model.game.names

    @property
    def rules(self) -> HouseRules:
        return self.model.game.rules if self.model else HouseRules()

    @property
    def position(self) -> int:
        """0-based number of the hand: the one being recorded, or the next one."""
        if self.model is None:
            return 0
        return len(self.model.game.hands) if self.index is None else self.index

    @property
    def dealer(self) -> int:
        if self.model is None:
            return STANDALONE_DEALER
        return (self.model.game.first_dealer + self.position) % 4

    def trumps(self) -> tuple[TrumpCall, ...]:
        """The trump choices: no trump only under the game's house rule (standalone plays
        the standard game)."""
        if self.model is None:
            return trump_options(Game(players=STANDALONE_PLAYERS))
        return trump_options(self.model.game)

    # --- the hand being recorded ----------------------------------------------------------
    @property
    def linked(self) -> bool:
        """Opened from a hand being recorded: results can be carried back."""
        return self.model is not None and self.hand is not None

    @property
    def draft_key(self) -> str | None:
        if self.model is None or self.hand is None:
            return None
        return f"{self.model.id}/{'new' if self.index is None else self.index}"

    def draft(self, drafts: Mapping[str, HandDraft]) -> HandDraft | None:
        """The hand as entered so far: the session's draft, else the stored hand."""
        key = self.draft_key
        if key is None or self.model is None:
            return None
        if key in drafts:
            return drafts[key]
        if self.index is not None:
            return HandDraft.from_hand(self.model.game.hands[self.index])
        return HandDraft()

    @property
    def back_route(self) -> str:
        """Where Back (and "Use ...") goes: the hand, else the sheet, else home."""
        if self.model is None:
            return "/"
        base = f"/game/{self.model.id}"
        if self.hand is None:
            return base
        return f"{base}/hand" if self.index is None else f"{base}/hand/{self.index + 1}"

    def query(self) -> str:
        """`?game=..&hand=..` to pass the link on to another helper screen."""
        if self.model is None:
            return ""
        hand = f"&hand={self.hand}" if self.hand is not None else ""
        return f"?game={self.model.id}{hand}"


def rules_route(section: str, link: HandLink, came_from: str) -> str:
    """The rules reference at `section`, knowing the game (to mark its house rules)
    and the screen to come back to (`came_from`: "check", "count" or "hand")."""
    return f"/rules?section={section}" + (
        link.query().replace("?", "&") + f"&from={came_from}" if link.model else
        f"&from={came_from}")


def link_from_query(store: GamesPort, query: Mapping[str, str],
                    replayed: Callable[[StoredGame], LinkedGame]) -> HandLink:
    """Read `game` and `hand` from the address, replaying the game with `replayed`;
    a bad one falls back to standalone with `problem` saying why."""
    game_id = query.get("game")
    if not game_id:
        return HandLink()
    if not _GAME_ID.match(game_id):
        return HandLink(problem=f"'{game_id}' is not a game: checking without a game")
    try:
        model = replayed(store.get_game(game_id))
    except (StoreError, ValueError) as exc:
        return HandLink(problem=f"Game {game_id} could not be opened ({exc}): "
                                "checking without a game")
    hand = query.get("hand")
    if hand is None:
        return HandLink(model=model)
    if not _HAND.match(hand):
        return HandLink(model=model, problem=f"'{hand}' is not a hand of this game")
    if hand == "new":
        if model.replay.is_over:
            return HandLink(model=model, problem="This game is over: no new hand to fill in")
        return HandLink(model=model, hand=hand)
    index = int(hand) - 1
    if index >= len(model.game.hands):
        return HandLink(model=model, problem=f"This game has no hand {hand}")
    return HandLink(model=model, index=index, hand=hand)
