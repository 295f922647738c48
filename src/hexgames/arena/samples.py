"""Self-play training samples in Parquet (through ``pyarrow``, the ``selfplay`` extra):
one row per position a player moved from, written as games finish.

The columns (Parquet types):

==============  =================  =====================================================
column          type               meaning
==============  =================  =====================================================
game            int64              the game's number (1-based; its record's ``Round``)
ply             int32              plies played before the position (0 at the start)
position        string             the position string (docs/notation.md)
turn            int8               the colour to move: 0 the first player, 1 the second
player          string             the spec of the player to move
move            string             the move it played, in the game's notation
score           double (nullable)  its search's estimate that the side to move wins
                                   (0 to 1, draws one half), ``Info.score``
eval            double (nullable)  alpha-beta's evaluation for the side to move
depth           int32              the search depth reported (plies)
nodes           int64              the nodes (or simulations) reported
policy_moves    list<string>       the search's move probabilities when the player
policy_probs    list<double>       reports them (``Info.policy``), else null
result          double             the game's final result for the side to move: 1 a
                                   win, 0.5 a draw, 0 a loss
==============  =================  =====================================================

Rows are buffered up to :data:`ROW_GROUP` and written as one Parquet row group, so
memory stays bounded whatever the number of games. Read them back with
``pyarrow.parquet.read_table(path)`` (or pandas, polars, DuckDB).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexgames.arena.errors import OutputError

if TYPE_CHECKING:
    from hexgames.arena.match import GameResult

#: Rows written together as one Parquet row group.
ROW_GROUP = 4096


def _pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise OutputError("training samples are written with pyarrow, which is not "
                          "installed: pip install 'hexgames[selfplay]'") from None
    return pyarrow, pyarrow.parquet


def sample_schema() -> Any:
    """The ``pyarrow.Schema`` of the samples (see the module)."""
    pa, _ = _pyarrow()
    return pa.schema([
        ("game", pa.int64()), ("ply", pa.int32()), ("position", pa.string()),
        ("turn", pa.int8()), ("player", pa.string()), ("move", pa.string()),
        ("score", pa.float64()), ("eval", pa.float64()), ("depth", pa.int32()),
        ("nodes", pa.int64()), ("policy_moves", pa.list_(pa.string())),
        ("policy_probs", pa.list_(pa.float64())), ("result", pa.float64()),
    ])


class SampleWriter:
    """Writes the samples of finished games to a Parquet file (see the module).

    Raises:
        OutputError: without ``pyarrow``.
        OSError: if the file cannot be created.
    """

    def __init__(self, path: Path) -> None:
        self._pa, self._pq = _pyarrow()
        self.schema = sample_schema()
        self.path = path
        self.rows = 0
        self._columns: dict[str, list[Any]] = {name: [] for name in self.schema.names}
        # The file is opened here, not by pyarrow, so that a file deleted while open
        # can still be read back and saved elsewhere (see :meth:`close`).
        self._file = open(path, "w+b")  # noqa: SIM115
        self._writer = self._pq.ParquetWriter(self._file, self.schema)

    def add(self, result: GameResult) -> None:
        """Buffer the samples of ``result`` (writing a row group when enough are held)."""
        if result.samples is None:
            return
        winner = result.outcome.winner
        columns = self._columns
        for sample in result.samples:
            side = sample.turn ^ result.first  # 0 when A is to move
            columns["game"].append(result.index + 1)
            columns["ply"].append(sample.ply)
            columns["position"].append(sample.position)
            columns["turn"].append(sample.turn)
            columns["player"].append(result.players[side])
            columns["move"].append(sample.move)
            columns["score"].append(sample.score)
            columns["eval"].append(sample.eval)
            columns["depth"].append(sample.depth)
            columns["nodes"].append(sample.nodes)
            policy = sample.policy
            columns["policy_moves"].append(None if policy is None else [m for m, _ in policy])
            columns["policy_probs"].append(None if policy is None else [p for _, p in policy])
            columns["result"].append(0.5 if winner is None else float(winner == sample.turn))
        if len(columns["game"]) >= ROW_GROUP:
            self.flush()

    def flush(self) -> None:
        """Write the buffered rows as a row group."""
        count = len(self._columns["game"])
        if not count:
            return
        table = self._pa.table(self._columns, schema=self.schema)
        self._writer.write_table(table)
        self.rows += count
        for column in self._columns.values():
            column.clear()

    def removed(self) -> bool:
        """Whether the file was deleted while open (its rows then reach no file)."""
        try:
            return os.fstat(self._file.fileno()).st_nlink == 0
        except (OSError, ValueError):
            return True

    def move(self, folder: Path) -> None:
        """Go on in a new file in ``folder`` (after a write error): the rows written so
        far are lost with the old file, unless it was only deleted (see :meth:`close`)."""
        with contextlib.suppress(OSError, ValueError):
            self._writer.close()
            self._file.close()
        self.path = folder / self.path.name
        self._file = open(self.path, "w+b")  # noqa: SIM115
        self._writer = self._pq.ParquetWriter(self._file, self.schema)

    def close(self, rescue: Path | None = None) -> None:
        """Write what is buffered and the file's footer; if the file was deleted while
        open and ``rescue`` is a directory, copy it there whole first.

        Raises:
            OSError: if the file cannot be finished (or rescued).
        """
        self.flush()
        self._writer.close()
        try:
            if rescue is not None and self.removed():
                self._file.seek(0)
                target = rescue / self.path.name
                with open(target, "wb") as copy:
                    shutil.copyfileobj(self._file, copy)
                self.path = target
        finally:
            self._file.close()
