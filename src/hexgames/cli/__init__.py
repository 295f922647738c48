"""The ``hexgames`` command: play a game in the terminal, play matches between AI players,
analyse a position, count perft, check game records and measure random playouts, for
every game of :mod:`hexgames.games`.

    hexgames play [GAME] [--rules key=value ...] [--white human|PLAYER] [--red ...]
    hexgames match GAME --player A --player B [--games N] [--time S | --nodes N]
                   [--rules ...] [--jobs J] [--seed N] [--out DIR]
    hexgames analyse GAME [--position POS | --record FILE [--ply N]] [--player P] [--time S]
    hexgames perft GAME DEPTH [--rules ...] [--position POS] [--divide]
    hexgames replay FILE [--json]
    hexgames render FILE [--game-index N] [--ply N] [-o PICTURE.svg] [--size PX] [--flipped]
    hexgames bench GAME [--seconds S] [--seed N] [--rules ...]
    hexgames serve [--host 127.0.0.1] [--port 8000] [--db PATH] [--open]

PLAYER is a player spec of :mod:`hexgames.engine.players`: a player (``random``,
``greedy``, ``alphabeta``, ``mcts``) or a level (``easy`` ... ``expert``), with options
such as ``mcts:time=2``.

Bad input (an unknown game or rules option, a malformed position, move or record, a file
that cannot be read, a bad option value) prints one line ``error: <message>`` on stderr and
exits with status 2; a message quotes at most 60 characters of what was typed. Ctrl-C
exits with status 130 (``play`` and ``match`` still write what they were asked to).
Boards are drawn to fit the terminal and read without colour (NO_COLOR, a pipe): every
mark is a character, explained by a ``key:`` line under the board.
Only the board drawing knows a game's pieces; everything else goes through the board API
that all games share (``legal_moves``, ``push``/``pop``, ``outcome()``, ...).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import click

from hexgames import __version__
from hexgames.cli import match, play, records, tools
from hexgames.cli.display import (
    BoardDrawing,
    describe_info,
    describe_outcome,
    draw_board,
    eval_text,
    player_tag,
    plural,
    render_board,
    shorten,
    stdout_console,
)
from hexgames.cli.errors import InputError
from hexgames.cli.options import (
    PlayerSpecType,
    SecondsType,
    WholeNumberType,
    load_game,
    new_board,
    parse_rules,
    read_record_text,
    record_module,
    rules_option,
    search_limit,
    spec_help,
)
from hexgames.cli.play import random_move
from hexgames.core import HexgamesError
from hexgames.games import GAME_NAMES

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

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.ctx.get_help())
            code = 0
        except click.ClickException as error:
            message = error.format_message()
            if isinstance(error, click.UsageError) and error.ctx is not None:
                message += f" (see '{error.ctx.command_path} --help')"
            click.echo(f"error: {message}", err=True)
            code = error.exit_code
        except HexgamesError as error:
            click.echo(f"error: {error}", err=True)
            code = 2
        except ModuleNotFoundError as error:
            # A game of GAME_NAMES whose module is not written yet, met inside the library
            # (a record naming it, say).
            if error.name not in {f"hexgames.{game}" for game in GAME_NAMES}:
                raise
            game = error.name.removeprefix("hexgames.")
            click.echo(f"error: game {game} is not available in this version of hexgames",
                       err=True)
            code = 2
        except click.Abort:
            click.echo("error: aborted", err=True)
            code = 130
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_HexgamesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="hexgames")
def cli() -> None:
    """Andantino and Abande: play, count perft, check game records, measure speed.

    GAME is one of: andantino, abande.
    """


def main() -> None:
    """The console script ``hexgames``."""
    cli.main(prog_name="hexgames")


# The commands, each in the module of its command group (``hexgames --help`` lists them
# in alphabetical order).
cli.add_command(play.play)
cli.add_command(tools.perft_command)
cli.add_command(tools.bench)
cli.add_command(records.replay)
cli.add_command(records.render)
cli.add_command(match.match_command)


# --- analyse --------------------------------------------------------------------------

#: Seconds of search when neither the command line nor the player spec sets a limit.
ANALYSE_SECONDS = 5.0


def _analysis_board(module: ModuleType, position: str | None,
                    record_file: str | None, ply: int | None, index: int,
                    rules_words: tuple[str, ...]) -> Any:
    """The position to analyse, from --position, --record (and --ply, --index) or the
    start."""
    if record_file is None:
        if ply is not None:
            raise click.UsageError("--ply needs --record")
        return new_board(module, parse_rules(module, rules_words), position)
    if position is not None:
        raise click.UsageError("give --position or --record, not both")
    if rules_words:
        raise click.UsageError("--rules does not apply to --record: the record's Rules "
                               "tag gives the rules")
    records = record_module().parse_games(read_record_text(record_file))
    if not records:
        raise InputError(f"{'standard input' if record_file == '-' else record_file} "
                         "holds no game")
    if index > len(records):
        raise InputError(f"{record_file} holds {plural(len(records), 'game')}, "
                         f"not a game {index}")
    chosen = records[index - 1]
    if chosen.game != module.__name__.rpartition(".")[2]:
        raise InputError(f"game {index} of {record_file} is {chosen.tags['Game']}, "
                         f"not {module.GAME_NAME}")
    return chosen.board(ply)


def _notation(move: Any) -> str:
    notation = getattr(move, "notation", None)
    return str(notation()) if callable(notation) else str(move)


def format_info(info: Any) -> str:
    """One line of analysis: depth, score, evaluation, nodes, nps, time and the principal
    variation in notation."""
    if info.mate is not None:
        score = f"#{info.mate:+d}"
    elif info.score is not None:
        score = f"{info.score:6.1%}"
    else:
        score = "-"
    evaluation = "-" if info.eval is None else eval_text(info.eval)
    pv = " ".join(_notation(move) for move in info.pv)
    return (f"{info.depth:>5} {score:>7} {evaluation:>8} {info.nodes:>11,} "
            f"{info.nps:>10,.0f} {info.time:>7.2f}  {pv}")


@cli.command("analyse")
@click.argument("game")
@click.option("--position", help="The position string to analyse (default: the start).")
@click.option("--record", "record_file", metavar="FILE",
              help="Analyse a position of this .hgn record (- for standard input).")
@click.option("--ply", type=WholeNumberType(min=0),
              help="With --record: the position after this many plies (default: the last).")
@click.option("--index", type=WholeNumberType(min=1), default=1, show_default=True,
              help="With --record: which game of the file.")
@click.option("--player", "spec", type=PlayerSpecType(), default="alphabeta",
              show_default=True, help=spec_help("The player that analyses"))
@click.option("--time", "seconds", type=SecondsType(),
              help=f"Seconds of search (default {ANALYSE_SECONDS:g}, or the spec's limit).")
@click.option("--nodes", type=WholeNumberType(min=1),
              help="Nodes (or simulations) to search.")
@click.option("--depth", type=WholeNumberType(min=1), help="Plies to search.")
@rules_option
@click.option("--seed", type=WholeNumberType(), help="Seed of the player's random choices.")
def analyse(game: str, position: str | None, record_file: str | None, ply: int | None,
            index: int, spec: str, seconds: float | None, nodes: int | None,
            depth: int | None, rules_words: tuple[str, ...], seed: int | None) -> None:
    """Search a position of GAME and print what the search finds as it deepens.

    One line per report of the search: depth (plies), score (the side to move's
    winning chance, or #+n / #-n for a forced win / loss in n plies), evaluation,
    nodes, nodes per second, seconds and the principal variation. Then the best move.
    Ctrl-C stops the search and prints the best move found so far.
    """
    from hexgames.engine.base import Limit
    from hexgames.engine.players import make_player, parse_spec

    module = load_game(game)
    board = _analysis_board(module, position, record_file, ply, index, rules_words)
    if board.is_game_over():
        raise InputError(f"the game is over in this position "
                         f"({describe_outcome(module, board.outcome())}): nothing to "
                         "analyse")
    limit = search_limit(seconds, nodes, depth)
    if parse_spec(spec).default_limit(limit) is None:
        # Neither the command line, the spec nor a level sets a limit: ANALYSE_SECONDS,
        # not the player's own default (alpha-beta's and MCTS's 1 s).
        limit = Limit(time=ANALYSE_SECONDS)
    player = make_player(spec, seed, limit=limit)
    console = stdout_console()
    mover = player_tag(module, int(board.turn))
    console.print(f"[bold]{module.GAME_NAME}[/] {board.position()}", highlight=False)
    console.print(f"{mover} to move; {spec} searching with {_limit_text(player.default_limit)}",
                  highlight=False)
    console.print(f"{'depth':>5} {'score':>7} {'eval':>8} {'nodes':>11} {'nps':>10} "
                  f"{'time':>7}  pv", style="bold", highlight=False)
    last: dict[str, Any] = {"line": None, "change": None, "at": 0.0}

    def on_info(info: Any, *, final: bool = False) -> None:
        # A line when the search deepens or changes its mind, and at least every second;
        # at the end, the final figures unless they were just printed.
        line = format_info(info)
        change = (info.depth, info.mate, tuple(_notation(m) for m in info.pv))
        now = time.perf_counter()
        if final:
            show = line != last["line"]
        else:
            show = change != last["change"] or now - last["at"] >= 1.0
        if show:
            last.update(line=line, change=change, at=now)
            console.print(line, markup=False, highlight=False, soft_wrap=True)

    found: list[Any] = []
    failure: list[BaseException] = []

    finished = threading.Event()

    def search() -> None:
        try:
            found.append(player.play(board, on_info=on_info))
        except BaseException as error:  # re-raised in the main thread
            failure.append(error)
        finally:
            finished.set()

    # The main thread waits on an Event, not Thread.join: a KeyboardInterrupt inside
    # join can leave the thread looking finished while it still searches (CPython 3.11).
    worker = threading.Thread(target=search, name="hexgames-analyse", daemon=True)
    worker.start()
    try:
        while not finished.wait(0.1):
            pass
    except KeyboardInterrupt:
        player.stop()
        finished.wait()
        console.print("Stopped.")
    if failure:
        raise failure[0]
    result = found[0]
    info = result.info
    on_info(info, final=True)
    note = describe_info(info, mover)
    console.print(f"best move [bold]{_notation(result.move)}[/]"
                  + (f" ({note})" if note else ""), highlight=False)


def _limit_text(limit: Any) -> str:
    parts = []
    if limit.time is not None:
        parts.append(f"{limit.time:g} s")
    if limit.nodes is not None:
        parts.append(f"{limit.nodes:,} nodes")
    if limit.depth is not None:
        parts.append(f"depth {limit.depth}")
    if limit.playouts is not None:
        parts.append(f"{limit.playouts:,} playouts")
    return " or ".join(parts) if parts else "its own limit"


# --- serve ----------------------------------------------------------------------------


def default_db_path() -> Path:
    """The browser app's games database when ``--db`` is not given: ``games.db`` in the
    user's data directory (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("hexgames", appauthor=False)) / "games.db"


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default serves this computer only.")
@click.option("--port", type=WholeNumberType(min=1, max=65535), default=8000,
              show_default=True, help="Port to listen on.")
@click.option("--db", "db", metavar="PATH",
              help="The games database (default: games.db in your user data directory).")
@click.option("--open", "open_browser", is_flag=True, help="Open the app in the web browser.")
def serve(host: str, port: int, db: str | None, open_browser: bool) -> None:
    """Start the browser app: play, review and analyse games in a web browser.

    Every game is kept in a SQLite file, each move saved as it is played, so a stopped
    server loses nothing and lists every game when started again. Ctrl-C stops it.
    """
    import socket
    import webbrowser

    try:
        import uvicorn

        from hexgames.web import create_app
        from hexgames.web.store import StoreError
    except ModuleNotFoundError as error:
        raise InputError(f"the browser app needs the web extra: pip install "
                         f"'hexgames[web]' (missing module {error.name})") from None
    path = Path(db) if db else default_db_path()
    try:
        # Bound to this computer: answer only its names (against DNS rebinding).
        local = ["127.0.0.1", "localhost"] if host in ("127.0.0.1", "localhost") else None
        app = create_app(path, prestart=1, allowed_hosts=local)
    except StoreError as error:
        raise InputError(str(error)) from None
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        raise InputError(f"cannot listen on {shorten(host)}:{port}: "
                         f"{error.strerror or error}") from None
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    click.echo(f"hexgames: the browser app is at {url} (games in {path}); Ctrl-C stops it")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")
