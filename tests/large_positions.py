"""Large Andantino positions, for the tests of what grows with the size of a position."""

from __future__ import annotations

from andantino_reference import position_string

from hexgames.andantino import Rules

#: Extended play with 300 tiles each: :func:`strip_position` is a position of it.
STRIP_RULES = Rules(extended=True, tiles_per_player=300)


def strip_position(length: int = 300) -> str:
    """Two rows of ``length`` tiles (``0,0`` to ``length-1,1``), coloured in runs of two
    along each row so that nobody has a line or a pocket, both hands empty and White to
    move under :data:`STRIP_RULES`: about ``2 * length`` cells touch two tiles, and each
    of White's ``length`` tiles may go to nearly every one of them (179,400 relocations
    for the default 300, a 3.4 KB position string)."""
    white, red = [], []
    for r in (0, 1):
        for q in range(length):
            (white if (q + 2 * r) % 4 < 2 else red).append((q, r))
    return position_string(white, red, 0, (0, 0), relocations=0)
