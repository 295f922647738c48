"""The arena's errors, in a module of their own so that every arena module can raise
them without importing the others."""

from __future__ import annotations

from hexgames.core import HexgamesError


class ArenaError(HexgamesError):
    """A match that cannot be played as asked, or a player that broke the rules."""


class OutputError(ArenaError):
    """An output directory or file that cannot be written, found before the first game
    (a later failure is not raised: the output moves elsewhere, see
    :mod:`hexgames.arena.output`)."""
