"""The server's WebSocket keepalive: one sweep over every socket, a ping only to a silent one.

A page that goes without a close frame or a TCP close (a phone that lost its network or put
its browser to sleep) is noticed only by its silence. uvicorn's own keepalive pings every socket every
``ws_ping_interval`` with two timers per ping (the next ping, the pong's deadline) and a random
payload it compares; at a human pace nearly every socket is silent between its moves, so that
was about one ping a second for every three sockets, each a timer, a frame out and a pong
parsed (docs/server.md, "Connection state").

Here one timer per server looks at each of its sockets once every ``tick`` seconds (in up to
``SLICES`` slices of the sockets, each at its own phase of the tick: ``Sweep``):

- a socket that sent anything since its last look (a message, a pong, an app ``ping``) is
  alive: nothing is sent to it;
- one silent for ``interval`` seconds gets a ping (a fixed empty-payload frame, written
  directly);
- one still silent ``timeout`` seconds after its ping is closed as uvicorn would (1011), and
  its session ends as for any lost socket: the room shows the seat disconnected.

A socket stays in its slice, and a slice is looked at exactly every ``tick`` (the next look
is armed from when the last was due, not from when it ran), so a dead page is dropped at most
``interval + tick + timeout`` seconds after the last frame it sent (``bound``) as with one
sweep, plus what the loop is late, and a page that talks is never pinged. Any frame counts as an answer, not only
the pong of the last ping: it proves the page is alive just as well.

The pings sent and the sockets dropped are counted in the server's ``Tally`` (one per protocol
class, kept across the sweeps that come and go with the sockets), read by ``/metrics`` at each
scrape: ``joke_ws_keepalive_pings_total``, ``joke_ws_keepalive_dropped_total``.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

INTERVAL = 3.0  # seconds of silence before a socket is pinged (joke serve --ws-ping)
TIMEOUT = 3.0  # seconds a pinged socket has to send anything (joke serve --ws-ping-timeout)
TICK = 1.0  # seconds between two sweeps (at most)
EARLY = 0.005  # a timer may fire this much before its time (the loop's clock counts in ms)
SLICES = 10  # a tick's looks are spread over up to this many slices of the sockets
SLICE_FILL = 500  # sockets a slice takes before the next slice is opened

PING_FRAME = b"\x89\x00"  # FIN, opcode 9 (ping), no payload: a server's frames are unmasked


def bound(interval: float, timeout: float) -> float:
    """Seconds after its last frame by which a dead page is dropped, at most."""
    return interval + tick_for(interval, timeout) + timeout


def tick_for(interval: float, timeout: float) -> float:
    """The sweep's period: a second, or less when the interval or timeout is shorter (tests)."""
    return min(TICK, interval, timeout)


class Tally:
    """Pings sent and sockets dropped for their silence by a server's sweeps (``/metrics``)."""

    __slots__ = ("pings", "dropped")

    def __init__(self) -> None:
        self.pings = 0
        self.dropped = 0


class Sweep:
    """The sockets of one event loop and the one timer that looks at them all.

    The sockets are kept in up to ``SLICES`` slices, each looked at once a tick at its own
    phase (slice ``j`` at ``j`` tenths of a tick into it), so a busy server's looks and pings
    (and the pongs they bring back) come in ten small runs a tick instead of one: one run over
    9,000 sockets at 3,000 rooms, with its pings written in it and their pongs read right
    after, stopped every room for 30–70 ms each second (docs/server.md, "Connection state"). A slice takes up to ``SLICE_FILL``
    sockets before the next one is opened, so a server with fewer sockets keeps one wake-up a
    tick; only slices that hold a socket have a wake-up."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        interval: float,
        timeout: float,
        tally: Tally | None = None,
    ) -> None:
        self.loop = loop
        self.interval = interval
        self.timeout = timeout
        self.tick = tick_for(interval, timeout)
        self.step = self.tick / SLICES  # between the looks of two neighbouring slices
        # every socket (a KeepaliveMixin) and its slice; each slice an insertion-ordered set
        self.sockets: dict[Any, int] = {}
        self.slices: list[dict[Any, None]] = [{} for _ in range(SLICES)]
        self._timer: asyncio.TimerHandle | None = None
        self._next = 0  # the slice the timer looks at next
        self._due = 0.0  # when (the loop's clock)
        self.tally = tally or Tally()

    def add(self, socket: Any) -> None:
        socket.heard = False
        socket.quiet_since = now = self.loop.time()
        socket.pinged_at = None
        place = self._place()
        self.sockets[socket] = place
        self.slices[place][socket] = None
        if self._timer is None:
            self._arm(place, now + self.tick)
        elif len(self.slices[place]) == 1 and place != self._next:
            # a slice that had no wake-up: looked at in its turn, before the one armed if
            # its turn comes first (the armed one is due within a tick, at ``_due``)
            due = self._due - ((self._next - place) % SLICES) * self.step
            if due <= now:
                due += self.tick
            if due < self._due:
                self._timer.cancel()
                self._arm(place, due)

    def _place(self) -> int:
        """The slice for a new socket: the first with room under ``SLICE_FILL``, else the
        least full."""
        least = 0
        for i, members in enumerate(self.slices):
            if len(members) < SLICE_FILL:
                return i
            if len(members) < len(self.slices[least]):
                least = i
        return least

    def discard(self, socket: Any) -> None:
        place = self.sockets.pop(socket, None)
        if place is not None:
            del self.slices[place][socket]

    def _arm(self, place: int, due: float) -> None:
        self._next, self._due = place, due
        self._timer = self.loop.call_at(due, self._run)

    def _run(self) -> None:
        self._timer = None
        place, due = self._next, self._due
        now = self.loop.time()
        self.look(self.slices[place], now)
        if not self.sockets:
            return  # nothing left to look at: no more wake-ups
        if now - due > self.tick:
            due = now  # the loop was stopped for more than a tick: not every slice at once
        for ahead in range(1, SLICES + 1):
            following = (place + ahead) % SLICES
            if self.slices[following]:
                self._arm(following, due + ahead * self.step)
                return

    def sweep(self, now: float) -> None:
        """One look at every socket (``now``: the loop's clock)."""
        for members in self.slices:
            self.look(members, now)

    def look(self, members: dict[Any, None], now: float) -> None:
        """One look at each socket of a slice."""
        interval, timeout = self.interval, self.timeout
        for socket in list(members):  # a socket dropped here leaves the set
            if socket.heard:
                socket.heard = False
                socket.quiet_since = now
                socket.pinged_at = None
            elif socket.pinged_at is not None:
                if now - socket.pinged_at >= timeout - EARLY:
                    self.tally.dropped += 1
                    self.discard(socket)
                    socket.silent_too_long()
            elif now - socket.quiet_since >= interval - EARLY:
                if socket.ping():
                    socket.pinged_at = now
                    self.tally.pings += 1
                else:
                    self.discard(socket)  # closing already


class KeepaliveMixin:
    """Puts a uvicorn sans-I/O WebSocket protocol's keepalive on its server's ``Sweep``
    instead of uvicorn's per-socket ping timers. The class made by ``protocol`` sets
    ``interval`` and ``timeout``; one ``Sweep`` per event loop."""

    interval: float = INTERVAL
    timeout: float = TIMEOUT
    tally: Tally
    _sweeps: dict[asyncio.AbstractEventLoop, Sweep]

    # set by Sweep.add
    heard: bool
    quiet_since: float
    pinged_at: float | None

    # uvicorn's (WebSocketsSansIOProtocol)
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    close_sent: bool
    conn: Any

    def sweep(self) -> Sweep:
        found = self._sweeps.get(self.loop)
        if found is None:
            found = self._sweeps[self.loop] = Sweep(
                self.loop, self.interval, self.timeout, self.tally
            )
        return found

    def start_keepalive(self) -> None:
        if self.interval > 0:
            self.sweep().add(self)

    def stop_keepalive(self) -> None:
        found = self._sweeps.get(self.loop)
        if found is not None:
            found.discard(self)
            if not found.sockets:
                del self._sweeps[self.loop]  # its timer finds no socket and stops

    def data_received(self, data: bytes) -> None:
        self.heard = True
        super().data_received(data)  # type: ignore[misc]

    def ping(self) -> bool:
        """Sends a ping; False if the socket is closing (no ping sent)."""
        if self.close_sent or self.transport.is_closing():
            return False
        self.transport.write(PING_FRAME)
        return True

    def silent_too_long(self) -> None:
        """No frame since the ping: closed as uvicorn closes a socket whose pong is late."""
        if self.close_sent or self.transport.is_closing():
            return
        self.conn.fail(1011, "keepalive ping timeout")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()


def protocol(
    interval: float = INTERVAL,
    timeout: float = TIMEOUT,
    base: type[WebSocketsSansIOProtocol] = WebSocketsSansIOProtocol,
    tally: Tally | None = None,
) -> type[WebSocketsSansIOProtocol]:
    """uvicorn's ``ws`` protocol class for a server: ``base`` with this keepalive
    (``interval`` 0: no pings at all), counting its pings and drops into ``tally``."""
    made = type(
        "KeepaliveProtocol",
        (KeepaliveMixin, base),
        {"interval": interval, "timeout": timeout, "tally": tally or Tally(), "_sweeps": {}},
    )
    return cast("type[WebSocketsSansIOProtocol]", made)
