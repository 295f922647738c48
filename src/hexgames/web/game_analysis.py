"""The browser app's "analyse the whole game": :func:`hexgames.analysis.analyse_record`
over a finished game's main line, each position searched by an engine of the app (in one
of its worker processes when it has a pool), in a thread of its own, with progress.

This is the same analysis as ``hexgames analyse --record FILE --all``; the result is
kept with the game as JSON (:func:`hexgames.web.study.analysis_json`), drawn by the page
as a graph, and written into the study record on request by
:func:`hexgames.analysis.annotate`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from hexgames.analysis import GameAnalysis, analyse_record
from hexgames.engine.base import GameState, InfoCallback, Limit, Player, PlayResult
from hexgames.record import GameRecord

log = logging.getLogger("hexgames.web")

#: Makes the engine of one position's search (a new one each time: a worker job each).
EngineFactory = Callable[[], Any]


class EnginePlayer(Player):
    """A :class:`~hexgames.engine.base.Player` whose every search is made by a new engine
    of ``factory`` (a :class:`~hexgames.web.worker.ProcessEngine`, or a player), so that
    :func:`~hexgames.analysis.analyse_record` can drive the app's workers. The principal
    variations come back as the board's own moves."""

    def __init__(self, factory: EngineFactory, name: str) -> None:
        super().__init__()
        self.factory = factory
        self.name = name
        self._engine: Any = None
        self._lock = threading.Lock()

    def play(self, board: GameState, limit: Limit | None = None, *,
             on_info: InfoCallback | None = None) -> PlayResult:
        """Search ``board`` with a new engine (see the class).

        Raises:
            ValueError: if the game is over; whatever the engine raises.
        """
        if board.is_game_over():
            raise ValueError("the game is over: there is no move to play")
        engine = self.factory()
        with self._lock:
            self._engine = engine
            stopped = self.stopped()
        if stopped:
            engine.stop()
            # A player's play() clears a stop that came before it began: the least search.
            limit = Limit(nodes=1)
        try:
            result: PlayResult = engine.play(board, limit, on_info=on_info)
        finally:
            with self._lock:
                self._engine = None
        copy: Any = board.copy()
        moves = []
        for move in result.info.pv:  # the texts of a worker as moves of the board
            try:
                parsed = copy.parse_notation(move) if isinstance(move, str) else move
                copy.push(parsed)
            except ValueError:
                break
            moves.append(parsed)
        result.info.pv = moves
        return result

    def stop(self) -> None:
        super().stop()
        with self._lock:
            engine = self._engine
        if engine is not None:
            engine.stop()


class GameAnalysisRun:
    """One whole-game analysis of ``record``'s main line, in a daemon thread.

    ``on_progress(done, total)`` is called after each position, ``on_done(run)`` once at
    the end (with :attr:`result` the :class:`~hexgames.analysis.GameAnalysis`, or
    :attr:`error` the exception); :meth:`stop` ends it after the position being searched
    (``result.complete`` false then).
    """

    def __init__(self, record: GameRecord, factory: EngineFactory, name: str,
                 seconds: float, *, on_progress: Callable[[int, int], None],
                 on_done: Callable[[GameAnalysisRun], None]) -> None:
        self.record = record
        self.player = EnginePlayer(factory, name)
        self.name = name
        self.seconds = seconds
        self.total = len(record.moves) + 1
        self.done = 0
        self.result: GameAnalysis | None = None
        self.error: Exception | None = None
        self._stopped = threading.Event()
        #: The account that started the run (``None``: the local person).
        self.started_by: int | None = None
        self._on_progress = on_progress
        self._on_done = on_done

    def start(self) -> None:
        """Start the analysis thread."""
        threading.Thread(target=self._run, name="hexgames-game-analysis",
                         daemon=True).start()

    def stop(self) -> None:
        """End the analysis soon, with what it has."""
        self._stopped.set()
        self.player.stop()

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stopped.is_set()

    def _progress(self, done: int, total: int) -> None:
        self.done = done
        try:
            self._on_progress(done, total)
        except Exception:
            log.exception("whole-game analysis progress failed")

    def _run(self) -> None:
        try:
            self.result = analyse_record(self.record, self.player,
                                         Limit(time=self.seconds), name=self.name,
                                         progress=self._progress,
                                         should_stop=self._stopped.is_set)
        except Exception as error:  # reported by on_done
            if not self.stopped:
                log.exception("whole-game analysis failed")
            self.error = error
        try:
            self._on_done(self)
        except Exception:
            log.exception("applying a whole-game analysis failed")
