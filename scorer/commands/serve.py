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
        help="serve this app for phones (the site built with 'tarabish build-web DIR') at "
        "/alone/ of the same address, instead of the one built for this version (a "
        "laptop builds it once, in the background; a community at install: "
        "docs/HOSTING.md); 'off': no app for phones",
    )
    parser.add_argument(
        "--open-games-in",
        choices=("app", "page"),
        default=None,
        help="what a game's address (Share, its QR code, a table card) opens on a phone "
        "that can run the app: the app (keeps the game on the phone) or the server's page "
        "(default: app on a community, page on a laptop: docs/PHONE_ALONE.md)",
    )
    parser.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="serve a community from its PostgreSQL database (default: "
        "$TARABISH_DATABASE; none: the data folder). Any number of servers may "
        "share one database",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help="the address (or CIDR network, e.g. 172.30.0.0/24) of a reverse proxy in "
        "front of this server, whose X-Forwarded-For header names the phone; repeat "
        "or separate with commas. From anyone else that header is ignored",
    )
    parser.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address phones open, e.g. https://bish.example.org (default: "
        "$TARABISH_PUBLIC_URL): every address the server shows, prints or sends is "
        "on it. Without it, behind a --trusted-proxy each page gets the address the "
        "proxy forwards (X-Forwarded-Host and -Proto)",
    )
    parser.add_argument(
        "--no-open",
        dest="open_browser",
        action="store_false",
        help="do not open the page in this machine's browser",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C; returns the exit code."""
    import os
    import sys

    from scorer.server import serve
    from scorer.sharing import public_url_of
    from scorer.web.connections import parse_networks

    try:
        parse_networks(args.trusted_proxy)
        public_url = public_url_of(args.public_url)
    except ValueError as exc:
        print(f"tarabish: {exc}", file=sys.stderr)
        return 2
    # psycopg is loaded only for a database: a laptop's start does without it.
    if args.database is not None or os.environ.get("TARABISH_DATABASE"):
        from scorer.server import serve_community
        from scorer.store.database.connect import database_url

        try:
            url = database_url(args.database)
        except ValueError as exc:
            print(f"tarabish: {exc}", file=sys.stderr)
            return 2
        if url is not None:
            return serve_community(url, host=args.host, port=args.port,
                                   open_browser=args.open_browser,
                                   phone_site=args.phone_site,
                                   trusted=tuple(args.trusted_proxy),
                                   data_dir=args.data_dir, public_url=public_url,
                                   games_in_app=_games_in_app(args))
    return serve(
        host=args.host,
        port=args.port,
        data_dir=args.data_dir,
        open_browser=args.open_browser,
        phone_site=args.phone_site,
        trusted=tuple(args.trusted_proxy),
        games_in_app=_games_in_app(args),
        public_url=public_url,
    )


def _games_in_app(args: argparse.Namespace) -> bool | None:
    choice: str | None = args.open_games_in
    return None if choice is None else choice == "app"
