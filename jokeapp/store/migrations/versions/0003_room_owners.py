"""The ownership epoch of each room (cluster mode): a stale owner's writes are fenced; and
when each action was applied, so the node that takes a room over resumes its clocks.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_owners",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("node", sa.String(64), nullable=False),
    )
    op.add_column("actions", sa.Column("at", sa.Float))


def downgrade() -> None:
    op.drop_column("actions", "at")
    op.drop_table("room_owners")
