"""The wire protocol between the room server and its clients (docs/protocol.md).

Every message is a msgspec Struct. WebSocket messages in both directions are tagged unions on
``"type"``; HTTP bodies are plain Structs. Field names on the wire are camelCase. ``joke
schema`` exports the JSON Schema of all of them, and /openapi.json is built from the same
classes, so the document and the code cannot drift apart. The rooms build these messages and
the server sends and reads them: nothing else writes a message's shape.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal, get_args

import msgspec

from jokeapp.core.errors import CodedError

# The biggest WebSocket text frame or HTTP body the server reads (bytes).
MAX_MESSAGE_BYTES = 16 * 1024
PROTOCOL_VERSION = 1

Role = Literal["player", "spectator"]


class RoomStatus(StrEnum):
    """A room's status; its lifecycle (which moves are allowed) is jokeapp.rooms.status."""

    LOBBY = "lobby"  # seats fill, the host sets the options
    PLAYING = "playing"  # a match is on
    FINISHED = "finished"  # the match ended; a rematch plays again in the same room


AfkChoice = Literal["kick", "keep"]  # shown to the host as 강퇴 / 계속


class _Wire(msgspec.Struct, rename="camel", omit_defaults=False, forbid_unknown_fields=False):
    """Base of every message: camelCase on the wire."""


class _Request(_Wire, forbid_unknown_fields=True):
    """An HTTP request body: a field the server does not know is refused (invalid_body)."""


# ---------------------------------------------------------------- shared pieces


class OptionInfo(_Wire):
    key: str
    label: str
    choices: list[Any]
    default: Any


class GameInfo(_Wire):
    id: str
    title: str
    min_players: int
    max_players: int
    options: list[OptionInfo]
    bots: list[str]  # every bot policy, in level order: random, easy, normal, hard
    levels: list[str]  # the levels a host picks from for a seat: easy, normal, hard


class SeatInfo(_Wire):
    player_id: str
    nickname: str
    bot: bool
    connected: bool
    host: bool
    bot_policy: str | None = None
    # The timeout rules play for this seat now: disconnected past the game's grace (marble
    # 5 s), disconnected and timed out once since (dalmuti), or left/kicked mid-match.
    away: bool = False


class AfkOffer(_Wire):
    """Marble: a player absent two rounds in a row; the host answers kick or keep."""

    player_id: str
    rounds: int


class RoomInfo(_Wire):
    room_id: str
    code: str
    game: str
    title: str
    options: dict[str, Any]
    status: RoomStatus
    match: int  # 1 for the first game of the room, +1 per rematch
    host_id: str | None
    seats: list[SeatInfo]
    spectators: int
    min_players: int
    max_players: int
    seed_hash: str | None  # SHA-256 (hex) of the current match's seed, from its start
    afk_offers: list[AfkOffer] = []
    abandoned: bool = False  # the match was stopped because every person had left it
    node: str | None = None  # GET /api/rooms/{ref}: the cluster node that owns it (docs/cluster.md)


class PendingInfo(_Wire):
    player: str
    kind: str
    deadline: int | None  # epoch milliseconds; None: no time limit


class You(_Wire):
    player_id: str | None  # None for a spectator
    role: Role
    nickname: str
    host: bool


# ---------------------------------------------------------------- HTTP bodies


class HealthResponse(_Wire):
    """Liveness: the process serves HTTP (whatever its database or Redis do)."""

    ok: bool
    rooms: int
    version: int = PROTOCOL_VERSION
    node: str = ""


class ReadyResponse(_Wire):
    """Readiness: whether this node can serve rooms now (200 ok, 503 not)."""

    ok: bool
    node: str
    # per dependency: "ok", or why it failed ("timeout", the error's class); Redis only when
    # the node is part of a cluster
    checks: dict[str, str]


class GamesResponse(_Wire):
    games: list[GameInfo]


class CreateRoomRequest(_Request):
    game: str
    nickname: str
    options: dict[str, Any] = {}


class CreateRoomResponse(_Wire):
    room_id: str
    code: str
    token: str
    player_id: str


class RoomListResponse(_Wire):
    rooms: list[RoomInfo]


class JoinRequest(_Request):
    nickname: str = ""  # a spectator may leave it empty (named "관전자 N"); a player may not
    role: Role = "player"


class JoinResponse(_Wire):
    room_id: str
    code: str
    token: str
    player_id: str | None  # None for a spectator


class AddBotRequest(_Request):
    policy: str = "normal"  # a level of GameInfo.bots; "heuristic" (the old name) means normal


class AddBotResponse(_Wire):
    player_id: str


class KickRequest(_Request):
    player_id: str


class OptionsRequest(_Request):
    options: dict[str, Any]


class AfkRequest(_Request):
    player_id: str
    choice: AfkChoice


class OkResponse(_Wire):
    ok: bool = True


class ErrorDetail(_Wire):
    code: str  # one of jokeapp.core.codes.CODES (docs/protocol.md, "Error codes")
    message: str  # Korean, for the player
    # the values the message names; absent when it names none
    detail: dict[str, Any] | msgspec.UnsetType = msgspec.UNSET


class ErrorResponse(_Wire):
    error: ErrorDetail


# ---------------------------------------------------------------- WebSocket: client -> server


class AuthMessage(_Wire, tag="auth", tag_field="type"):
    """The first message on every WebSocket: the token of a seat or a spectator. The token is
    never in the URL (load balancers and servers log request lines)."""

    token: str


class ActionMessage(_Wire, tag="action", tag_field="type"):
    """A game action. ``clientSeq`` is the seat's last applied one + 1 (a repeat: duplicate,
    a jump: client_seq_gap; a refused action does not use its number)."""

    client_seq: int
    action: dict[str, Any]


class ResyncMessage(_Wire, tag="resync", tag_field="type"):
    """Asks for a fresh snapshot (after a gap in update numbers)."""


class PingMessage(_Wire, tag="ping", tag_field="type"):
    pass


ClientMessage = AuthMessage | ActionMessage | ResyncMessage | PingMessage


# ---------------------------------------------------------------- WebSocket: server -> client


class SnapshotMessage(_Wire, tag="snapshot", tag_field="type"):
    seq: int
    room: RoomInfo
    you: You
    view: dict[str, Any] | None  # None before the first match starts
    pending: list[PendingInfo]
    seed_hash: str | None
    last_client_seq: int  # the highest clientSeq applied for this seat (0: none)
    # The viewer's copy of the match's setup events (dalmuti: firstRankDraw, dealt) while no
    # step has been played yet; None otherwise.
    setup_events: list[dict[str, Any]] | None = None


# One operation of a view's patch (docs/protocol.md, "Views and patches"), on a JSON Pointer
# (RFC 6901) path into the view: ``[path, value]`` puts ``value`` there (an object's member,
# new or not; a list's item, or a new last item at the list's length); a lone ``path`` removes
# what is there (a list's later items move down).
PatchOp = Annotated[
    str | tuple[str, Any],
    msgspec.Meta(
        title="PatchOp",
        description="[path, value] puts value at path; a lone path removes what is there.",
    ),
]


class UpdateMessage(_Wire, tag="update", tag_field="type", omit_defaults=True):
    """Sent often, so a field at its default (null, false) is left out."""

    seq: int
    events: list[dict[str, Any]]  # redacted for this viewer
    pending: list[PendingInfo]
    # The viewer's whole view, when it starts (a new match) or a patch would be as big;
    # else absent, and ``patch`` (absent: the view did not change) turns the view of update
    # ``seq - 1`` (or of the snapshot) into this one, operation by operation.
    view: dict[str, Any] | None = None
    room: RoomInfo | None = None  # present when seats, host, status or options changed
    ack: int | None = None  # the clientSeq of this viewer's own action that made this update
    actor: str | None = None  # who acted (None: a room change, not a game action)
    auto: bool = False  # the action was taken by the timeout rule
    patch: list[PatchOp] | None = None


class ErrorMessage(_Wire, tag="error", tag_field="type"):
    code: str  # one of jokeapp.core.codes.CODES (docs/protocol.md, "Error codes")
    message: str
    client_seq: int | None = None  # the refused frame's clientSeq, whenever it had one
    # the values the message names, e.g. client_seq_gap: {"expected": 8}; absent when none
    detail: dict[str, Any] | msgspec.UnsetType = msgspec.UNSET


class PongMessage(_Wire, tag="pong", tag_field="type"):
    server_time: int  # epoch milliseconds


ServerMessage = SnapshotMessage | UpdateMessage | ErrorMessage | PongMessage


# ---------------------------------------------------------------- HTTP: replays


class ReplayFrame(_Wire):
    """One moment of a finished match as the replay's viewer saw it: frame 0 is the start
    (setup's events, ``actor`` None), then one frame per step, like the live updates."""

    actor: str | None
    auto: bool
    events: list[dict[str, Any]]  # redacted for the viewer (all of them for ``all``)
    view: dict[str, Any]  # the viewer's view after this frame (``all``: the spectator's)
    # ``all`` only (absent otherwise): the step's action (None at frame 0)
    action: dict[str, Any] | None | msgspec.UnsetType = msgspec.UNSET
    # ``all`` only (absent otherwise): per seat, the keys of its own view that differ from
    # the spectator's
    seat_views: dict[str, dict[str, Any]] | msgspec.UnsetType = msgspec.UNSET


class ReplayResponse(_Wire):
    game: str
    room_id: str
    match: int
    players: list[str]
    nicknames: dict[str, str]
    options: dict[str, Any]
    seed: int
    seed_hash: str
    result: dict[str, Any] | None
    viewer: str  # a seat id, "spectator" or "all"
    frames: list[ReplayFrame]
    abandoned: bool = False


# ---------------------------------------------------------------- codecs

_encoder = msgspec.json.Encoder()

# The ``type`` values a client may send: the tags of ClientMessage's members.
CLIENT_TYPES: frozenset[str] = frozenset(
    str(member.__struct_config__.tag) for member in get_args(ClientMessage)
)


def error_detail(error: CodedError) -> ErrorDetail:
    """The error object both transports send: code, message and, if any, detail."""
    return ErrorDetail(code=error.code, message=error.message, detail=error.detail or msgspec.UNSET)


def error_message(error: CodedError, client_seq: int | None = None) -> ErrorMessage:
    """The WebSocket ``error`` message of ``error``."""
    return ErrorMessage(
        code=error.code,
        message=error.message,
        client_seq=client_seq,
        detail=error.detail or msgspec.UNSET,
    )


def encode(message: msgspec.Struct | dict[str, Any]) -> bytes:
    return _encoder.encode(message)


def encode_acked(payload: bytes, message: UpdateMessage, ack: int) -> bytes:
    """``encode(replace(message, ack=ack))`` spliced from ``payload``, ``message``'s own
    encoding (its ``ack`` None): the acting player's copy of an update that others see alike
    is not encoded a second time. ``ack`` comes after ``room`` and before ``actor``, ``auto``
    and ``patch``, so only those are encoded again (usually a short patch or none)."""
    tail = b"}"
    if message.patch is not None:
        tail = b',"patch":' + _encoder.encode(message.patch) + tail
    if message.auto:
        tail = b',"auto":true' + tail
    if message.actor is not None:
        tail = b',"actor":' + _encoder.encode(message.actor) + tail
    if message.ack is not None or not payload.endswith(tail):  # not its encoding: in full
        return encode(msgspec.structs.replace(message, ack=ack))
    return b'%b,"ack":%d%b' % (payload[: len(payload) - len(tail)], ack, tail)


SCHEMA_TYPES: tuple[Any, ...] = (
    ClientMessage,
    ServerMessage,
    HealthResponse,
    ReadyResponse,
    GamesResponse,
    CreateRoomRequest,
    CreateRoomResponse,
    RoomListResponse,
    RoomInfo,
    JoinRequest,
    JoinResponse,
    AddBotRequest,
    AddBotResponse,
    KickRequest,
    OptionsRequest,
    AfkRequest,
    OkResponse,
    ErrorResponse,
    ReplayResponse,
)


def schema_components() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """JSON Schema of every message type, with references into ``#/components/schemas``."""
    schemas, components = msgspec.json.schema_components(
        SCHEMA_TYPES, ref_template="#/components/schemas/{name}"
    )
    return list(schemas), components
