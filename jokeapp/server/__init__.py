"""The room server: HTTP API, WebSocket sessions and static files (docs/server.md)."""
