"""Games: each game's record (document, edit trail, revision) and its list row.

Revision: 0001_games, the first.

`record` is the record a game file holds (`scorer.store.records`), so a game
moves between a folder and a database unchanged. `revision` repeats the
record's, so a save can check it in the database (UPDATE ... WHERE revision =
the one the phone saw). `summary` is the game list's row, a cache keyed by
`summary_rules` (the scoring fingerprint): rows made by other rules are scored
again when read. `follows` is unique: one finished game has one next game.
`origin` names a game sent from a phone alone, so sending it twice makes one
game. Times are UTC.
"""

from alembic import op

revision = "0001_games"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE games (
            id           text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{8}$'),
            revision     integer NOT NULL CHECK (revision >= 0),
            record       jsonb NOT NULL,
            summary      jsonb,
            summary_rules text,
            follows      text UNIQUE,
            origin       text UNIQUE,
            created      timestamptz NOT NULL,
            updated      timestamptz NOT NULL
        )
    """)
    op.execute("CREATE INDEX games_updated ON games (updated DESC, id DESC)")


def downgrade() -> None:
    op.execute("DROP TABLE games")
