"""The phones that opened a game's own address (issue 38: a table's games are the
table's).

Revision: 0038_game_viewers, after 0001_games.

On a community a phone sees the games it holds, its groups' and club nights'
games, and those whose address (`/game/<id>`) it opened: this table keeps the
last. Phones are known by the SHA-256 of their device token, never the token.
A deleted game takes its rows with it. Bounded by the app: at most 200 phones a
game and 2,000 games a phone, those not seen longest let go
(`scorer.rights.pg_codes`).
"""

from alembic import op

revision = "0038_game_viewers"
down_revision = "0001_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE game_viewers (
            game_id  text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            device   text NOT NULL CHECK (device ~ '^[0-9a-f]{64}$'),
            seen     timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (game_id, device)
        )
    """)
    op.execute("CREATE INDEX game_viewers_device ON game_viewers (device, seen)")


def downgrade() -> None:
    op.execute("DROP TABLE game_viewers")
