"""``abande_v0``: Abande as a PettingZoo AEC environment.

``env(**kwargs)`` is the wrapped environment to use, ``raw_env`` the bare one; both
take ``render_mode`` (``None``, ``"ansi"``, ``"rgb_array"``) and the rules option
``max_height``. Actions: ``Discrete(260)`` (37 entries, 37 x 6 stack moves, the pass);
observations ``(7, 7, 12)`` for the standard game. See
:mod:`hexgames.integrations.encoding` for the action order and the planes, and
:mod:`hexgames.integrations.pettingzoo.base` for agents, rewards and rendering.

Raises:
    ValueError: for a bad ``max_height`` or an unknown keyword.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import numpy as np

from hexgames import abande
from hexgames.integrations.encoding import AbandeEncoding, rules_from
from hexgames.integrations.pettingzoo.base import ColorArray, HexgamesEnv, base_colors, wrap

# Black stacks darker and White stacks lighter the higher they are.
_SHADES = ((110, 15), (225, 255))


def env(**kwargs: Any) -> Any:
    """The wrapped environment (see :func:`hexgames.integrations.pettingzoo.base.wrap`)."""
    return wrap(raw_env(**kwargs))


class raw_env(HexgamesEnv):  # PettingZoo names it so
    """Abande without the wrappers; arguments as in the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "rgb_array"], "name": "abande_v0",
        "is_parallelizable": False, "render_fps": 1}
    GAME: ClassVar[str] = "abande"
    PIXELS = 28
    FLAT_TOP = True

    encoding: AbandeEncoding

    def _make_encoding(self, options: dict[str, Any]) -> AbandeEncoding:
        return AbandeEncoding(rules_from(abande.Rules, options))

    def _cell_colors(self) -> ColorArray:
        enc = self.encoding
        colors = base_colors(enc, self._legal_actions())
        top = enc.rules.max_height
        board = cast(abande.Board, self.board)
        for cell, pieces in board.stacks().items():
            first, last = _SHADES[pieces[-1]]
            shade = first + (last - first) * (len(pieces) - 1) / max(top - 1, 1)
            colors[enc.action_of(abande.Move(cell))] = np.uint8(round(shade))
        return colors
