"""The ownership epoch of each room (cluster mode): a stale owner's writes are fenced.

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


def downgrade() -> None:
    op.drop_table("room_owners")
