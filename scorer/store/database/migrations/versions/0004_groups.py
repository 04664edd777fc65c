"""Groups: a name, members, games (ids) and the keeper code, for a community server.

Revision: 0004_groups, after 0001_games.

`name_key` is the name with capitals and outer spaces ignored: one group per
name, one member per name in a group. `code` is the keeper code hashed with the
group id (`scorer.store.group_models.code_hash`), never the code itself;
`group_keepers` holds the sha256 of each keeper phone's token. A group's games
are ids only, not foreign keys: a deleted game drops out of the ratings when
they are recomputed, and its id stays harmless. `added` keeps the order added.
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
            name      text NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
            name_key  text NOT NULL UNIQUE,
            code      text NOT NULL,
            created   timestamptz NOT NULL DEFAULT now()
        )
    """)
    op.execute("""
        CREATE TABLE group_members (
            group_id  text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
            name      text NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
            name_key  text NOT NULL,
            added     bigint GENERATED ALWAYS AS IDENTITY,
            PRIMARY KEY (group_id, name_key)
        )
    """)
    op.execute("""
        CREATE TABLE group_games (
            group_id  text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
            game_id   text NOT NULL CHECK (game_id ~ '^[0-9a-f]{8}$'),
            added     bigint GENERATED ALWAYS AS IDENTITY,
            PRIMARY KEY (group_id, game_id)
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
    op.execute("DROP TABLE group_keepers, group_games, group_members, groups")
