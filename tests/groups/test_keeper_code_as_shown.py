"""The keeper code typed as it is shown ("7301 4914"), or with a dash, is the code: the
phone keeps the group and no wrong try is counted (issue 41, point 2). Both stores."""

from __future__ import annotations

import pytest

from scorer.groups.service import Groups
from scorer.rights.limiter import WrongCode


@pytest.mark.parametrize("shown", ["{a} {b}", "{a}-{b}", " {a}\u00a0{b} ", "{a} – {b}"])
def test_the_code_as_shown_is_the_code_and_no_wrong_try(groups: Groups, shown: str) -> None:
    group, code = groups.create("Friday bish", keeper="maker")
    typed = shown.format(a=code[:4], b=code[4:])
    groups.enter_code(group.id, "second-phone", "10.0.0.9", typed)
    assert groups.holds(group.id, "second-phone")
    key = f"{group.id}|10.0.0.9"
    assert groups.backoff.tries_left(key) == 3
    assert groups.group_backoff.tries_left(group.id) == 10


def test_a_letter_in_the_code_is_still_a_wrong_code(groups: Groups) -> None:
    group, code = groups.create("Friday bish", keeper="maker")
    with pytest.raises(WrongCode, match="2 more tries"):
        groups.enter_code(group.id, "guest", "10.0.0.9", f"{code[:4]}x{code[4:]}")
    assert not groups.holds(group.id, "guest")
