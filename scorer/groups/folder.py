"""Groups kept in a data folder: DATA/groups.json, rewritten atomically.

    {"format": "tarabish-groups/1",
     "groups": {"<id>": {"name": "Friday bish", "created": "<ISO UTC>",
                         "members": ["Ann", ...], "games": ["3f9a0c12", ...],
                         "code": "scrypt$<salt>$<hash>",
                         "keepers": {"<sha256 of device token>": "<ISO UTC>"}}}}

One small file beside the games (a game's own file never names its groups, so
an exported game carries none). Every change rereads the file, changes it and
writes it whole (`atomic_write_bytes`) under one lock; the one process that
holds the data folder's lock writes it (the server, or a command while no
server runs). A file that cannot be read is set aside in DATA/damaged/ and the
groups start afresh: the games themselves are untouched.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from scorer.groups.model import MAX_GROUPS, MAX_KEEPERS, BadGroup, Group, GroupNotFound, member_key
from scorer.groups.service import Groups
from scorer.rights.limiter import Backoff
from scorer.store.atomic_storage import atomic_write_bytes, move_aside, read_json_file
from scorer.store.errors import DamagedFile, not_saved

logger = logging.getLogger(__name__)

GROUPS_FILE = "groups.json"
FORMAT = "tarabish-groups/1"


class FolderGroups(Groups):
    """The groups of one data folder."""

    def __init__(self, data_dir: Path, backoff: Backoff | None = None,
                 group_backoff: Backoff | None = None) -> None:
        super().__init__(backoff, group_backoff)
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / GROUPS_FILE
        self._lock = threading.RLock()
        self.problems: list[str] = []

    # -- primitives --------------------------------------------------------

    def _all(self) -> list[Group]:
        with self._lock:
            return [self._group(gid, entry) for gid, entry in self._load().items()]

    def _insert(self, group: Group, code_hash: str, keeper: str | None) -> None:
        with self._lock:
            data = self._load()
            if len(data) >= MAX_GROUPS:
                raise BadGroup(f"A data folder can hold at most {MAX_GROUPS} groups.")
            if any(member_key(e["name"]) == member_key(group.name) for e in data.values()):
                raise BadGroup(f"There is already a group named {group.name}.")
            entry = self._entry(group)
            entry["code"] = code_hash
            entry["keepers"] = {} if keeper is None else {keeper: _now()}
            data[group.id] = entry
            self._save(data)

    def _change(self, group_id: str, change: Callable[[Group], Group]) -> Group:
        with self._lock:
            data = self._load()
            if group_id not in data:
                raise GroupNotFound(group_id)
            new = change(self._group(group_id, data[group_id]))
            if any(member_key(e["name"]) == member_key(new.name) and gid != group_id
                   for gid, e in data.items()):
                raise BadGroup(f"There is already a group named {new.name}.")
            data[group_id] = {**data[group_id], **self._entry(new)}
            self._save(data)
            return new

    def _code_hash(self, group_id: str) -> str | None:
        with self._lock:
            entry = self._load().get(group_id)
            return None if entry is None else entry.get("code")

    def _set_code_hash(self, group_id: str, code_hash: str) -> None:
        with self._lock:
            data = self._load()
            if group_id not in data:
                raise GroupNotFound(group_id)
            data[group_id]["code"] = code_hash
            self._save(data)

    def _is_keeper(self, group_id: str, device: str) -> bool:
        with self._lock:
            entry = self._load().get(group_id)
            return entry is not None and device in entry.get("keepers", {})

    def _kept_ids(self, device: str) -> set[str]:
        with self._lock:
            return {gid for gid, entry in self._load().items()
                    if device in entry.get("keepers", {})}

    def _keepers(self, group_id: str) -> dict[str, datetime]:
        with self._lock:
            entry = self._load().get(group_id)
            kept = {} if entry is None else entry.get("keepers", {})
            return {key: datetime.fromisoformat(since) for key, since in kept.items()}

    def _drop_keepers(self, group_id: str, keep: set[str]) -> None:
        with self._lock:
            data = self._load()
            if group_id not in data:
                raise GroupNotFound(group_id)
            data[group_id]["keepers"] = {key: since for key, since in
                                         data[group_id].get("keepers", {}).items()
                                         if key in keep}
            self._save(data)

    def _add_keeper(self, group_id: str, device: str) -> None:
        with self._lock:
            data = self._load()
            if group_id not in data:
                raise GroupNotFound(group_id)
            keepers = dict(data[group_id].get("keepers", {}))
            keepers[device] = _now()
            while len(keepers) > MAX_KEEPERS:  # the one not seen longest goes first
                del keepers[min(keepers, key=lambda k: keepers[k])]
            data[group_id]["keepers"] = keepers
            self._save(data)

    # -- the file ------------------------------------------------------------

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            raw = read_json_file(self.path)
        except FileNotFoundError:
            return {}
        except DamagedFile as exc:
            self._set_aside(exc.reason)
            return {}
        if not (isinstance(raw, dict) and raw.get("format") == FORMAT
                and isinstance(raw.get("groups"), dict)):
            self._set_aside("it is not a groups file")
            return {}
        groups: dict[str, dict[str, Any]] = {}
        for gid, entry in raw["groups"].items():
            try:
                self._group(gid, entry)
            except (ValidationError, KeyError, TypeError, ValueError):
                logger.warning("a group in %s could not be read and was left out", self.path)
                continue
            groups[gid] = entry
        return groups

    def _save(self, data: dict[str, dict[str, Any]]) -> None:
        text = json.dumps({"format": FORMAT, "groups": data}, ensure_ascii=False, indent=1)
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self.path, text.encode("utf-8"))
        except OSError as exc:
            raise not_saved(exc) from exc

    def _set_aside(self, reason: str) -> None:
        try:
            moved = move_aside(self.path, self.data_dir / "damaged")
        except OSError:
            moved = None
        problem = (f"The groups file {self.path} could not be read ({reason}); "
                   + (f"it was kept as {moved}. " if moved else "") + "No game was touched.")
        self.problems.append(problem)
        logger.warning("%s", problem)

    @staticmethod
    def _group(gid: str, entry: dict[str, Any]) -> Group:
        return Group(id=gid, name=entry["name"], members=tuple(entry.get("members", [])),
                     games=tuple(entry.get("games", [])),
                     created=datetime.fromisoformat(entry["created"]))

    @staticmethod
    def _entry(group: Group) -> dict[str, Any]:
        return {"name": group.name, "created": group.created.isoformat(),
                "members": list(group.members), "games": list(group.games)}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
