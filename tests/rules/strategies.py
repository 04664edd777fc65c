"""Hypothesis strategies for the rules engine: random house rules, real deals,
valid hands and whole valid games, and the game-file documents that hold them.

Every hand is built from a real deal (36 cards, four hands of nine), so the
runs and the bella it claims could all have happened at one table: the runs
are sequences a player really held, no card is in two players' runs, and
bella is only claimed by the player holding the king and queen of trumps.
Trick points come from `possible_trick_points`.

Deliberately independent of the engine's rulings: the only engine calls used
while generating are `rule_hand` (to keep a running score, so that a game
obeys the forced-at variation and stops when it is won) and the card tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from rules.cards import Card, Rank, Suit, full_deck, possible_trick_points, trick_total
from rules.game import Game
from rules.game_file import FORMAT, game_to_doc
from rules.hand_analysis import sequences
from rules.hands import (
    NO_TRUMP,
    CalledHand,
    Hand,
    Misplay,
    MisplayHand,
    PassedHand,
    PlayedHand,
    ThrownHand,
    TrickPoints,
)
from rules.house_rules import HouseRules, LongRuns, RunTies, TargetTie
from rules.runs import ShownRun
from rules.scoring import rule_hand

DECK: tuple[Card, ...] = full_deck()
NATURAL = list(Rank)


def runs_in(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The maximal runs (three or more in a row, one suit) a player holds."""
    return [group for group in sequences(cards) if len(group) >= 3]
NEVER_WON = 100_000  # the highest target HouseRules accepts; 10 hands never reach it
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")

Deal = tuple[tuple[Card, ...], ...]


# ---------------------------------------------------------------- house rules


@st.composite
def house_rules(
    draw: st.DrawFn,
    *,
    target: int | None = None,
    forced_at: bool = True,
    no_trump: bool | None = None,
    partner_runs: bool | None = None,
) -> HouseRules:
    """Any combination of house rules. `target` fixes the target (else random)."""
    chosen_target = target if target is not None else draw(
        st.sampled_from([500, 500, 1000, 300, 1, 100_000])
    )
    forced = draw(st.none() | st.sampled_from([0, 100, 200, 400])) if forced_at else None
    return HouseRules(
        target=chosen_target,
        dealer_may_pass=draw(st.booleans()),
        forced_at=forced,
        long_runs=draw(st.sampled_from(list(LongRuns))),
        run_ties=draw(st.sampled_from(list(RunTies))),
        partner_runs=draw(st.booleans()) if partner_runs is None else partner_runs,
        first_of_bells=draw(st.booleans()),
        half_bait_is_bait=draw(st.booleans()),
        bella_kept_on_bait=draw(st.booleans()),
        no_trump=draw(st.booleans()) if no_trump is None else no_trump,
        target_tie=draw(st.sampled_from(list(TargetTie))),
    )


# ---------------------------------------------------------------- deals


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    """Four hands of nine from one deck, often with sequences planted in them."""
    hands: list[list[Card]] = [[], [], [], []]
    used: set[Card] = set()
    plant = st.tuples(st.booleans(), st.integers(0, 3), st.sampled_from(list(Suit)),
                      st.integers(3, 9), st.integers(0, 6))
    # A fixed number of draws (each plant may be skipped) shrinks and mutates best.
    for wanted, seat, suit, length, low in draw(st.tuples(plant, plant, plant, plant)):
        if not wanted:
            continue
        start = min(low, len(NATURAL) - length)
        cards = [Card(rank=NATURAL[i], suit=suit) for i in range(start, start + length)]
        if used.isdisjoint(cards) and len(hands[seat]) + length <= 9:
            hands[seat].extend(cards)
            used.update(cards)
    rest = draw(st.permutations([card for card in DECK if card not in used]))
    pos = 0
    for hand in hands:
        need = 9 - len(hand)
        hand.extend(rest[pos : pos + need])
        pos += need
    return tuple(tuple(hand) for hand in hands)


def holder_of_bella(deal: Deal, trump: Suit) -> int | None:
    king, queen = Card(rank=Rank.KING, suit=trump), Card(rank=Rank.QUEEN, suit=trump)
    for seat, cards in enumerate(deal):
        if king in cards and queen in cards:
            return seat
    return None


# ---------------------------------------------------------------- hands


@st.composite
def shown_runs(draw: st.DrawFn, deal: Deal) -> tuple[ShownRun, ...]:
    """Some of the sequences really held, as shown (a run announced may go unshown)."""
    runs = [
        ShownRun(seat=seat, cards=seq)
        for seat, cards in enumerate(deal)
        for seq in runs_in(cards)
        if draw(st.integers(0, 3)) > 0
    ]
    return tuple(draw(st.permutations(runs))) if runs else ()


def forced_caller_ok(caller: int, dealer: int, forced: Sequence[int]) -> bool:
    """Forced-at: the dealer may not call when the team not dealing is forced."""
    return not (caller == dealer and (dealer + 1) % 2 in forced)


@st.composite
def trick_points(draw: st.DrawFn, no_trump: bool) -> TrickPoints:
    total = trick_total(no_trump)
    figure = draw(st.sampled_from(sorted(possible_trick_points(no_trump))))
    if draw(st.booleans()):
        return TrickPoints(team=draw(st.integers(0, 1)), tricks=figure)
    return TrickPoints(tricks=(figure, total - figure))


@st.composite
def called_hands(
    draw: st.DrawFn,
    rules: HouseRules,
    dealer: int,
    forced: Sequence[int] = (),
    kinds: Sequence[str] = ("played", "played", "played", "misplay", "thrown"),
) -> CalledHand:
    """A played, misplayed or thrown-in hand that could have happened."""
    deal = draw(deals())
    caller = draw(st.integers(0, 3).filter(lambda s: forced_caller_ok(s, dealer, forced)))
    no_trump = rules.no_trump and draw(st.integers(0, 3)) == 0
    trump: Suit | None = None if no_trump else draw(st.sampled_from(list(Suit)))
    runs = draw(shown_runs(deal))
    bella = None
    if trump is not None:
        holder = holder_of_bella(deal, trump)
        if holder is not None and draw(st.booleans()):
            bella = holder
    common: dict[str, Any] = {
        "caller": caller, "trump": NO_TRUMP if trump is None else trump,
        "runs": runs, "bella": bella,
    }
    kind = draw(st.sampled_from(list(kinds)))
    if kind == "misplay":
        misplay = Misplay(called_by=draw(st.integers(0, 1)), upheld=draw(st.booleans()))
        return MisplayHand(misplay=misplay, **common)
    if kind == "thrown":
        return ThrownHand(thrown_by=draw(st.integers(0, 3)), **common)
    return PlayedHand(points=draw(trick_points(no_trump)), **common)


@st.composite
def hands(draw: st.DrawFn, rules: HouseRules, dealer: int, forced: Sequence[int] = ()) -> Hand:
    """Any valid hand, passed ones included when the house rules allow it."""
    if rules.dealer_may_pass and not forced and draw(st.integers(0, 7)) == 0:
        return PassedHand()
    return draw(called_hands(rules, dealer, forced))


@st.composite
def situations(
    draw: st.DrawFn, /, **rule_options: Any
) -> tuple[HouseRules, int, CalledHand]:
    """House rules, a dealer and a called hand, with no team forced."""
    rules = draw(house_rules(**rule_options))
    dealer = draw(st.integers(0, 3))
    return rules, dealer, draw(called_hands(rules, dealer))


# ---------------------------------------------------------------- games


def forced_of(totals: tuple[int, int], forced_at: int | None) -> tuple[int, ...]:
    """Section 3, written again: over the threshold; the leader; both when level."""
    if forced_at is None:
        return ()
    over = [team for team in (0, 1) if totals[team] > forced_at]
    if len(over) == 2 and totals[0] != totals[1]:
        return (0,) if totals[0] > totals[1] else (1,)
    return tuple(over)


def is_won(totals: tuple[int, int], hand: Hand, rules: HouseRules) -> bool:
    """Section 9, written again."""
    if max(totals) < rules.target:
        return False
    if totals[0] != totals[1]:
        return True
    return rules.target_tie is TargetTie.CALLER_WINS and not isinstance(hand, PassedHand)


@st.composite
def players(draw: st.DrawFn) -> tuple[str, str, str, str]:
    names = draw(st.permutations(NAMES))
    return (names[0], names[1], names[2], names[3])


@st.composite
def games(
    draw: st.DrawFn,
    *,
    min_hands: int = 0,
    max_hands: int = 12,
    rules: st.SearchStrategy[HouseRules] | None = None,
) -> Game:
    """A whole valid game: forced-at obeyed, and no hand after the game is won."""
    house = draw(rules if rules is not None else house_rules())
    seats = draw(players())
    teams = draw(st.none() | st.just(("Reds", "Blues")))
    first_dealer = draw(st.integers(0, 3))
    game = Game(players=seats, teams=teams, first_dealer=first_dealer, rules=house)
    names = game.names
    totals = (0, 0)
    played: list[Hand] = []
    for index in range(draw(st.integers(min_hands, max_hands))):
        dealer = (first_dealer + index) % 4
        forced = forced_of(totals, house.forced_at)
        hand = draw(hands(house, dealer, forced))
        scores = rule_hand(hand, rules=house, dealer=dealer, names=names, forced=forced).scores
        totals = (totals[0] + scores[0], totals[1] + scores[1])
        played.append(hand)
        if is_won(totals, hand, house):
            break
    return game.with_hands(tuple(played))


def game_docs(**options: Any) -> st.SearchStrategy[dict[str, Any]]:
    return games(**options).map(game_to_doc)


# ---------------------------------------------------------------- seat rotation


def rotate_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """The same game with everybody moved one seat clockwise (seat s sits at s + 1).

    Seat 0's team becomes team 1, so team numbers flip and team names swap.
    """

    def seat(s: int) -> int:
        return (s + 1) % 4

    def team(t: int) -> int:
        return 1 - t

    players_ = doc["players"]
    out: dict[str, Any] = {
        "format": doc["format"],
        "players": [players_[3], players_[0], players_[1], players_[2]],
        "first_dealer": seat(doc["first_dealer"]),
        "rules": dict(doc.get("rules", {})),
        "hands": [],
    }
    if doc.get("teams") is not None:
        out["teams"] = [doc["teams"][1], doc["teams"][0]]
    for hand in doc.get("hands", []):
        new = dict(hand)
        if "caller" in new:
            new["caller"] = seat(new["caller"])
        if new.get("bella") is not None:
            new["bella"] = seat(new["bella"])
        if "thrown_by" in new:
            new["thrown_by"] = seat(new["thrown_by"])
        if "runs" in new:
            new["runs"] = [{**run, "seat": seat(run["seat"])} for run in new["runs"]]
        if "misplay" in new:
            new["misplay"] = {**new["misplay"], "called_by": team(new["misplay"]["called_by"])}
        if "points" in new:
            points = dict(new["points"])
            if isinstance(points["tricks"], list):
                points["tricks"] = [points["tricks"][1], points["tricks"][0]]
            else:
                points["team"] = team(points["team"])
            new["points"] = points
        out["hands"].append(new)
    return out


# ---------------------------------------------------------------- invalid input

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)

junk_cards = st.sampled_from(
    ["", "1S", "11H", "ZZ", "10", "S10", "KX", "QQ", "♠K", "10♥♥", "AS ", " th", "jo", "6s"]
) | st.text(max_size=4)

seat_like = st.sampled_from([-1, 4, 5, 99, -(10**9), 10**30, 1.5, 2.0, True, "1", "two", None])

HAND_KEYS = ["caller", "trump", "points", "runs", "bella", "misplay", "thrown_by", "passed"]
TOP_KEYS = ["format", "players", "teams", "first_dealer", "rules", "hands"]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON document, as a path of keys and indexes."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_paths(value, (*prefix, index)))
    return found


def _replace(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, dict):
        return {**node, head: _replace(node[head], rest, value)}
    copy = list(node)
    copy[head] = _replace(node[head], rest, value)
    return copy


def _delete(node: Any, path: tuple[Any, ...]) -> Any:
    if len(path) == 1:
        if isinstance(node, dict):
            return {k: v for k, v in node.items() if k != path[0]}
        return [v for i, v in enumerate(node) if i != path[0]]
    head = path[0]
    if isinstance(node, dict):
        return {**node, head: _delete(node[head], path[1:])}
    copy = list(node)
    copy[head] = _delete(node[head], path[1:])
    return copy


@st.composite
def mutated_docs(draw: st.DrawFn) -> Any:
    """A valid game document with one to three things broken in it."""
    doc: Any = draw(game_docs(max_hands=4))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["json", "card", "seat", "delete", "add_key", "key"]))
        if action == "delete" and path:
            doc = _delete(doc, path)
        elif action == "add_key":
            target = draw(st.sampled_from([p for p in paths if not p] + [
                p for p in paths if p and p[0] == "hands" and len(p) == 2
            ]))
            key = draw(st.sampled_from([*HAND_KEYS, *TOP_KEYS, "kind", "score"]) | st.text(
                max_size=8
            ))
            container = _get(doc, target)
            if isinstance(container, dict):
                doc = _replace(doc, target, {**container, key: draw(json_values)})
        elif action == "key" and path and path[-1] in {*HAND_KEYS, *TOP_KEYS}:
            doc = _replace(doc, path, draw(json_values | seat_like))
        elif action == "card":
            doc = _replace(doc, path, draw(junk_cards))
        elif action == "seat":
            doc = _replace(doc, path, draw(seat_like))
        else:
            doc = _replace(doc, path, draw(json_values))
    return doc


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


def wrapped_junk() -> st.SearchStrategy[Any]:
    """A document with the right format tag and random everything else."""
    return st.fixed_dictionaries(
        {"format": st.just(FORMAT)},
        optional={key: json_values | seat_like for key in TOP_KEYS[1:]},
    )


# ---------------------------------------------------------------- other spellings

_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@st.composite
def respelled_docs(draw: st.DrawFn, doc: dict[str, Any]) -> dict[str, Any]:
    """The same game written the other ways GAME_FORMAT.md allows: `T` for ten,
    lower case, suit symbols, spaces, `"bella": null` and `"passed": false`."""

    def card(text: str) -> str:
        rank, suit = text[:-1], text[-1]
        if rank == "10" and draw(st.booleans()):
            rank = draw(st.sampled_from(["T", "t"]))
        suit = draw(st.sampled_from([suit, suit.lower(), _SYMBOLS[suit]]))
        rank = rank.lower() if draw(st.booleans()) else rank
        return draw(st.sampled_from(["{}{}", " {}{} ", "{} {}"])).format(rank, suit)

    out = {**doc, "hands": []}
    for hand in doc["hands"]:
        new = dict(hand)
        if new.get("trump") in _SYMBOLS:
            new["trump"] = draw(st.sampled_from(
                [new["trump"], new["trump"].lower(), _SYMBOLS[new["trump"]], f" {new['trump']} "]
            ))
        elif new.get("trump") == "NT":
            new["trump"] = draw(st.sampled_from(["NT", "nt", "Nt"]))
        if "runs" in new:
            new["runs"] = [{**run, "cards": [card(c) for c in run["cards"]]}
                           for run in new["runs"]]
        if "caller" in new and "bella" not in new and draw(st.booleans()):
            new["bella"] = None
        if "passed" not in new and draw(st.booleans()):
            new["passed"] = False
        out["hands"].append(new)
    return out
