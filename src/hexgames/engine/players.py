"""Players and levels by name: what the command line, the arena and the web app use."""

from __future__ import annotations

from collections.abc import Callable

from hexgames.core import HexgamesError
from hexgames.engine.base import Player
from hexgames.engine.random_player import RandomPlayer


class UnknownPlayerError(HexgamesError):
    """A player or level name that hexgames does not know."""


_FACTORIES: dict[str, Callable[[int | None], Player]] = {
    "random": lambda seed: RandomPlayer(seed),
}

#: The names :func:`make_player` accepts.
PLAYER_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_player(name: str, *, seed: int | None = None) -> Player:
    """A new player by name (any letter case).

    Raises:
        UnknownPlayerError: for a name not in :data:`PLAYER_NAMES`.
    """
    factory = _FACTORIES.get(name.strip().lower())
    if factory is None:
        raise UnknownPlayerError(
            f"unknown player {name!r} (known: {', '.join(PLAYER_NAMES)})")
    return factory(seed)
