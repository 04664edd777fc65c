"""The hand being recorded, tap by tap, before it becomes a rules `Hand`.

A draft is a frozen value: every tap makes a new one, so a screen can always
be rebuilt from it, and the same code serves recording and editing.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from rules.cards import Card, Suit, impossible_trick_points, possible_trick_points, trick_total
from rules.errors import TarabishError
from rules.game import Game
from rules.hand_analysis import find_runs, sequences
from rules.hands import (
    NO_TRUMP,
    Hand,
    Misplay,
    MisplayHand,
    PassedHand,
    PlayedHand,
    ThrownHand,
    TrickPoints,
    TrumpCall,
)
from rules.replay import GameReplay, HandResult, preview
from rules.runs import RunKind, ShownRun, split_run
from rules.table import SEATS, Seat, Team, other_team, right_of, team_of

MAX_DIGITS = 3


class Ending(StrEnum):
    """How the hand ended."""

    PLAYED = "played"
    MISPLAY = "misplay"
    THROWN = "thrown"
    PASSED = "passed"


class DraftIncomplete(ValueError):
    """The draft is missing something; the message says what to tap next."""


class CallerOption(BaseModel):
    """A seat on the caller picker: can it be tapped, and if not, why."""

    model_config = ConfigDict(frozen=True)

    seat: int
    name: str
    allowed: bool
    reason: str = ""


class HandDraft(BaseModel):
    """Everything tapped so far for one hand.

    Taps change a draft with `with_` (no checks: the screen offers only what fits);
    a draft read from elsewhere (`model_validate`: a phone's kept copy) is held to
    what taps can make: seats, teams, a figure of three digits, 32 cards."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    caller: Seat | None = None
    trump: TrumpCall | None = None
    run_cards: frozenset[tuple[Seat, Card]] = Field(default=frozenset(), max_length=32)
    worth: tuple[tuple[Seat, RunKind], ...] = Field(default=(), max_length=12)
    """Runs entered by their worth (seat, twenty or fifty), in seat order: the quick
    way, as paper writes "+50". A seat with cards tapped is counted by its cards."""
    bella: Seat | None = None
    ending: Ending = Ending.PLAYED
    points_team: Team = 0
    digits: str = Field(default="", pattern=r"^(0|[1-9][0-9]{0,2})?$")
    misplay_by: Team | None = None
    misplay_upheld: bool | None = None
    thrown_by: Seat | None = None

    @classmethod
    def from_hand(cls, hand: Hand) -> HandDraft:
        """Open a recorded hand for editing."""
        if isinstance(hand, PassedHand):
            return cls(ending=Ending.PASSED)
        picked = frozenset((run.seat, card) for run in hand.runs for card in run.cards)
        worth = tuple((run.seat, run.run) for run in hand.runs if run.run is not None)
        base = cls(caller=hand.caller, trump=hand.trump, run_cards=picked, bella=hand.bella,
                   worth=tuple(sorted(worth)))
        if isinstance(hand, PlayedHand):
            tricks = hand.points.tricks
            team, figure = (0, tricks[0]) if isinstance(tricks, tuple) else (
                hand.points.team or 0, tricks)
            return base.model_copy(update={"points_team": team, "digits": str(figure)})
        if isinstance(hand, MisplayHand):
            return base.model_copy(update={
                "ending": Ending.MISPLAY, "misplay_by": hand.misplay.called_by,
                "misplay_upheld": hand.misplay.upheld,
            })
        return base.model_copy(update={"ending": Ending.THROWN, "thrown_by": hand.thrown_by})

    def with_(self, **changes: object) -> HandDraft:
        trump = changes.get("trump")
        if isinstance(trump, str) and not isinstance(trump, Suit) and trump != NO_TRUMP:
            # A trump button's code ("H"): kept as the suit, or the draft's kept copy
            # (model_dump) carries a str where its type says Suit.
            changes["trump"] = Suit(trump)
        return self.model_copy(update=changes)

    # --- runs, by their worth (the quick way) -------------------------------------------
    def worth_of(self, seat: int) -> tuple[int, int]:
        """(twenties, fifties) `seat` shows: by their cards if tapped, else as entered."""
        if any(who == seat for who, _card in self.run_cards):
            blocks = [block for run in find_runs(self.cards_of(seat), seat)
                      for block in split_run(run)]
            return (sum(b.kind is RunKind.TWENTY for b in blocks),
                    sum(b.kind is RunKind.FIFTY for b in blocks))
        kinds = [kind for who, kind in self.worth if who == seat]
        return kinds.count(RunKind.TWENTY), kinds.count(RunKind.FIFTY)

    def set_worth(self, seat: int, twenties: int, fifties: int) -> HandDraft:
        """`seat` showed this many twenties and fifties (its cards, if tapped, go)."""
        others = tuple(pick for pick in self.worth if pick[0] != seat)
        mine = ((seat, RunKind.TWENTY),) * twenties + ((seat, RunKind.FIFTY),) * fifties
        return self.with_(worth=tuple(sorted(others + mine)),
                          run_cards=frozenset(p for p in self.run_cards if p[0] != seat))

    def tap_worth(self, seat: int, points: int) -> HandDraft:
        """A tap on 20, 50 or 100 in `seat`'s row: on, or off again. A hundred is two
        fifties, so 50 and 100 replace each other; a twenty goes with either."""
        twenties, fifties = self.worth_of(seat)
        if points == 20:
            return self.set_worth(seat, 0 if twenties else 1, fifties)
        wanted = points // 50
        return self.set_worth(seat, twenties, 0 if fifties == wanted else wanted)

    # --- runs, tapped card by card ------------------------------------------------------
    def cards_of(self, seat: int) -> tuple[Card, ...]:
        """The cards `seat` has tapped as shown in runs, by suit and rank."""
        mine = (card for who, card in self.run_cards if who == seat)
        return tuple(sorted(mine, key=lambda c: (c.suit.value, c.rank.natural_index)))

    def toggle_card(self, seat: int, card: Card) -> HandDraft:
        """Tap a rank chip: add the card to `seat`'s runs, or take it out again.

        A card another player already shows moves to `seat`: one physical card.
        """
        if (seat, card) in self.run_cards:
            return self.with_(run_cards=self.run_cards - {(seat, card)})
        kept = frozenset(pick for pick in self.run_cards if pick[1] != card)
        # Cards for a seat say its runs exactly: what was entered by worth goes.
        worth = tuple(pick for pick in self.worth if pick[0] != seat)
        return self.with_(run_cards=kept | {(seat, card)}, worth=worth)

    def clear_runs(self, seat: int) -> HandDraft:
        return self.with_(run_cards=frozenset(p for p in self.run_cards if p[0] != seat))

    def run_groups(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """Each seat's tapped cards cut into unbroken same-suit sequences."""
        return tuple((seat, group) for seat in SEATS for group in sequences(self.cards_of(seat)))

    @property
    def runs(self) -> tuple[ShownRun, ...]:
        """The complete runs (three or more in a row) among the tapped cards, and the
        runs entered by their worth for seats with no cards tapped."""
        carded = {seat for seat, _card in self.run_cards}
        return tuple(run for seat in SEATS for run in (
            find_runs(self.cards_of(seat), seat) if seat in carded else
            tuple(ShownRun(seat=seat, run=kind) for who, kind in self.worth if who == seat)))

    @property
    def has_runs(self) -> bool:
        return bool(self.run_cards or self.worth)

    def short_groups(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """Tapped cards that do not make three in a row yet."""
        return tuple(group for group in self.run_groups() if len(group[1]) < 3)

    # --- trick points on the number pad -------------------------------------------------
    @property
    def no_trump(self) -> bool:
        return self.trump == NO_TRUMP

    @property
    def trick_total(self) -> int:
        return trick_total(self.no_trump)

    @property
    def tricks(self) -> int | None:
        return int(self.digits) if self.digits else None

    def press_digit(self, digit: str) -> HandDraft:
        """Append a digit; a fourth digit or a leading zero run is ignored."""
        if not digit.isdigit() or len(self.digits) >= MAX_DIGITS:
            return self
        digits = (self.digits + digit).lstrip("0") or "0"
        return self.with_(digits=digits)

    def backspace(self) -> HandDraft:
        return self.with_(digits=self.digits[:-1])

    def other_tricks(self) -> int | None:
        """The other team's trick points, when the entered figure is possible."""
        if self.tricks is None or self.points_problem() is not None:
            return None
        return self.trick_total - self.tricks

    def points_problem(self) -> str | None:
        """Why the entered figure cannot be right, in a player's words."""
        if self.tricks is None:
            return None
        total = self.trick_total
        if self.tricks > total:
            return f"{self.tricks} is more than all the tricks are worth ({total})"
        if self.tricks not in possible_trick_points(self.no_trump):
            never = " or ".join(str(p) for p in impossible_trick_points(self.no_trump))
            return f"No team can take {self.tricks}: trick points are never {never}"
        return None

    # --- the finished hand ---------------------------------------------------------------
    def build(self) -> Hand:
        """The rules `Hand`, or DraftIncomplete saying what is still missing."""
        if self.ending is Ending.PASSED:
            return PassedHand()
        if self.caller is None:
            raise DraftIncomplete("Tap the player who called trump")
        if self.trump is None:
            raise DraftIncomplete("Tap the trump suit")
        for _seat, cards in self.short_groups():
            shown = " ".join(card.label for card in cards)
            raise DraftIncomplete(f"{shown} is not a run: a run needs three or more in a row")
        common = {"caller": self.caller, "trump": self.trump, "runs": self.runs,
                  "bella": self.bella}
        try:
            if self.ending is Ending.MISPLAY:
                if self.misplay_by is None or self.misplay_upheld is None:
                    raise DraftIncomplete("Say which team called the misplay and if it was upheld")
                return MisplayHand(**common, misplay=Misplay(
                    called_by=self.misplay_by, upheld=self.misplay_upheld))
            if self.ending is Ending.THROWN:
                if self.thrown_by is None:
                    raise DraftIncomplete("Tap the player who threw in")
                return ThrownHand(**common, thrown_by=self.thrown_by)
            if self.tricks is None:
                raise DraftIncomplete("Enter the trick points")
            problem = self.points_problem()
            if problem:
                raise DraftIncomplete(problem)
            return PlayedHand(**common, points=TrickPoints(
                team=self.points_team, tricks=self.tricks))
        except TarabishError:
            raise
        except ValueError as exc:  # pydantic: should not happen with a draft built by taps
            raise DraftIncomplete(str(exc)) from exc


def caller_options(game: Game, before: GameReplay, index: int) -> tuple[CallerOption, ...]:
    """The four seats for hand `index`; the dealer is disabled when the forced rule says so."""
    names = game.names
    dealer = (game.first_dealer + index) % 4
    forced = before.hands[index].forced if index < len(before.hands) else before.forced
    not_dealing = other_team(team_of(dealer))
    options = []
    for seat in SEATS:
        reason = ""
        if seat == dealer and not_dealing in forced:
            reason = (f"{names.team(not_dealing)} are forced (over {game.rules.forced_at}): "
                      f"{names.player(right_of(dealer))} must call before the dealer")
        options.append(CallerOption(seat=seat, name=names.player(seat), allowed=not reason,
                                    reason=reason))
    return tuple(options)


def trump_options(game: Game) -> tuple[TrumpCall, ...]:
    suits: tuple[TrumpCall, ...] = tuple(Suit)
    no_trump: TrumpCall = "NT"
    return (*suits, no_trump) if game.rules.no_trump else suits


class Preview(BaseModel):
    """What the live preview shows under the hand being entered."""

    model_config = ConfigDict(frozen=True)

    ready: bool
    text: str
    result: HandResult | None = None


def preview_draft(game: Game, draft: HandDraft, index: int | None = None) -> Preview:
    """Rule the draft as hand `index` (default: the next hand) without saving it."""
    try:
        hand = draft.build()
    except DraftIncomplete as exc:
        return Preview(ready=False, text=str(exc))
    except TarabishError as exc:
        return Preview(ready=False, text=str(exc))
    result = preview(game, hand, index)
    if result.error is not None or result.ruling is None:
        text = result.error or "This hand cannot be scored"
        return Preview(ready=False, text=text, result=result)
    return Preview(ready=True, text=result.ruling.explanation, result=result)
