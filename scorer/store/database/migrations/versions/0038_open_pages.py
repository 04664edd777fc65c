"""Pages open per address, per process, so a community's processes share one cap.

Revision: 0038_open_pages, after 0002_rights.

Each process keeps one row per address it has pages open for: how many, and when
it last said so (`seen`, seconds since the epoch on the database's clock). A
process refreshes its rows every few seconds; rows not refreshed for a while
(a process killed) are no longer counted, and are deleted by the next refresh of
any process (`scorer.web.open_pages`).
"""

from alembic import op

revision = "0038_open_pages"
down_revision = "0002_rights"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE open_pages (
            address  text NOT NULL CHECK (char_length(address) <= 300),
            process  text NOT NULL CHECK (char_length(process) <= 64),
            pages    integer NOT NULL CHECK (pages > 0),
            seen     double precision NOT NULL,
            PRIMARY KEY (address, process)
        )
    """)
    op.execute("CREATE INDEX open_pages_process ON open_pages (process)")
    op.execute("CREATE INDEX open_pages_seen ON open_pages (seen)")


def downgrade() -> None:
    op.execute("DROP TABLE open_pages")
