"""The order the tests are handed to the workers: the longest first.

pytest-xdist's `worksteal` gives each worker a third of the collected list, in order,
and an idle worker takes the back half of the longest queue. In collection order a
worker could start a 100 s test in the run's last minute while the others stood idle
(the run's last 4 % of tests took 5 of its 24 minutes, issue 39). Sorted longest first,
what is left at the end is short, as in longest-processing-time-first scheduling.
Each worker's third starts with its share of the longest (dealt round).

The times are a past run's (`tests/durations.json`, tests of a second or more); a test
not in it counts as instant and keeps its place among the others. A module whose tests
share a fixture wider than a test (scope module or class) stays in one piece: its tests
count as its total, so its tests stay together in each worker's share and the fixture
is made once a worker, not once a test.

Refresh the file from a run's JUnit report (any machine: only the order matters):

    uv run pytest --junitxml=/tmp/run.xml
    uv run python -m tests.run_order /tmp/run.xml
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

DURATIONS = Path(__file__).resolve().parent / "durations.json"
RECORDED_FROM_S = 1.0
"""Shorter tests are left out of the file: they count as instant."""
SHARED_SCOPES = frozenset({"module", "class", "package"})


def recorded() -> dict[str, float]:
    """Seconds by test id, from the file (none if it is missing or unreadable)."""
    try:
        data = json.loads(DURATIONS.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}


def shares_a_wide_fixture(item: pytest.Item) -> bool:
    info: Any = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(d.scope in SHARED_SCOPES for defs in info.name2fixturedefs.values()
               for d in defs)


def longest_first(items: list[pytest.Item], seconds: dict[str, float],
                  workers: int = 1) -> None:
    """Sort `items` in place, longest first (a stable sort: ties keep their order), and
    for several workers dealt round (`dealt`): worksteal hands worker k the k-th third (by
    count) of the list, so each third is every third test of the sorted list, and each
    worker starts on its share of the longest."""
    by_module: dict[str, float] = defaultdict(float)
    for item in items:
        by_module[item.nodeid.split("::", 1)[0]] += seconds.get(item.nodeid, 0.0)
    kept_whole = {item.nodeid.split("::", 1)[0] for item in items
                  if shares_a_wide_fixture(item)}

    def weight(item: pytest.Item) -> float:
        module = item.nodeid.split("::", 1)[0]
        if module in kept_whole:
            return by_module[module]
        return seconds.get(item.nodeid, 0.0)

    items.sort(key=weight, reverse=True)
    if workers > 1:
        items[:] = dealt(items, workers)


WAITS_FOR_ONE_BUILD = "built_site"
"""The fixture of the phone-alone site, built once for every worker of the run: a worker
that starts on a test of it while another builds the site waits idle (two of three did,
the run's first minute a core stood idle), so every test of it goes to one worker."""


def shares_of(count: int, workers: int) -> list[int]:
    """How many tests worksteal sends each worker first: the k-th gets what is left
    divided by the workers left (xdist's WorkStealingScheduling.check_schedule)."""
    counts = []
    for k in range(workers):
        counts.append(count // (workers - k))
        count -= counts[-1]
    return counts


def dealt(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """`items` (longest first) as worksteal's workers will take them: the tests that wait
    for the one build lead the first worker's share; the rest are dealt round, each
    worker's share filled to its count, so each starts on its part of the longest."""
    counts = shares_of(len(items), workers)
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    builds = [item for item in items
              if WAITS_FOR_ONE_BUILD in getattr(item, "fixturenames", ())][:counts[0]]
    shares[0].extend(builds)
    taken = {id(item) for item in builds}
    k = 0
    for item in items:
        if id(item) in taken:
            continue
        while len(shares[k]) >= counts[k]:
            k = (k + 1) % workers
        shares[k].append(item)
        k = (k + 1) % workers
    return [item for share in shares for item in share]


def from_junit(report: Path) -> dict[str, float]:
    """Seconds by test id of a JUnit report's tests that took RECORDED_FROM_S or more."""
    found: dict[str, float] = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        took = float(case.get("time") or 0)
        if took < RECORDED_FROM_S:
            continue
        parts = (case.get("classname") or "").split(".")
        # Modules are lower case here; a part that starts upper case is a test class.
        module = [p for p in parts if not p[:1].isupper()]
        classes = [p for p in parts if p[:1].isupper()]
        node = "/".join(module) + ".py::" + "::".join([*classes, case.get("name") or ""])
        found[node] = round(took, 1)
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.run_order JUNIT.xml", file=sys.stderr)
        return 2
    times = from_junit(Path(argv[0]))
    DURATIONS.write_text(json.dumps(dict(sorted(times.items())), indent=0) + "\n", "utf-8")
    print(f"{len(times)} tests of {RECORDED_FROM_S:g} s or more written to {DURATIONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
