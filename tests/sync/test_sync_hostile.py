"""A stranger's messages at the sync core (issue 40, section 3): each gets a clear answer,
nothing is stored, and the connection survives (or ends with its reason)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sync_setup import ANN, MADE, START, create, hello

from scorer.sync.messages import (
    MAX_MESSAGE_BYTES,
    Applied,
    Error,
    Ping,
    Pong,
    Problem,
    Push,
    encode,
)
from scorer.sync.service import MAX_ERRORS, Connection, SyncService


def _greeted(service: SyncService) -> tuple[Connection, str]:
    conn = service.connect("10.6.6.6")
    service.receive(conn, encode(hello()))
    answer = service.receive(conn, encode(Push(changes=(create(3),)))).replies[0]
    assert isinstance(answer, Applied)
    return conn, answer.game


def _change(game: str, **over: Any) -> dict[str, Any]:
    change = {"id": "ab" * 16, "game": game, "base": 1, "at": START.isoformat(),
              "kind": {"kind": "add_hand", "hand": MADE}}
    return {**change, **over}


def _push(*changes: dict[str, Any]) -> str:
    return json.dumps({"type": "push", "changes": list(changes)})


BAD = {
    "not json": lambda g: "{not json",
    "not an object": lambda g: "[1, 2, 3]",
    "no type": lambda g: json.dumps({"changes": []}),
    "unknown type": lambda g: json.dumps({"type": "delete_everything"}),
    "extra field": lambda g: json.dumps({"type": "ping", "n": 1, "admin": True}),
    "empty push": lambda g: _push(),
    "short id": lambda g: _push(_change(g, id="ab")),
    "id with capitals": lambda g: _push(_change(g, id="AB" * 16)),
    "game naming a path": lambda g: _push(_change("../../etc/passwd")),
    "negative base": lambda g: _push(_change(g, base=-1)),
    "time without zone": lambda g: _push(_change(g, at="2025-06-01T20:00:00")),
    "unknown kind": lambda g: _push(_change(g, kind={"kind": "set_score", "score": 500})),
    "hand index out of range": lambda g: _push(_change(
        g, kind={"kind": "replace_hand", "index": 10**9, "hand": MADE})),
    "start naming another game": lambda g: _push(_change(g, kind={
        "kind": "create", "doc": {}, "origin": "cd" * 16})),
    "deep nesting": lambda g: _push(_change(g)).replace(
        '"hand": {', '"hand": {"x": ' + "[" * 5000 + "]" * 5000 + ", "),
    "device token with spaces": lambda g: json.dumps({
        "type": "hello", "protocol": 1, "rules": "x", "device": "a b c d e f g h i j k l"}),
    "bytes that are not text": lambda g: b"\xff\xfe\x00garbage",
}


@pytest.mark.parametrize("what", list(BAD))
def test_a_malformed_message_is_refused_and_nothing_is_stored(
        service: SyncService, what: str) -> None:
    conn, game = _greeted(service)
    out = service.receive(conn, BAD[what](game))
    [error] = out.replies
    assert isinstance(error, Error) and error.problem is Problem.MALFORMED, error
    assert not error.fatal and not out.close and "could not be read" in error.words
    assert service.store.get_game(game).revision == 1
    assert service.receive(conn, encode(Ping(n=5))).replies == (Pong(n=5),)


def test_an_oversized_message_is_refused_before_it_is_read(service: SyncService) -> None:
    conn, game = _greeted(service)
    big = _push(_change(game, kind={"kind": "add_hand",
                                    "hand": {**MADE, "note": "x" * MAX_MESSAGE_BYTES}}))
    out = service.receive(conn, big)
    [error] = out.replies
    assert isinstance(error, Error) and error.problem is Problem.TOO_BIG and not error.fatal
    assert "512 KB" in error.words
    assert service.store.get_game(game).revision == 1


def test_a_stream_of_garbage_ends_the_connection(service: SyncService) -> None:
    conn, game = _greeted(service)
    answers = [service.receive(conn, "garbage") for _ in range(MAX_ERRORS + 1)]
    assert not any(a.close for a in answers[:-1])
    assert answers[-1].close and answers[-1].replies[0].fatal  # type: ignore[union-attr]
    service.disconnect(conn)
    assert service.watchers(game) == 0
    assert service.receive(conn, encode(Ping())).close


def test_a_device_token_is_never_kept_in_the_game(service: SyncService) -> None:
    conn, game = _greeted(service)
    service.receive(conn, _push(_change(game)))
    text = json.dumps(service.store.get_synced(game).model_dump(mode="json"))
    assert ANN not in text
