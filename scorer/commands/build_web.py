"""`tarabish build-web OUT`: the whole app as a static site for phones alone."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_FAILED = 1


def register(sub: Any) -> None:
    p = sub.add_parser(
        "build-web",
        help="write the app as a static site that runs on one phone, offline",
        description="Write a complete static site to OUT: the screens, rules and store "
        "running inside the phone's browser, with no server and no internet after the "
        "first visit. Downloads the pinned wheels once (from the package index).",
    )
    p.add_argument("out", metavar="OUT", help="folder to write (emptied if it holds an "
                   "earlier build)")
    p.add_argument("--base", default="/", metavar="PATH",
                   help="the path the site is served under, e.g. /tarabish/ for a GitHub "
                   "Pages project site (default: %(default)s)")
    p.add_argument("--no-precompress", dest="precompress", action="store_false",
                   help="do not write .gz and .br copies of the files (nor the memory "
                   "snapshot of Python: 27 MB as it is)")
    p.add_argument("--wheel-cache", metavar="DIR", default=None,
                   help="where downloaded wheels are kept (default: ~/.cache/tarabish/wheels)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scorer.webbuild.site import REPO_ROOT, BuildError, build_site
    from scorer.webbuild.wheels import WheelError, default_cache_dir, download, read_pins

    started = time.monotonic()
    out = Path(args.out).expanduser().resolve()
    cache = Path(args.wheel_cache) if args.wheel_cache else default_cache_dir()
    try:
        wheels = download(read_pins(REPO_ROOT / "uv.lock"), cache)
        report = build_site(out, wheels, base=args.base, precompress=args.precompress)
    except (BuildError, WheelError, OSError) as e:
        print(f"tarabish build-web: {e}", file=sys.stderr)
        return EXIT_FAILED
    mb = 1024 * 1024
    print(f"Wrote the Tarabish site to {report.out} in {time.monotonic() - started:.0f} s: "
          f"{report.files} files, {report.size / mb:.1f} MB "
          f"(a phone's first visit downloads about {report.first_visit / mb:.1f} MB, "
          f"compressed).")
    print(f"Put the folder's contents on any HTTPS web host, at {args.base} of the address "
          "(GitHub Pages: see .github/workflows/pages.yml). Open it once on the phone, "
          "then Add to Home Screen: from then on it works with no internet.")
    print(f"To try it on this machine: python -m http.server -d {report.out} 8000, "
          "then open http://localhost:8000/ (offline storage needs HTTPS or localhost).")
    return EXIT_OK
