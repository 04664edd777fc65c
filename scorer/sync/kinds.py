"""Each kind of change, written once: what the phone runs at once on its own copy and
the server runs again to judge it.

An edit (add, replace, undo, redo, details) is the store's own change function
(`scorer.store.changes`), applied by `records.changed_record`, the code both stores
run under their lock or transaction; a start (Create, NextGame) is the record a store
makes for a new game (`records.new_record`). So a phone's copy and the server's
record of the same changes are the same, trail included (but for the times and the
phone's name in the trail, which the server writes as it saves).
"""

from __future__ import annotations

import copy
import hashlib
from datetime import datetime
from functools import cache
from importlib.resources import files
from typing import Any

from scorer.store import changes
from scorer.store.changes import Change
from scorer.store.records import changed_record, new_record
from scorer.store.validation import check_doc, scoring_fingerprint
from scorer.sync.messages import (
    PROTOCOL,
    AddHand,
    Create,
    Details,
    NextGame,
    Redo,
    ReplaceHand,
    Undo,
)

Record = dict[str, Any]


def change_of(kind: AddHand | ReplaceHand | Undo | Redo | Details) -> Change:
    """The store's change function for an edit."""
    if isinstance(kind, AddHand):
        return changes.add_hand(kind.hand)
    if isinstance(kind, ReplaceHand):
        return changes.replace_hand(kind.index, kind.hand)
    if isinstance(kind, Undo):
        return changes.undo_last_hand()
    if isinstance(kind, Redo):
        return changes.redo_hand()
    return changes.update_game(kind.doc)


def apply_edit(record: Record, kind: AddHand | ReplaceHand | Undo | Redo | Details,
               now: datetime, by: str | None = None) -> Record | None:
    """`record` after the edit, checked by the rules engine (raises InvalidGame or
    HandNotFound); None when it changes nothing."""
    changed = changed_record(record, change_of(kind), now, by)
    return None if changed is None else changed[0]


def start_record(kind: Create | NextGame, game_id: str, now: datetime,
                 by: str | None = None) -> Record:
    """The record of a game started on a phone, as a store makes it (raises
    InvalidGame): a document read with a trail goes on from it."""
    doc = copy.deepcopy(kind.doc)
    doc.setdefault("hands", [])
    check_doc(doc)
    history = doc.pop("history", None if not doc["hands"] else [])
    follows = kind.follows if isinstance(kind, NextGame) else None
    return new_record(game_id, doc, now, history=history, by=by, follows=follows,
                      origin=kind.origin)


@cache
def sync_fingerprint() -> str:
    """What a phone and the server must share to judge changes alike: the protocol's
    version, the rules engine (`scoring_fingerprint`) and the change functions. A
    phone whose fingerprint differs is told to update (`messages.Update`)."""
    h = hashlib.sha256(f"{PROTOCOL}|{scoring_fingerprint()}".encode())
    # Through the packages' resources: on a phone the sources are inside the app's zip.
    for package, name in (("scorer.store", "changes.py"), ("scorer.sync", "kinds.py")):
        h.update(files(package).joinpath(name).read_bytes())
    return h.hexdigest()[:16]
