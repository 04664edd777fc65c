"""A stand-in for `scorer.cli` in the zygote's own tests (tests/test_server_zygote.py):
`main(argv)` does what argv says, so a test sees what a forked child was given.

    exit CODE        return CODE
    report FILE      write what the child sees (environment, folder, argv, stdin,
                     session, a random number, the next Flet control id, the
                     table cards' ticket secret) to FILE as JSON
    say WORDS        print WORDS on stdout and "err WORDS" on stderr, then wait for a
                     signal for ever
    atexit FILE CODE at exit (the interpreter's shutdown) write FILE; return CODE
"""

from __future__ import annotations

import atexit
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str]) -> int:
    what, *rest = argv
    if what == "exit":
        return int(rest[0])
    if what == "report":
        from flet.controls.id_counter import ControlId

        from scorer.events import tickets

        Path(rest[0]).write_text(json.dumps({
            "control_id": ControlId.next(), "ticket_secret": tickets._SECRET.hex(),
            "env": dict(os.environ), "cwd": os.getcwd(), "argv": sys.argv,
            "stdin": sys.stdin.read(), "pid": os.getpid(), "sid": os.getsid(0),
            "random": random.random(), "stdout_fd": sys.stdout.fileno(),
        }))
        return 0
    if what == "say":
        print(" ".join(rest))
        print("err", " ".join(rest), file=sys.stderr)
        # Until a signal ends the process. Not Event().wait(): a signal that lands after
        # Python's last check and before the lock's blocking call is never seen (the
        # call is not interrupted), and SIGINT went unanswered once under load.
        while True:
            time.sleep(0.1)
        return 0
    if what == "atexit":
        atexit.register(Path(rest[0]).write_text, "ran at exit")
        return int(rest[1])
    raise SystemExit(f"zygote_probe: unknown {what!r}")
