"""The edges of the app when it runs inside a phone's browser (Pyodide), with no server.

The screens, rules and store are the ones the table server runs; only these
edges differ: the store's folder lives in IndexedDB (`storage`), nothing the
screen shows about a change leaves Python before that change is committed
there (`durable`), and the phone owns every game (no table codes, nothing to
share). `start` is the entry point the page runs.
"""
