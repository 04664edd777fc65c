"""Club nights: each event's record, and the organiser codes with the phones holding them.

Revision: 0003_events (a branch beside the others, after 0001_games).

`record` is the record an event file holds (`scorer.events.store`: schema,
revision, times, the night), so an event moves between a folder and a database
unchanged. `revision` repeats the record's: a change locks the row, checks it
and writes revision + 1, so two processes changing one event from the same
screen give one change and one StaleEvent. Tables link their games by id, as in
the files: no foreign key to `games`.

Organiser codes are kept in clear, as on a laptop (the organiser's phone shows
its code to helpers); the phones holding one only as the SHA-256 of their
device token. Their wrong-code brakes are rows of `brakes` (0002_rights).
"""

from alembic import op

revision = "0003_events"
down_revision = "0001_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE events (
            id        text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{8}$'),
            revision  integer NOT NULL CHECK (revision >= 1),
            record    jsonb NOT NULL,
            created   timestamptz NOT NULL,
            updated   timestamptz NOT NULL
        )
    """)
    op.execute("CREATE INDEX events_created ON events (created DESC, id)")
    op.execute("""
        CREATE TABLE event_codes (
            event_id  text PRIMARY KEY CHECK (event_id ~ '^[0-9a-f]{8}$'),
            code      text NOT NULL CHECK (code ~ '^[0-9]{8}$')
        )
    """)
    op.execute("""
        CREATE TABLE event_organisers (
            event_id  text NOT NULL REFERENCES event_codes (event_id) ON DELETE CASCADE,
            device    text NOT NULL CHECK (device ~ '^[0-9a-f]{64}$'),
            seen      timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (event_id, device)
        )
    """)
    op.execute("CREATE INDEX event_organisers_device ON event_organisers (device)")


def downgrade() -> None:
    op.execute("DROP TABLE event_organisers, event_codes, events")
