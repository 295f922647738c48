"""The ``analyse`` command: a player searches one position (from ``--position``, a
record or the start) and the command prints each report of the search as it deepens,
then the best move. The search runs in a thread so that Ctrl-C can stop it and still
print the best move found so far. With ``--record FILE --all`` it analyses every
position of a game instead (:mod:`hexgames.analysis`) and writes the game annotated."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import click

from hexgames import native
from hexgames.cli.display import (
    describe_info,
    describe_outcome,
    eval_text,
    player_tag,
    plural,
    stdout_console,
)
from hexgames.cli.errors import InputError
from hexgames.cli.options import (
    PlayerSpecType,
    SavePathType,
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
from hexgames.engine.base import MAX_LIMIT_COUNT
from hexgames.processes import interrupt_deferred
from hexgames.proving import ANALYSIS, verdict

#: Seconds of search when neither the command line nor the player spec sets a limit.
ANALYSE_SECONDS = 5.0
#: With ``--all``: seconds of search a position when nothing else sets a limit.
ANALYSE_ALL_SECONDS = 1.0
#: The options of an analysing player that takes them (alpha-beta): the df-pn solver
#: first, for a fifth of each search's time however long, proving the whole value
#: (:data:`hexgames.proving.ANALYSIS`).
PROVING = {**ANALYSIS, "prove_max": "60"}


def _analysis_board(module: ModuleType, position: str | None,
                    record_file: str | None, ply: int | None, index: int,
                    rules_words: tuple[str, ...]) -> Any:
    """The position to analyse, from --position, --record (and --ply, --index) or the
    start."""
    if record_file is not None:
        return _chosen_record(module, record_file, index, position, rules_words).board(ply)
    if record_file is None:
        if ply is not None:
            raise click.UsageError("--ply needs --record")
        return new_board(module, parse_rules(module, rules_words), position)
    raise AssertionError("unreachable")


def _chosen_record(module: ModuleType, record_file: str, index: int, position: str | None,
                   rules_words: tuple[str, ...]) -> Any:
    """Game ``index`` of ``record_file``, validated."""
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
    chosen.validate()
    return chosen


def _notation(move: Any) -> str:
    notation = getattr(move, "notation", None)
    return str(notation()) if callable(notation) else str(move)


def format_info(info: Any) -> str:
    """One line of analysis: depth, score, evaluation, nodes, nps, time and the principal
    variation in notation; a value the solver proved has ``proof`` for its depth and
    its proof's principal line."""
    depth = "proof" if info.proven else str(info.depth)
    if info.proven and info.mate is None:
        score = "draw"
    elif info.mate is not None:
        score = f"#{info.mate:+d}"
    elif info.score is not None:
        score = f"{info.score:6.1%}"
    else:
        score = "-"
    evaluation = "-" if info.eval is None else eval_text(info.eval)
    pv = " ".join(_notation(move) for move in info.pv)
    return (f"{depth:>5} {score:>7} {evaluation:>8} {info.nodes:>11,} "
            f"{info.nps:>10,.0f} {info.time:>7.2f}  {pv}")


@click.command("analyse")
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
@click.option("--nodes", type=WholeNumberType(min=1, max=MAX_LIMIT_COUNT),
              help="Nodes (or simulations) to search.")
@click.option("--depth", type=WholeNumberType(min=1, max=MAX_LIMIT_COUNT), help="Plies to search.")
@rules_option
@click.option("--seed", type=WholeNumberType(), help="Seed of the player's random choices.")
@click.option("--all", "whole_game", is_flag=True,
              help="With --record: analyse every position of the game and write it "
                   f"annotated (default {ANALYSE_ALL_SECONDS:g} s a position).")
@click.option("--output", "-o", type=SavePathType(),
              help="With --all: write the annotated record here (default: stdout).")
def analyse(game: str, position: str | None, record_file: str | None, ply: int | None,
            index: int, spec: str, seconds: float | None, nodes: int | None,
            depth: int | None, rules_words: tuple[str, ...], seed: int | None,
            whole_game: bool, output: str | None) -> None:
    """Search a position of GAME and print what the search finds as it deepens.

    One line per report of the search: depth (plies), score (the side to move's
    winning chance, or #+n / #-n for a forced win / loss in n plies), evaluation,
    nodes, nodes per second, seconds and the principal variation. Then the best move.
    Ctrl-C stops the search and prints the best move found so far (exit status 130).

    With --record FILE --all, every position of the game is searched instead (--time,
    --nodes or --depth a position) and the game is written annotated: after each move
    the evaluation as a comment ([%eval 1.20] [%wp 0.62], the first player's view),
    ?! / ? / ?? for inaccuracies, mistakes and blunders (a drop of the mover's winning
    chance of 10, 20 or 30 points), and the engine's better line as a variation. A
    summary of the mistakes goes to standard error. Ctrl-C stops and writes what was
    analysed (exit status 130).
    """
    from hexgames.engine.base import Limit
    from hexgames.engine.players import make_player, parse_spec, with_options

    module = load_game(game)
    if whole_game:
        if record_file is None:
            raise click.UsageError("--all needs --record")
        if ply is not None:
            raise click.UsageError("--all analyses every ply: leave --ply out")
        _analyse_all(module, record_file, index, spec, search_limit(seconds, nodes, depth),
                     rules_words, seed, output)
        return
    if output is not None:
        raise click.UsageError("--output goes with --all")
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
    player = make_player(with_options(spec, PROVING), seed, limit=limit)
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

    result, interrupted = run_stoppable(lambda: player.play(board, on_info=on_info),
                                        player.stop, "hexgames-analyse")
    if interrupted:
        console.print("Stopped.")
    info = result.info
    on_info(info, final=True)
    note = describe_info(info, mover)
    console.print(f"best move [bold]{_notation(result.move)}[/]"
                  + (f" ({note})" if note else ""), highlight=False)
    proven = verdict(native.game_of(board), int(board.turn), info)
    if proven is not None:
        line = " ".join(_notation(m) for m in info.pv)
        if info.mate is not None and 0 < len(info.pv) < abs(info.mate):
            # the opening book's line ends where the book does (hexgames.book.book_line)
            line += (f" (the opening book's line, {len(info.pv)} of {abs(info.mate)} "
                     "plies)")
        console.print(f"{proven}: {line}", highlight=False)
    if interrupted:
        click.get_current_context().exit(130)


def _limit_text(limit: Any) -> str:
    return str(limit.describe()) or "its own limit"


def run_stoppable(work: Callable[[], Any], stop: Callable[[], None], name: str) -> Any:
    """``work()`` in a thread, so that Ctrl-C (or SIGTERM) reaches this one: Ctrl-C
    calls ``stop()`` and waits for ``work`` to return with what it has. Returns ``(what
    work returned, whether Ctrl-C stopped it)``; an exception of ``work`` is raised here.

    This thread never returns while ``work`` runs: a process that ends while a native
    search runs in a thread of it aborts at exit (Python ends such a thread when it
    takes the GIL back, and that unwinds through the Rust frames). So the thread starts
    with Ctrl-C held back, and a second Ctrl-C while the search stops is dropped.
    """
    found: list[Any] = []
    failure: list[BaseException] = []
    finished = threading.Event()

    def run() -> None:
        try:
            found.append(work())
        except BaseException as error:  # re-raised in the main thread
            failure.append(error)
        finally:
            finished.set()

    # The main thread waits on an Event, not Thread.join: a KeyboardInterrupt inside
    # join can leave the thread looking finished while it still runs (CPython 3.11).
    thread = threading.Thread(target=run, name=name, daemon=True)
    interrupted = False
    try:
        with interrupt_deferred():
            thread.start()
        while not finished.wait(0.1):
            pass
    except KeyboardInterrupt:
        interrupted = True
        with interrupt_deferred(reraise=False):
            # Again until it ends: a stop() before the search began is forgotten.
            while True:
                stop()
                if finished.wait(0.05):
                    break
    if failure:
        raise failure[0]
    return found[0], interrupted


def _analyse_all(module: ModuleType, record_file: str, index: int, spec: str, limit: Any,
                 rules_words: tuple[str, ...], seed: int | None, output: str | None) -> None:
    """``analyse --record FILE --all``: every position, then the annotated record."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from hexgames import analysis
    from hexgames.cli.options import save_text
    from hexgames.engine.base import Limit
    from hexgames.engine.players import make_player, parse_spec, with_options

    chosen = _chosen_record(module, record_file, index, None, rules_words)
    if parse_spec(spec).default_limit(limit) is None:
        limit = Limit(time=ANALYSE_ALL_SECONDS)
    player = make_player(with_options(spec, PROVING), seed, limit=limit)
    errors = Console(stderr=True, highlight=False)
    stop = threading.Event()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=errors,
                  transient=True) as bar:
        task = bar.add_task(f"analysing with {spec}", total=len(chosen.moves) + 1)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        def interrupt() -> None:
            stop.set()
            player.stop()

        result, interrupted = run_stoppable(
            lambda: analysis.analyse_record(chosen, player, player.default_limit, name=spec,
                                            progress=progress, should_stop=stop.is_set),
            interrupt, "hexgames-analyse-all")
    if not result.complete:
        errors.print("Stopped: the record below is annotated as far as it was analysed.")
    annotated = analysis.annotate(chosen, result)
    text = record_module().write_game(annotated)
    tags = module.PLAYER_TAGS
    plurals = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
    for side in (0, 1):
        counts = [(name, sum(1 for m in result.moves
                             if m.mover == side and m.judgement == name))
                  for name in plurals]
        errors.print(f"{tags[side]}: " + ", ".join(
            f"{n} {name if n == 1 else plurals[name]}" for name, n in counts))
    for report in result.moves:
        if report.judgement in ("mistake", "blunder"):
            errors.print(f"  move {report.ply // 2 + 1}{'.' if report.ply % 2 == 0 else '...'} "
                         f"{report.move}: {report.judgement}, lost {report.drop:.0%} "
                         f"(best {report.best})")
    if output is None:
        click.echo(text, nl=False)
    else:
        saved = save_text(output, text, suffix=".hgn")
        if saved.path is None:
            click.echo(text, nl=False)
        elif saved.problem is not None:
            errors.print(f"could not write {output} ({saved.problem}); wrote {saved.path}")
    if interrupted:
        click.get_current_context().exit(130)
