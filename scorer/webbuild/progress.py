"""What `tarabish build-web` shows while it works: each step, its progress and its time.

On a terminal each step gets a progress bar (tqdm) that stays on screen with its
time once the step is done; otherwise (CI logs, a pipe) one plain line when a step
starts and one when it ends. Each step also counts its units of work made now and
those taken from the build cache (tests and the final report read them).
`run_watched` runs a program (pip, Node.js) while a bar follows what it writes.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TextIO

from tqdm import tqdm

WATCH_S = 0.25
"""How often `run_watched` calls its watcher."""
BAR_FORMAT = ("{desc:<18} {percentage:3.0f}%|{bar:24}| {n_fmt}/{total_fmt} {unit} "
              "[{elapsed}]{postfix}")


@dataclass(frozen=True)
class StepResult:
    name: str
    seconds: float
    made: int
    """Units of work done by this build (files compiled, copies compressed...)."""
    reused: int
    """Units taken from the build cache."""
    unit: str


class Step:
    """One step as it runs: `made` / `reused` count its units, `advance` moves its bar
    (by units, or by bytes for a step whose bar counts bytes)."""

    def __init__(self, name: str, total: int, unit: str, bar: tqdm | None,
                 done: str = "made") -> None:
        self.name = name
        self.unit = unit
        self.done = done
        self.total = total
        self.made = 0
        self.reused = 0
        self._bar = bar

    def grow(self, more: int) -> None:
        """The step has `more` units to do than it said."""
        self.total += more
        if self._bar is not None:
            self._bar.total = self.total
            self._bar.refresh()

    def advance(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def make(self, n: int = 1, advance: int | None = None) -> None:
        """`n` units made now (the bar moves by `advance`, default `n`)."""
        self.made += n
        self.advance(n if advance is None else advance)

    def reuse(self, n: int = 1, advance: int | None = None) -> None:
        """`n` units taken from the build cache."""
        self.reused += n
        self.advance(n if advance is None else advance)

    def summary(self) -> str:
        if not self.made and not self.reused:
            return ""
        if not self.made:
            return f"all {self.reused:,} from the cache"
        if not self.reused:
            return f"{self.made:,} {self.done}"
        return f"{self.made:,} {self.done}, {self.reused:,} from the cache"


class Progress:
    """The steps of one build. `stream` (default stderr) gets bars when it is a terminal
    (or `bars=True`), plain lines otherwise."""

    def __init__(self, stream: TextIO | None = None, bars: bool | None = None,
                 prefix: str = "build-web") -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.bars = self._is_terminal() if bars is None else bars
        self.prefix = prefix
        self.results: list[StepResult] = []

    def _is_terminal(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def say(self, message: str) -> None:
        """A line of its own, above any bar on screen."""
        if self.bars:
            tqdm.write(message, file=self.stream)
        else:
            print(f"{self.prefix}: {message}", file=self.stream, flush=True)

    @contextmanager
    def step(self, name: str, total: int = 0, unit: str = "files", done: str = "made",
             unit_scale: bool = False) -> Iterator[Step]:
        """Run one step: `with progress.step("compile bytecode", 1650) as step: ...`.
        `done` says what happened to a unit made now ("compiled", "downloaded")."""
        started = time.monotonic()
        bar = None
        if self.bars:
            # A terminal that reports no size (0 x 0: a pseudo-terminal nobody sized,
            # as `script` or some CI runners make) gets 80 x 24 rather than no bar:
            # tqdm hides every bar at or below the terminal's last row (-1 there).
            size = shutil.get_terminal_size()
            bar = tqdm(total=total, desc=name, unit=unit, unit_scale=unit_scale,
                       file=self.stream, leave=True, bar_format=BAR_FORMAT,
                       ncols=size.columns, nrows=size.lines)
        else:
            print(f"{self.prefix}: {name}...", file=self.stream, flush=True)
        step = Step(name, total, unit, bar, done)
        finished = False
        try:
            yield step
            finished = True
        finally:
            seconds = time.monotonic() - started
            summary = step.summary()
            if bar is not None:
                if finished and bar.total:
                    bar.n = bar.total  # a step that skipped some of its units is done
                bar.set_postfix_str(summary, refresh=False)
                bar.close()
            else:
                detail = f" ({summary})" if summary else ""
                print(f"{self.prefix}: {name}: done in {seconds:.1f} s{detail}",
                      file=self.stream, flush=True)
            self.results.append(StepResult(name, seconds, step.made, step.reused, unit))

    def result(self, name: str) -> StepResult:
        """The last run of the step called `name` (KeyError if it did not run)."""
        for found in reversed(self.results):
            if found.name == name:
                return found
        raise KeyError(name)


def run_watched(command: list[str], timeout_s: float,
                watch: Callable[[], None] | None = None) -> tuple[int, str, str]:
    """Run `command` to its end (killed after `timeout_s`), calling `watch` a few times a
    second meanwhile; its exit code, output and errors."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                out, errors = proc.communicate(timeout=WATCH_S)
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() > deadline:
                    proc.kill()
                    out, errors = proc.communicate()
                    break
                if watch is not None:
                    watch()
    return proc.returncode, out or "", errors or ""
