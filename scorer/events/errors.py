"""Errors of a club night: narrow `ValueError`s whose text a player can read."""

from __future__ import annotations


class EventError(ValueError):
    """Base of every error the event engine raises on bad input or a wrong move."""


class EntrantError(EventError):
    """The entrants cannot be used as typed (a duplicate name, a team of one...)."""


class SpecError(EventError):
    """The event's settings cannot be used (format, rounds, target, house rules)."""


class RoundError(EventError):
    """A round cannot start, end or be changed now (tables still open, event over...)."""


class TableError(EventError):
    """The table named does not exist in the round, or its result cannot be taken."""


class ResultError(EventError):
    """A result entered by hand cannot stand (a level score, a negative one...)."""
