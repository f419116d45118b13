"""The client's copy of the JSON Schema (client/schema/protocol.schema.json, from which
``npm run gen`` writes src/net/*.gen.ts) is what ``joke schema`` exports now: a change of a
wire Struct or of a game's wire types must come with the regenerated client types."""

from __future__ import annotations

import json
from pathlib import Path

from jokeapp.server.schema import document

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "client" / "schema" / "protocol.schema.json"


def test_the_clients_schema_is_the_exported_one() -> None:
    stored = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert stored == json.loads(json.dumps(document())), (
        "client/schema/protocol.schema.json is out of date: run `cd client && npm run gen`"
    )
