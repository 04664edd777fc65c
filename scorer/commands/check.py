"""`tarabish check FILE [--json]`: adjudicate a tarabish-game/1 file."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("check", help="check a game file and print its score sheet")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    raise NotImplementedError
