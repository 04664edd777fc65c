"""Groups (issue 33): name, members, games, the keeper code's hash, its keepers.

Revision: 0004_groups, after 0001_games.

Members and games are arrays on the group's row: a group is read whole and
changed whole under its row lock, and stays small (500 members, 20,000 games at
most). `name_key` (the name with capitals ignored) is unique. Keepers are
phones by the SHA-256 of their device token, never the token.
"""

from alembic import op

revision = "0004_groups"
down_revision = "0001_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE groups (
            id        text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{8}$'),
            name      text NOT NULL,
            name_key  text NOT NULL UNIQUE,
            created   timestamptz NOT NULL,
            members   text[] NOT NULL DEFAULT '{}',
            games     text[] NOT NULL DEFAULT '{}',
            code      text
        )
    """)
    op.execute("""
        CREATE TABLE group_keepers (
            group_id  text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
            device    text NOT NULL,
            seen      timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (group_id, device)
        )
    """)


def downgrade() -> None:
    op.execute("DROP TABLE group_keepers")
    op.execute("DROP TABLE groups")
