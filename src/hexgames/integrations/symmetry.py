"""The 12 symmetries of the hex grid as data augmentation for observations and actions
(needs numpy).

A position's rotations by multiples of 60 degrees and their mirror images are worth the
same to both players in both games (every rule speaks only of adjacency and lines), so a
learner may train on all 12 images of each sample::

    >>> import numpy as np
    >>> from hexgames import abande
    >>> from hexgames.integrations.encoding import AbandeEncoding
    >>> from hexgames.integrations.symmetry import Symmetries
    >>> enc = AbandeEncoding()
    >>> sym = Symmetries(enc)
    >>> obs = enc.observation(abande.Board())[None]        # a batch of one
    >>> sym.observation(obs, 1).shape                      # rotated by 60 degrees
    (1, 12, 7, 7)
    >>> a1 = enc.action_of(abande.Move.from_notation("a1"))
    >>> [enc.move_of(int(sym.action(a1, k))).notation() for k in range(6)]  # the corners
    ['a1', 'a4', 'd7', 'g4', 'g1', 'd1']

Symmetry ``k`` is :func:`hexgames.hexgrid.symmetry`: ``k`` in 0..5 rotates by ``k``
times 60 degrees about the origin, 6..11 reflect in the line ``q == r`` and then rotate
by ``k - 6`` steps; 0 is the identity.

**About which centre.** Both encodings' grids are hexagons around the origin (the cell
``(0, 0)`` at row and column ``R``, :mod:`hexgames.integrations.encoding`): Abande's
fixed board of 37 points, and Andantino's hexagon of radius ``tiles_per_player`` around
White's set-up tile. Every symmetry maps the hexagon onto itself, so an image is a
position of the same space: a symmetry permutes the grid's squares (the squares outside
the hexagon, 0 in every plane, stay put) and the actions (Abande: an entry goes to the
image point, a stack move to the image point and the image direction, the pass stays;
Andantino: a placement to the image cell, a relocation to the images of both cells).
Andantino's image of a game starts from another set-up (Red's tile at the image of
``(1, 0)``); the rules are those of the surface, so it is a game all the same.

**Andantino's window.** With ``AndantinoEncoding(rules, window=W)`` the observation is
the hexagon of radius W around the window's centre c, and a symmetry turns it about
that centre: the image of the observation is the observation of the image position
through the window around the image of c (:meth:`Symmetries.centre`), which is the
same as its own window whenever the image of c is :meth:`AndantinoEncoding.
window_centre` of the image position, and otherwise lies a cell or so beside it (the
centre is rounded down: no rounding turns with every symmetry). The planes that
summarise what lies outside the window are the same in both, and the actions are those
of the whole hexagon as without a window (:meth:`AndantinoEncoding.window_actions` of
the image centre maps the image squares to the image actions).

``tests/test_integrations_symmetry.py`` checks, on every ply of random games of both
games, that the image of each legal move is legal in the image position (and only
those), that the image of the observation is the observation of the image position
(through the window around the image centre, for a window), and that playing a move
then taking the image equals taking the image then playing the image move.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from hexgames.hexgrid import DIRECTIONS, SYMMETRIES, Cell, hexagon
from hexgames.integrations.encoding import AbandeEncoding, AndantinoEncoding

__all__ = ["NUM_SYMMETRIES", "Symmetries"]

#: Six rotations, each with or without a reflection.
NUM_SYMMETRIES = 12

IntArray = npt.NDArray[np.int64]


class Symmetries:
    """The 12 symmetries of one encoding's grid and action space, as index arrays.

    Args:
        encoding: an :class:`~hexgames.integrations.encoding.AndantinoEncoding` (with
            or without a window) or :class:`~hexgames.integrations.encoding.
            AbandeEncoding` (only its spaces are used; the native encoders have the
            same ones).

    Raises:
        ValueError: for another object.

    Attributes:
        window: the encoding's window radius, or ``None``.
        matrices: ``(12, 2, 2)`` ``int64``: symmetry k maps ``(q, r)`` to
            ``(q, r) @ matrices[k]``.
        squares: ``(12, side * side)`` ``int64``: ``squares[k, j]`` is the grid square
            (row-major) whose value goes to square ``j`` in image ``k``.
        actions: ``(12, num_actions)`` ``int64``: ``actions[k, a]`` is the image of
            action ``a``.
        sources: ``(12, num_actions)`` ``int64``, the inverse: ``sources[k, b]`` is the
            action whose image is ``b``.
    """

    def __init__(self, encoding: AndantinoEncoding | AbandeEncoding) -> None:
        if not isinstance(encoding, AndantinoEncoding | AbandeEncoding):
            raise ValueError(f"encoding must be an AndantinoEncoding or an AbandeEncoding, "
                             f"not {type(encoding).__name__}")
        self.encoding = encoding
        side = encoding.side
        # The grid's cells: the action hexagon's, or the window's around its centre.
        window: int | None = getattr(encoding, "window", None)
        radius = encoding.radius if window is None else window
        grid = encoding.cells if window is None else hexagon(window)
        self.window = window
        self.side = side
        self.num_actions = encoding.num_actions
        self.num_planes = encoding.num_planes
        squares = np.tile(np.arange(side * side, dtype=np.int64), (NUM_SYMMETRIES, 1))
        actions = np.empty((NUM_SYMMETRIES, encoding.num_actions), np.int64)
        # Each symmetry is linear in (q, r): the images of (1, 0) and (0, 1).
        self.matrices = np.array([[transform((1, 0)), transform((0, 1))]
                                  for transform in SYMMETRIES], np.int64)
        for k, transform in enumerate(SYMMETRIES):
            for q, r in grid:
                tq, tr = transform((q, r))
                squares[k, (tr + radius) * side + tq + radius] = (r + radius) * side + q + radius
            actions[k] = self._action_images(encoding, transform)
        sources = np.empty_like(actions)
        rows = np.arange(NUM_SYMMETRIES)[:, None]
        sources[rows, actions] = np.arange(encoding.num_actions, dtype=np.int64)[None, :]
        self.squares = squares
        self.actions = actions
        self.sources = sources

    @staticmethod
    def _action_images(encoding: AndantinoEncoding | AbandeEncoding,
                       transform: Any) -> IntArray:
        index = {cell: i for i, cell in enumerate(encoding.cells)}
        image = np.array([index[transform(cell)] for cell in encoding.cells], np.int64)
        n = len(encoding.cells)
        if isinstance(encoding, AndantinoEncoding):
            if encoding.num_actions == n:
                return image
            # Relocations: n + from * n + to.
            relocations = n + image[:, None] * n + image[None, :]
            return np.concatenate([image, relocations.ravel()])
        out = np.empty(encoding.num_actions, np.int64)
        out[:n] = image
        turn = {d: DIRECTIONS.index(transform(d)) for d in DIRECTIONS}
        for i in range(n):
            for d, direction in enumerate(DIRECTIONS):
                out[AbandeEncoding.STACK_MOVES + 6 * i + d] = (
                    AbandeEncoding.STACK_MOVES + 6 * int(image[i]) + turn[direction])
        out[AbandeEncoding.PASS] = AbandeEncoding.PASS
        return out

    def _symmetry(self, k: Any, batch: int | None) -> Any:
        """``k`` checked: an int in 0..11, or an integer array of ``batch`` of them."""
        if isinstance(k, np.ndarray):
            if k.dtype.kind not in "iu":
                raise ValueError(f"symmetries must be integers, not of dtype {k.dtype}")
            if batch is None or k.shape != (batch,):
                raise ValueError(f"an array of symmetries must have shape (batch,), one per "
                                 f"sample of the first axis ({batch}), not {k.shape}")
            if k.size and (int(k.min()) < 0 or int(k.max()) >= NUM_SYMMETRIES):
                raise ValueError(f"symmetries must be in 0..11, got {int(k.min())}.."
                                 f"{int(k.max())}")
            return k.astype(np.int64)
        try:
            value = operator.index(k)
        except TypeError:
            raise ValueError(f"symmetry must be an int in 0..11 or an integer array, "
                             f"not {type(k).__name__}") from None
        if not 0 <= value < NUM_SYMMETRIES:
            raise ValueError(f"symmetry index must be in 0..11, got {value}")
        return value

    def observation(self, observations: npt.NDArray[Any], k: int | npt.NDArray[Any],
                    channels_first: bool = True) -> npt.NDArray[Any]:
        """The image of observations under symmetry ``k``, a new array.

        Args:
            observations: ``(..., planes, side, side)`` (channels first) or ``(...,
                side, side, planes)``, any dtype (a batch, one observation, a stack).
            k: the symmetry, an int in 0..11 for all, or an integer array of shape
                ``(batch,)``: one for each sample of the first axis.
            channels_first: the layout of ``observations``.

        Raises:
            ValueError: for trailing dimensions that are not the encoding's observation
                shape, or a bad ``k``.
        """
        obs = np.asarray(observations)
        side, planes = self.side, self.num_planes
        tail = (planes, side, side) if channels_first else (side, side, planes)
        if obs.shape[-3:] != tail:
            raise ValueError(f"observations must end in the shape {tail}, not {obs.shape}")
        lead = obs.shape[:-3]
        k = self._symmetry(k, lead[0] if lead else None)
        squares = self.squares
        if channels_first:
            flat = obs.reshape(*lead, planes, side * side)
            out = _gather(flat, k, lambda x, j: x[..., squares[j]])
        else:
            flat = obs.reshape(*lead, side * side, planes)
            out = _gather(flat, k, lambda x, j: x[..., squares[j], :])
        return out.reshape(obs.shape)

    def action(self, actions: Any, k: int | npt.NDArray[Any]) -> IntArray:
        """The images of ``actions`` (an int or an integer array) under symmetry ``k``
        (an int, or an array of ``k`` of the same shape as ``actions``), ``int64``.

        Raises:
            ValueError: for an action outside ``0 .. num_actions - 1`` or a bad ``k``.
        """
        array = np.asarray(actions)
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, not of dtype {array.dtype}")
        if array.size and (int(array.min()) < 0 or int(array.max()) >= self.num_actions):
            bad = int(array.min()) if int(array.min()) < 0 else int(array.max())
            raise ValueError(f"action {bad} is outside the action space "
                             f"0..{self.num_actions - 1}")
        k = self._symmetry(k, len(array) if array.ndim == 1 else None)
        images: IntArray = self.actions[k][array] if isinstance(k, int) else self.actions[k, array]
        return images

    def policy(self, values: npt.NDArray[Any], k: int | npt.NDArray[Any]) -> npt.NDArray[Any]:
        """The image of per-action values (a legal-action mask, a policy's
        probabilities or logits) under symmetry ``k``, a new array: ``out[..., b] =
        values[..., a]`` where ``b`` is the image of ``a``.

        Args:
            values: ``(..., num_actions)``, any dtype.
            k: an int in 0..11, or an integer array of shape ``(batch,)`` for the first
                axis.

        Raises:
            ValueError: for a last dimension other than ``num_actions``, or a bad ``k``.
        """
        array = np.asarray(values)
        if array.ndim == 0 or array.shape[-1] != self.num_actions:
            raise ValueError(f"values must end in the {self.num_actions} actions, not "
                             f"have shape {array.shape}")
        lead = array.shape[:-1]
        k = self._symmetry(k, lead[0] if lead else None)
        sources = self.sources
        return _gather(array, k, lambda x, j: x[..., sources[j]])

    def centre(self, centres: Any, k: int | npt.NDArray[Any]) -> IntArray:
        """The images of window centres ``(q, r)`` (``(2,)`` or ``(N, 2)`` integers, as
        ``window_centres()`` of the vector environment gives them) under symmetry
        ``k`` (an int, or one per row), ``int64``: the centres of the windows of the
        image observations (see the module docstring).

        Raises:
            ValueError: for centres of another shape or dtype, or a bad ``k``.
        """
        array = np.asarray(centres)
        if array.shape[-1:] != (2,) or array.ndim > 2 or array.dtype.kind not in "iu":
            raise ValueError(f"centres must be integer (q, r) pairs of shape (2,) or (N, 2), "
                             f"not of shape {array.shape} and dtype {array.dtype}")
        k = self._symmetry(k, len(array) if array.ndim == 2 else None)
        pairs = array.astype(np.int64)
        images: IntArray = np.einsum("...i,...ij->...j", pairs, self.matrices[k])
        return images

    def cell(self, cell: Cell, k: int) -> Cell:
        """The image of ``cell`` under symmetry ``k`` (:func:`hexgames.hexgrid.symmetry`)."""
        image: Cell = SYMMETRIES[self._symmetry(k, None)](cell)
        return image


def _gather(array: npt.NDArray[Any], k: int | IntArray,
            image: Callable[[npt.NDArray[Any], int], npt.NDArray[Any]]) -> npt.NDArray[Any]:
    """``image(array, k)``, or with an array ``k`` the image of each sample of the first
    axis under its own symmetry: one fancy index per symmetry present (an index array
    as large as the output, as ``np.take_along_axis`` wants, costs more than the
    gather)."""
    if isinstance(k, int):
        return image(array, k)
    out = np.empty_like(array)
    for j in np.unique(k).tolist():
        rows = np.flatnonzero(k == j)
        out[rows] = image(array[rows], j)
    return out
