"""`tarabish admin-code --database URL`: a new admin code for a community.

The admin code is what a laptop's host code is (a phone that enters it, under
Past games > Host, holds every game), for the operator of a community server:
printed here once, kept only as a slow salted hash, shared by every process and
never printed when one starts. Running the command again replaces the code; phones
that entered the old one stay hosts.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from scorer.commands.common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from scorer.text.terminal import one_line


def register(sub: Any) -> None:
    """Add the `admin-code` subcommand."""
    p = sub.add_parser(
        "admin-code", help="print a new admin code for a community's database",
        description="Make a new admin code for the community whose PostgreSQL database "
        "is given, print it once and keep only its hash; the old code stops working. "
        "A phone that enters it under Past games > Host holds every game. Exits 2 "
        "without a database address, 1 if the database cannot be used.")
    p.add_argument("--database", metavar="URL", default=None,
                   help="the community's database, e.g. postgresql://tarabish@localhost/"
                   "tarabish (default: $TARABISH_DATABASE)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scorer.store.database.connect import database_url, operator_detail, shown_url

    try:
        url = database_url(args.database)
    except ValueError as exc:
        return _say(str(exc), EXIT_BAD_INPUT)
    if url is None:
        return _say("admin-code needs a community's database: --database postgresql://... "
                    "(or TARABISH_DATABASE)", EXIT_BAD_INPUT)
    from scorer.rights.pg_admin import AdminCode
    from scorer.store.database import Database, ensure_schema
    from scorer.store.errors import StoreError

    db = Database(url, min_size=0, max_size=1)
    try:
        ensure_schema(url)
        code = AdminCode(db).replace()
    except StoreError as exc:  # unreachable, refused, or a newer schema: nothing changed
        return _say(str(exc) + operator_detail(exc), EXIT_FAILED)
    except Exception as exc:  # a URL psycopg cannot parse, a server that is no PostgreSQL
        return _say(f"{shown_url(url)} cannot be used: {exc}", EXIT_BAD_INPUT)
    finally:
        db.close()
    half = len(code) // 2
    print(f"Admin code: {code[:half]} {code[half:]}")
    print("Enter it on your own phone, under Past games > Host: it opens every game. "
          "It is shown only now (the database keeps only a hash of it) and the old "
          "code no longer works. Keep it to yourself.")
    return EXIT_OK


def _say(message: str, code: int) -> int:
    print(f"tarabish: {one_line(message)}", file=sys.stderr)
    return code
