"""The store's tables (SQLAlchemy Core). Migrations in ``migrations/`` create exactly these."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("options", sa.Text, nullable=False),  # JSON
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("match", sa.Integer, nullable=False),
    sa.Column("host_id", sa.String(8)),
    sa.Column("created_at", sa.Float, nullable=False),
    # No update of the room went out with a number above this, but a logged action's (whose
    # row holds its number): a restored room goes on above both (docs/protocol.md).
    sa.Column("seq_reserved", sa.Integer, nullable=False, server_default="0"),
    sa.Index("ix_rooms_status", "status"),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(8), primary_key=True),
    sa.Column("nickname", sa.String(64), nullable=False),
    sa.Column("token_key", sa.String(64)),
    sa.Column("bot_policy", sa.String(32)),
)

spectators = sa.Table(
    "spectators",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("token_key", sa.String(64), primary_key=True),
    sa.Column("nickname", sa.String(64), nullable=False),
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("match", sa.Integer, primary_key=True),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("players", sa.Text, nullable=False),  # JSON
    sa.Column("options", sa.Text, nullable=False),  # JSON
)

# Append-only: one row per accepted action, never updated or deleted.
actions = sa.Table(
    "actions",
    metadata,
    sa.Column("room_id", sa.String(32), nullable=False),
    sa.Column("match", sa.Integer, nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("actor", sa.String(8), nullable=False),
    sa.Column("action", sa.Text, nullable=False),  # JSON
    sa.Column("auto", sa.Boolean, nullable=False),
    sa.Column("client_seq", sa.Integer),
    sa.Column("at", sa.Float),  # when it was applied: a takeover resumes the clocks from it
    sa.PrimaryKeyConstraint("room_id", "match", "step", name="pk_actions"),
)

snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("match", sa.Integer, primary_key=True),
    sa.Column("step", sa.Integer, primary_key=True),
    sa.Column("state", sa.Text, nullable=False),  # JSON, the spec's State shape
)

results = sa.Table(
    "results",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("match", sa.Integer, primary_key=True),
    sa.Column("result", sa.Text, nullable=False),  # JSON
)

# A seat's absence counters in a match (both specs' 8.5), so a restart does not reset them.
absences = sa.Table(
    "absences",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("match", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.String(8), primary_key=True),
    sa.Column("timeouts_in_row", sa.Integer, nullable=False),
    sa.Column("absent_rounds", sa.Integer, nullable=False),
    sa.Column("last_absent_round", sa.Integer),
    sa.Column("offer", sa.Integer),
)

# Which node owns a live room, and since which epoch (cluster mode). Every write of an owning
# node is fenced by it: it commits only while ``epoch`` is still the one the node claimed.
room_owners = sa.Table(
    "room_owners",
    metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("epoch", sa.BigInteger, nullable=False),
    sa.Column("node", sa.String(64), nullable=False),
)
