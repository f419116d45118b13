"""Small exception classes with a stable code and the player's Korean message."""


class GameError(Exception):
    """Base of every error a game reports to a player or a tool."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class IllegalAction(GameError):
    """An action that the rules do not allow now; the state is unchanged."""


class InvalidOptions(GameError):
    """An unknown option key or a value outside that key's choices."""
