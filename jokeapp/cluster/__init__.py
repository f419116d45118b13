"""Several server nodes as one service (docs/cluster.md): leases in Redis say which node owns
each live room, the store fences a stale owner, and a request for a room owned elsewhere is
forwarded to its owner. Between rooms (which know nothing of it) and the server."""
