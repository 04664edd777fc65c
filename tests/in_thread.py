"""Run a coroutine to the end on a thread of its own.

Once a browser test has started Playwright's sync API, the main thread of the
test session has an event loop running, and `asyncio.run` refuses to start
another there; a fresh thread has none.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = asyncio.run(coro)
        except BaseException as exc:  # handed to the test's thread
            result["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"the coroutine did not finish in {timeout} s")
    if "error" in result:
        raise result["error"]
    return result["value"]  # type: ignore[no-any-return]
