"""A community's PostgreSQL database: connections, the schema and its migrations.

The table server keeps its games in a folder (`scorer.store`); a community
server (`tarabish --database postgresql://...`) keeps everything its processes
share here instead. This package knows the connection and the schema only;
each store (games, rights, club nights) holds its own queries.
"""

from scorer.store.database.connect import Database, DatabaseUnavailable
from scorer.store.database.schema import SchemaTooNew, ensure_schema, schema_state

__all__ = ["Database", "DatabaseUnavailable", "SchemaTooNew", "ensure_schema", "schema_state"]
