"""indexes for a hosted ledger: a table's and a season's matches by date, matches by
creation date, a table's seasons, a season's payments

A ledger hosting thousands of tables reads each table's matches newest first, each
season's matches, the matches made in a span (the creation limit), a table's seasons
and a season's payments: each from an index, so that those reads cost the same however
many other tables the database holds. The single-column indexes of a match's table and
season give way to the ones that also order by date (their first column serves alike).

Revision ID: e5b7c2d9a3f1
Revises: e5b8c2d7f3a1
Create Date: 2026-12-05 22:30:00.000000

"""

from alembic import op


# revision identifiers, used by Alembic.
revision = "e5b7c2d9a3f1"
down_revision = "e5b8c2d7f3a1"
branch_labels = None
depends_on = None


def upgrade():
    op.drop_index("ix_matches_table_id", table_name="matches")
    op.drop_index("ix_matches_season_id", table_name="matches")
    op.create_index(
        "ix_matches_table_id_created_at", "matches", ["table_id", "created_at", "id"], unique=False
    )
    op.create_index(
        "ix_matches_season_id_created_at",
        "matches",
        ["season_id", "created_at", "id"],
        unique=False,
    )
    op.create_index("ix_matches_created_at", "matches", ["created_at"], unique=False)
    op.create_index("ix_seasons_table_id", "seasons", ["table_id"], unique=False)
    op.create_index(
        "ix_table_payments_season_id_at", "table_payments", ["season_id", "at", "id"], unique=False
    )


def downgrade():
    op.drop_index("ix_table_payments_season_id_at", table_name="table_payments")
    op.drop_index("ix_seasons_table_id", table_name="seasons")
    op.drop_index("ix_matches_created_at", table_name="matches")
    op.drop_index("ix_matches_season_id_created_at", table_name="matches")
    op.drop_index("ix_matches_table_id_created_at", table_name="matches")
    op.create_index("ix_matches_season_id", "matches", ["season_id"], unique=False)
    op.create_index("ix_matches_table_id", "matches", ["table_id"], unique=False)
