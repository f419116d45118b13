"""Rooms: seats, host, spectators, bots, turn clocks and reconnection (docs/server.md)."""
