"""Sync: every phone keeps the game, the server is where a table's phones meet.

- `messages`: the protocol (pydantic models, JSON, one version a connection).
- `kinds`: each kind of change written once, run by the phone and by the server.
- `service`: the server's core (`SyncService`): judges changes, answers, tells
  watchers; no I/O but the store and the rights it is given.
- `client`: the phone's core (`SyncClient`): its copy of each game and its outbox;
  pure, kept through a `Keeper`.
- `loopback`: both joined by an in-memory network, for tests and benchmarks.

docs/SYNC.md is the reference.
"""
