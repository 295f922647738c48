"""hexgames: rules engines, AI players and tools for Andantino and Abande.

The game modules are imported on demand: ``from hexgames import andantino``.
"""

from __future__ import annotations

from hexgames.core import (
    FIRST,
    SECOND,
    HexgamesError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    Outcome,
    Termination,
)

__version__ = "0.1.0"

__all__ = [
    "FIRST",
    "SECOND",
    "HexgamesError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesError",
    "Outcome",
    "Termination",
    "__version__",
]
