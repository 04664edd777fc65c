"""What the sheet calls a phone beside its changes: the name it chose, or "phone 2".

    DATA/phones.json
    {"format": "tarabish-phones/1", "next": 4,
     "phones": {"<sha256 of device token>": {"number": 2, "name": "Mary", "seen": "<ISO>"}}}

A phone gets the next number the first time it changes a game; numbers are
never given twice. The file keeps no token (only its hash, as the codes file
does) and at most MAX_PHONES phones, the ones seen last. A game's edit trail
keeps the label itself, so an exported game names no token and needs no file.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rules.game import MAX_NAME_LENGTH
from rules.plain_text import without_unsafe
from scorer.rights.codes import device_key
from scorer.store.atomic_storage import atomic_write_bytes, move_aside, read_json_file
from scorer.store.errors import DamagedFile, not_saved

logger = logging.getLogger(__name__)

PHONES_FILE = "phones.json"
FORMAT = "tarabish-phones/1"
MAX_PHONES = 500


class PhoneNames:
    """The phones file of one data folder (only its server writes it)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / PHONES_FILE
        self._lock = threading.Lock()
        self._next, self._phones = self._load()

    def label(self, token: str) -> str:
        """The phone's name, or "phone N" (numbered now if it is new)."""
        key = device_key(token)
        with self._lock:
            entry = self._phones.get(key)
            if entry is None:
                entry = self._phones[key] = {"number": self._next}
                self._next += 1
                self._touch(entry)
                self._save_quietly()
            return str(entry.get("name") or f"phone {entry['number']}")

    def name(self, token: str) -> str | None:
        with self._lock:
            entry = self._phones.get(device_key(token))
            return None if entry is None else entry.get("name")

    def set_name(self, token: str, name: str) -> str:
        """Keep the name the phone chose (blank: back to its number); its label now."""
        cleaned = " ".join(without_unsafe(name).split())[:MAX_NAME_LENGTH]
        self.label(token)
        with self._lock:
            entry = self._phones[device_key(token)]
            if cleaned:
                entry["name"] = cleaned
            else:
                entry.pop("name", None)
            self._touch(entry)
            self._save()
            return str(entry.get("name") or f"phone {entry['number']}")

    # -- inside ----------------------------------------------------------------------------

    def _touch(self, entry: dict[str, Any]) -> None:
        entry["seen"] = datetime.now(UTC).isoformat()
        while len(self._phones) > MAX_PHONES:
            del self._phones[min(self._phones, key=lambda k: self._phones[k].get("seen", ""))]

    def _save(self) -> None:
        doc = {"format": FORMAT, "next": self._next, "phones": self._phones}
        try:
            atomic_write_bytes(self.path, json.dumps(doc, indent=1, sort_keys=True).encode())
        except OSError as exc:
            raise not_saved(exc) from exc

    def _save_quietly(self) -> None:
        """A number given but not written (full disk) only means the phone may be
        numbered again after a restart: the change it makes matters more."""
        try:
            self._save()
        except Exception:
            logger.warning("could not save %s", self.path, exc_info=True)

    def _load(self) -> tuple[int, dict[str, dict[str, Any]]]:
        try:
            data = read_json_file(self.path)
            if not (isinstance(data, dict) and data.get("format") == FORMAT
                    and isinstance(data.get("next"), int)
                    and isinstance(data.get("phones"), dict)):
                raise DamagedFile(str(self.path), f"it is not a {FORMAT} file")
            phones = {str(k): dict(v) for k, v in data["phones"].items()
                      if isinstance(v, dict) and isinstance(v.get("number"), int)}
            return max([int(data["next"]), *(p["number"] + 1 for p in phones.values())]), phones
        except FileNotFoundError:
            return 1, {}
        except DamagedFile as exc:
            with contextlib.suppress(OSError):
                move_aside(self.path, self.path.parent / "damaged")
            logger.warning("%s; phones are numbered afresh", exc)
            return 1, {}
