"""Absence counters per seat and match (dalmuti's timeouts in a row, marble's absent rounds).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "absences",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(8), primary_key=True),
        sa.Column("timeouts_in_row", sa.Integer, nullable=False),
        sa.Column("absent_rounds", sa.Integer, nullable=False),
        sa.Column("last_absent_round", sa.Integer),
        sa.Column("offer", sa.Integer),
    )


def downgrade() -> None:
    op.drop_table("absences")
