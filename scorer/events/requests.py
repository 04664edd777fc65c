"""What the command line asks of a club night, done here or by the running server.

`tarabish event new`, `event round` and `import --event` change an event. With no
server on the data folder the command does it itself; while a server holds the
folder, the same request goes to that server (`scorer.handoff.local_import.post_to_server`),
which does it with `answer` and sends back the same JSON.
"""

from __future__ import annotations

from typing import Any

from scorer.events.errors import EventError
from scorer.events.model import parse_spec
from scorer.events.report import round_json
from scorer.events.service import EventService
from scorer.rights import get_rights

EVENT_PATH = "/_tarabish/event"
ACTIONS = ("new", "round", "import")


def answer(service: EventService, request: dict[str, Any]) -> dict[str, Any]:
    """Do `request` ({"action": ..., ...}); its answer. Raises EventError or StoreError
    (both ValueErrors in a player's words) for a request that cannot be done."""
    action = request.get("action")
    if action == "new":
        stored, code = service.create(parse_spec(request.get("spec")))
        return {"id": stored.id, "name": stored.night.name, "code": code}
    event_id = request.get("event")
    if not isinstance(event_id, str):
        raise EventError("say which club night (its id)")
    if action == "round":
        stored = service.start_round(event_id)
        record = stored.night.played[-1]
        rights = get_rights(service.games.data_dir)
        codes = {str(t.table): rights.code(t.game) for t in record.tables if t.game}
        return {"round": round_json(stored.night, record), "codes": codes}
    if action == "import":
        table, game = request.get("table"), request.get("game")
        if not isinstance(table, int) or isinstance(table, bool) or not isinstance(game, dict):
            raise EventError("say which table (a number) and give one game file")
        game_id = service.import_game(event_id, table, game)
        return {"id": game_id, "code": get_rights(service.games.data_dir).code(game_id)}
    raise EventError(f"this version of Tarabish does not know the request {str(action)[:20]!r}")
