"""Groups kept in the data folder, one atomic file (a community server uses `pg_groups`).

    DATA/groups.json
    {"format": "tarabish-groups/1",
     "groups": {"<id>": {"name": "Friday", "members": ["Ann", ...], "games": ["<game id>"],
                         "code": "<sha256 of id and keeper code>",
                         "keepers": {"<sha256 of device token>": "<when>"}}}}

The keeper code is shown once, when the group is made, and kept hashed; the brake
on guessing it is `scorer.rights.group_keepers`. An unreadable file is set aside in
DATA/damaged/ and the groups start afresh; no game is touched.
"""

from __future__ import annotations

import hmac
import json
import logging
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorer.store.atomic_storage import atomic_write_bytes, move_aside, read_json_file
from scorer.store.errors import DamagedFile
from scorer.store.group_models import (
    MAX_GAMES,
    MAX_GROUPS,
    MAX_KEEPERS,
    MAX_MEMBERS,
    Group,
    GroupNotFound,
    GroupRefused,
    check_game_id,
    clean_name,
    code_hash,
    device_key,
    key,
    new_code,
    new_group_id,
)

logger = logging.getLogger(__name__)

GROUPS_FILE = "groups.json"
FORMAT = "tarabish-groups/1"


class FolderGroups:
    """The groups of one data folder. Every method is the same on `PgGroups`."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / GROUPS_FILE
        self._lock = threading.Lock()
        self._groups = self._load()

    # reading
    def list_groups(self) -> list[Group]:
        """Every group, by name (capitals ignored)."""
        with self._lock:
            groups = [_group(gid, g) for gid, g in self._groups.items()]
        return sorted(groups, key=lambda g: (key(g.name), g.id))

    def get_group(self, wanted: str) -> Group:
        """The group with this id, else the one with this name (capitals ignored)."""
        with self._lock:
            return _group(*self._find(wanted))

    # changing
    def new_group(self, name: str, token: str | None = None) -> tuple[Group, str]:
        """Make a group; returns it and its keeper code (shown this once). `token`, if
        given, holds the code already (the phone that made the group)."""
        text = clean_name(name, "group")
        with self._lock:
            if len(self._groups) >= MAX_GROUPS:
                raise GroupRefused(f"There can be at most {MAX_GROUPS} groups.")
            if any(key(g["name"]) == key(text) for g in self._groups.values()):
                raise GroupRefused(f"There is already a group called {text!r}.")
            gid = new_group_id()
            while gid in self._groups:
                gid = new_group_id()
            code = new_code()
            entry: dict[str, Any] = {"name": text, "members": [], "games": [],
                                     "code": code_hash(gid, code), "keepers": {}}
            if token:
                _hold(entry, token)
            self._groups[gid] = entry
            self._save()
            return _group(gid, entry), code

    def add_member(self, wanted: str, name: str) -> Group:
        """Add a member (no change if the name is there already, capitals ignored)."""
        text = clean_name(name, "player")
        with self._lock:
            gid, entry = self._find(wanted)
            if all(key(m) != key(text) for m in entry["members"]):
                if len(entry["members"]) >= MAX_MEMBERS:
                    raise GroupRefused(f"A group can have at most {MAX_MEMBERS} members.")
                entry["members"].append(text)
                self._save()
            return _group(gid, entry)

    def remove_member(self, wanted: str, name: str) -> Group:
        with self._lock:
            gid, entry = self._find(wanted)
            entry["members"] = [m for m in entry["members"] if key(m) != key(name)]
            self._save()
            return _group(gid, entry)

    def add_game(self, wanted: str, game_id: str) -> Group:
        """Add a game by id (no change if it is there already)."""
        gid_game = check_game_id(game_id)
        with self._lock:
            gid, entry = self._find(wanted)
            if gid_game not in entry["games"]:
                if len(entry["games"]) >= MAX_GAMES:
                    raise GroupRefused(f"A group can have at most {MAX_GAMES} games.")
                entry["games"].append(gid_game)
                self._save()
            return _group(gid, entry)

    def remove_game(self, wanted: str, game_id: str) -> Group:
        with self._lock:
            gid, entry = self._find(wanted)
            entry["games"] = [g for g in entry["games"] if g != game_id]
            self._save()
            return _group(gid, entry)

    # the keeper code
    def code_matches(self, group_id: str, code: str) -> bool:
        """Whether `code` is the group's keeper code (unbraked: use the brake in rights)."""
        with self._lock:
            gid, entry = self._find(group_id)
            return hmac.compare_digest(code_hash(gid, code), str(entry["code"]))

    def grant(self, group_id: str, token: str) -> None:
        """Let the phone `token` keep the group from now on."""
        with self._lock:
            _gid, entry = self._find(group_id)
            _hold(entry, token)
            self._save()

    def holds(self, group_id: str, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            entry = self._groups.get(group_id)
            return entry is not None and device_key(token) in entry["keepers"]

    # inside
    def _find(self, wanted: str) -> tuple[str, dict[str, Any]]:
        if wanted in self._groups:
            return wanted, self._groups[wanted]
        for gid, entry in self._groups.items():
            if key(entry["name"]) == key(str(wanted)):
                return gid, entry
        raise GroupNotFound(str(wanted)[:40])

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            data = read_json_file(self.path)
            return _validated(data, str(self.path))
        except FileNotFoundError:
            return {}
        except DamagedFile as e:
            kept = move_aside(self.path, self.data_dir / "damaged")
            logger.warning("%s Kept as %s; the groups start afresh.", e, kept)
            return {}

    def _save(self) -> None:
        text = json.dumps({"format": FORMAT, "groups": self._groups}, ensure_ascii=False,
                          indent=1)
        atomic_write_bytes(self.path, text.encode("utf-8"))


def _group(gid: str, entry: dict[str, Any]) -> Group:
    return Group(id=gid, name=entry["name"], members=tuple(entry["members"]),
                 games=tuple(entry["games"]))


def _hold(entry: dict[str, Any], token: str) -> None:
    keepers: dict[str, str] = entry["keepers"]
    keepers[device_key(token)] = datetime.now(UTC).isoformat(timespec="seconds")
    while len(keepers) > MAX_KEEPERS:
        del keepers[min(keepers, key=lambda k: keepers[k])]


def _validated(data: Any, where: str) -> dict[str, dict[str, Any]]:
    """The groups of a parsed file, or DamagedFile if it is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DamagedFile(where, "it is not a groups file")
    groups = data.get("groups")
    if not isinstance(groups, dict):
        raise DamagedFile(where, "it has no groups")
    for gid, g in groups.items():
        ok = (isinstance(g, dict) and isinstance(g.get("name"), str)
              and isinstance(g.get("members"), list) and isinstance(g.get("games"), list)
              and isinstance(g.get("code"), str) and isinstance(g.get("keepers"), dict)
              and all(isinstance(m, str) for m in g["members"])
              and all(isinstance(x, str) for x in g["games"]))
        if not ok:
            raise DamagedFile(where, f"group {str(gid)[:12]!r} is not a group")
    return groups
