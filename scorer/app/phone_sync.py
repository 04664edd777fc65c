"""The words the screens say about a phone that keeps a server's games itself
(`scorer.sync.phone.PhoneSync`, found in `CONFIG.phone_sync`): the mark on a hand not
sent yet, and the one calm line while the phone records alone."""

from __future__ import annotations

from scorer.sync.phone import SyncLine

RECORDING_ALONE = "This phone is recording alone"
"""The start of the calm line the sheet shows while the server cannot be reached."""
UPDATE_LINE = ("The table server has newer rules: this phone takes them by itself "
               "between hands, then sends what waits (nothing recorded here is lost).")
"""The page updates itself at a calm moment (boot.js), so the player is not asked to
reload."""
NOT_SENT = "not sent yet"
"""The small mark on a hand the server does not have yet."""


def alone_line(line: SyncLine) -> str | None:
    """The one line the sheet shows about sync, or None when all is well (connected:
    the hands' own marks say what is not sent yet)."""
    if line.update:
        return UPDATE_LINE
    if not line.alone:
        return None
    if line.waiting == 0:
        return f"{RECORDING_ALONE}: what it records goes to the table once it is back online."
    what = "hand" if line.hands_only else "change"
    if line.waiting == 1:
        return f"{RECORDING_ALONE}: 1 {what} waits to be sent."
    return f"{RECORDING_ALONE}: {line.waiting} {what}s wait to be sent."
