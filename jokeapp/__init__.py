"""joke-app party games: rules engines, room server, bots and tools."""
