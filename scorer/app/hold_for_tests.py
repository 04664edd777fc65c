"""Tests only: stop a server at a chosen step of a Save, for a test to kill it there.

A process killed "at the moment a phone tapped Save" is a race a test cannot win by
timing. With `TARABISH_TEST_HOLD_SAVE=STEP:FILE` in its environment, the server
writes FILE when a save reaches STEP and then stops answering anyone (the event
loop waits for ever), until the test has seen FILE and killed it. Steps: `before`
(the phone keeps the hand, the store has not seen it) and `after` (the store has
it, the phone has not been told). Without the variable nothing happens.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Literal

HOLD_ENV = "TARABISH_TEST_HOLD_SAVE"

Step = Literal["before", "after"]


def hold(step: Step) -> None:
    """Stop here for good if the environment asks for this step (tests only)."""
    wanted = os.environ.get(HOLD_ENV)
    if not wanted:
        return
    at, _, marker = wanted.partition(":")
    if at != step or not marker:
        return
    Path(marker).write_text(step, encoding="utf-8")
    threading.Event().wait()  # until the test kills the process
