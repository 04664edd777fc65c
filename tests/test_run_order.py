"""The order the workers get the tests in (tests/run_order.py): longest first, ties and
unknown tests in their collected order, a module sharing a wide fixture in one piece."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.run_order import from_junit, longest_first


def item(nodeid: str, scope: str = "function", fixtures: tuple[str, ...] = ()) -> Any:
    fixture = SimpleNamespace(scope=scope)
    return SimpleNamespace(nodeid=nodeid, fixturenames=("f", *fixtures),
                           _fixtureinfo=SimpleNamespace(name2fixturedefs={"f": (fixture,)}))


def test_longest_first_and_the_unknown_keep_their_order() -> None:
    items = [item("a.py::t1"), item("a.py::t2"), item("b.py::t3"), item("b.py::t4[x]")]
    longest_first(items, {"a.py::t2": 5.0, "b.py::t4[x]": 30.0})
    assert [i.nodeid for i in items] == ["b.py::t4[x]", "a.py::t2", "a.py::t1", "b.py::t3"]


def test_a_module_with_a_module_fixture_stays_whole_at_its_total() -> None:
    items = [item("m.py::t1", "module"), item("m.py::t2", "module"), item("m.py::t3"),
             item("o.py::t4"), item("o.py::t5")]
    longest_first(items, {"m.py::t1": 2.0, "m.py::t3": 2.0, "o.py::t4": 3.0, "o.py::t5": 5.0})
    # m.py counts as 4 s for each of its tests: after o.py's 5 s test, before its 3 s one.
    assert [i.nodeid for i in items] == ["o.py::t5", "m.py::t1", "m.py::t2", "m.py::t3",
                                         "o.py::t4"]


def test_a_junit_report_gives_test_ids_of_a_second_or_more(tmp_path: Path) -> None:
    report = tmp_path / "run.xml"
    report.write_text(
        '<testsuites><testsuite>'
        '<testcase classname="tests.e2e.test_board" name="test_fits[chromium-30]" time="105.93"/>'
        '<testcase classname="tests.web.test_x.TestThing" name="test_y" time="2"/>'
        '<testcase classname="tests.web.test_x" name="test_quick" time="0.2"/>'
        '</testsuite></testsuites>')
    assert from_junit(report) == {"tests/e2e/test_board.py::test_fits[chromium-30]": 105.9,
                                  "tests/web/test_x.py::TestThing::test_y": 2.0}


def test_several_workers_each_start_on_their_share_of_the_longest() -> None:
    items = [item(f"a.py::t{n}") for n in range(7)]
    longest_first(items, {f"a.py::t{n}": float(n) for n in range(7)}, workers=3)
    # Sorted 6 5 4 3 2 1 0; worksteal sends 2, 2 and 3 tests (7 // 3, 5 // 2, 3), so
    # dealt round into shares of those counts: 6 3 | 5 2 | 4 1 0.
    assert [i.nodeid[-1] for i in items] == list("6352410")


def test_the_tests_that_wait_for_the_one_build_lead_one_workers_share() -> None:
    site = ("built_site",)
    items = [item(f"a.py::t{n}") for n in range(6)] + [
        item("pwa.py::s1", fixtures=site), item("pwa.py::s2", fixtures=site)]
    longest_first(items, {"a.py::t5": 9.0, "a.py::t4": 8.0, "pwa.py::s1": 7.0,
                          "pwa.py::s2": 6.0, "a.py::t3": 5.0}, workers=3)
    # Shares of 2, 3 and 3: the site's two tests are the first worker's whole share; the
    # others start on the longest of the rest.
    assert [i.nodeid for i in items] == [
        "pwa.py::s1", "pwa.py::s2",
        "a.py::t5", "a.py::t3", "a.py::t1",
        "a.py::t4", "a.py::t0", "a.py::t2"]
