"""`python -m scorer.webbuild.for_server FOLDER`: the app for phones a table server
offers, built in the background (scorer.web.phone_app starts it).

At the lowest CPU priority (and its Node.js and pip with it), with each step a line
in the server's terminal, into FOLDER (named by the digest of what the site is made
from) by way of a folder of its own renamed at the end, so a server never sees half a
site. Every step's output is kept in the build cache as `tarabish build-web` keeps it.
Exit 0 when the site is there; otherwise one line says why (no internet for the
wheels, a failed step) and the exit code is 3.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path

from scorer.web.phone_app import BUILDING, REPO_ROOT, trim_sites
from scorer.webbuild.progress import Progress
from scorer.webbuild.site import BuildError, build_site
from scorer.webbuild.tools import Tools
from scorer.webbuild.wheels import WheelError, default_cache_dir, download, read_pins

PREFIX = "App for phones"
NOT_BUILT = 3
NO_WHEELS = ("App for phones: not offered: the packages it runs on could not be downloaded "
             "(no internet?); the next start with a connection builds it.")


def lowest_priority() -> None:
    """This process and what it starts: CPU only when nothing else wants it."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(19)


def build(folder: Path) -> int:
    try:  # quietly: offline, the one line below is all the terminal gets
        wheels = download(read_pins(REPO_ROOT / "uv.lock"), default_cache_dir())
    except (WheelError, OSError):
        print(NO_WHEELS, flush=True)
        return NOT_BUILT
    print(BUILDING, flush=True)
    progress = Progress(stream=sys.stdout, bars=False, prefix=PREFIX)
    tools = Tools(progress=progress)
    making = folder.with_name(f"{folder.name}.building-{os.getpid()}")
    try:
        build_site(making, wheels, tools=tools)
    except (BuildError, OSError) as exc:
        shutil.rmtree(making, ignore_errors=True)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"{PREFIX}: not offered: its build failed ({first}).", flush=True)
        return NOT_BUILT
    try:
        making.rename(folder)
    except OSError:  # another server built it meanwhile: theirs is the same
        shutil.rmtree(making, ignore_errors=True)
    if not folder.is_dir():
        return NOT_BUILT
    os.utime(folder)
    trim_sites(folder)
    return 0


def end_with_parent(check_s: float = 2.0) -> None:
    """Stop when the server that started this build is gone (killed, not stopped): no
    build goes on for a server that will never serve it."""
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(check_s)
        os._exit(NOT_BUILT)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m scorer.webbuild.for_server FOLDER", file=sys.stderr)
        return 2
    lowest_priority()
    end_with_parent()
    folder = Path(args[0])
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        return build(folder)
    except KeyboardInterrupt:  # the server stopped: what was made stays in the build cache
        return NOT_BUILT


if __name__ == "__main__":
    sys.exit(main())
