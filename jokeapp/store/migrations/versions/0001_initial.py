"""Rooms, seats, spectators, matches, the action log, snapshots and results.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match", sa.Integer, nullable=False),
        sa.Column("host_id", sa.String(8)),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "seats",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(8), primary_key=True),
        sa.Column("nickname", sa.String(64), nullable=False),
        sa.Column("token_key", sa.String(64)),
        sa.Column("bot_policy", sa.String(32)),
    )
    op.create_table(
        "spectators",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("token_key", sa.String(64), primary_key=True),
        sa.Column("nickname", sa.String(64), nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("match", sa.Integer, nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("actor", sa.String(8), nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("auto", sa.Boolean, nullable=False),
        sa.Column("client_seq", sa.Integer),
        sa.PrimaryKeyConstraint("room_id", "match", "step", name="pk_actions"),
    )
    op.create_table(
        "snapshots",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("step", sa.Integer, primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("result", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("results", "snapshots", "actions", "matches", "spectators", "seats", "rooms"):
        op.drop_table(table)
