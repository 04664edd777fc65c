"""`tarabish` (no command): start the table server."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the table server (the command line with no subcommand)."""
    parser.add_argument(
        "--host",
        default="0.0.0.0",
        help="address to listen on (default: %(default)s, every network interface, "
        "so phones on the local network can connect; use 127.0.0.1 for this "
        "machine only)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=8550,
        help="TCP port of the web page (default: %(default)s)",
    )
    parser.add_argument(
        "--data-dir",
        default=None,
        metavar="DIR",
        help="folder where games are stored (default: $TARABISH_DATA, "
        "else this user's application-data folder)",
    )
    parser.add_argument(
        "--phone-site",
        default=None,
        metavar="DIR",
        help="also serve the phone-alone site built with 'tarabish build-web DIR', at "
        "/alone/ of the same address (phones keep games there with no network, and "
        "send them here once back)",
    )
    parser.add_argument(
        "--no-open",
        dest="open_browser",
        action="store_false",
        help="do not open the page in this machine's browser",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C; returns the exit code."""
    from scorer.server import serve

    return serve(
        host=args.host,
        port=args.port,
        data_dir=args.data_dir,
        open_browser=args.open_browser,
        phone_site=args.phone_site,
    )
