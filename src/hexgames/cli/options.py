"""The option and argument types the commands share, and the helpers that turn option
values into what the commands work on: a game's module, its rules, a board, a search
limit, the text of a record file.

A bad value is refused before any work starts, named after its parameter (``--games must
be at least 1, not 0``, ``DEPTH must be a whole number, not 'x'``), with exit status 2.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import click

from hexgames import limits
from hexgames.cli.errors import InputError
from hexgames.core import HexgamesError, whole_number
from hexgames.engine.base import MAX_LIMIT_COUNT, search_seconds
from hexgames.games import UnknownGameError, game_module
from hexgames.record.errors import MESSAGE_SHOWN, quote, shorten, shorten_in


def load_game(name: str) -> ModuleType:
    """The module of the game called ``name``.

    Raises:
        UnknownGameError: for a name that is no game, or a game whose module is not part
            of this installation yet.
    """
    try:
        return game_module(name)
    except UnknownGameError as error:
        raise _shortened(error, name) from None
    except ModuleNotFoundError as error:
        key = name.strip().lower()
        if error.name != f"hexgames.{key}":
            raise
        raise UnknownGameError(
            f"game {key} is not available in this version of hexgames") from None


def parse_rules(module: ModuleType, words: Iterable[str]) -> Any:
    """The game's ``Rules`` from ``--rules`` values; each value may hold several
    ``key=value`` words separated by spaces."""
    options = [word for value in words for word in value.split()]
    try:
        return module.Rules.from_options(options)
    except HexgamesError as error:
        raise _shortened(error, " ".join(options)) from None


def new_board(module: ModuleType, rules: Any = None, position: str | None = None) -> Any:
    """A board of the game at ``position`` (the standard start when ``None``)."""
    try:
        return module.Board(position, rules)
    except HexgamesError as error:
        raise _shortened(error, position or "") from None


def _shortened(error: HexgamesError, text: str) -> HexgamesError:
    """``error`` with its message's quotations of ``text``, a user's long input, and any
    other word over 60 characters cut short (a 100 KB position was echoed whole)."""
    error.args = (shorten_in(str(error), text),)
    return error


#: The ``--rules KEY=VALUE`` option (repeatable) of every command that sets up a game,
#: passed to the command as ``rules_words``; see :func:`parse_rules`.
rules_option = click.option(
    "--rules", "rules_words", multiple=True, metavar="KEY=VALUE",
    help="A rules option such as single_adjacency=on (repeatable).")


class _BadValue(click.BadParameter):
    """A bad option or argument value, reported with the parameter's name first:
    ``--games must be at least 1, not 0``, ``DEPTH must be a whole number, not 'x'``."""

    def format_message(self) -> str:
        param = self.param
        if param is None:
            return self.message
        if isinstance(param, click.Argument):
            name = param.human_readable_name
        else:
            name = max(param.opts, key=len)
        return f"{name} {self.message}"


class WholeNumberType(click.ParamType[int]):
    """A whole number, optionally within ``min`` .. ``max``; ``why`` explains the
    maximum in the error message."""

    name = "integer"

    def __init__(self, min: int | None = None, max: int | None = None, why: str = "") -> None:
        self.min = min
        self.max = max
        self.why = why

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                raise _BadValue(f"must be a whole number, not {shorten(text)!r}", ctx, param)
            digits = len(text.lstrip("+-").lstrip("0"))
            if digits > 100:  # int() refuses thousands of digits; no count is that big
                negative = text.startswith("-")
                if negative and self.min is not None:
                    self._below(text, param, ctx)
                if not negative and self.max is not None:
                    self._above(text, param, ctx)
                raise _BadValue(f"must have at most 100 digits, not {digits}", ctx, param)
            number = whole_number(text)
        if self.min is not None and number < self.min:
            self._below(str(number), param, ctx)
        if self.max is not None and number > self.max:
            self._above(str(number), param, ctx)
        return number

    def _below(self, text: str, param: click.Parameter | None,
               ctx: click.Context | None) -> NoReturn:
        raise _BadValue(f"must be at least {self.min}, not {shorten(text)}", ctx, param)

    def _above(self, text: str, param: click.Parameter | None,
               ctx: click.Context | None) -> NoReturn:
        raise _BadValue(f"must be at most {self.max}{self.why}, not {shorten(text)}",
                        ctx, param)


class SecondsType(click.ParamType[float]):
    """A time in seconds: a number above 0 and at most
    :data:`hexgames.limits.MAX_SEARCH_SECONDS` (NaN, infinity and 1e308 would make a
    command run for ever)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        try:
            return search_seconds(str(value))
        except ValueError as error:
            raise _BadValue(str(error), ctx, param) from None


#: The players of ``play`` that are not player specs of :mod:`hexgames.engine.players`.
PLAYER_KINDS = ("human", "random")


class PlayerSpecType(click.ParamType[str]):
    """A player spec (``random``, ``hard``, ``mcts:time=2``...), checked by making the
    player once with :func:`hexgames.engine.players.make_player`, so that a value only
    the player's constructor checks (``alphabeta:randomness=-1``, ``tt_mb``, ``multipv``)
    is a bad value of the option as every other one; with ``human=True`` also
    ``human``."""

    name = "player"

    def __init__(self, *, human: bool = False) -> None:
        self.human = human

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value).strip()
        if self.human and text.lower() in PLAYER_KINDS:
            return text.lower()
        if self.human and text.partition(":")[0].strip().lower() == "human":
            self.fail(f"human takes no options, not {quote(text)}", param, ctx)
        from hexgames.engine.players import make_player, parse_spec

        try:
            make_player(text)
        except HexgamesError as error:
            self.fail(shorten_in(str(error), text), param, ctx)
        return text.lower() if parse_spec(text).text.lower() in PLAYER_KINDS else text


class SavePathType(click.ParamType[str]):
    """A file to write to when the work is done (a game record when the game ends),
    checked before the work starts so that it is never done for nothing: not empty, not
    a directory, in a directory that exists and may be written to, and a file that can
    really be opened for writing there (:func:`unwritable`: a name too long, a
    read-only file system or a directory such as ``/proc`` that takes no files, which
    ``os.access`` does not see, not least for root)."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value)
        if not text.strip():
            raise _BadValue("needs a file name, not an empty one", ctx, param)
        path = Path(text)
        folder = path.absolute().parent
        try:
            if path.is_dir():
                problem = f"{text} is a directory"
            elif not folder.is_dir():
                problem = f"there is no directory {folder}"
            elif path.exists() and not os.access(path, os.W_OK):
                problem = f"{text} may not be written"
            elif not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
                problem = f"the directory {folder} may not be written"
            else:
                reason = unwritable(path)
                if reason is None:
                    return text
                problem = f"{shorten(text)}: {reason}"
        except OSError as error:  # a name too long even to look up
            problem = f"{shorten(text)}: {error.strerror or error}"
        raise _BadValue(f"cannot be written to: {problem}", ctx, param)


class WorkDirType(click.ParamType[str]):
    """A directory to keep work in, checked before the work starts: not empty, not a
    file, and (made with its parents when missing) one that may be written to."""

    name = "directory"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value)
        if not text.strip():
            raise _BadValue("needs a directory name, not an empty one", ctx, param)
        path = Path(text)
        try:
            if path.exists() and not path.is_dir():
                problem = f"{shorten(text)} is a file"
            else:
                path.mkdir(parents=True, exist_ok=True)
                if os.access(path, os.W_OK | os.X_OK):
                    return text
                problem = f"{shorten(text)} may not be written"
        except OSError as error:
            problem = f"{shorten(text)}: {error.strerror or error}"
        raise _BadValue(f"cannot be used: {problem}", ctx, param)


def unwritable(path: Path) -> str | None:
    """Why ``path`` cannot be written, or ``None`` if it can: the file is opened for
    appending (so an existing one is not changed) and, if this created it, removed
    again."""
    try:
        existed = path.exists()
        with open(path, "ab"):
            pass
    except OSError as error:
        return error.strerror or str(error)
    if not existed:
        with contextlib.suppress(OSError):
            path.unlink()
    return None


@dataclass(frozen=True)
class Saved:
    """Where :func:`save_text` wrote: ``path`` (``None`` when nothing could be written,
    and the text is for the caller to print), and ``problem``, why the file asked for
    could not be written (``None`` when it was)."""

    path: Path | None
    problem: str | None


def save_text(path: str, text: str, *, suffix: str) -> Saved:
    """Write ``text`` (UTF-8) to ``path``; if that fails, to a new file
    ``hexgames-<date>-<time><suffix>`` in the current directory, else in the temporary
    directory (:func:`tempfile.gettempdir`), so that late work is not lost to a late
    write error (a full disk, a directory removed meanwhile).

    Returns:
        where the text went, and why ``path`` could not be written.
    """
    try:
        Path(path).write_text(text, encoding="utf-8")
        return Saved(Path(path), None)
    except OSError as error:
        problem = f"cannot write {path}: {error.strerror or error}"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folders = [Path(tempfile.gettempdir())]
    with contextlib.suppress(OSError):  # the current directory was removed meanwhile
        folders.insert(0, Path.cwd())
    for folder in folders:
        for attempt in range(10):
            name = f"hexgames-{stamp}{'' if attempt == 0 else f'-{attempt}'}{suffix}"
            candidate = folder / name
            try:
                with open(candidate, "x", encoding="utf-8") as file:  # never overwrite
                    file.write(text)
            except FileExistsError:
                continue
            except OSError:
                break
            return Saved(candidate, problem)
    return Saved(None, problem)


def levels_epilog() -> str:
    """The levels and their presets, for the end of a command's help."""
    from hexgames.engine.players import describe_levels

    return "\b\nLevels:\n" + "\n".join(f"  {line}" for line in describe_levels())


def spec_help(what: str) -> str:
    """The help of a player option: ``what``, then the players, levels and options."""
    from hexgames.engine.players import LEVEL_NAMES, PLAYER_NAMES

    return (f"{what}: a player ({', '.join(PLAYER_NAMES)}) or a level "
            f"({', '.join(LEVEL_NAMES)}), with options as NAME:key=value,... "
            "(e.g. mcts:time=2, alphabeta:depth=4,tt_mb=16).")


def search_limit(seconds: float | None, nodes: int | None, depth: int | None) -> Any:
    """A search limit from command-line options, or ``None`` when none is given."""
    if seconds is None and nodes is None and depth is None:
        return None
    from hexgames.engine.base import Limit

    return Limit(time=seconds, nodes=nodes, depth=depth)


def record_module() -> ModuleType:
    """``hexgames.record``, imported when a command needs game records."""
    return importlib.import_module("hexgames.record")


def size_text(count: int) -> str:
    """A number of bytes for a message: ``8 MiB``, ``64 KiB`` or ``100 bytes``."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit}"
    return f"{count} bytes"


def read_record_text(path: str) -> str:
    """The UTF-8 text of ``path`` (``-`` for standard input), of at most
    :data:`hexgames.limits.MAX_RECORD_FILE_BYTES` bytes.

    At most one byte more than the cap is read, so an endless input (``/dev/zero``, a
    pipe that never closes its end after sending more) costs bounded time and memory.

    Raises:
        InputError: for an empty name, a file that cannot be read, one larger than the
            cap (naming it), or bytes that are not UTF-8.
    """
    if not path.strip():
        raise InputError("a record file name cannot be empty (- reads standard input)")
    cap = limits.MAX_RECORD_FILE_BYTES
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read(cap + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(cap + 1)
    except OSError as error:
        raise InputError(f"cannot read {shorten(path)}: {error.strerror or error}") from None
    if len(data) > cap:
        raise InputError(f"{name} holds more than {size_text(cap)}, the most a record file "
                         "may hold (hexgames.limits.MAX_RECORD_FILE_BYTES)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{name} is not UTF-8 text (byte {error.start})") from None


class NumberType(click.ParamType[float]):
    """A finite decimal number (never NaN or an infinity), optionally above ``low`` and
    below ``high`` (both excluded)."""

    name = "number"

    def __init__(self, low: float | None = None, high: float | None = None) -> None:
        self.low = low
        self.high = high

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, float):
            number = value
        else:
            text = str(value).strip()
            try:
                number = float(text)
            except ValueError:
                raise _BadValue(f"must be a number, not {shorten(text)!r}", ctx,
                                param) from None
        if not math.isfinite(number):
            raise _BadValue(f"must be a finite number, not {shorten(str(value))}", ctx, param)
        if (self.low is not None and number <= self.low) or \
                (self.high is not None and number >= self.high):
            raise _BadValue(f"must be between {self.low:g} and {self.high:g} (exclusive), "
                            f"not {number:g}", ctx, param)
        return number


class EloPairType(click.ParamType[tuple[float, float]]):
    """Two Elo hypotheses ``ELO0,ELO1`` of a sequential test: finite numbers,
    ``ELO0 < ELO1``, each within ``±1000`` (:data:`hexgames.arena.sprt.MAX_ELO`)."""

    name = "elo0,elo1"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[float, float]:
        if isinstance(value, tuple):
            return value
        text = str(value).strip()
        parts = text.split(",")
        if len(parts) != 2:
            raise _BadValue(f"takes two Elo values as ELO0,ELO1, not {shorten(text)!r}",
                            ctx, param)
        try:
            elo0, elo1 = (float(part) for part in parts)
        except ValueError:
            raise _BadValue(f"takes two numbers as ELO0,ELO1, not {shorten(text)!r}",
                            ctx, param) from None
        if not (math.isfinite(elo0) and math.isfinite(elo1)) \
                or max(abs(elo0), abs(elo1)) > 1000:
            raise _BadValue(f"takes finite Elo values between -1000 and 1000, not "
                            f"{shorten(text)}", ctx, param)
        if not elo0 < elo1:
            raise _BadValue(f"needs ELO0 below ELO1, not {shorten(text)}", ctx, param)
        return (elo0, elo1)


class AddressType(click.ParamType[str]):
    """A Ray cluster address: ``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``."""

    name = "address"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        from hexgames.arena.cluster import check_address

        try:
            address = check_address(str(value))
        except HexgamesError as error:
            raise _BadValue(f"is not an address: {error}", ctx, param) from None
        assert address is not None
        return address


#: The options of every command that plays games through the arena (match, tournament,
#: selfplay): limits, rules, start, openings, where the games run, seed and output.
def run_options(out_help: str, *, out_required: bool = False) -> Callable[[Any], Any]:
    """The shared options as one decorator; the command receives ``seconds``, ``nodes``,
    ``depth``, ``rules_words``, ``position``, ``opening_plies``, ``jobs``, ``executor``,
    ``address``, ``seed`` and ``out``."""
    options = [
        click.option("--time", "seconds", type=SecondsType(),
                     help="Seconds a move, for players whose spec sets no limit."),
        click.option("--nodes", type=WholeNumberType(min=1, max=MAX_LIMIT_COUNT),
                     help="Nodes (or simulations) a move, for players whose spec sets no "
                          "limit."),
        click.option("--depth", type=WholeNumberType(min=1, max=MAX_LIMIT_COUNT),
                     help="Plies of search a move, for players whose spec sets no limit."),
        rules_option,
        click.option("--position", help="Start every game from this position string."),
        click.option("--opening-plies", type=WholeNumberType(min=0, max=1000), default=0,
                     show_default=True,
                     help="Random plies that open each game (in a match or tournament "
                          "the same for both games of a pair), so players that search by "
                          "depth or nodes get varied games; they never spend Red's "
                          "balance-variant right."),
        click.option("--jobs", "-j", type=WholeNumberType(
                         min=1, max=limits.MAX_JOBS, why=" (hexgames.limits.MAX_JOBS)"),
                     default=1,
                     show_default=True,
                     help="Games played in parallel, each in its own process (the local "
                          "executor)."),
        click.option("--executor", type=click.Choice(["local", "ray"]), default="local",
                     show_default=True,
                     help="Where games run: local processes, or Ray tasks on a Ray "
                          "cluster (the cluster extra)."),
        click.option("--address", type=AddressType(),
                     help="With --executor ray: the cluster (auto, HOST:PORT or "
                          "ray://HOST:PORT); by default Ray starts on this machine."),
        click.option("--seed", type=WholeNumberType(),
                     help="Seed (default: random; it is printed)."),
        click.option("--out", type=str, metavar="DIRECTORY", required=out_required,
                     help=out_help),
    ]

    def decorate(command: Any) -> Any:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


@contextlib.contextmanager
def closing_executor(executor: Any) -> Iterator[Any]:
    """``executor`` for a ``with`` block, closed on the way out when it has a ``close``
    method (the Ray executor shuts down a Ray instance it started; the process pool and
    other :class:`~hexgames.arena.GameExecutor` implementations need none)."""
    try:
        yield executor
    finally:
        close = getattr(executor, "close", None)
        if close is not None:
            close()


def make_executor(kind: str, address: str | None, jobs: int) -> Any:
    """The arena executor for ``--executor``/``--address``/``--jobs``.

    Raises:
        InputError: for ``--address`` without ``--executor ray``, or ``ray`` when Ray
            is not installed.
    """
    from hexgames.arena import ArenaError, LocalProcessExecutor

    if kind == "local":
        if address is not None:
            raise InputError("--address is for --executor ray")
        return LocalProcessExecutor(jobs)
    from hexgames.arena.cluster import RayExecutor

    try:
        return RayExecutor(address)
    except ArenaError as error:
        raise InputError(str(error)) from None


@contextlib.contextmanager
def discarded_unless_begun(output: Any) -> Iterator[None]:
    """Around a run into ``output`` (a :class:`hexgames.arena.GameOutput` or ``None``):
    when the block is stopped before the run wrote its starting summary, the output's
    empty files go (:meth:`~hexgames.arena.GameOutput.discard`). A stop in the moment
    after ``--out`` was opened left a directory of empty files and no summary."""
    try:
        yield
    except BaseException:
        if output is not None and not output.begun:
            output.discard()
        raise


def open_output(out: str | None, *, samples: bool = False) -> Any:
    """The :class:`hexgames.arena.GameOutput` of ``--out`` (``None`` without one), made
    before any game so that a directory that cannot be written is an input error.

    Raises:
        InputError: for an empty name or a directory or file that cannot be written.
    """
    if out is None:
        return None
    if not out.strip():
        raise InputError("--out needs a directory name, not an empty one")
    from hexgames.arena import OutputError
    from hexgames.arena.output import GameOutput

    try:
        return GameOutput(out, samples=samples)
    except OutputError as error:
        # One line, however the path is spelt (a line break in a name is escaped).
        raise InputError("--out: " + shorten(str(error), MESSAGE_SHOWN)) from None
