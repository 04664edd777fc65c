"""Club night: many tables, one standings board.

The pure part (no files, no clock, no Flet): `model` (formats, entrants, draws),
`pairing` (Swiss, round robin, progressive, byes), `standings`, `clock` (how a
table's game ends when time is called) and `night` (the event as saved, and what
changes it). On top of it: `store` (one crash-safe file per event),
`organisers` (organiser codes) and `service` (what the app, the server and the
command line do to an event: create it, start rounds, take results).
"""
