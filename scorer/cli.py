"""The `tarabish` command line."""

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point (placeholder until the commands land)."""
    print("tarabish: not ready yet", file=sys.stderr)
    return 1
