"""Phones and a server core joined by an in-memory network, for tests and benchmarks.

Every message goes through its JSON form (`messages.encode`, `decode_client`,
`decode_server`), as on a wire. The network delivers only when asked, so a test
decides the order: it can hold messages back (delay), cut a connection (its
answers are lost; what it had sent may still reach the server later, as over a
half-dead connection: reordering between sessions), and copy a message onto an
old connection (a duplicate).

    net = Network(service)
    net.add("ann", SyncClient(token))
    net.connect("ann")
    ann.record(...); net.settle()
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from scorer.sync.client import SyncClient
from scorer.sync.messages import decode_server, encode
from scorer.sync.service import Connection, SyncService


@dataclass(eq=False)
class Link:
    """One connection: the server's side of it and the messages on their way."""

    conn: Connection
    up: deque[str] = field(default_factory=deque)
    """Sent by the phone, not yet read by the server."""
    down: deque[str] = field(default_factory=deque)
    """Sent by the server, not yet read by the phone."""
    phone: str = ""
    alive: bool = True


class Network:
    """A server core and named phones; nothing moves until a method moves it."""

    def __init__(self, service: SyncService) -> None:
        self.service = service
        self.phones: dict[str, SyncClient] = {}
        self.links: dict[str, Link] = {}
        """Each phone's open connection."""
        self.zombies: list[Link] = []
        """Cut connections whose messages may still reach the server (it has not
        noticed the cut yet); their answers are lost."""
        self.sent = 0
        """Messages read by either side (a bound for `settle`)."""

    def add(self, name: str, client: SyncClient) -> SyncClient:
        self.phones[name] = client
        return client

    def replace(self, name: str, client: SyncClient) -> SyncClient:
        """The phone restarted (a closed tab): a new client from what it kept."""
        self.disconnect(name)
        self.phones[name] = client
        return client

    def connect(self, name: str, address: str | None = None) -> None:
        if name in self.links:
            return
        conn = self.service.connect(address or f"10.0.0.{len(self.phones)}")
        self.links[name] = Link(conn=conn, phone=name)
        self.phones[name].connected()
        self.pump(name)

    def disconnect(self, name: str, *, half_open: bool = False) -> None:
        """Cut the phone's connection: what the server was sending it is lost. With
        `half_open`, what the phone had sent may still reach the server
        (`deliver_zombie`), which has not noticed the cut; else the server notices now."""
        link = self.links.pop(name, None)
        if link is None:
            return
        link.alive = False
        link.down.clear()
        self.phones[name].disconnected()
        if half_open and link.up:
            self.zombies.append(link)
        else:
            self.service.disconnect(link.conn)

    def pump(self, name: str) -> None:
        """The phone sends what it has to send now."""
        link = self.links.get(name)
        if link is None:
            return
        for message in self.phones[name].outgoing():
            link.up.append(encode(message))

    def deliver_up(self, name: str) -> bool:
        """The server reads the phone's oldest message; False if there is none."""
        link = self.links.get(name)
        if link is None or not link.up:
            return False
        self._to_server(link, link.up.popleft())
        return True

    def deliver_down(self, name: str) -> bool:
        """The phone reads the server's oldest message to it; False if there is none."""
        link = self.links.get(name)
        if link is None or not link.down:
            return False
        self.sent += 1
        self.phones[name].receive(decode_server(link.down.popleft()))
        self.pump(name)
        return True

    def deliver_zombie(self, index: int = 0) -> bool:
        """An old connection's oldest message reaches the server at last."""
        if not self.zombies:
            return False
        link = self.zombies[index % len(self.zombies)]
        self._to_server(link, link.up.popleft())
        if not link.up:
            self.zombies.remove(link)
            self.service.disconnect(link.conn)
        return True

    def duplicate_up(self, name: str) -> bool:
        """The phone's oldest Push reaches the server a second time, after what the phone
        sends next (a frame replayed by a layer below); False if none waits."""
        link = self.links.get(name)
        push = next((m for m in (link.up if link else ()) if m.startswith('{"type":"push"')),
                    None)
        if link is None or push is None:
            return False
        link.up.append(push)
        return True

    def settle(self, max_messages: int = 100_000) -> None:
        """Deliver everything, both ways, until nothing moves (the zombies first, as a
        server reads a dead connection's last frames before it notices the cut)."""
        start = self.sent
        while self.sent - start < max_messages:
            for name in list(self.links):
                self.pump(name)
            moved = self.deliver_zombie() if self.zombies else False
            for name in list(self.links):
                moved = self.deliver_up(name) or moved
                moved = self.deliver_down(name) or moved
            if not moved:
                return
        raise AssertionError(f"the network did not settle in {max_messages} messages")

    def _to_server(self, link: Link, raw: str) -> None:
        self.sent += 1
        outcome = self.service.receive(link.conn, raw)
        if link.alive:
            link.down.extend(encode(reply) for reply in outcome.replies)
        for game_id in outcome.changed:
            for conn, message in self.service.game_changed(game_id):
                target = next((x for x in self.links.values() if x.conn is conn), None)
                if target is not None:
                    target.down.append(encode(message))
        if outcome.close and link.alive:  # the phone reads what came before the close
            while link.down:
                self.phones[link.phone].receive(decode_server(link.down.popleft()))
            self.disconnect(link.phone)
