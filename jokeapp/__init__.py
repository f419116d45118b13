"""joke-app party games: rules engines, room server, bots and tools."""

from jokeapp import compiled as _compiled

# The compiled engines when their build is up to date (jokeapp/compiled.py), before any of
# them is imported.
_compiled.install()
