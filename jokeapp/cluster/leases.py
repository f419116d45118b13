"""Room leases, node addresses and the set of live rooms, in Redis.

A lease is the key ``{prefix}:lease:{room}`` holding ``node|epoch`` with a time to live; only
its holder renews it (compare and renew, in Lua) and a takeover increments the room's epoch
(``{prefix}:epoch:{room}``), never below the epoch the store last saw (``floor``), so the
store's fence keeps working even after Redis lost its data.

The live rooms (unfinished: a dead owner's must be taken over) are a sorted set
``{prefix}:live:due``, each room scored with the moment (Redis's own clock, ms) its lease ends
unless renewed: every script that sets or renews a lease moves its room's score with it, and
one that lets a lease go makes the room due at once. A node's scan asks only for the rooms
already due (``DUE``): usually none, whatever the number of rooms.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis

# Redis's clock in ms: one clock for every node's scores, whatever their own clocks say.
NOW = """
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
"""

# KEYS: lease, epoch, reservation, live rooms; ARGV: node, time to live (ms), floor, room. A
# lease handed to another node (HAND_OVER) is reserved for it a moment: nobody else takes it.
ACQUIRE = (
    NOW
    + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local reserved = redis.call('GET', KEYS[3])
if reserved and reserved ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[3])
local epoch = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if epoch < floor then
  epoch = floor
  redis.call('SET', KEYS[2], epoch)
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. epoch, 'PX', ARGV[2])
redis.call('ZADD', KEYS[4], 'XX', now() + tonumber(ARGV[2]), ARGV[4])
return epoch
"""
)

# KEYS[1]: live rooms, KEYS[1 + i]: lease i; ARGV[1]: time to live (ms), ARGV[2]: the length
# of a lease key's prefix (what is left is the room), ARGV[2 + i]: the value lease i must hold.
RENEW = (
    NOW
    + """
local lost = {}
local due = now() + tonumber(ARGV[1])
local cut = tonumber(ARGV[2]) + 1
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[i + 1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
    redis.call('ZADD', KEYS[1], 'XX', due, string.sub(KEYS[i], cut))
  else
    table.insert(lost, i - 1)
  end
end
return lost
"""
)

# KEYS: lease, live rooms; ARGV: the value held, room. The room is due at once: the next
# scan of any node takes it.
RELEASE = (
    NOW
    + """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZADD', KEYS[2], 'XX', now(), ARGV[2])
return 1
"""
)

# KEYS: lease, reservation, live rooms; ARGV: the value held, the node it goes to,
# reservation (ms), room.
HAND_OVER = (
    NOW
    + """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[3], 'XX', now(), ARGV[4])
return 1
"""
)

# KEYS: live rooms, the room's code; ARGV: a lease's time to live (ms), room. A room just
# taken or made (its lease is new), found by its code from now on.
ADD_LIVE = (
    NOW
    + """
redis.call('ZADD', KEYS[1], now() + tonumber(ARGV[1]), ARGV[2])
redis.call('SET', KEYS[2], ARGV[2])
"""
)

# KEYS: live rooms. The rooms whose lease ended (or was let go), by Redis's clock.
DUE = (
    NOW
    + """
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now())
"""
)


class RoundTrips:
    """Requests written to Redis (a pipeline or a script is one): this node's round trips."""

    def __init__(self) -> None:
        self.requests = 0


class _Counted(aioredis.Connection):
    def __init__(self, *args: Any, tally: RoundTrips, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tally = tally

    async def send_packed_command(
        self, command: bytes | str | Iterable[bytes], check_health: bool = True
    ) -> None:
        self.tally.requests += 1
        await super().send_packed_command(command, check_health)


@dataclass(frozen=True, slots=True)
class Holder:
    node: str
    epoch: int


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


def _holder(raw: Any) -> Holder | None:
    if raw is None:
        return None
    text = _text(raw)
    node, _, epoch = text.rpartition("|")
    return Holder(node, int(epoch))


class Leases:
    def __init__(
        self,
        client: aioredis.Redis,
        prefix: str,
        node: str,
        ttl: float,
        tally: RoundTrips | None = None,
    ) -> None:
        self.client = client
        self.tally = tally or RoundTrips()  # counted only on the connections of ``connect``
        self.prefix = prefix
        self.node = node
        self.ttl_ms = int(ttl * 1000)
        self._live = self._key("live", "due")
        self._acquire = client.register_script(ACQUIRE)
        self._renew = client.register_script(RENEW)
        self._release = client.register_script(RELEASE)
        self._hand_over = client.register_script(HAND_OVER)
        self._add_live = client.register_script(ADD_LIVE)
        self._due = client.register_script(DUE)

    @classmethod
    def connect(cls, url: str, prefix: str, node: str, ttl: float) -> Leases:
        # A burst of requests waits for one of a bounded set of connections (no error).
        tally = RoundTrips()
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=64, timeout=30, connection_class=_Counted, tally=tally
        )
        return cls(aioredis.Redis(connection_pool=pool), prefix, node, ttl, tally)

    def _key(self, kind: str, name: str) -> str:
        return f"{self.prefix}:{kind}:{name}"

    def value(self, epoch: int) -> str:
        return f"{self.node}|{epoch}"

    # ------------------------------------------------------------ leases

    async def acquire(self, room_id: str, floor: int = 1) -> int | None:
        """The new epoch if this node now holds the room's lease, None if another does."""
        epoch = await self._acquire(
            keys=[
                self._key("lease", room_id),
                self._key("epoch", room_id),
                self._key("for", room_id),
                self._live,
            ],
            args=[self.node, self.ttl_ms, floor, room_id],
        )
        return int(epoch) or None

    async def renew(self, held: dict[str, int]) -> set[str]:
        """Renews every lease of ``held`` (room -> epoch) in one round trip (their rooms'
        scores in the live set with them); the rooms lost."""
        if not held:
            return set()
        rooms = list(held)
        lost = await self._renew(
            keys=[self._live, *(self._key("lease", r) for r in rooms)],
            args=[
                self.ttl_ms,
                len(self._key("lease", "")),
                *(self.value(held[r]) for r in rooms),
            ],
        )
        return {rooms[int(i) - 1] for i in lost}

    async def release(self, room_id: str, epoch: int) -> None:
        await self._release(
            keys=[self._key("lease", room_id), self._live], args=[self.value(epoch), room_id]
        )

    async def hand_over(self, room_id: str, epoch: int, node: str, reserve: float) -> bool:
        """Releases the lease to ``node``: for ``reserve`` seconds only it can acquire it."""
        done = await self._hand_over(
            keys=[self._key("lease", room_id), self._key("for", room_id), self._live],
            args=[self.value(epoch), node, int(reserve * 1000), room_id],
        )
        return bool(done)

    async def holder(self, room_id: str) -> Holder | None:
        return _holder(await self.client.get(self._key("lease", room_id)))

    async def holders(self, room_ids: list[str]) -> list[Holder | None]:
        if not room_ids:
            return []
        raw = await self.client.mget([self._key("lease", r) for r in room_ids])
        return [_holder(v) for v in raw]

    # ------------------------------------------------------------ nodes

    async def announce(self, url: str) -> None:
        """This node's address, for the others to forward to; lives as long as a lease."""
        await self.client.set(self._key("node", self.node), url, px=self.ttl_ms)

    async def withdraw(self) -> None:
        await self.client.delete(self._key("node", self.node))

    async def nodes(self) -> dict[str, str]:
        """Every live node's name and address (this one included)."""
        keys = [key async for key in self.client.scan_iter(match=self._key("node", "*"))]
        if not keys:
            return {}
        urls = await self.client.mget(keys)
        start = len(self._key("node", ""))
        return {_text(k)[start:]: _text(u) for k, u in zip(keys, urls, strict=True) if u}

    async def address(self, node: str) -> str | None:
        raw = await self.client.get(self._key("node", node))
        return None if raw is None else _text(raw)

    async def addresses(self, nodes: list[str]) -> list[str | None]:
        """Each node's address, None for a node gone (its address expired)."""
        raw = await self.client.mget([self._key("node", n) for n in nodes])
        return [None if v is None else _text(v) for v in raw]

    # ------------------------------------------------------------ live rooms and codes

    async def add_live(self, room_id: str, code: str) -> None:
        """A room this node just took (its lease is new): live until it finishes."""
        await self._add_live(
            keys=[self._live, self._key("code", code)], args=[self.ttl_ms, room_id]
        )

    async def mark_live(self, room_ids: list[str]) -> None:
        """Unfinished rooms whose owner is unknown: due at once (those owned keep their
        score; the scan takes the others)."""
        if room_ids:
            await self.client.zadd(self._live, dict.fromkeys(room_ids, 0), nx=True)

    async def remove_live(self, room_id: str) -> None:
        await self.client.zrem(self._live, room_id)

    async def due(self) -> list[str]:
        """The live rooms whose lease ended or was let go (they may be taken already)."""
        return [_text(m) for m in await self._due(keys=[self._live])]

    async def room_of_code(self, code: str) -> str | None:
        raw = await self.client.get(self._key("code", code))
        return None if raw is None else _text(raw)

    async def ping(self) -> bool:
        return bool(await self.client.ping())

    async def close(self) -> None:
        await self.client.aclose()
