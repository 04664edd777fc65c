"""The store tests: their small games are in store_docs, their faults in faults.

`store` (tests/conftest.py) is each store the app can have, a folder's and a
community's PostgreSQL: the tests that use it hold for both. Tests of what only a
folder has (files, fsync, its lock, the game list file) use `folder_store` or open a
`GameStore` themselves.
"""
