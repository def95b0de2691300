"""Typed errors for bad input; each carries a stable ``code`` that the server sends to clients."""


class GameError(ValueError):
    """Base class of the errors a game raises for bad input."""

    code = "game_error"


class IllegalAction(GameError):
    """The action is malformed, out of turn, for a seat that may not act, or against the rules."""

    code = "illegal_action"


class InvalidOptions(GameError):
    """Unknown option key or value, or a seat count the game does not support."""

    code = "invalid_options"
