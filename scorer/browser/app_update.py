"""Ask the page to compare this app with the host's version now.

The page (boot.js) checks the host's `version.json` once the app has started, when
the phone comes back online and when it comes back to the page; an app that differs
takes the host's version at a calm moment, through its service worker. Python asks
for a check when it learns the server moved on (the sync's `Update`, a reconnect).
"""

from __future__ import annotations


def check_for_update() -> None:
    """Tell the page to check the host's version now (a no-op off the phone)."""
    try:
        import js
        from pyodide.ffi import to_js
    except ImportError:  # not in a browser (tests of the app's Python)
        return
    js.postMessage(to_js({"tarabish": "check-update"}, dict_converter=js.Object.fromEntries))
