"""Alembic's entry point: runs the migrations on the connection `ensure_schema` gives."""

from __future__ import annotations

import sqlalchemy
from alembic import context

config = context.config
given = config.attributes.get("connection")

if given is not None:
    context.configure(connection=given, target_metadata=None, transaction_per_migration=True)
    with context.begin_transaction():
        context.run_migrations()
else:  # `alembic` run by hand with this folder's configuration
    engine = sqlalchemy.create_engine(config.get_main_option("sqlalchemy.url") or "",
                                      poolclass=sqlalchemy.pool.NullPool)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=None,
                          transaction_per_migration=True)
        with context.begin_transaction():
            context.run_migrations()
