"""Hypothesis properties of club nights: Swiss never repeats a pairing while
another draw is possible; byes go round; a progressive night never repeats a
partnership while it can be helped; the standings do not care in which order the
games come or which way round a game's seats are."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import games, house_rules, rotate_doc

from rules.game_file import game_to_doc
from scorer.events import night
from scorer.events.model import Draw, EventSpec, Format, Outcome, round_robin_rounds
from scorer.events.pairing import byes_so_far, met_pairs, partnerships
from scorer.events.results import table_result
from scorer.events.standings import standings

SCALE = int(os.environ.get("TARABISH_PROPERTY_SCALE", "1"))
NOON = datetime(2026, 11, 28, 19, 0, tzinfo=UTC)
NAMES = [f"P{n:02d}" for n in range(1, 200)]


def fast(max_examples: int) -> Any:
    return settings(max_examples=max_examples * SCALE, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def new_event(fmt: Format, count: int, rounds: int, seed: int) -> night.Event:
    if fmt.teams:
        spec = EventSpec(name="Prop", format=fmt, rounds=rounds, seed=seed,
                         teams=tuple((NAMES[2 * n], NAMES[2 * n + 1]) for n in range(count)))
    else:
        spec = EventSpec(name="Prop", format=fmt, rounds=rounds, seed=seed,
                         players=tuple(NAMES[:count]))
    return night.new_event(spec, seed)


def decide(draw: Draw, data: st.DataObject) -> dict[int, Outcome]:
    """A result for every table of `draw`: any winner, any score."""
    out = {}
    for table in draw.tables:
        winner = data.draw(st.sampled_from([0, 1]))
        loser_points = data.draw(st.integers(0, 499))
        win_points = data.draw(st.integers(500, 700))
        points = (win_points, loser_points) if winner == 0 else (loser_points, win_points)
        out[table.table] = Outcome(kind="paper", sides=table.sides, points=points,
                                   winner=winner)
    return out


def pairing_without_rematch(pool: Sequence[int], met: set[frozenset[int]]) -> bool:
    """Whether the pool can be paired with no two teams meeting again (every way tried)."""
    if not pool:
        return True
    first, rest = pool[0], list(pool[1:])
    return any(frozenset((first, other)) not in met
               and pairing_without_rematch([e for e in rest if e != other], met)
               for other in rest)


def rematches(draw: Draw, met: set[frozenset[int]]) -> int:
    return sum(1 for t in draw.tables if frozenset(t.entrants) in met)


def byes_fair(draw: Draw, playing: Sequence[int], had: Counter[int]) -> bool:
    """No one sits out more often than anyone who plays this round has (nobody has a
    second bye while another has had none)."""
    seated = [e for e in playing if e not in draw.byes]
    return not draw.byes or max(had[e] for e in draw.byes) <= min(had[e] for e in seated)


@fast(120)
@given(st.integers(2, 10), st.integers(1, 12), st.integers(0, 2**32), st.data())
def test_swiss_never_repeats_a_pairing_while_another_is_possible(
        teams: int, rounds: int, seed: int, data: st.DataObject) -> None:
    event = new_event(Format.SWISS, teams, rounds, seed)
    results: dict[tuple[int, int], Outcome] = {}
    for number in range(1, rounds + 1):
        history = [r.draw for r in event.played]
        met = met_pairs(history)
        had = byes_so_far(history)
        playing = [e.id for e in event.entrants]
        draw = night.next_draw(event, results)
        fewest = min(had[e] for e in playing)
        allowed_byes = [e for e in playing if had[e] == fewest] if teams % 2 else [None]
        possible = any(pairing_without_rematch([e for e in playing if e != bye], met)
                       for bye in allowed_byes)
        if possible:
            assert rematches(draw, met) == 0, (number, draw)
        assert byes_fair(draw, playing, had)
        assert sorted([*draw.byes, *(e for t in draw.tables for e in t.entrants)]) == playing
        event = night.with_round(event, draw, NOON)
        results.update({(number, t): o for t, o in decide(draw, data).items()})


@fast(60)
@given(st.sampled_from([Format.SWISS, Format.ROUND_ROBIN, Format.PROGRESSIVE]),
       st.integers(2, 23), st.integers(0, 2**32), st.data())
def test_byes_go_round(fmt: Format, count: int, seed: int, data: st.DataObject) -> None:
    count = max(count, 4) if fmt is Format.PROGRESSIVE else min(count, 12)
    rounds = data.draw(st.integers(1, 10))
    if fmt is Format.ROUND_ROBIN:
        rounds = min(rounds, round_robin_rounds(count))
    event = new_event(fmt, count, rounds, seed)
    results: dict[tuple[int, int], Outcome] = {}
    for number in range(1, rounds + 1):
        had = byes_so_far(r.draw for r in event.played)
        draw = night.next_draw(event, results)
        assert byes_fair(draw, [e.id for e in event.entrants], had), (number, draw, had)
        event = night.with_round(event, draw, NOON)
        results.update({(number, t): o for t, o in decide(draw, data).items()})
    if fmt is Format.ROUND_ROBIN and rounds == round_robin_rounds(count):
        assert len(met_pairs(r.draw for r in event.played)) == count * (count - 1) // 2


@fast(80)
@given(st.integers(4, 26), st.integers(1, 9), st.integers(0, 2**32), st.data())
def test_progressive_never_repeats_a_partnership_while_avoidable(
        players: int, rounds: int, seed: int, data: st.DataObject) -> None:
    event = new_event(Format.PROGRESSIVE, players, rounds, seed)
    results: dict[tuple[int, int], Outcome] = {}
    for number in range(1, rounds + 1):
        before = partnerships(r.draw for r in event.played)
        draw = night.next_draw(event, results)
        for table in draw.tables:
            a, b, c, d = table.entrants
            splits = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
            fresh = [s for s in splits if not any(before[frozenset(p)] for p in s)]
            chosen = sum(1 for side in table.sides if before[frozenset(side)])
            if fresh:
                assert chosen == 0, (number, table, before)
        event = night.with_round(event, draw, NOON)
        results.update({(number, t): o for t, o in decide(draw, data).items()})


@st.composite
def outcomes(draw: st.DrawFn) -> tuple[int, list[Outcome], list[int]]:
    entrants = draw(st.integers(2, 8))
    ids = st.integers(1, entrants)
    made = []
    for _ in range(draw(st.integers(0, 12))):
        a, b = draw(st.lists(ids, min_size=2, max_size=2, unique=True))
        points = (draw(st.integers(0, 900)), draw(st.integers(0, 900)))
        made.append(Outcome(kind="game", sides=((a,), (b,)), points=points,
                            winner=draw(st.sampled_from([0, 1]))))
    return entrants, made, draw(st.lists(ids, max_size=4))


@fast(200)
@given(outcomes(), st.randoms(use_true_random=False), st.data())
def test_standings_do_not_care_about_order_or_which_side(
        case: tuple[int, list[Outcome], list[int]], shuffler: Any, data: st.DataObject) -> None:
    count, games_played, byes = case
    event = new_event(Format.SWISS, count, 3, 1)
    before = standings(event.entrants, games_played, byes)
    mixed = list(games_played)
    shuffler.shuffle(mixed)
    turned = [o.swapped() if data.draw(st.booleans()) else o for o in mixed]
    assert standings(event.entrants, turned, list(reversed(byes))) == before
    assert sum(s.points_for for s in before) == sum(s.points_against for s in before)


@fast(60)
@given(games(min_hands=1, max_hands=14,
             rules=house_rules(target=300, forced_at=False)),
       st.integers(1, 3), st.one_of(st.none(), st.integers(0, 6)))
def test_a_game_counts_the_same_whichever_way_its_seats_turn(
        game: Any, turns: int, called: int | None) -> None:
    """A table's game, its seats turned round one, two or three places (the names go
    with them): the same side wins with the same points, clock or no clock."""
    p = game.players
    event = night.new_event(EventSpec(name="Prop", format=Format.SWISS, rounds=1, seed=1,
                                      teams=((p[0], p[2]), (p[1], p[3]))), 1)
    event = night.with_round(event, night.next_draw(event, {}), NOON)
    if called is not None:
        event = night.with_time_called(event, NOON, {1: called})
    played = event.played[0]
    table = played.tables[0]
    doc = game_to_doc(game)
    first = table_result(event, played, table, doc)
    for _ in range(turns):
        doc = rotate_doc(doc)
    again = table_result(event, played, table, doc)
    assert again.outcome == first.outcome
    assert again.side_points == first.side_points
