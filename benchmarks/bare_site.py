"""A phone-alone site of a bare Flet page, built by `tarabish build-web`'s own machinery.

    uv run python benchmarks/bare_site.py OUT
    uv run python benchmarks/timeline_phone_alone.py --site OUT --reloads 6

The floor of a phone-alone start with Flet: the same runtime, service worker, memory
snapshot, precompiled modules and boot.js as the Tarabish site, but an app of one
screen (an app bar, a "New game" button and three more controls) and only Flet's
wheels (flet, msgpack, repath, six): no pydantic, no TinyDB, no rules, no screens.
timeline_phone_alone.py then starts it beside a reload of the table server's page.
`build_site`'s app (MAIN_PY, APP_SOURCES, snapshot_imports) is swapped for this run
only; nothing of it reaches the real site.
"""

from __future__ import annotations

import sys
from pathlib import Path

import scorer.webbuild.site as site
from scorer.webbuild.wheels import default_cache_dir, download, read_pins

REPO = Path(__file__).resolve().parents[1]
FLET_WHEELS = ("flet", "msgpack", "repath", "six")
BARE_MAIN = '''import flet as ft


def main(page: ft.Page) -> None:
    page.title = "Bare"
    page.views.clear()
    page.views.append(ft.View(route="/", appbar=ft.AppBar(title=ft.Text("Tarabish")), controls=[
        ft.SafeArea(ft.Column([
            ft.Text("No games yet", size=18),
            ft.FilledButton(content=ft.Text("New game", size=18), height=60),
            ft.OutlinedButton(content=ft.Text("Past games"), height=56),
            ft.OutlinedButton(content=ft.Text("Rules"), height=56),
        ], scroll=ft.ScrollMode.AUTO))]))
    page.update()


ft.run(main)
'''
NAMES = ("AppBar", "Column", "FilledButton", "OutlinedButton", "Page", "SafeArea",
         "ScrollMode", "Text", "View", "run")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    site.MAIN_PY = BARE_MAIN
    site.APP_SOURCES = ()  # type: ignore[assignment]  # no app sources: main.py alone
    site.snapshot_imports = lambda app: [("flet", None)] + [("flet", n) for n in NAMES]
    wheels = [w for w in download(read_pins(REPO / "uv.lock"), default_cache_dir())
              if w.name.split("-")[0] in FLET_WHEELS]
    report = site.build_site(Path(sys.argv[1]), wheels)
    print(f"bare site in {report.out}: {report.size / 1e6:.1f} MB, "
          f"first visit {report.first_visit / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
