"""What a phone keeps for itself in its browser (SharedPreferences, beside its device
token): its screen colours, the games it showed last and, while a Save is on its
way, the hand being saved.

Kept per phone rather than per session: a phone asleep longer than a session lasts
(`FLET_SESSION_TIMEOUT`) comes back to a new session, and should still find its
colours and its game."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import flet as ft

THEME_KEY: Final = "tarabish.theme"
SHOWN_KEY: Final = "tarabish.shown"
UNSAVED_KEY: Final = "tarabish.unsaved"
"""A hand whose Save is on its way (`scorer.recording.kept_save`), until the store answers."""
KEPT_SHOWN: Final = 20
"""Games remembered: enough for an evening of games, small enough to read at once."""
_GAME_ID = re.compile(r"^[0-9a-f]{8}$")

THEMES: Final[dict[str, tuple[str, ft.ThemeMode]]] = {
    "light": ("Light", ft.ThemeMode.LIGHT),
    "dark": ("Dark", ft.ThemeMode.DARK),
    "system": ("Like this phone", ft.ThemeMode.SYSTEM),
}
"""Screen colours a player may pick: the choice kept, its words, the page's theme mode."""


@dataclass
class PhonePrefs:
    """This phone's choices as last read or made (the browser keeps them)."""

    theme: str = "system"
    shown: list[str] = field(default_factory=list)
    """Ids of the games this phone showed, the last one first."""

    @property
    def theme_mode(self) -> ft.ThemeMode:
        return THEMES[self.theme][1]

    def read(self, theme: object, shown: object) -> bool:
        """Take what the browser kept, leaving out anything this app did not write; the
        games this session showed meanwhile stay first. Whether the browser's list is
        now behind (and should be kept again)."""
        if isinstance(theme, str) and theme in THEMES:
            self.theme = theme
        kept = shown.split(",") if isinstance(shown, str) else []
        before = self.shown_text()
        for game_id in reversed(self.shown):  # a deep link shown before the browser answered
            kept = [game_id, *(g for g in kept if g != game_id)]
        self.shown = [g for g in kept if _GAME_ID.match(g)][:KEPT_SHOWN]
        return bool(before) and self.shown_text() != shown

    def showed(self, game_id: str) -> bool:
        """Note a game shown; whether that changed the list (and it should be kept)."""
        if self.shown[:1] == [game_id]:
            return False
        self.shown = [game_id, *(g for g in self.shown if g != game_id)][:KEPT_SHOWN]
        return True

    def shown_text(self) -> str:
        return ",".join(self.shown)


class KeptPrefs(Protocol):
    """What the app uses of `ft.SharedPreferences` (a fake one in tests)."""

    async def get(self, key: str) -> Any: ...

    async def set(self, key: str, value: str) -> bool: ...

    async def remove(self, key: str) -> bool: ...


async def read_prefs(prefs: KeptPrefs, into: PhonePrefs) -> None:
    """Read this phone's choices from the browser (and keep its games again if this
    session showed one before the browser answered)."""
    if into.read(await prefs.get(THEME_KEY), await prefs.get(SHOWN_KEY)):
        await prefs.set(SHOWN_KEY, into.shown_text())
