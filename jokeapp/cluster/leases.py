"""Room leases, node addresses and the set of live rooms, in Redis.

A lease is the key ``{prefix}:lease:{room}`` holding ``node|epoch`` with a time to live; only
its holder renews it (compare and renew, in Lua) and a takeover increments the room's epoch
(``{prefix}:epoch:{room}``), never below the epoch the store last saw (``floor``), so the
store's fence keeps working even after Redis lost its data.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis

# KEYS: lease, epoch, reservation; ARGV: node, time to live (ms), floor. A lease handed to
# another node (HAND_OVER) is reserved for it a moment: nobody else takes it meanwhile.
ACQUIRE = """
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
return epoch
"""

# KEYS: leases; ARGV[1]: time to live (ms), ARGV[1 + i]: the value lease i must still hold.
RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
  else
    table.insert(lost, i)
  end
end
return lost
"""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: lease, reservation; ARGV: the value held, the node it goes to, reservation (ms).
HAND_OVER = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
"""


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
        self._acquire = client.register_script(ACQUIRE)
        self._renew = client.register_script(RENEW)
        self._release = client.register_script(RELEASE)
        self._hand_over = client.register_script(HAND_OVER)

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
            ],
            args=[self.node, self.ttl_ms, floor],
        )
        return int(epoch) or None

    async def renew(self, held: dict[str, int]) -> set[str]:
        """Renews every lease of ``held`` (room -> epoch) in one round trip; the rooms lost."""
        if not held:
            return set()
        rooms = list(held)
        lost = await self._renew(
            keys=[self._key("lease", r) for r in rooms],
            args=[self.ttl_ms, *(self.value(held[r]) for r in rooms)],
        )
        return {rooms[int(i) - 1] for i in lost}

    async def release(self, room_id: str, epoch: int) -> None:
        await self._release(keys=[self._key("lease", room_id)], args=[self.value(epoch)])

    async def hand_over(self, room_id: str, epoch: int, node: str, reserve: float) -> bool:
        """Releases the lease to ``node``: for ``reserve`` seconds only it can acquire it."""
        done = await self._hand_over(
            keys=[self._key("lease", room_id), self._key("for", room_id)],
            args=[self.value(epoch), node, int(reserve * 1000)],
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

    # ------------------------------------------------------------ live rooms and codes

    async def add_live(self, room_id: str, code: str) -> None:
        pipe = self.client.pipeline(transaction=False)
        pipe.sadd(self._key("live", "rooms"), room_id)
        pipe.set(self._key("code", code), room_id)
        await pipe.execute()

    async def mark_live(self, room_ids: list[str]) -> None:
        if room_ids:
            await self.client.sadd(self._key("live", "rooms"), *room_ids)

    async def remove_live(self, room_id: str) -> None:
        await self.client.srem(self._key("live", "rooms"), room_id)

    async def live(self) -> list[str]:
        return [_text(m) for m in await self.client.smembers(self._key("live", "rooms"))]

    async def room_of_code(self, code: str) -> str | None:
        raw = await self.client.get(self._key("code", code))
        return None if raw is None else _text(raw)

    async def ping(self) -> bool:
        return bool(await self.client.ping())

    async def close(self) -> None:
        await self.client.aclose()
