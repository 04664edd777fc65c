"""The edges of the app when it runs inside a phone's browser (Pyodide).

The screens, rules and store are the ones the table server runs; only these
edges differ: the store's folder lives in IndexedDB (`storage`), nothing the
screen shows about a change leaves Python before that change is committed
there (`durable`), and `start` is the entry point the page runs. On a static
host the phone owns every game (no table codes, nothing to share live). Served
by a table server, it also keeps that server's games and syncs them
(`phone_sync`: `synced_store`, `keeper`, `link`, `carrier`, `websocket`;
docs/SYNC.md, "The phone's side").
"""
