"""What the sheet shows about a stored game, derived by replaying it (never stored)."""

from __future__ import annotations

import copy
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from rules.errors import TarabishError
from rules.game import Game
from rules.game_file import parse_game
from rules.hand_file import parse_hand
from rules.hands import PassedHand
from rules.history import Entry, changes_after, parse_trail
from rules.replay import GameReplay, HandResult
from rules.replay import replay as replay_game
from rules.table import eldest_of, other_team, right_of, team_of
from scorer.store.models import StoredGame
from scorer.text.sheet import trump_label

logger = logging.getLogger(__name__)


def read_trail(stored: StoredGame) -> tuple[Entry, ...]:
    """The stored trail as rules values; a trail that does not read (hand-edited file)
    is left out of the sheet rather than keeping the game from opening."""
    try:
        return parse_trail(stored.history, parse_hand)
    except TarabishError:
        logger.warning("the edit trail of game %s could not be read", stored.id, exc_info=True)
        return ()


REPLAYED_GAMES = 32
"""Games whose last replay is kept (a club's tables at once, each game small)."""
_REPLAYED: OrderedDict[str, tuple[int, dict[str, Any], GameModel]] = OrderedDict()
"""By game id: the revision and document replayed (a copy: callers own theirs)."""
_LOCK = threading.Lock()


@dataclass(frozen=True)
class GameModel:
    stored: StoredGame
    game: Game
    replay: GameReplay
    trail: tuple[Entry, ...] = ()
    """The game's edit trail (`rules.history`), oldest first."""

    @classmethod
    def load(cls, stored: StoredGame) -> GameModel:
        """The game replayed. Every phone watching a game draws it again after each
        change: a game read equal to the last one replayed reuses that replay (its
        parts are frozen values), with the caller's own `stored`."""
        with _LOCK:
            last = _REPLAYED.get(stored.id)
            if last is not None and last[0] == stored.revision and last[1] == stored.doc:
                _REPLAYED.move_to_end(stored.id)
                return cls(stored=stored, game=last[2].game, replay=last[2].replay,
                           trail=last[2].trail)
        game = parse_game(stored.doc, saved=True)
        model = cls(stored=stored, game=game, replay=replay_game(game),
                    trail=read_trail(stored))
        with _LOCK:
            _REPLAYED[stored.id] = (stored.revision, copy.deepcopy(stored.doc), model)
            _REPLAYED.move_to_end(stored.id)
            while len(_REPLAYED) > REPLAYED_GAMES:
                _REPLAYED.popitem(last=False)
        return model

    @property
    def id(self) -> str:
        return self.stored.id

    def changes_since(self, revision: int) -> tuple[Entry, ...]:
        """What the trail says happened after `revision`."""
        return changes_after(self.trail, revision)

    def next_hand_line(self) -> str:
        names = self.game.names
        dealer = self.replay.next_dealer
        return (f"Hand {len(self.game.hands) + 1}: {names.player(dealer)} deals, "
                f"{names.player(eldest_of(dealer))} speaks and leads")

    def forced_line(self) -> str | None:
        forced = self.replay.forced
        if not forced:
            return None
        names = self.game.names
        mark = self.game.rules.forced_at
        dealer = self.replay.next_dealer
        who = " and ".join(names.team(t) for t in forced)
        verb = "are" if len(forced) == 1 else "are both"
        line = f"{who} {verb} forced (over {mark})."
        if other_team(team_of(dealer)) in forced:
            line += (f" {names.player(right_of(dealer))} must call if it comes round: "
                     f"{names.player(dealer)} (dealing) cannot be left to call.")
        return line

    def describe(self, result: HandResult) -> str:
        """`Dee dealt · Ann called ♥` for one sheet row."""
        names = self.game.names
        dealt = f"{names.player(result.dealer)} dealt"
        hand = result.hand
        if isinstance(hand, PassedHand):
            return f"{dealt} · all passed"
        trump = trump_label(str(hand.trump))
        return f"{dealt} · {names.player(hand.caller)} called {trump}"

    def winner_line(self) -> str | None:
        if self.replay.winner is None:
            return None
        reason = self.replay.winner_reason
        return reason.text if reason else f"{self.game.team_names[self.replay.winner]} win"
