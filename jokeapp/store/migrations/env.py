"""Alembic environment: runs on the connection the server hands over, or on ``-x url=...``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from jokeapp.store.tables import metadata

config = context.config
connection = config.attributes.get("connection")

if connection is not None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    url = context.get_x_argument(as_dictionary=True)["url"]
    with create_engine(url).connect() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
