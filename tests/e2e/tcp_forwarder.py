"""A tiny TCP forwarder standing in for the community's proxy in browser tests: each
connection goes to the first of its targets that accepts one, so a phone whose
process died reaches the next process at the same address. It can also stand in for
a weak network: `delay_s` holds every chunk that long each way (a round trip of twice
that), `hold()` ... `release()` a network that passes nothing for a while and then
everything at once (connections stay open), and `cut()` ... `mend()` a network that
drops and comes back (open connections aborted, new ones refused meanwhile)."""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time


class Forwarder:
    """Listens on 127.0.0.1 (a free port: `.port`); forwards to `targets` (ports) in order."""

    def __init__(self, targets: list[int], delay_s: float = 0.0) -> None:
        self.targets = targets
        self.delay_s = delay_s
        """Each chunk waits this long before it is passed on (changed at any time)."""
        self.down = False
        self._flowing = threading.Event()
        self._flowing.set()
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port = int(self._listener.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}/"
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._stopped = False
        threading.Thread(target=self._accept, name="forwarder", daemon=True).start()

    def close(self) -> None:
        self._stopped = True
        with contextlib.suppress(OSError):
            self._listener.close()
        with self._lock:
            for sock in list(self._open):
                with contextlib.suppress(OSError):
                    sock.close()

    def cut(self) -> None:
        """The network drops: open connections are aborted, new ones refused."""
        self.down = True
        with self._lock:
            for sock in list(self._open):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    sock.close()

    def mend(self) -> None:
        """The network is back."""
        self.down = False

    def hold(self) -> None:
        """No byte passes, either way, until `release()`: what comes is kept, in order."""
        self._flowing.clear()

    def release(self) -> None:
        self._flowing.set()

    def _accept(self) -> None:
        while not self._stopped:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.down:
                with contextlib.suppress(OSError):
                    client.close()
                continue
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        upstream = None
        for port in self.targets:
            try:
                upstream = socket.create_connection(("127.0.0.1", port), timeout=2)
                break
            except OSError:
                continue
        if upstream is None:
            client.close()
            return
        upstream.settimeout(None)
        with self._lock:
            self._open.update((client, upstream))
        threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()
        self._pump(client, upstream)

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        held: queue.Queue[tuple[float, bytes]] = queue.Queue()
        writer = threading.Thread(target=self._write, args=(held, sink), daemon=True)
        writer.start()
        try:
            while data := source.recv(65536):  # in order, each held `delay_s` from its coming
                held.put((time.monotonic() + self.delay_s, data))
        except OSError:
            pass
        finally:
            held.put((0.0, b""))
            writer.join(timeout=max(5.0, self.delay_s + 5))
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    sock.close()
                with self._lock:
                    self._open.discard(sock)

    def _write(self, held: queue.Queue[tuple[float, bytes]], sink: socket.socket) -> None:
        while True:
            due, data = held.get()
            if not data:
                return
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)  # a network's delay, in its own thread
            while not self._flowing.wait(0.5):  # held; a stopped forwarder lets it end
                if self._stopped:
                    return
            try:
                sink.sendall(data)
            except OSError:
                return
