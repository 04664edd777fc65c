"""The rules engine's errors: narrow `ValueError`s whose text a player can read."""

from __future__ import annotations


class TarabishError(ValueError):
    """Base of every error the rules engine raises on bad input."""


class CardError(TarabishError):
    """A card written in a way the engine does not understand."""


class RunError(TarabishError):
    """A run claim that cannot be true (not a sequence, a card used twice...)."""


class RunsNeedCards(RunError):
    """Runs entered by their worth only cannot be compared: their cards are needed.
    `seats` are the players whose cards are missing."""

    def __init__(self, message: str, seats: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.seats = seats


class BellaError(TarabishError):
    """A bella claim that cannot be true."""


class HandError(TarabishError):
    """A hand that cannot have happened as entered."""


class ForcedCallError(HandError):
    """A call the forced-at variation forbids."""


class GameOverError(HandError):
    """A hand recorded after the game was already won."""


class GameFileError(TarabishError):
    """A game document that cannot be read; `hand` is the 0-based bad hand, if any."""

    def __init__(self, message: str, hand: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand
