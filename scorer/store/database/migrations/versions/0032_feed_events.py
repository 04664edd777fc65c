"""The live feed of club nights: a notice at every change of an event.

Revision: 0032_feed_events, after 0003_events.

As `0032_feed_games`: sent at commit by the database, whoever changed the
event (a server process, `tarabish event`); the payload names the event and
the writer's application_name.
"""

from alembic import op

revision = "0032_feed_events"
down_revision = "0003_events"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE FUNCTION tarabish_feed_event() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            changed text := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
        BEGIN
            PERFORM pg_notify('tarabish_feed', json_build_object(
                'e', changed, 'a', current_setting('application_name', true))::text);
            RETURN NULL;
        END $$
    """)
    op.execute("""
        CREATE TRIGGER events_feed AFTER INSERT OR UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION tarabish_feed_event()
    """)


def downgrade() -> None:
    op.execute("DROP TRIGGER events_feed ON events")
    op.execute("DROP FUNCTION tarabish_feed_event()")
