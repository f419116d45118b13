"""The durable store: rooms, seats, the append-only action log, snapshots and results."""
