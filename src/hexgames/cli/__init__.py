"""The ``hexgames`` command: play a game in the terminal, play matches between AI players,
analyse a position, count perft, check game records and measure random playouts, for
every game of :mod:`hexgames.games`.

    hexgames play [GAME] [--rules key=value ...] [--white human|PLAYER] [--red ...]
    hexgames match GAME --player A --player B [--games N | --sprt ELO0,ELO1
                   [--alpha A --beta B --max-games N]] [--time S | --nodes N]
                   [--rules ...] [--jobs J | --executor ray [--address A]] [--seed N]
                   [--out DIR]
    hexgames tournament GAME --player A --player B [--player C ...] [--games-per-pair N]
                   [the limit, rules, opening, executor, seed and output options of match]
    hexgames selfplay GAME --player P [--games N] [--samples] --out DIR [... as match]
    hexgames analyse GAME [--position POS | --record FILE [--ply N]] [--player P] [--time S]
    hexgames perft GAME DEPTH [--rules ...] [--position POS] [--divide]
    hexgames replay FILE [--json]
    hexgames render FILE [--game-index N] [--ply N] [-o PICTURE.svg] [--size PX] [--flipped]
    hexgames bench GAME [--seconds S] [--seed N] [--rules ...]
    hexgames serve [--host 127.0.0.1] [--port 8000] [--public-host NAME] [--db PATH]
                   [--open] [--server [--signup open|invite|closed] [--trust-proxy]
                   [--ai-rating LEVEL=RATING]] [--config FILE]
    hexgames user add|list|reset-password|remove [NAME] [--db PATH]
    hexgames verify-proof FILE [--max-bytes N]

PLAYER is a player spec of :mod:`hexgames.engine.players`: a player (``random``,
``greedy``, ``alphabeta``, ``mcts``) or a level (``easy`` ... ``expert``), with options
such as ``mcts:time=2``.

Bad input (an unknown game or rules option, a malformed position, move or record, a file
that cannot be read, a bad option value) prints one line ``error: <message>`` on stderr and
exits with status 2; a message quotes at most 60 characters of what was typed. Ctrl-C
exits with status 130 (``play``, ``match``, ``tournament`` and ``selfplay`` still write
what they were asked to, ``bench`` prints what it measured and ``analyse`` its best move
so far). SIGTERM (``kill``, ``timeout``, a service manager's stop) and SIGHUP (the
terminal closed) stop a command as Ctrl-C does, with exit status 143 or 129 (``serve``
shuts down on either, with status 0). The first signal decides; the next three are
dropped, so that a double press does not cut the report short, and one more forces the
end. Every read is capped
(:mod:`hexgames.limits`, e.g. a record file at 8 MiB), and every file to write is checked
before the work starts; a write that still fails at the end goes to a fallback file, or
to standard output.
Boards are drawn to fit the terminal and read without colour (NO_COLOR, a pipe): every
mark is a character, explained by a ``key:`` line under the board.
Only the board drawing knows a game's pieces; everything else goes through the board API
that all games share (``legal_moves``, ``push``/``pop``, ``outcome()``, ...).

This module holds the click group, the error handling every command shares and the
registration of the commands; each command lives in the module of its group:
:mod:`~hexgames.cli.play`, :mod:`~hexgames.cli.analyse`, :mod:`~hexgames.cli.match`
(match, tournament), :mod:`~hexgames.cli.selfplay`, :mod:`~hexgames.cli.records` (replay,
render), :mod:`~hexgames.cli.tools` (perft, bench), :mod:`~hexgames.cli.serve` and
:mod:`~hexgames.cli.users` (the server mode's accounts). They share
:mod:`~hexgames.cli.options` (option types and the helpers that turn option values into
games, boards, limits, executors and output directories),
:mod:`~hexgames.cli.display` (terminal output: the board drawing, outcome and search
lines) and :mod:`~hexgames.cli.errors` (:class:`InputError`), and never import this
module, so there is no import cycle. A new command is a ``click.command`` in the module
of its group, added to the group at the end of this module. Heavy modules (the arena,
the web app, rich progress bars) are imported inside the commands that use them, so that
``import hexgames.cli`` and ``hexgames --help`` stay quick.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

import click

from hexgames import __version__
from hexgames.cli import (
    analyse,
    explorer,
    match,
    play,
    records,
    selfplay,
    serve,
    solve,
    tools,
    users,
)
from hexgames.cli.display import BoardDrawing, draw_board, render_board
from hexgames.cli.errors import InputError
from hexgames.cli.play import random_move
from hexgames.cli.serve import default_db_path
from hexgames.core import HexgamesError
from hexgames.games import GAME_NAMES
from hexgames.processes import (
    TERMINATING_SIGNALS,
    drop_while_exiting,
    interrupt_once,
    terminate_as_interrupt,
)

__all__ = [
    "BoardDrawing",
    "InputError",
    "cli",
    "default_db_path",
    "draw_board",
    "main",
    "random_move",
    "render_board",
]


# --- the command group ----------------------------------------------------------------


class _HexgamesGroup(click.Group):
    """A click group that reports every bad input as one line ``error: <message>`` with
    exit status 2 (click's usage errors included), never with a traceback."""

    #: Whether :meth:`main` ends the process (the console script's run; not a test's):
    #: a command a signal stopped then drops the signals that follow while it exits.
    ends_process = False

    def _run(self, termination: Any, args: Sequence[str] | None, prog_name: str | None,
             complete_var: str | None, **extra: Any) -> Any:
        """The command's exit status: click's run, with its errors as ``error:`` lines."""
        try:
            return super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.ctx.get_help())
            return 0
        except click.ClickException as error:
            message = error.format_message()
            if isinstance(error, click.UsageError) and error.ctx is not None:
                message += f" (see '{error.ctx.command_path} --help')"
            click.echo(f"error: {message}", err=True)
            return error.exit_code
        except HexgamesError as error:
            click.echo(f"error: {error}", err=True)
            return 2
        except ModuleNotFoundError as error:
            # A game of GAME_NAMES whose module is not written yet, met inside the library
            # (a record naming it, say).
            if error.name not in {f"hexgames.{game}" for game in GAME_NAMES}:
                raise
            game = error.name.removeprefix("hexgames.")
            click.echo(f"error: game {game} is not available in this version of hexgames",
                       err=True)
            return 2
        except BrokenPipeError:
            # the reader of the output went away (`| head`): the status a shell gives a
            # process that SIGPIPE ended (128 + 13), not 1, which says the command
            # failed (verify-proof: the proof does not hold); Python's advice: the
            # output to the null device, so that its flush at exit does not fail again
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141
        except click.Abort:
            ctrl_c = termination.first_stop() in (None, signal.SIGINT)
            click.echo(f"error: {'aborted' if ctrl_c else 'terminated'}", err=True)
            return 130

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        # One stop for the whole command, its report and its error message included:
        # signals after the first are dropped (interrupt_once), and the first decides
        # the exit status.
        with terminate_as_interrupt() as termination, interrupt_once():
            code = self._run(termination, args, prog_name, complete_var, **extra)
            stop = termination.first_stop()
            if stop is not None and (code in _STOPPED or termination.received):
                # the first signal to arrive: 130 for Ctrl-C, 143 for SIGTERM, 129 for
                # SIGHUP
                code = 130 if stop == signal.SIGINT else 128 + stop
            if code in _STOPPED and self.ends_process:
                # (here, not once the handlers are back: a second signal in between
                # set the exit status)
                drop_while_exiting()
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_HexgamesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="hexgames")
def cli() -> None:
    """Andantino and Abande: play, run matches, tournaments and self-play, count perft,
    check game records, measure speed.

    GAME is one of: andantino, abande.
    """


def main() -> None:
    """The console script ``hexgames``. A closed standard stream (``hexgames play <&-``
    or ``>&-``: Python's ``sys.stdin`` or ``sys.stdout`` is then ``None``) is the null
    device: a closed input reads as an empty one, a closed output takes everything."""
    for stream, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, stream) is None:  # the process's for its whole life: never closed
            setattr(sys, stream, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115
    cli.ends_process = True
    cli.main(prog_name="hexgames")


#: The exit statuses of a command stopped by a signal: Ctrl-C, SIGHUP, SIGTERM.
_STOPPED = {130, *(128 + signum for signum in TERMINATING_SIGNALS)}


# The commands, each in the module of its command group (``hexgames --help`` lists them
# in alphabetical order).
for _command in (play.play, tools.perft_command, tools.bench, records.replay,
                 records.render, match.match_command, match.tournament_command,
                 selfplay.selfplay_command, analyse.analyse, serve.serve, users.user,
                 solve.verify_proof, solve.solve_command, explorer.explorer):
    cli.add_command(_command)
