"""The OpenAPI 3.1 document of the HTTP API, built from the route table (http_api.ENDPOINTS)
and the protocol's message classes: a route is described once, where it is served."""

from __future__ import annotations

import re
from typing import Any

from jokeapp.server.http_api import ENDPOINTS, Endpoint
from jokeapp.wire.protocol import PROTOCOL_VERSION, schema_components

_PATH_PARAM = re.compile(r"{(\w+)}")


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ref(kind: type) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{kind.__name__}"}


def _operation(endpoint: Endpoint) -> dict[str, Any]:
    answer = _ref(endpoint.answer) if endpoint.answer is not None else {"type": "object"}
    op: dict[str, Any] = {
        "summary": endpoint.summary,
        "responses": {
            str(endpoint.status): {"description": endpoint.answer_text, **_json(answer)},
            "4XX": {
                "description": "refused; see docs/protocol.md for the codes",
                **_json({"$ref": "#/components/schemas/ErrorResponse"}),
            },
        },
    }
    parameters = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in _PATH_PARAM.findall(endpoint.path)
    ]
    parameters += [
        {"name": q.name, "in": "query", "required": False, "schema": q.schema}
        for q in endpoint.query
    ]
    if parameters:
        op["parameters"] = parameters
    if endpoint.body is not None:
        op["requestBody"] = {"required": True, **_json(_ref(endpoint.body))}
    if endpoint.auth:
        op["security"] = [{"token": []}]
    return op


def document() -> dict[str, Any]:
    _, components = schema_components()
    paths: dict[str, dict[str, Any]] = {}
    for endpoint in ENDPOINTS:
        paths.setdefault(endpoint.path, {})[endpoint.method.lower()] = _operation(endpoint)
    return {
        "openapi": "3.1.0",
        "info": {"title": "joke-app room server", "version": str(PROTOCOL_VERSION)},
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
        },
    }
