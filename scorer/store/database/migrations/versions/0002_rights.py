"""Rights: table codes, the phones holding each game, hosts, phone names, brakes and
the admin code.

Revision: 0002_rights (a branch beside the others, after 0001_games).

Phones are known by the SHA-256 of their device token (`device` columns), never
by the token, as the laptop's files keep them. `table_codes.code` is kept in
clear, as on the laptop: the host must be able to show it, and it opens one
game, behind the brakes. No foreign key to `games`: a code may be given before
its game's first save reaches the database, and a deleted game's code is
dropped by the app (`forget`).

Brakes (`scorer.rights.pg_limiter`): `brakes` counts wrong codes per key
(failures, the time until which the key waits, the last failure, all in
seconds since the epoch; `busy_*`: which process is comparing a code for it now,
so guesses at one game are compared one after another across processes);
`rate_windows` keeps the last few times per key (games started per address).
Both are pruned as they are written.

`admin_code` has one row: the operator's code hashed with scrypt and a random
salt (`scorer.rights.pg_admin`), never the code.
"""

from alembic import op

revision = "0002_rights"
down_revision = "0001_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE table_codes (
            game_id  text PRIMARY KEY CHECK (game_id ~ '^[0-9a-f]{8}$'),
            code     text NOT NULL CHECK (code ~ '^[0-9]{6}$'),
            created  timestamptz NOT NULL DEFAULT now()
        )
    """)
    op.execute("""
        CREATE TABLE code_holders (
            game_id  text NOT NULL REFERENCES table_codes (game_id) ON DELETE CASCADE,
            device   text NOT NULL CHECK (device ~ '^[0-9a-f]{64}$'),
            seen     timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (game_id, device)
        )
    """)
    op.execute("CREATE INDEX code_holders_device ON code_holders (device)")
    op.execute("""
        CREATE TABLE hosts (
            device   text PRIMARY KEY CHECK (device ~ '^[0-9a-f]{64}$'),
            seen     timestamptz NOT NULL DEFAULT now()
        )
    """)
    op.execute("CREATE SEQUENCE phone_numbers START 1")
    op.execute("""
        CREATE TABLE phones (
            device   text PRIMARY KEY CHECK (device ~ '^[0-9a-f]{64}$'),
            number   integer NOT NULL UNIQUE,
            name     text CHECK (char_length(name) <= 40),
            seen     timestamptz NOT NULL DEFAULT now()
        )
    """)
    op.execute("CREATE INDEX phones_seen ON phones (seen)")
    op.execute("""
        CREATE TABLE brakes (
            kind         text NOT NULL,
            key          text NOT NULL CHECK (char_length(key) <= 300),
            failures     integer NOT NULL CHECK (failures >= 0),
            locked_until double precision NOT NULL,
            last         double precision NOT NULL,
            busy_by      text,
            busy_until   double precision NOT NULL DEFAULT 0,
            PRIMARY KEY (kind, key)
        )
    """)
    op.execute("CREATE INDEX brakes_last ON brakes (kind, last)")
    op.execute("""
        CREATE TABLE rate_windows (
            kind   text NOT NULL,
            key    text NOT NULL CHECK (char_length(key) <= 300),
            times  double precision[] NOT NULL,
            last   double precision NOT NULL,
            PRIMARY KEY (kind, key)
        )
    """)
    op.execute("CREATE INDEX rate_windows_last ON rate_windows (kind, last)")
    op.execute("""
        CREATE TABLE admin_code (
            id      integer PRIMARY KEY CHECK (id = 1),
            hash    text NOT NULL,
            set_at  timestamptz NOT NULL DEFAULT now()
        )
    """)


def downgrade() -> None:
    op.execute("DROP TABLE admin_code, rate_windows, brakes, phones, hosts, code_holders, "
               "table_codes")
    op.execute("DROP SEQUENCE phone_numbers")
