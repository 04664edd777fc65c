"""`tarabish build-web OUT`: the whole app as a static site for phones alone."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_FAILED = 1
MB = 1024 * 1024

def hosting(precompressed: bool) -> str:
    """Which files a host must serve how: the lines build-web ends with."""
    compression = (
        "  - NAME.br in place of NAME, with Content-Encoding: br, to browsers that accept br,\n"
        "    and NAME.gz with Content-Encoding: gzip to those that accept only gzip (with\n"
        "    NAME's Content-Type and Vary: Accept-Encoding), or else its own compression;"
        if precompressed else
        "  - every file compressed by the host itself (gzip or br, zip files too: this\n"
        "    build has no .br/.gz copies);")
    return "\n".join((
        "A host must serve the site:",
        "  - over HTTPS (phones install the app and keep it offline only from https://\n"
        "    addresses; http://localhost is fine for trying it);",
        compression,
        "  - .wasm as application/wasm, .js and .mjs as text/javascript, .json as\n"
        "    application/json;",
        "  - index.html and sw.js revalidated, not kept for long (Cache-Control: no-cache,\n"
        "    or a max-age of minutes), so phones find a new version.",
        "  No other headers: the service worker adds cross-origin isolation itself."))


def register(sub: Any) -> None:
    p = sub.add_parser(
        "build-web",
        help="write the app as a static site that runs on one phone, offline",
        description="Write a complete static site to OUT: the screens, rules and store "
        "running inside the phone's browser, with no server and no internet after the "
        "first visit. Downloads the pinned wheels once (from the package index); what "
        "each step makes is kept in the user cache folder (~/.cache/tarabish/build, or "
        "$TARABISH_CACHE/build), so a rebuild redoes only what changed.",
    )
    p.add_argument("out", metavar="OUT", help="folder to write (emptied if it holds an "
                   "earlier build)")
    p.add_argument("--base", default="/", metavar="PATH",
                   help="the path the site is served under, e.g. /tarabish/ for a GitHub "
                   "Pages project site (default: %(default)s)")
    p.add_argument("--no-precompress", dest="precompress", action="store_false",
                   help="do not write .gz and .br copies of the files (nor the memory "
                   "snapshot of Python: 27 MB as it is)")
    p.add_argument("--clean", action="store_true",
                   help="make every step again, taking nothing from the build cache")
    p.add_argument("--wheel-cache", metavar="DIR", default=None,
                   help="where downloaded wheels are kept (default: ~/.cache/tarabish/wheels)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scorer.webbuild.build_cache import BuildCache
    from scorer.webbuild.site import REPO_ROOT, BuildError, build_site
    from scorer.webbuild.tools import Tools
    from scorer.webbuild.wheels import WheelError, default_cache_dir, download, read_pins

    started = time.monotonic()
    out = Path(args.out).expanduser().resolve()
    cache = Path(args.wheel_cache) if args.wheel_cache else default_cache_dir()
    tools = Tools(cache=BuildCache(clean=args.clean))
    try:
        with tools.progress.step("resolve wheels", unit="wheels", done="pinned") as step:
            pins = read_pins(REPO_ROOT / "uv.lock")
            step.grow(len(pins))
            step.make(len(pins))
        with tools.progress.step("download", unit="wheels", done="downloaded") as step:
            wheels = download(pins, cache, step)
        report = build_site(out, wheels, base=args.base, precompress=args.precompress,
                            tools=tools)
    except (BuildError, WheelError, OSError) as e:
        print(f"tarabish build-web: {e}", file=sys.stderr)
        return EXIT_FAILED
    print(f"Wrote the Tarabish site to {report.out} in {time.monotonic() - started:.0f} s: "
          f"{report.files} files, {report.size / MB:.1f} MB "
          f"({report.on_disk / MB:.0f} MB on disk with the compressed copies).")
    print(f"A phone's first visit downloads {report.first_visit / MB:.1f} MB before its "
          f"first screen, then {report.rest / MB:.1f} MB in the background (the rest of "
          "the site, kept for offline use)" + (", compressed." if args.precompress else
                                               ", as the host compresses them."))
    print(hosting(args.precompress))
    print(f"Put the folder's contents on the host, at {args.base} of the address "
          "(GitHub Pages: see .github/workflows/pages.yml). Open it once on the phone, "
          "then Add to Home Screen: from then on it works with no internet.")
    print(f"To try it on this machine: python -m http.server -d {report.out} 8000, "
          "then open http://localhost:8000/ (offline storage needs HTTPS or localhost).")
    return EXIT_OK
