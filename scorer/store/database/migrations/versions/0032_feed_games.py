"""The live feed of games: a notice at every change of a game's revision.

Revision: 0032_feed_games, after 0001_games.

`pg_notify` in a trigger runs in the saving transaction, so the notice is sent
at commit (never for a save rolled back) whoever saved: a server process,
`tarabish import`. The list row's cache (`summary`) changes no revision and
tells no one; a game made by Play again tells the finished game's phones too
(their sheet offers it). The payload names the game, its revision (-1: deleted;
0: its next game was made) and the writer's application_name, so a process
skips its own (`scorer.store.database.feed`).
"""

from alembic import op

revision = "0032_feed_games"
down_revision = "0001_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE FUNCTION tarabish_feed_game() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                PERFORM pg_notify('tarabish_feed', json_build_object(
                    'g', OLD.id, 'r', -1,
                    'a', current_setting('application_name', true))::text);
                RETURN OLD;
            END IF;
            PERFORM pg_notify('tarabish_feed', json_build_object(
                'g', NEW.id, 'r', NEW.revision,
                'a', current_setting('application_name', true))::text);
            IF TG_OP = 'INSERT' AND NEW.follows IS NOT NULL THEN
                -- Play again: the finished game's sheets offer its next game now.
                PERFORM pg_notify('tarabish_feed', json_build_object(
                    'g', NEW.follows, 'r', 0,
                    'a', current_setting('application_name', true))::text);
            END IF;
            RETURN NEW;
        END $$
    """)
    op.execute("""
        CREATE TRIGGER games_feed_insert_delete AFTER INSERT OR DELETE ON games
        FOR EACH ROW EXECUTE FUNCTION tarabish_feed_game()
    """)
    op.execute("""
        CREATE TRIGGER games_feed_update AFTER UPDATE ON games
        FOR EACH ROW WHEN (OLD.revision IS DISTINCT FROM NEW.revision)
        EXECUTE FUNCTION tarabish_feed_game()
    """)


def downgrade() -> None:
    op.execute("DROP TRIGGER games_feed_update ON games")
    op.execute("DROP TRIGGER games_feed_insert_delete ON games")
    op.execute("DROP FUNCTION tarabish_feed_game()")
