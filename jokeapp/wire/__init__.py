"""The one wire contract between the room server and its clients (docs/protocol.md).

``protocol``: every message as a msgspec Struct (rooms build them, the server sends and reads
them, ``joke schema`` exports them); ``game_types``: each game's actions, events and view
(``game.wire``) as msgspec types. Below rooms in the layers: it knows no room and no server.
"""
