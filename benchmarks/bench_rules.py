"""Rules-engine benchmarks.

(a) Rule a 10,000-hand game with `replay` (a mix of made, bait, misplay and
    thrown hands, with runs and bella), best of a few runs, in hands per second.
(b) The editing case the app lives with: a 30-hand game, replace hand 3 and
    replay the whole game, many times; median and p95 in milliseconds against
    one screen refresh at 60 Hz (16.7 ms).

    uv run python benchmarks/bench_rules.py [--hands 10000] [--edits 500] [--profile]

The functions take sizes so that tests can run them small
(tests/rules/test_benchmarks_run.py); the timings are only printed, never judged.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.cards import Card, Rank, Suit, full_deck, possible_trick_points, trick_total
from rules.game import Game
from rules.game_file import game_to_doc, parse_game
from rules.hand_analysis import sequences
from rules.hands import (
    Hand,
    Misplay,
    MisplayHand,
    PlayedHand,
    ThrownHand,
    TrickPoints,
)
from rules.house_rules import HouseRules
from rules.replay import GameReplay, replay
from rules.runs import ShownRun

FRAME_MS = 1000 / 60  # one screen refresh at 60 Hz: 16.7 ms
PLAYERS = ("Ann", "Bob", "Cid", "Dee")
NATURAL = list(Rank)


def runs_in(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The maximal runs (three or more in a row, one suit) a player holds."""
    return [group for group in sequences(cards) if len(group) >= 3]
# HouseRules accepts targets up to 100,000; a 10,000-hand game scores about
# 1.8 million points, so the big game is built past the validator (see big_game).
UNREACHABLE_TARGET = 10_000_000
LEGAL_HIGH_TARGET = 100_000


# ---------------------------------------------------------------- hand generator


def _deal(rng: random.Random) -> list[list[Card]]:
    """Four hands of nine; one time in two a sequence is planted to get more runs."""
    deck = list(full_deck())
    hands: list[list[Card]] = [[], [], [], []]
    if rng.random() < 0.5:
        seat, suit = rng.randrange(4), rng.choice(list(Suit))
        length = rng.choice([3, 3, 4, 4, 5, 7, 8])
        start = rng.randrange(len(NATURAL) - length + 1)
        planted = [Card(rank=NATURAL[i], suit=suit) for i in range(start, start + length)]
        hands[seat].extend(planted)
        deck = [card for card in deck if card not in planted]
    rng.shuffle(deck)
    for hand in hands:
        need = 9 - len(hand)
        hand.extend(deck[:need])
        del deck[:need]
    return hands


_POSSIBLE = sorted(possible_trick_points())


def random_hand(rng: random.Random) -> Hand:
    """One valid hand (standard house rules) from a real deal."""
    deal = _deal(rng)
    trump = rng.choice(list(Suit))
    runs = tuple(
        ShownRun(seat=seat, cards=seq)
        for seat, cards in enumerate(deal)
        for seq in runs_in(cards)
    )
    bella = None
    bells = {Card(rank=Rank.KING, suit=trump), Card(rank=Rank.QUEEN, suit=trump)}
    for seat, cards in enumerate(deal):
        if bells <= set(cards):
            bella = seat
    common: dict[str, Any] = {
        "caller": rng.randrange(4), "trump": trump, "runs": runs, "bella": bella,
    }
    roll = rng.random()
    if roll < 0.05:
        return MisplayHand(misplay=Misplay(called_by=rng.randrange(2), upheld=rng.random() < 0.7),
                           **common)
    if roll < 0.08:
        return ThrownHand(thrown_by=rng.randrange(4), **common)
    tricks = rng.choice(_POSSIBLE)
    if rng.random() < 0.5:
        points = TrickPoints(team=rng.randrange(2), tricks=tricks)
    else:
        points = TrickPoints(tricks=(tricks, trick_total() - tricks))
    return PlayedHand(points=points, **common)


def make_hands(count: int, seed: int = 1) -> tuple[Hand, ...]:
    rng = random.Random(seed)
    return tuple(random_hand(rng) for _ in range(count))


def big_game(count: int, seed: int = 1) -> Game:
    """A `count`-hand game nobody wins (target 10,000,000, set past the validator)."""
    rules = HouseRules.model_construct(target=UNREACHABLE_TARGET)
    return Game(players=PLAYERS, first_dealer=0, rules=rules, hands=make_hands(count, seed))


def long_game(count: int = 30, seed: int = 2) -> Game:
    """A legal game file: the highest target HouseRules accepts, never reached in 30 hands."""
    return Game(players=PLAYERS, first_dealer=0, rules=HouseRules(target=LEGAL_HIGH_TARGET),
                hands=make_hands(count, seed))


def describe(result: GameReplay) -> str:
    outcomes = Counter(h.ruling.outcome.value for h in result.hands if h.ruling is not None)
    with_runs = sum(1 for h in result.hands if h.ruling is not None and h.ruling.runs_to is not None)
    cancelled = sum(1 for h in result.hands if h.ruling is not None and h.ruling.runs_cancelled)
    bella = sum(1 for h in result.hands if h.ruling is not None and h.ruling.bella_to is not None)
    errors = sum(1 for h in result.hands if h.error is not None)
    mix = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
    return (f"{len(result.hands)} hands: {mix}; runs scored {with_runs}, runs cancelled "
            f"{cancelled}, bella {bella}; invalid {errors}; totals {result.totals}")


# ---------------------------------------------------------------- timing


def _best_of(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(repeats):
        value = None  # let the last result go first: a bigger heap slows the collector
        gc.collect()
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


@dataclass(frozen=True)
class ReplayFigures:
    hands: int
    best_seconds: float
    hands_per_second: float
    parse_seconds: float
    summary: str


def bench_replay(hands: int = 10_000, repeats: int = 3, seed: int = 1) -> ReplayFigures:
    """(a) Best-of-`repeats` time to replay a `hands`-hand game."""
    game = big_game(hands, seed)
    best, result = _best_of(lambda: replay(game), repeats)
    # Reading the same hands from a game file (target reset to a legal value).
    doc = game_to_doc(game.model_copy(update={"rules": HouseRules(target=LEGAL_HIGH_TARGET)}))
    parse_best, _ = _best_of(lambda: parse_game(doc), repeats)
    return ReplayFigures(hands, best, hands / best, parse_best, describe(result))


@dataclass(frozen=True)
class EditFigures:
    hands: int
    edits: int
    median_ms: float
    p95_ms: float
    max_ms: float

    @property
    def median_frames(self) -> float:
        return self.median_ms / FRAME_MS

    @property
    def p95_frames(self) -> float:
        return self.p95_ms / FRAME_MS


def bench_edit(hands: int = 30, edits: int = 500, index: int = 3, seed: int = 2) -> EditFigures:
    """(b) Replace hand `index` and replay the whole game, `edits` times."""
    game = long_game(hands, seed)
    index = min(index, hands - 1)
    replacements = make_hands(max(edits, 1), seed + 1000)
    samples = []
    for i in range(edits):
        start = time.perf_counter()
        result = replay(game.replace_hand(index, replacements[i]))
        samples.append((time.perf_counter() - start) * 1000)
        assert len(result.hands) == hands
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return EditFigures(hands, edits, statistics.median(samples), p95, samples[-1])


def gc_share(hands: int = 10_000, repeats: int = 3, seed: int = 1) -> tuple[float, float]:
    """Best replay time with the cyclic garbage collector on, then off.

    Replay keeps every result alive until the end, so the collector's full
    passes rescan a growing heap; none of it is cyclic garbage.
    """
    game = big_game(hands, seed)
    timings = []
    for enabled in (True, False):
        gc.collect()
        if not enabled:
            gc.disable()
        try:
            best, _ = _best_of(lambda: replay(game), repeats)
        finally:
            gc.enable()
        timings.append(best)
    return timings[0], timings[1]


def profile_replay(hands: int = 10_000, top: int = 15, seed: int = 1) -> str:
    """Where replay's time goes: top functions, and the share spent building pydantic models.

    Profiled with the garbage collector off: otherwise a full collection is
    charged to whichever function happened to allocate when it started.
    """
    game = big_game(hands, seed)
    profiler = cProfile.Profile()
    gc.collect()
    gc.disable()
    try:
        profiler.enable()
        replay(game)
        profiler.disable()
    finally:
        gc.enable()
    stats = pstats.Stats(profiler)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in raw.values())
    pydantic_entries = [
        entry for (file, _line, name), entry in raw.items()
        if (name == "__init__" and file.replace("\\", "/").endswith("pydantic/main.py"))
        or "validate_python" in name
    ]
    model_time = sum(entry[2] for entry in pydantic_entries)
    init_calls = max((entry[1] for entry in pydantic_entries), default=0)
    out = io.StringIO()
    out.write(f"profiled replay of {hands} hands (gc off): {total:.3f} s own time in total\n")
    out.write(f"building pydantic models (BaseModel.__init__ + pydantic-core validation): "
              f"{model_time:.3f} s ({100 * model_time / total:.0f}%), {init_calls} models "
              f"({init_calls / hands:.1f} per hand)\n")
    stats.stream = out  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--edit-hands", type=int, default=30)
    parser.add_argument("--edits", type=int, default=500)
    parser.add_argument("--profile", action="store_true", help="profile the big replay too")
    args = parser.parse_args(argv)

    figures = bench_replay(args.hands, args.repeats)
    print(f"(a) replay of a {figures.hands}-hand game, best of {args.repeats}: "
          f"{figures.best_seconds:.3f} s = {figures.hands_per_second:,.0f} hands/s "
          f"({1e6 / figures.hands_per_second:.0f} µs per hand)")
    print(f"    {figures.summary}")
    print(f"    parse_game of the same {figures.hands} hands from a document: "
          f"{figures.parse_seconds:.3f} s")

    edit = bench_edit(args.edit_hands, args.edits)
    print(f"(b) replace hand 3 of a {edit.hands}-hand game and replay, {edit.edits} times: "
          f"median {edit.median_ms:.2f} ms, p95 {edit.p95_ms:.2f} ms, max {edit.max_ms:.2f} ms")
    print(f"    against one 60 Hz frame ({FRAME_MS:.1f} ms): median {edit.median_frames:.3f} "
          f"frames, p95 {edit.p95_frames:.3f} frames")

    if args.profile:
        on, off = gc_share(args.hands, args.repeats)
        print(f"garbage collector: replay best {on:.3f} s with gc on, {off:.3f} s with gc off "
              f"({100 * (on - off) / on:.0f}% of the time is collection)")
        print(profile_replay(args.hands))


if __name__ == "__main__":
    main()
