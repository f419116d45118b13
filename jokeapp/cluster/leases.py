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

# KEYS[1]: live rooms, KEYS[2]: this node's address, KEYS[3]: the live nodes, KEYS[3 + i]:
# lease i; ARGV[1]: time to live (ms), ARGV[2]: the length of a lease key's prefix (what is
# left is the room), ARGV[3]: this node's name, ARGV[4]: its address ('': not announced),
# ARGV[4 + i]: the value lease i must hold. Answers the leases lost and the number of live
# nodes (0 when not announced): a renewal and an announcement in one round trip.
RENEW = (
    NOW
    + """
local lost = {}
local t = now()
local due = t + tonumber(ARGV[1])
local cut = tonumber(ARGV[2]) + 1
for i = 4, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[i + 1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
    redis.call('ZADD', KEYS[1], 'XX', due, string.sub(KEYS[i], cut))
  else
    table.insert(lost, i - 3)
  end
end
local nodes = 0
if ARGV[4] ~= '' then
  redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[1])
  redis.call('ZADD', KEYS[3], due, ARGV[3])
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', t)
  nodes = redis.call('ZCARD', KEYS[3])
end
return {lost, nodes}
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
        lost, _ = await self._renewal(held, "")
        return lost

    async def renew_and_announce(self, held: dict[str, int], url: str) -> tuple[set[str], int]:
        """``renew`` and ``announce`` in one round trip: the rooms lost and how many nodes are
        live (this one included)."""
        return await self._renewal(held, url)

    async def _renewal(self, held: dict[str, int], url: str) -> tuple[set[str], int]:
        rooms = list(held)
        lost, nodes = await self._renew(
            keys=[
                self._live,
                self._key("node", self.node),
                self._key("nodes", "live"),
                *(self._key("lease", r) for r in rooms),
            ],
            args=[
                self.ttl_ms,
                len(self._key("lease", "")),
                self.node,
                url,
                *(self.value(held[r]) for r in rooms),
            ],
        )
        return {rooms[int(i) - 1] for i in lost}, int(nodes)

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

    async def announce(self, url: str) -> int:
        """This node's address, for the others to forward to; lives as long as a lease. The
        node is counted among the live nodes (``{prefix}:nodes:live``, scored with the moment
        its announcement ends) as long, too; answers how many are live."""
        _, nodes = await self._renewal({}, url)
        return nodes

    async def withdraw(self) -> None:
        await self.client.delete(self._key("node", self.node))
        await self.client.zrem(self._key("nodes", "live"), self.node)

    async def nodes(self) -> dict[str, str]:
        """Every live node's name and address (this one included)."""
        # The set of live nodes, then their addresses: two round trips, where a SCAN of
        # ``{prefix}:node:*`` walked every key of Redis (every room's lease, epoch, code…).
        # A node whose announcement ended has no address left: it is not listed.
        names = [_text(n) for n in await self.client.zrange(self._key("nodes", "live"), 0, -1)]
        if not names:
            return {}
        urls = await self.addresses(names)
        return {n: u for n, u in zip(names, urls, strict=True) if u}

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
