"""The server's sync core, message by message and refusal by refusal, on both stores."""

from __future__ import annotations

from typing import Any

import pytest
from sync_setup import ANN, BAD_TRUMP, BOB, MADE, MADE_0, START, create, game_doc, hello

from scorer.store.errors import NotSaved
from scorer.sync.messages import (
    AddHand,
    Applied,
    Change,
    Claim,
    Error,
    GameState,
    Gone,
    Hello,
    Known,
    NextGame,
    Ping,
    Pong,
    Problem,
    Push,
    Reason,
    Refused,
    Undo,
    Unwatch,
    Update,
    Watch,
    Welcome,
    encode,
)
from scorer.sync.service import Brake, Connection, Outcome, SyncService

_n = iter(range(10_000, 99_999))


def cid() -> str:
    return f"{next(_n):032x}"


def send(service: SyncService, conn: Connection, message: Any) -> Outcome:
    return service.receive(conn, encode(message))


def greeted(service: SyncService, device: str = ANN, address: str = "10.0.0.1",
            **extra: Any) -> Connection:
    conn = service.connect(address)
    out = send(service, conn, hello(device, **extra))
    assert isinstance(out.replies[0], Welcome), out
    return conn


def started(service: SyncService, conn: Connection, doc: dict[str, Any] | None = None
            ) -> str:
    """A game started by the phone on `conn` (it holds it); its id."""
    out = send(service, conn, Push(changes=(create(next(_n), doc),)))
    answer = out.replies[0]
    assert isinstance(answer, Applied) and answer.made, answer
    return answer.game


def add(game: str, base: int, hand: dict[str, Any] = MADE, change: str | None = None
        ) -> Change:
    return Change(id=change or cid(), game=game, base=base, at=START,
                  kind=AddHand(hand=hand))


def only(out: Outcome) -> Any:
    assert len(out.replies) == 1, out.replies
    return out.replies[0]


# -- hello ------------------------------------------------------------------------------


def test_hello_is_welcomed_with_the_bounds(service: SyncService) -> None:
    conn = service.connect("10.0.0.1")
    welcome = only(send(service, conn, hello()))
    assert isinstance(welcome, Welcome)
    assert welcome.rules == service.rules and welcome.limits == service.limits
    assert only(send(service, conn, Ping(n=7))) == Pong(n=7)


@pytest.mark.parametrize("change", [{"protocol": 2}, {"rules": "0123456789abcdef"}])
def test_another_protocol_or_rules_engine_is_told_to_update(
        service: SyncService, change: dict[str, Any]) -> None:
    conn = service.connect("10.0.0.1")
    out = send(service, conn, hello().model_copy(update=change))
    assert isinstance(only(out), Update) and out.close
    assert only(send(service, conn, Ping())) == Pong(n=0)  # a ping needs no hello
    assert not conn.greeted


def test_nothing_but_a_ping_before_hello(service: SyncService) -> None:
    conn = service.connect("10.0.0.1")
    out = send(service, conn, Push(changes=(create(1),)))
    error = only(out)
    assert isinstance(error, Error) and error.problem is Problem.HELLO_FIRST and error.fatal
    assert out.close


def test_hello_watches_the_games_the_phone_keeps(service: SyncService) -> None:
    ann = greeted(service)
    game = started(service, ann)
    send(service, ann, Push(changes=(add(game, 1),)))
    bob = service.connect("10.0.0.2")
    out = send(service, bob, hello(BOB, games=(Known(game=game, revision=1),
                                               Known(game="0badbeef", revision=3))))
    welcome, state, gone = out.replies
    assert isinstance(welcome, Welcome)
    assert isinstance(state, GameState) and state.game.revision == 2 and not state.holds
    assert state.code is None and state.game.doc["hands"] == [MADE]
    assert isinstance(gone, Gone) and gone.game == "0badbeef"
    # At the revision the server has: nothing to send.
    cid_ = service.connect("10.0.0.3")
    out = send(service, cid_, hello("cid-device-token-0003",
                                    games=(Known(game=game, revision=2),)))
    assert len(out.replies) == 1 and service.watchers(game) == 3


# -- starting games ------------------------------------------------------------------------


def test_a_game_started_on_a_phone_is_stored_once_and_held_by_it(service: SyncService) -> None:
    ann = greeted(service)
    start = create(5)
    first = only(send(service, ann, Push(changes=(start,))))
    assert isinstance(first, Applied) and first.made and first.revision == 1
    again = only(send(service, ann, Push(changes=(start,))))
    assert isinstance(again, Applied) and again.game == first.game
    assert service.rights.may_edit(first.game, ANN)
    assert service.store.get_game(first.game).origin == start.game
    # The starting phone follows it: it is told the game as the server keeps it.
    [(conn, state)] = service.game_changed(first.game)
    assert conn is ann and isinstance(state, GameState) and state.holds
    assert state.code == service.rights.code(first.game)
    assert service.game_changed(first.game) == []  # told once a revision


def test_a_games_key_sent_by_another_phone_is_refused(service: SyncService) -> None:
    ann, bob = greeted(service), greeted(service, BOB, "10.0.0.2")
    start = create(6)
    send(service, ann, Push(changes=(start,)))
    copy = start.model_copy(update={"id": cid()})
    refused = only(send(service, bob, Push(changes=(copy,))))
    assert isinstance(refused, Refused)
    assert refused.reason is Reason.DUPLICATE_FROM_ANOTHER_PHONE


def test_an_invalid_game_is_refused_and_nothing_is_stored(service: SyncService) -> None:
    ann = greeted(service)
    doc = {**game_doc(), "players": ["Ann", "Bob"]}
    refused = only(send(service, ann, Push(changes=(create(7, doc),))))
    assert isinstance(refused, Refused) and refused.reason is Reason.INVALID
    assert service.store.list_games() == []  # type: ignore[attr-defined]


def test_the_new_game_brake_holds_per_address(service: SyncService) -> None:
    ann = greeted(service, address="10.9.9.9")
    for _ in range(20):
        service.rights.game_started("10.9.9.9")
    refused = only(send(service, ann, Push(changes=(create(8),))))
    assert isinstance(refused, Refused) and refused.reason is Reason.TOO_MANY
    assert refused.retry_after is not None and refused.retry_after >= 1
    assert "20 games" in refused.words
    assert service.store.list_games() == []  # type: ignore[attr-defined]


# -- changes -------------------------------------------------------------------------------


def test_a_change_is_applied_once_however_often_it_is_sent(service: SyncService) -> None:
    ann = greeted(service)
    game = started(service, ann)
    change = add(game, 1)
    first = only(send(service, ann, Push(changes=(change,))))
    assert first == Applied(change=change.id, game=game, revision=2)
    send(service, ann, Push(changes=(add(game, 2, MADE_0),)))
    # After a reconnect, the same change again: answered with its revision.
    again = greeted(service)
    out = send(service, again, Push(changes=(change,)))
    assert only(out) == first and out.changed == ()
    assert len(service.store.get_game(game).doc["hands"]) == 2


def test_a_change_id_sent_by_another_phone_is_refused(service: SyncService) -> None:
    ann, bob = greeted(service), greeted(service, BOB, "10.0.0.2")
    game = started(service, ann)
    service.rights.codes.grant(game, BOB)
    change = add(game, 1)
    send(service, ann, Push(changes=(change,)))
    refused = only(send(service, bob, Push(changes=(change.model_copy(
        update={"base": 2}),))))
    assert isinstance(refused, Refused)
    assert refused.reason is Reason.DUPLICATE_FROM_ANOTHER_PHONE
    assert service.store.get_game(game).revision == 2


def test_a_stale_change_is_refused_with_the_game_as_it_is(service: SyncService) -> None:
    ann = greeted(service)
    game = started(service, ann)
    mine = add(game, 1)
    send(service, ann, Push(changes=(mine,)))
    stale = add(game, 1, MADE_0)
    after = add(game, 2, MADE_0)
    out = send(service, ann, Push(changes=(stale, after)))
    refused, waits = out.replies
    assert isinstance(refused, Refused) and refused.reason is Reason.STALE
    assert refused.state is not None and refused.state.game.revision == 2
    assert [m.change for m in refused.state.applied] == [mine.id]
    # The next change of that game was made after the refused one: it waits.
    assert isinstance(waits, Refused) and waits.reason is Reason.STALE
    assert waits.state is None and waits.change == after.id
    assert service.store.get_game(game).doc["hands"] == [MADE] and out.changed == ()


def test_a_refusal_stops_only_its_own_games_changes(service: SyncService) -> None:
    ann = greeted(service)
    one, two = started(service, ann), started(service, ann)
    out = send(service, ann, Push(changes=(add(one, 9), add(two, 1), add(one, 1))))
    assert [type(r).__name__ for r in out.replies] == ["Refused", "Applied", "Refused"]
    assert out.changed == (two,)


def test_a_phone_that_does_not_hold_the_game_is_refused(service: SyncService) -> None:
    ann, bob = greeted(service), greeted(service, BOB, "10.0.0.2")
    game = started(service, ann)
    refused = only(send(service, bob, Push(changes=(add(game, 1),))))
    assert isinstance(refused, Refused) and refused.reason is Reason.NOT_ALLOWED
    assert "table code" in refused.words
    assert refused.state is not None and not refused.state.holds and refused.state.code is None
    assert service.store.get_game(game).revision == 1


def test_a_change_to_an_unknown_game_is_refused(service: SyncService) -> None:
    ann = greeted(service)
    for game in ("0badbeef", "f" * 32):
        refused = only(send(service, ann, Push(changes=(add(game, 1),))))
        assert isinstance(refused, Refused) and refused.reason is Reason.UNKNOWN_GAME


@pytest.mark.parametrize("kind", [AddHand(hand=BAD_TRUMP), Undo()])
def test_a_change_the_rules_refuse_is_refused(service: SyncService, kind: Any) -> None:
    ann = greeted(service)
    game = started(service, ann)
    change = Change(id=cid(), game=game, base=1, at=START, kind=kind)
    refused = only(send(service, ann, Push(changes=(change,))))
    assert isinstance(refused, Refused) and refused.reason is Reason.INVALID
    assert refused.words and refused.state is not None
    assert service.store.get_synced(game).marks == ()


def test_watchers_are_told_each_revision_once_with_what_was_applied(
        service: SyncService) -> None:
    ann, bob = greeted(service), greeted(service, BOB, "10.0.0.2")
    game = started(service, ann)
    service.game_changed(game)
    watch = only(send(service, bob, Watch(game=game)))
    assert isinstance(watch, GameState) and watch.game.revision == 1
    change = add(game, 1)
    out = send(service, ann, Push(changes=(change,)))
    told = dict((conn.number, state) for conn, state in service.game_changed(out.changed[0]))
    assert set(told) == {ann.number, bob.number}
    for state in told.values():
        assert isinstance(state, GameState) and state.game.revision == 2
        assert [(m.change, m.revision) for m in state.applied] == [(change.id, 2)]
    assert not told[bob.number].holds and told[ann.number].holds
    assert service.game_changed(game) == []
    send(service, bob, Unwatch(game=game))
    send(service, ann, Push(changes=(add(game, 2),)))
    assert [c for c, _ in service.game_changed(game)] == [ann]


def test_a_deleted_game_is_gone_for_its_watchers(service: SyncService) -> None:
    ann = greeted(service)
    game = started(service, ann)
    service.store.delete_game(game)
    [(conn, gone)] = service.game_changed(game)
    assert conn is ann and isinstance(gone, Gone)
    assert service.watchers(game) == 0


def test_watching_is_bounded(service: SyncService) -> None:
    ann = greeted(service)
    game = started(service, ann)
    service.limits = service.limits.model_copy(update={"max_watched": 1})
    other = started(service, ann)  # not followed: no room
    error = only(send(service, ann, Watch(game=other)))
    assert isinstance(error, Error) and error.problem is Problem.TOO_MANY and not error.fatal
    assert service.watchers(game) == 1 and service.watchers(other) == 0


# -- claims --------------------------------------------------------------------------------


def test_the_table_code_makes_a_phone_hold_the_game(service: SyncService) -> None:
    ann, bob = greeted(service), greeted(service, BOB, "10.0.0.2")
    game = started(service, ann)
    code = service.rights.code(game)
    assert code is not None
    wrong = only(send(service, bob, Claim(game=game, code="000000" if code != "000000"
                                          else "111111")))
    assert isinstance(wrong, Refused) and wrong.reason is Reason.NOT_ALLOWED
    assert wrong.change is None and "table code" in wrong.words
    state = only(send(service, bob, Claim(game=game, code=code)))
    assert isinstance(state, GameState) and state.holds and state.code == code
    assert isinstance(only(send(service, bob, Push(changes=(add(game, 1),)))), Applied)


def test_the_trail_names_the_phone_that_made_each_change(service: SyncService) -> None:
    """Each synced change goes into the game's trail under the phone that sent it (its
    label, as a drawn page's change is), with the phone's own time beside the server's."""
    ann, bob = greeted(service), greeted(service, BOB, "10.0.0.2")
    game = started(service, ann)
    code = service.rights.code(game)
    assert isinstance(only(send(service, bob, Claim(game=game, code=code or ""))), GameState)
    assert isinstance(only(send(service, bob, Push(changes=(add(game, 1),)))), Applied)
    assert isinstance(only(send(service, ann, Push(changes=(add(game, 2, MADE_0),)))), Applied)
    started_by, bobs, anns = service.store.get_game(game).history
    ann_label, bob_label = service.rights.phone_label(ANN), service.rights.phone_label(BOB)
    assert ann_label != bob_label
    assert (started_by["by"], bobs["by"], anns["by"]) == (ann_label, bob_label, ann_label)
    assert all(entry["phone_at"] and entry["at"] for entry in (started_by, bobs, anns))


def test_wrong_codes_are_braked(service: SyncService) -> None:
    ann, bob = greeted(service), greeted(service, BOB, "10.0.0.2")
    game = started(service, ann)
    wrong = "000000" if service.rights.code(game) != "000000" else "111111"
    answers = [only(send(service, bob, Claim(game=game, code=wrong))) for _ in range(5)]
    assert answers[-1].reason is Reason.TOO_MANY and answers[-1].retry_after >= 1
    assert isinstance(only(send(service, bob, Claim(game="0badbeef", code="1"))), Gone)


# -- play again ----------------------------------------------------------------------------


def _finished(service: SyncService, conn: Connection) -> str:
    game = started(service, conn, game_doc(target=1))
    assert isinstance(only(send(service, conn, Push(changes=(add(game, 1),)))), Applied)
    return game


def _again(follows: str, base: int, key: int) -> Change:
    origin = f"{key:032x}"
    return Change(id=cid(), game=origin, base=base, at=START,
                  kind=NextGame(follows=follows, doc=game_doc(), origin=origin))


def test_play_again_makes_the_tables_one_next_game(service: SyncService) -> None:
    ann, bob = greeted(service), greeted(service, BOB, "10.0.0.2")
    done = _finished(service, ann)
    service.rights.codes.grant(done, BOB)
    assert send(service, bob, Watch(game=done, revision=2)).replies == ()
    out = send(service, ann, Push(changes=(_again(done, 2, 71),)))
    made = only(out)
    assert isinstance(made, Applied) and made.made and done in out.changed
    stored = service.store.get_game(made.game)
    assert stored.follows == done and service.rights.may_edit(made.game, BOB)
    # The phones on the finished sheet hear of the next game.
    [told] = [s for c, s in service.game_changed(done) if c is bob]
    assert isinstance(told, GameState) and told.next == made.game
    other = only(send(service, bob, Push(changes=(_again(done, 2, 72),))))
    assert isinstance(other, Applied) and other.game == made.game and not other.made


def test_play_again_on_a_changed_game_is_stale(service: SyncService) -> None:
    ann = greeted(service)
    done = _finished(service, ann)
    refused = only(send(service, ann, Push(changes=(_again(done, 1, 73),))))
    assert isinstance(refused, Refused) and refused.reason is Reason.STALE
    assert refused.state is not None and refused.state.game.id == done


def test_a_watchers_play_again_is_a_game_of_its_own(service: SyncService) -> None:
    ann, bob = greeted(service), greeted(service, BOB, "10.0.0.2")
    done = _finished(service, ann)
    own = only(send(service, bob, Push(changes=(_again(done, 2, 74),))))
    assert isinstance(own, Applied) and own.made
    assert service.store.get_game(own.game).follows is None
    assert service.store.next_game(done) is None
    assert not service.rights.may_edit(own.game, ANN)


# -- brakes and failures -------------------------------------------------------------------


def test_a_flood_of_changes_is_braked_per_connection(service: SyncService) -> None:
    now = [0.0]
    service.clock = lambda: now[0]
    service.brake = Brake(burst=3, per_second=1)
    ann = greeted(service)
    game = started(service, ann)  # 1 of 3
    out = send(service, ann, Push(changes=tuple(add(game, 1 + i) for i in range(4))))
    kinds = [(type(r).__name__, getattr(r, "reason", None)) for r in out.replies]
    assert kinds == [("Applied", None), ("Applied", None), ("Refused", Reason.TOO_MANY),
                     ("Refused", Reason.STALE)]
    assert out.replies[2].retry_after == pytest.approx(1.0)  # type: ignore[union-attr]
    assert service.store.get_game(game).revision == 3
    now[0] = 1.0
    assert isinstance(only(send(service, ann, Push(changes=(add(game, 3),)))), Applied)


def test_a_store_that_cannot_save_says_busy(service: SyncService) -> None:
    ann = greeted(service)
    game = started(service, ann)

    def full(*_a: Any, **_k: Any) -> Any:
        raise NotSaved("The disk is full: nothing was saved.")

    service.store.apply_synced = full  # type: ignore[method-assign]
    refused = only(send(service, ann, Push(changes=(add(game, 1),))))
    assert isinstance(refused, Refused) and refused.reason is Reason.BUSY
    assert refused.retry_after and "disk is full" in refused.words


def test_a_push_over_the_bound_is_refused_whole(service: SyncService) -> None:
    ann = greeted(service)
    game = started(service, ann)
    too_many = tuple(add(game, 1 + i) for i in range(service.limits.max_push + 1))
    error = only(send(service, ann, Push(changes=too_many)))
    assert isinstance(error, Error) and error.problem is Problem.TOO_MANY
    assert service.store.get_game(game).revision == 1


def test_a_hello_naming_too_many_games_ends_the_connection(service: SyncService) -> None:
    service.limits = service.limits.model_copy(update={"max_watched": 2})
    conn = service.connect("10.0.0.1")
    games = tuple(Known(game=f"{n:08x}", revision=1) for n in range(3))
    out = send(service, conn, Hello(protocol=1, rules=service.rules, device=ANN,
                                    games=games))
    assert isinstance(only(out), Error) and out.close and not conn.greeted
