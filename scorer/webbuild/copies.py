"""The site's precompressed copies (`name.br`, `name.gz`) and what a phone downloads.

Brotli at quality 11 is 12-13 % smaller than 9 on the big wasm files and archives
(1.5 MB of a first visit) but takes about a minute for the largest: every copy is
kept in the build cache by the file's content and the quality, and the ones still
to make are shared among the CPUs.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from scorer.webbuild.progress import Step
from scorer.webbuild.tools import Tools

COMPRESSED_SUFFIXES = (".js", ".mjs", ".wasm", ".json", ".html", ".otf", ".ttf", ".zip",
                       ".txt", ".css", ".svg", ".bin")
MIN_COMPRESSED = 1024
HUGE_FILE = 16 * 1024 * 1024
"""The memory snapshot (27 MB) would take minutes at brotli 11; 9 is 6 % larger."""
WORTH_IT = 0.95
"""A copy is written only if it is at most this share of the file."""
COPY_SUFFIXES = (".br", ".gz")


@dataclass(frozen=True)
class Job:
    path: Path
    encoding: str
    """"br" or "gzip"."""
    quality: int
    digest: str
    """sha256 of the file's content."""

    @property
    def kind(self) -> str:
        return f"{self.encoding}{self.quality}"

    @property
    def copy(self) -> Path:
        return self.path.with_name(self.path.name + (".br" if self.encoding == "br" else ".gz"))


def precompress(paths: Iterable[Path], brotli_quality: int, tools: Tools,
                step: Step | None = None) -> None:
    """`.br` and `.gz` copies of every file among `paths` worth it (the bar of `step`
    counts the bytes of the files)."""
    jobs: list[Job] = []
    for path in paths:
        if path.suffix not in COMPRESSED_SUFFIXES or path.stat().st_size < MIN_COMPRESSED:
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        quality = brotli_quality if path.stat().st_size < HUGE_FILE else min(brotli_quality, 9)
        jobs += [Job(path, "br", quality, digest), Job(path, "gzip", 9, digest)]
    if step is not None:
        step.grow(sum(job.path.stat().st_size for job in jobs))
    missing: dict[tuple[str, str], list[Job]] = {}  # the files of one content and kind
    for job in jobs:
        kept = tools.cache.get(job.kind, job.digest)
        if kept is not None:
            _write_copy(job, kept)
            if step is not None:
                step.reuse(advance=job.path.stat().st_size)
        else:
            missing.setdefault((job.kind, job.digest), []).append(job)
    if not missing:
        return
    todo = sorted(missing.values(), key=lambda same: -same[0].path.stat().st_size)  # big first
    workers = max(1, min(len(todo), os.cpu_count() or 1))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        running = {pool.submit(compressed, same[0].path, same[0].encoding, same[0].quality):
                   same for same in todo}
        for done in as_completed(running):
            data = done.result()
            first, *others = running[done]
            tools.cache.put(data, first.kind, first.digest)
            for job in running[done]:
                _write_copy(job, data)
            if step is not None:
                step.make(advance=first.path.stat().st_size)
                for job in others:
                    step.reuse(advance=job.path.stat().st_size)


def _write_copy(job: Job, data: bytes) -> None:
    if len(data) <= job.path.stat().st_size * WORTH_IT:
        job.copy.write_bytes(data)


def compressed(path: Path, encoding: str, quality: int) -> bytes:
    """The file compressed (in a worker process): brotli with a 16 MB window, or gzip."""
    data = path.read_bytes()
    if encoding == "br":
        import brotli

        return bytes(brotli.compress(data, quality=quality, lgwin=24))
    return gzip.compress(data, compresslevel=quality, mtime=0)


def served(path: Path) -> Path | None:
    """What a browser taking brotli downloads for `path`: its .br copy, else the file."""
    for candidate in (path.with_name(path.name + ".br"), path):
        if candidate.is_file():
            return candidate
    return None


def downloaded(out: Path, rels: Iterable[str]) -> int:
    """Bytes a browser taking brotli downloads for these files of the site."""
    return sum(p.stat().st_size for rel in rels if (p := served(out / rel)) is not None)


def every_file(out: Path) -> Iterator[Path]:
    """Every file of the site, copies included."""
    return (p for p in sorted(out.rglob("*")) if p.is_file())
