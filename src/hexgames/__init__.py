"""hexgames: rules engines, AI players and tools for Andantino and Abande.

The game modules are imported on demand: ``from hexgames import andantino``. The names
below come from :mod:`hexgames.core`, imported on first use (PEP 562), so that the
console script (:mod:`hexgames._console`) runs almost no code of ours before it can
answer Ctrl-C.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    """The names of :mod:`hexgames.core` that the package exports."""
    if name in __all__:
        from hexgames import core

        return getattr(core, name)
    raise AttributeError(f"module 'hexgames' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
