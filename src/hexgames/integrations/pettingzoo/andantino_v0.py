"""``andantino_v0``: Andantino as a PettingZoo AEC environment.

``env(**kwargs)`` is the wrapped environment to use, ``raw_env`` the bare one; both
take ``render_mode`` (``None``, ``"ansi"``, ``"rgb_array"``), the rules options as
keywords (``single_adjacency``, ``self_trap``, ``extended``, ``extended_move_limit``,
``tiles_per_player``) and ``window``. Actions: placements on the hexagon of radius
``tiles_per_player`` (1951 cells for the standard game), plus relocations in extended
play; observations ``(51, 51, 9)`` for the standard game, or with ``window=W`` the 12
planes of the window of radius W re-centred on the tiles (``(17, 17, 12)`` for W = 8:
``AndantinoEncoding(rules, window=W)``). See
:mod:`hexgames.integrations.encoding` for the action order and the planes, and
:mod:`hexgames.integrations.pettingzoo.base` for agents, rewards and rendering.

Raises:
    ValueError: for an unknown or bad rules option, ``tiles_per_player=None`` (no
        fixed action space exists for unlimited tiles), or a ``window`` that is not a
        whole number from 1 to ``tiles_per_player``.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import numpy as np

from hexgames import andantino
from hexgames.integrations.encoding import AndantinoEncoding, rules_from
from hexgames.integrations.pettingzoo.base import ColorArray, HexgamesEnv, base_colors, wrap

_TILE_COLORS = ((248, 246, 238), (196, 34, 40))


def env(**kwargs: Any) -> Any:
    """The wrapped environment (see :func:`hexgames.integrations.pettingzoo.base.wrap`)."""
    return wrap(raw_env(**kwargs))


class raw_env(HexgamesEnv):  # PettingZoo names it so
    """Andantino without the wrappers; arguments as in the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "rgb_array"], "name": "andantino_v0",
        "is_parallelizable": False, "render_fps": 1}
    GAME: ClassVar[str] = "andantino"
    PIXELS = 7

    encoding: AndantinoEncoding

    def _make_encoding(self, options: dict[str, Any]) -> AndantinoEncoding:
        options = dict(options)
        window = options.pop("window", None)
        return AndantinoEncoding(rules_from(andantino.Rules, options), window)

    def _cell_colors(self) -> ColorArray:
        enc = self.encoding
        colors = base_colors(enc, self._legal_actions())
        board = cast(andantino.Board, self.board)
        for color in (0, 1):
            cells = [enc.action_of(andantino.Move(cell)) for cell in board.tiles(color)
                     if cell in enc.cells]
            colors[cells] = np.array(_TILE_COLORS[color], np.uint8)
        return colors
