"""One node of a cluster: which rooms it owns, taking rooms over, letting them go.

A room runs on the node holding its lease. This node takes a room when a request for it
arrives and nobody holds it, or when its scan finds a live room whose lease expired (its
owner died). Taking means: a lease with the next epoch, the store claimed with that epoch
(from then on its writes are fenced by it), the room rebuilt from the log with its clocks
resumed. Losing a lease, or a fenced write, drops the room at once.

Ownership follows the sockets: when none of a room's sockets is connected here and more than
half of them are relayed from one other node, this node hands the room to that node (its lease reserved for it a
moment), which takes it at its relays' next look; in the steady state nothing is relayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from redis.exceptions import RedisError

from jokeapp.cluster.leases import Leases
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import CODE_LENGTH, RoomManager
from jokeapp.rooms.room import Room
from jokeapp.rooms.status import RoomStatus

log = logging.getLogger(__name__)


class NodeStopping(Exception):
    """This node is letting its rooms go and takes no new ones."""


SAFETY = 0.2  # the share of a lease's life this node gives up, against clock drift and pauses
FOLLOW_AFTER = 1.0  # seconds a room's sockets stay where they are before it follows them
MIN_STAY = 2.0  # seconds a room taken over stays before it may move again (no ping-pong)
RESERVE = 2.0  # seconds a handed-over lease is kept for the node it goes to
SETTLE = 1.0  # at most this many seconds a handed-over room gets to finish its queued commands
# A node's store commits at most once per its spacing (store/sql.py, COMMIT_SPACING) times the
# number of live nodes, up to this many: n nodes then commit, at a trickle, no more often in
# all than one process does (each node has a share of the rooms, so without it each commit
# carried a share of the actions), and an action waits at most that much longer for its commit
# (its acknowledgement still follows the commit). A node alone keeps the store's own spacing.
SPACING_NODES = 4


@dataclass(frozen=True, slots=True)
class Remote:
    """A room owned by another node, and where to reach it."""

    node: str
    url: str


@dataclass(slots=True)
class Owned:
    epoch: int
    valid_until: float  # time.monotonic() after which this node no longer trusts its lease
    movable_at: float = 0.0  # time.monotonic() from which the room may follow its sockets


class ClusterNode:
    def __init__(
        self,
        manager: RoomManager,
        leases: Leases,
        url: str,
        *,
        ttl: float,
        scan_every: float = 1.0,
    ) -> None:
        self.manager = manager
        self.store = manager.store
        self.leases = leases
        self.name = leases.node
        self.url = url
        self.ttl = ttl
        self.scan_every = scan_every
        self.owned: dict[str, Owned] = {}
        self.stopping = False
        self.taken_over = 0  # rooms this node took from a node that had owned them
        self.handed_over = 0  # rooms this node gave to the node holding their sockets
        # each owned room's sockets by the node they came through (this one: connected here)
        self.sockets: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self._following: dict[str, float] = {}  # room -> when to look at its sockets again
        self.follow_after = FOLLOW_AFTER
        self.reserve = RESERVE  # seconds a room handed over is kept for its new owner
        self.queue_wait = SETTLE  # at most this long a handed-over room's queue is handled
        self.command_wait = SETTLE  # at most this long a command in progress gets to finish
        self._moves: set[asyncio.Task[None]] = set()
        self._taking: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._finished: set[str] = set()  # owned rooms already taken out of the live set
        self._tasks: list[asyncio.Task[None]] = []
        self._paused = False  # tests: a node frozen in time, that does not know its leases expire
        # the owners this node relays to (forwarded requests, relayed sockets): each one's
        # event is set once its address expires (see ``watching``), with how many wait on it
        self._watched: dict[str, tuple[asyncio.Event, int]] = {}
        manager.guard = self.owns
        manager.on_create = self._adopt
        manager.resume_clocks = True
        self.store.on_fenced.append(self._fenced)
        # the store's spacing between commits for one node (SqlStore; None: a store without)
        self.base_spacing: float | None = getattr(self.store, "commit_spacing", None)
        self.live_nodes = 1

    def owns(self, room_id: str) -> bool:
        return room_id in self.owned

    async def serving(self) -> None:
        """Raises while this node hands its rooms over (SIGTERM): /api/ready's check, so the
        load balancer stops sending it people before it exits."""
        if self.stopping:
            raise NodeStopping(self.name)

    # ------------------------------------------------------------ life

    async def start(self) -> None:
        """Joins the cluster; with Redis out of reach the node still starts (``/api/ready``
        says 503, so the load balancer sends it nothing) and joins once Redis answers."""
        loop = asyncio.get_running_loop()
        if await self._join():
            self._run_loops()
        else:
            self._tasks = [loop.create_task(self._join_later(), name="cluster-join")]

    async def _join(self) -> bool:
        try:
            self._space_commits(await self.leases.announce(self.url))
            # Rooms left unfinished while no node ran: the scan brings them back.
            await self.leases.mark_live(await self.store.unfinished_room_ids())
        except (OSError, RedisError) as exc:
            log.warning("cluster: Redis unreachable, not joined yet: %s", exc)
            return False
        return True

    async def _join_later(self) -> None:
        while not await self._join():
            await asyncio.sleep(self.scan_every)
        self._run_loops()

    def _run_loops(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks += [
            loop.create_task(self._renew_loop(), name="cluster-renew"),
            loop.create_task(self._scan_loop(), name="cluster-scan"),
        ]

    async def hand_over(self) -> None:
        """Stops taking rooms and lets every owned one go (SIGTERM): its sockets close with
        "reconnect", its lease is released so another node takes it at its next scan."""
        self.stopping = True
        rooms = list(self.owned)
        # every room's command in progress finishes at once (a commit or so), not one by one
        await asyncio.gather(*(self._between_commands(r) for r in rooms))
        for room_id in rooms:
            await self.let_go(room_id)
        with contextlib.suppress(Exception):
            await self.leases.withdraw()

    async def close(self) -> None:
        tasks = [*self._tasks, *self._moves]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        if not self.stopping:
            await self.hand_over()
        await self.leases.close()

    # ------------------------------------------------------------ finding a room

    async def locate(self, ref: str) -> Room | Remote:
        """The room if this node owns it (taking it if nobody does), else its owner."""
        room = self.manager.local(ref)
        if room is not None and room.room_id in self.owned:
            return room
        room_id = room.room_id if room is not None else await self._room_id(ref)
        for attempt in range(5):
            holder = await self.leases.holder(room_id)
            if holder is None or holder.node == self.name:
                if await self.take(room_id):
                    return self.manager.rooms[room_id]
                await asyncio.sleep(0.05 * 2**attempt)  # handed to another node: it takes it
                continue
            url = await self.leases.address(holder.node)
            if url is not None:
                return Remote(holder.node, url)
            break  # its owner is gone and its lease not yet expired
        raise RoomError("room_moving")

    async def _room_id(self, ref: str) -> str:
        if len(ref) == CODE_LENGTH:
            found = await self.leases.room_of_code(ref.upper())
            if found is not None:
                return found
        elif await self.leases.holder(ref) is not None:
            return ref
        loaded = await self.store.load_room(ref.upper() if len(ref) == CODE_LENGTH else ref)
        if loaded is None:
            raise RoomError("room_not_found")
        return loaded.room.room_id

    # ------------------------------------------------------------ taking and losing rooms

    async def take(self, room_id: str) -> bool:
        """Takes the room if nobody holds its lease; True if this node owns it now."""
        lock = self._taking[room_id]
        async with lock:
            if room_id in self.owned:
                return True
            if self.stopping:
                return False
            stored = await self.store.room_owner(room_id)
            started = time.monotonic()
            epoch = await self.leases.acquire(room_id, floor=stored[0] + 1 if stored else 1)
            if epoch is None:
                return False
            if not await self.store.claim_room(
                room_id, epoch, self.name
            ) or not await self._confirm(room_id, epoch, started):
                await self.leases.release(room_id, epoch)
                return False
            try:
                room = await self.manager.get(room_id)
            except Exception:
                await self.let_go(room_id)
                raise
            if room.status is not RoomStatus.FINISHED:
                await self.leases.add_live(room_id, room.code)
            if stored is not None and stored[1] != self.name:
                self.taken_over += 1
                log.info("room %s: taken over from %s (epoch %d)", room_id, stored[1], epoch)
            return True

    async def _adopt(self, room: Room) -> None:
        """A room just created here: this node owns it from its first moment (and it may
        follow its first sockets at once: the creating request's node is chance)."""
        started = time.monotonic()
        epoch = await self.leases.acquire(room.room_id)
        if (
            epoch is None
            or not await self.store.claim_room(room.room_id, epoch, self.name)
            or not await self._confirm(room.room_id, epoch, started, stay=0.0)
        ):
            raise RoomError("room_moving")  # an id already leased: cannot happen by chance
        await self.leases.add_live(room.room_id, room.code)

    async def _confirm(
        self, room_id: str, epoch: int, started: float, stay: float = MIN_STAY
    ) -> bool:
        """Starts owning a room whose lease was acquired at ``started``; if claiming it took
        a good part of the lease's life (a busy node), renews it first. False if lost.
        ``stay``: seconds before the room may follow its sockets elsewhere."""
        if time.monotonic() - started > self.ttl * (1 - SAFETY) / 2:
            started = time.monotonic()
            if await self.leases.renew({room_id: epoch}):
                return False
        self.owned[room_id] = Owned(
            epoch, started + self.ttl * (1 - SAFETY), movable_at=time.monotonic() + stay
        )
        return True

    async def let_go(self, room_id: str) -> None:
        """Stops owning the room on purpose: its command in progress finished, writes
        fenced, room dropped, lease released."""
        await self._between_commands(room_id)
        owned = self.owned.pop(room_id, None)
        self.store.release_room(room_id)
        await self.manager.drop(room_id)
        self._forget(room_id)
        if owned is not None:
            with contextlib.suppress(Exception):
                await self.leases.release(room_id, owned.epoch)

    async def _between_commands(self, room_id: str) -> None:
        """Lets the room's command in progress finish (at most ``command_wait``) and holds the
        next ones: a room let go on purpose is not cut in the middle of a command (a start whose
        match is stored but not its room's status, an answer lost after its write). The
        caller drops the room right after, without waiting in between."""
        room = self.manager.rooms.get(room_id)
        if room is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.command_wait):
                    await room.hold()

    async def lose(self, room_id: str) -> None:
        """The lease is gone (expired, or another node holds it): drop the room at once."""
        if self.owned.pop(room_id, None) is not None:
            log.warning("room %s: lease lost; dropped", room_id)
        self.store.release_room(room_id)
        self._forget(room_id)
        await self.manager.drop(room_id)

    def _forget(self, room_id: str) -> None:
        self._finished.discard(room_id)
        lock = self._taking.get(room_id)
        if lock is not None and not lock.locked():
            del self._taking[room_id]

    def _fenced(self, room_id: str) -> None:
        if room_id in self.owned:
            log.warning("room %s: a write was fenced (another node owns it); dropped", room_id)
            self.owned.pop(room_id, None)
            asyncio.get_running_loop().create_task(self.lose(room_id))

    # ------------------------------------------------------------ following the sockets

    def attach(self, room_id: str, origin: str) -> None:
        """A socket of a room owned here is served: connected here (``origin`` is this node)
        or relayed from the node ``origin``."""
        self.sockets[room_id][origin] += 1
        self._consider(room_id)

    def detach(self, room_id: str, origin: str) -> None:
        counts = self.sockets.get(room_id)
        if counts is None:
            return
        counts[origin] -= 1
        if counts[origin] <= 0:
            del counts[origin]
        if not counts:
            del self.sockets[room_id]
        else:
            self._consider(room_id)

    def follow_target(self, room_id: str) -> str | None:
        """The other node through which more than half of the room's sockets come, if this
        node serves none of them itself (so a move never closes a client's socket: only the
        relays' upstreams, which find the new owner). After a move that node serves more than
        half of them itself and never moves the room on: moves cannot cycle."""
        counts = self.sockets.get(room_id)
        if not counts or counts.get(self.name, 0) > 0:
            return None
        node, most = max(counts.items(), key=lambda kv: kv[1])
        return node if 2 * most > sum(counts.values()) else None

    def _consider(self, room_id: str) -> None:
        """After each change of a room's sockets: look again once they have stayed put for
        FOLLOW_AFTER (a page opening its sockets one by one is judged whole)."""
        if room_id not in self.owned or self.stopping:
            return
        pending = room_id in self._following
        self._following[room_id] = time.monotonic() + self.follow_after
        if not pending and self.follow_target(room_id) is not None:
            task = asyncio.get_running_loop().create_task(self._follow(room_id))
            self._moves.add(task)
            task.add_done_callback(self._moves.discard)
        elif not pending:
            del self._following[room_id]

    async def _follow(self, room_id: str) -> None:
        try:
            while True:
                owned = self.owned.get(room_id)
                if owned is None or self.stopping:
                    return
                due = max(self._following[room_id], owned.movable_at)
                if time.monotonic() < due:
                    await asyncio.sleep(due - time.monotonic())
                    continue  # the sockets may have changed meanwhile: the deadline with them
                target = self.follow_target(room_id)
                if target is not None:
                    await self.hand_to(room_id, target)
                return
        except Exception:
            log.exception("room %s: could not follow its sockets", room_id)
        finally:
            self._following.pop(room_id, None)

    async def hand_to(self, room_id: str, node: str) -> None:
        """Lets the room go to ``node`` (which holds its sockets): its queued commands are
        handled first (so what was acknowledged went out), then it is dropped here like
        ``let_go`` and its lease is released reserved for ``node``, whose relays take it as
        soon as their upstream closes with "reconnect"."""
        room = self.manager.rooms.get(room_id)
        if room is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.queue_wait):
                    await room.settle()
        await self._between_commands(room_id)
        owned = self.owned.pop(room_id, None)
        if owned is None:
            return  # lost meanwhile
        self.store.release_room(room_id)
        await self.manager.drop(room_id, notice=False)
        self._forget(room_id)
        self.handed_over += 1
        log.info("room %s: handed over to %s, which holds its sockets", room_id, node)
        with contextlib.suppress(Exception):
            await self.leases.hand_over(room_id, owned.epoch, node, self.reserve)

    # ------------------------------------------------------------ watching the owners

    @contextlib.contextmanager
    def watching(self, node: str) -> Iterator[asyncio.Event]:
        """An event set once ``node`` stopped renewing its address (dead, or frozen: its
        leases end at the same moment), for a relay or a forwarded request to give up on
        it then instead of waiting for TCP or the WebSocket keepalive (tens of seconds with a
        frozen owner, whose connections stay open). Checked each scan (1 s), one MGET for
        every owner watched, nothing when nothing is relayed."""
        event, count = self._watched.get(node, (None, 0))
        if event is None:
            event = asyncio.Event()
        self._watched[node] = (event, count + 1)
        try:
            yield event
        finally:
            held = self._watched.get(node)
            if held is not None and held[0] is event:
                if held[1] <= 1:
                    del self._watched[node]
                else:
                    self._watched[node] = (event, held[1] - 1)

    async def check_watched(self) -> None:
        """Sets the event of every watched owner whose address is gone."""
        names = list(self._watched)
        if not names:
            return
        for name, url in zip(names, await self.leases.addresses(names), strict=True):
            held = self._watched.get(name)
            if url is None and held is not None:
                del self._watched[name]
                held[0].set()

    # ------------------------------------------------------------ the loops

    def _space_commits(self, nodes: int) -> None:
        """The store's spacing between commits for ``nodes`` live nodes (``SPACING_NODES``)."""
        self.live_nodes = max(1, nodes)
        if self.base_spacing is not None:
            spacing = self.base_spacing * min(self.live_nodes, SPACING_NODES)
            self.store.commit_spacing = spacing  # type: ignore[attr-defined]

    async def renew_once(self) -> None:
        for room_id in [r for r in self.owned if r not in self.manager.rooms]:
            if not self._taking[room_id].locked():  # not one being rebuilt right now
                await self.let_go(room_id)  # evicted (finished and idle): loaded on demand
        held = {r: o.epoch for r, o in self.owned.items()}
        started = time.monotonic()
        # the leases renewed and this node's address announced in one round trip
        lost, nodes = await self.leases.renew_and_announce(held, self.url)
        self._space_commits(nodes)
        for room_id in held:
            owned = self.owned.get(room_id)
            if owned is not None and room_id not in lost:
                owned.valid_until = started + self.ttl * (1 - SAFETY)
        for room_id in lost:
            await self.lose(room_id)
        for room_id, room in list(self.manager.rooms.items()):
            if room_id not in self.owned:
                continue
            finished = room.status is RoomStatus.FINISHED
            if finished and room_id not in self._finished:
                await self.leases.remove_live(room_id)
                self._finished.add(room_id)
            elif not finished and room_id in self._finished:  # a rematch: live again
                await self.leases.add_live(room_id, room.code)
                self._finished.discard(room_id)

    async def _renew_loop(self) -> None:
        while True:
            if not self._paused:
                try:
                    await self.renew_once()
                except Exception:
                    log.exception("renewing leases failed")
                now = time.monotonic()
                for room_id in [r for r, o in self.owned.items() if o.valid_until <= now]:
                    await self.lose(room_id)  # the lease could not be confirmed in time
            soonest = min((o.valid_until for o in self.owned.values()), default=None)
            wait = self.ttl / 3
            if soonest is not None:
                wait = max(0.0, min(wait, soonest - time.monotonic()))
            await asyncio.sleep(wait)

    async def scan_once(self) -> int:
        """Takes every live room whose lease expired; how many it took."""
        due = [r for r in await self.leases.due() if r not in self.owned]
        holders = await self.leases.holders(due)
        free = [r for r, h in zip(due, holders, strict=True) if h is None]
        random.shuffle(free)  # surviving nodes share a dead node's rooms
        taken = 0
        for room_id in free:
            if self.stopping or self._paused:
                break
            try:
                if await self.take(room_id):
                    taken += 1
            except Exception:
                log.exception("room %s could not be taken over", room_id)
        return taken

    async def _scan_loop(self) -> None:
        while True:
            await asyncio.sleep(self.scan_every)
            if self.stopping or self._paused:
                continue
            try:
                await self.check_watched()
                await self.scan_once()
            except Exception:
                log.exception("scanning for rooms to take over failed")
