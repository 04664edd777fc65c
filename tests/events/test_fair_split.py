"""Fair partners in a progressive night for a group: the split closest to even breaks
ties between splits equally good by the old rule (nobody partners the same player
twice while it can be helped), and the draw is the same for the same seed and ratings."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from scorer.events.model import Draw, EventSpec, Format, parse_spec
from scorer.events.night import Event, new_event
from scorer.events.pairing import Chance, progressive_draw, split_table

SKILL = {1: 30.0, 2: 10.0, 3: 28.0, 4: 12.0, 5: 25.0, 6: 25.0, 7: 20.0, 8: 22.0}
"""Made-up strengths: 1 and 3 are strong, 2 and 4 weak."""


def by_strength(skill: dict[int, float]) -> Chance:
    """Side 0's chance: its share of the four's strength (any even-handed rule will do)."""
    def chance(side0: tuple[int, ...], side1: tuple[int, ...]) -> float:
        a = sum(skill[p] for p in side0)
        b = sum(skill[p] for p in side1)
        return a / (a + b)

    return chance


def repeats(split: tuple[tuple[int, int], tuple[int, int]],
            partners: Counter[frozenset[int]]) -> tuple[int, int]:
    counts = [partners[frozenset(pair)] for pair in split]
    return sum(1 for c in counts if c), sum(counts)


def test_without_ratings_the_first_good_split_is_taken_as_before() -> None:
    assert split_table((1, 2, 3, 4), Counter()) == ((1, 2), (3, 4))


def test_the_fairest_split_breaks_the_tie() -> None:
    # Strong 1 with strong 3 against weak 2 and 4 (the old rule's first) is lopsided;
    # 1 & 2 against 3 & 4 is even.
    assert split_table((1, 3, 2, 4), Counter()) == ((1, 3), (2, 4))
    assert split_table((1, 3, 2, 4), Counter(), by_strength(SKILL)) == ((1, 2), (3, 4))
    lopsided = {1: 30.0, 2: 10.0, 3: 10.0, 4: 30.0}
    # Two splits are even: the first of them is taken.
    assert split_table((1, 4, 2, 3), Counter(), by_strength(lopsided)) == ((1, 2), (4, 3))


def test_no_repeated_partner_comes_before_fairness() -> None:
    lopsided = {1: 30.0, 2: 10.0, 3: 10.0, 4: 30.0}
    partners = Counter({frozenset((1, 2)): 1})
    # 1 & 2 partnered before: the even split 1 & 3 v 2 & 4 wins over it.
    assert split_table((1, 2, 3, 4), partners, by_strength(lopsided)) == ((1, 3), (2, 4))
    partners[frozenset((1, 3))] = 1
    # Both even splits repeat a partnership: the lopsided new one is taken.
    assert split_table((1, 2, 3, 4), partners, by_strength(lopsided)) == ((1, 4), (2, 3))


def _draw(chance: Chance | None, seed: int = 7) -> Draw:
    return progressive_draw(1, list(range(1, 9)), seed, None, {}, [], list(range(8, 0, -1)),
                            chance)


def test_the_draw_is_the_same_for_the_same_seed_and_ratings() -> None:
    fair = _draw(by_strength(SKILL))
    assert fair == _draw(by_strength(dict(SKILL)))
    # The same players at the same tables: only who partners whom may change.
    plain = _draw(None)
    assert [set(t.entrants) for t in fair.tables] == [set(t.entrants) for t in plain.tables]
    for table in fair.tables:
        uneven = abs(by_strength(SKILL)(*table.sides) - 0.5)
        assert uneven <= min(abs(by_strength(SKILL)(*s) - 0.5)
                             for s in _splits(table.entrants)) + 1e-9


def _splits(four: tuple[int, ...]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    a, b, c, d = four
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


skills = st.dictionaries(st.integers(1, 4), st.floats(1.0, 50.0), min_size=4, max_size=4)
history = st.dictionaries(
    st.sampled_from([frozenset(p) for p in ((1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))]),
    st.integers(0, 3))


@given(four=st.permutations([1, 2, 3, 4]), skill=skills, before=history)
def test_fairness_never_adds_a_repeated_partnership(four: list[int], skill: dict[int, float],
                                                     before: dict[frozenset[int], int]) -> None:
    partners = Counter(before)
    old = split_table(four, partners)
    fair = split_table(four, partners, by_strength(skill))
    assert repeats(fair, partners) == repeats(old, partners)
    if repeats(old, partners) == (0, 0):
        assert repeats(fair, partners) == (0, 0)


@given(seed=st.integers(0, 2**31), skill=st.dictionaries(
    st.integers(1, 12), st.floats(1.0, 50.0), min_size=12, max_size=12))
def test_in_a_whole_night_each_fair_table_repeats_no_more_than_the_old_rule(
        seed: int, skill: dict[int, float]) -> None:
    players = list(range(1, 13))
    draws: list[Draw] = []
    last: Draw | None = None
    for n in range(1, 6):
        winners = {} if last is None else {t.table: (n + t.table) % 2 for t in last.tables}
        last = progressive_draw(n, players, seed, last, winners, draws,
                                list(reversed(players)), by_strength(skill))
        before = _partners(draws)
        for table in last.tables:
            old = split_table(table.entrants, before)
            pair = (table.sides[0], table.sides[1])
            assert repeats(pair, before) == repeats(old, before)  # type: ignore[arg-type]
        draws.append(last)


def _partners(draws: list[Draw]) -> Counter[frozenset[int]]:
    return Counter(frozenset(s) for d in draws for t in d.tables for s in t.sides)


def test_an_old_event_file_without_a_group_still_reads() -> None:
    spec = parse_spec({"name": "Legion", "format": "progressive",
                       "players": ["Ann", "Bob", "Cid", "Dee"]})
    assert spec.group is None
    saved = new_event(spec, 5).model_dump(mode="json")
    saved.pop("group")
    assert Event.model_validate(saved).group is None
    assert parse_spec({"name": "Legion", "format": "progressive", "group": "0a1b2c3d",
                       "players": ["Ann", "Bob", "Cid", "Dee"]}).group == "0a1b2c3d"


def test_a_group_that_is_no_id_is_refused_in_plain_words() -> None:
    import pytest

    from scorer.events.errors import SpecError

    with pytest.raises(SpecError) as refused:
        parse_spec({"name": "Legion", "format": "progressive", "group": "../x",
                    "players": ["Ann", "Bob", "Cid", "Dee"]})
    assert "group" in str(refused.value)
    assert EventSpec(name="x", format=Format.SWISS).group is None
