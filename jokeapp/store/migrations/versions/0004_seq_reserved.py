"""The update numbers a room may have sent without logging them (its room changes: someone
joining, a connection coming or going), reserved ahead, so a restored room never reuses one.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "rooms", sa.Column("seq_reserved", sa.Integer, nullable=False, server_default="0")
    )


def downgrade() -> None:
    op.drop_column("rooms", "seq_reserved")
