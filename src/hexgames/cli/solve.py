"""The ``solve`` command (prove a position's value by df-pn, with proofs checked
independently) and the ``verify-proof`` command (check a proof file, docs/proofs.md,
with the pure-Python boards only, and say what it proves or where it fails)."""

from __future__ import annotations

import threading
from typing import Any

import click

from hexgames import limits
from hexgames.cli.display import stdout_console
from hexgames.cli.errors import InputError
from hexgames.cli.options import (
    AddressType,
    SavePathType,
    SecondsType,
    WholeNumberType,
    WorkDirType,
    load_game,
    rules_option,
)
from hexgames.core import HexgamesError
from hexgames.engine.base import MAX_LIMIT_COUNT
from hexgames.jobsolve import DEFAULT_JOB_TIME, EXECUTORS
from hexgames.proof import MAX_PROOF_BYTES, ProofFailedError, ProofFileError, verify
from hexgames.solver import DEFAULT_TABLE_MB, write_proofs


@click.command("verify-proof")
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option("--max-bytes", type=WholeNumberType(min=1), default=MAX_PROOF_BYTES,
              show_default=True, help="Read at most this many bytes of the file (after "
              "decompression).")
def verify_proof(file: str, max_bytes: int) -> None:
    """Check the proof FILE (text or gzip) with the pure-Python boards: the winner's
    listed move in each of its positions, every legal reply in the defender's.

    Exit status 0 when the file proves its claim, 1 when it does not (the first position
    where it fails is named), 2 for a file that cannot be read or is malformed.
    """
    from hexgames.games import game_module

    console = stdout_console()
    shown = [0]

    def progress(checked: int) -> None:
        if checked >= shown[0] + 100_000:
            shown[0] = checked
            console.print(f"  {checked:,} positions checked...", highlight=False)

    try:
        report = verify(file, max_bytes=max_bytes, progress=progress)
    except ProofFileError as error:
        raise InputError(str(error)) from None
    except ProofFailedError as error:
        click.echo(str(error))
        raise click.exceptions.Exit(1) from None
    header = report.header
    module = game_module(header.game)
    names = [str(tag) for tag in module.PLAYER_TAGS]
    what = "wins" if header.claim == "win" else "does not lose (a draw or better)"
    rate = report.positions / report.seconds if report.seconds > 0 else 0.0
    console.print(f"proof verified: {names[header.winner]} {what} from {header.root}"
                  f"{' (' + ' '.join(header.rules) + ')' if header.rules else ''}",
                  highlight=False)
    console.print(f"{report.entries:,} positions of the winner listed; {report.positions:,} "
                  f"positions checked ({report.winner_positions:,} of the winner); the "
                  f"longest line {report.longest} plies; {report.seconds:.2f} s "
                  f"({rate:,.0f} positions/s)", highlight=False)


def _print_margin(board: Any, seconds: float | None, nodes: int | None, tt_mb: int,
                  console: Any) -> None:
    """``solve --margin`` of an Abande ``board``: the lines of
    :func:`hexgames.engine.abande_solver.margin_report` (Ctrl-C stops with exit status
    130)."""
    from hexgames.cli.analyse import run_stoppable
    from hexgames.engine.abande_solver import margin_report

    stop = threading.Event()
    with console.status("solving exactly"):
        lines, interrupted = run_stoppable(
            lambda: margin_report(board, time_limit=seconds, max_nodes=nodes,
                                  table_mb=tt_mb, should_stop=stop.is_set),
            stop.set, "hexgames-solve")
    for line in lines:
        console.print(line, highlight=False)
    if interrupted:
        raise click.exceptions.Exit(130)


def _verdict(result: Any, names: list[str], interrupted: bool) -> str:
    """The value in words: "White wins in 17 plies at most, proven", ..."""
    mover, other = names[result.side], names[1 - result.side]
    if result.value in ("win", "loss"):
        plies = f"{result.plies} {'ply' if result.plies == 1 else 'plies'}"
        return f"{names[result.winner]} wins in {plies} at most, proven"
    if result.value == "draw":
        return "a draw, proven: neither side can win"
    if result.value == "no-win":
        return (f"no win for {mover}, proven ({other} does not lose; a draw or a win "
                f"for {other} not yet told apart)")
    if result.value == "not-lose":
        return (f"{mover} does not lose, proven (no win for {other}; a win or a draw for "
                f"{mover} not yet told apart)")
    return "unknown: stopped" if interrupted else "unknown within the limits"


@click.command("solve")
@click.argument("game")
@click.argument("position", required=False)
@click.option("--record", "record_file", metavar="FILE",
              help="Solve a position of this .hgn record (- for standard input).")
@click.option("--ply", type=WholeNumberType(min=0),
              help="With --record: the position after this many plies (default: the last).")
@click.option("--index", type=WholeNumberType(min=1), default=1, show_default=True,
              help="With --record: which game of the file.")
@rules_option
@click.option("--time", "seconds", type=SecondsType(),
              help="Seconds for the whole solve (default: no limit; Ctrl-C stops).")
@click.option("--nodes", type=WholeNumberType(min=1, max=MAX_LIMIT_COUNT),
              help="Node visits for each proof search (looked at every 1,024); with "
                   "jobs, for each job.")
@click.option("--tt-mb", type=WholeNumberType(min=1, max=1 << 16),
              default=DEFAULT_TABLE_MB, show_default=True,
              help="The proof search's transposition table, in MB.")
@click.option("--proof", "proof_file", type=SavePathType(),
              help="Write the proof of the value here (.gz compresses it); a draw "
                   "writes NAME.<letter>.EXT for each side.")
@click.option("--margin", is_flag=True,
              help="Abande: the exact final score margin under perfect play and its "
                   "line, by the exact solver (pieces in hand or not) instead of df-pn.")
@click.option("--threads", type=WholeNumberType(
                  min=1, max=limits.MAX_SOLVE_THREADS,
                  why=" (hexgames.limits.MAX_SOLVE_THREADS)"),
              help="Jobs at once of a job-level proof-number search, each with its own "
                   "--tt-mb table (default 1; with --executor ray the cluster's CPUs).")
@click.option("--executor", type=click.Choice(EXECUTORS), default="threads",
              show_default=True,
              help="Where the jobs run: threads of this process, or Ray tasks (the "
                   "cluster extra).")
@click.option("--address", type=AddressType(),
              help="With --executor ray: the cluster (auto, HOST:PORT or "
                   "ray://HOST:PORT); by default Ray starts on this machine.")
@click.option("--work-dir", type=WorkDirType(),
              help="Keep every job's result and proof here, and take them from here: a "
                   "run stopped and started again resumes.")
@click.option("--job-time", type=SecondsType(),
              help=f"Seconds a job (default {DEFAULT_JOB_TIME:g}).")
def solve_command(game: str, position: str | None, record_file: str | None,
                  ply: int | None, index: int, rules_words: tuple[str, ...],
                  seconds: float | None, nodes: int | None, tt_mb: int,
                  proof_file: str | None, margin: bool, threads: int | None,
                  executor: str, address: str | None, work_dir: str | None,
                  job_time: float | None) -> None:
    """Prove the value of a position of GAME (the start, POSITION, or --record FILE
    --ply N) for the side to move, by proof-number search (df-pn).

    Prints the verdict ("White wins in 17 plies at most, proven", "a draw, proven",
    "no win for White, proven", or "unknown within the limits"), each search's nodes,
    time and table use, and the proof's size. A value is reported as proven only after
    the winner's strategy has been checked position by position with the pure-Python
    boards, which share no code with the solver; --proof writes it as a file for
    `hexgames verify-proof`. Ctrl-C stops and prints what was proven so far (exit
    status 130).

    With --threads N (above 1), --work-dir, --job-time or --executor ray the search is
    job-level proof-number search: a proof-number tree over the top of the game whose
    leaves are df-pn jobs of --job-time seconds (and --nodes node visits), N at once;
    a leaf whose job settles nothing is expanded. --work-dir keeps each job's result as
    it finishes, so a run stopped (Ctrl-C, --time) and started again with the same
    directory skips every settled position.
    """
    from rich.progress import Progress, SpinnerColumn, TimeElapsedColumn

    from hexgames.cli.analyse import _analysis_board, run_stoppable
    from hexgames.solver import solve

    module = load_game(game)
    if position is not None and record_file is not None:
        raise click.UsageError("give POSITION or --record, not both")
    board = _analysis_board(module, position, record_file, ply, index, rules_words)
    if board.is_game_over():
        raise InputError("the game is over in this position: nothing to solve")
    if address is not None and executor != "ray":
        raise click.UsageError("--address is for --executor ray")
    jobs = (threads or 1) > 1 or work_dir is not None or job_time is not None or \
        executor == "ray"
    if margin and jobs:
        raise click.UsageError("--margin is one exact search: not with --threads, "
                               "--executor, --work-dir or --job-time")
    if margin and module.GAME_NAME.lower() != "abande":
        raise InputError(f"--margin is for Abande (a score margin), not {game}")
    if margin and proof_file is not None:
        raise click.UsageError("--margin writes no proof: give --margin or --proof")
    if jobs:
        _solve_by_jobs(module, board, seconds, nodes, tt_mb, proof_file, threads,
                       executor, address, work_dir,
                       DEFAULT_JOB_TIME if job_time is None else job_time)
        return
    names = [str(tag) for tag in module.PLAYER_TAGS]
    console = stdout_console()
    console.print(f"[bold]{module.GAME_NAME}[/] {board.position()}", highlight=False)
    if margin:
        _print_margin(board, seconds, nodes, tt_mb, console)
        return
    limits = [f"{tt_mb} MB table"]
    if seconds is not None:
        limits.append(f"{seconds:g} s")
    if nodes is not None:
        limits.append(f"{nodes:,} nodes a search")
    console.print(f"{names[int(board.turn)]} to move; df-pn with {', '.join(limits)}",
                  highlight=False)
    stop = threading.Event()
    with Progress(SpinnerColumn(), "[progress.description]{task.description}",
                  TimeElapsedColumn(), console=console, transient=True) as progress:
        task = progress.add_task("starting", total=None)
        result, interrupted = run_stoppable(
            lambda: solve(board, time=seconds, max_nodes=nodes, table_mb=tt_mb,
                          should_stop=stop.is_set,
                          on_search=lambda what: progress.update(task, description=what)),
            stop.set, "hexgames-solve")
    _report(console, result, names, interrupted, proof_file)


def _report(console: Any, result: Any, names: list[str], interrupted: bool,
            proof_file: str | None, extra: str | None = None) -> None:
    """Print a solve's searches, verdict, proofs (written to ``proof_file``) and
    totals; exit 2 when the proof cannot be written, 130 after Ctrl-C."""
    if interrupted:
        console.print("Stopped.")
    for s in result.searches:
        what = "not lose" if s.draw_ok else "win"
        rate = s.nodes / s.seconds if s.seconds > 0 else 0.0
        console.print(f"  can {names[s.attacker]} {what}? {s.verdict}: {s.nodes:,} nodes, "
                      f"{s.seconds:.2f} s ({rate:,.0f} nodes/s), table "
                      f"{s.table_fill:.1%} full", highlight=False)
    console.print(_verdict(result, names, interrupted), style="bold", highlight=False)
    claims = result.claims
    failed = None
    if proof_file is not None and claims:
        try:
            claims = write_proofs(claims, proof_file)
        except OSError as error:
            failed = f"the proof cannot be written: {error.strerror or error}" + (
                f" ({error.filename})" if error.filename else "")
    for claim in claims:
        what = "wins" if claim.header.claim == "win" else "does not lose"
        where = f" written to {claim.path}" if claim.path is not None else ""
        console.print(f"  proof that {names[claim.header.winner]} {what}: "
                      f"{len(claim.strategy):,} positions of "
                      f"{names[claim.header.winner]} listed, {claim.checked:,} checked "
                      f"independently{where}", highlight=False)
    for note in result.notes:
        console.print(f"  note: {note}", highlight=False)
    if extra is not None:
        console.print(extra, highlight=False)
    console.print(f"{result.nodes:,} nodes in {result.seconds:.2f} s; table "
                  f"{result.table_bytes / (1 << 20):,.0f} MB", highlight=False)
    if failed is not None:
        raise InputError(failed)
    if interrupted:
        raise click.exceptions.Exit(130)


def _numbers(value: int) -> str:
    """A proof or disproof number as the progress display shows it."""
    from hexgames.jobsolve import INF

    return "inf" if value >= INF else f"{value:,}"


def _solve_by_jobs(module: Any, board: Any, seconds: float | None, nodes: int | None,
                   tt_mb: int, proof_file: str | None, threads: int | None,
                   executor: str, address: str | None, work_dir: str | None,
                   job_time: float) -> None:
    """``solve`` by job-level proof-number search (:func:`hexgames.jobsolve.solve_jobs`),
    with a progress line: the question, jobs done and running, the root's proof and
    disproof numbers, the master tree's size and the jobs' nodes a second."""
    from rich.progress import Progress, SpinnerColumn, TimeElapsedColumn

    from hexgames.cli.analyse import run_stoppable
    from hexgames.jobsolve import JobProgress, solve_jobs

    names = [str(tag) for tag in module.PLAYER_TAGS]
    console = stdout_console()
    console.print(f"[bold]{module.GAME_NAME}[/] {board.position()}", highlight=False)
    if executor == "ray":
        where = f"{threads} Ray tasks" if threads else "Ray tasks (a CPU of the cluster each)"
    else:
        where = f"{threads or 1} thread{'s' if (threads or 1) > 1 else ''}"
    budget = f"{job_time:g} s" + (f" and {nodes:,} nodes" if nodes is not None else "")
    shown = [f"jobs of {budget}", f"{tt_mb} MB table each"]
    if seconds is not None:
        shown.append(f"{seconds:g} s in all")
    if work_dir is not None:
        shown.append(f"work dir {work_dir}")
    console.print(f"{names[int(board.turn)]} to move; job-level proof-number search on "
                  f"{where}; {', '.join(shown)}", highlight=False)
    stop = threading.Event()
    with Progress(SpinnerColumn(), "[progress.description]{task.description}",
                  TimeElapsedColumn(), console=console, transient=True) as progress:
        task = progress.add_task("starting", total=None)

        def show(p: JobProgress) -> None:
            rate = p.nodes / p.seconds if p.seconds > 0 else 0.0
            progress.update(task, description=(
                f"{p.question} jobs {p.done:,} done, {p.running} running, {p.reused:,} "
                f"reused; root pn {_numbers(p.root_pn)} dn {_numbers(p.root_dn)}; tree "
                f"{p.tree_nodes:,}; {rate:,.0f} nodes/s"))

        try:
            result, interrupted = run_stoppable(
                lambda: solve_jobs(board, threads=threads or (None if executor == "ray"
                                                              else 1),
                                   executor=executor, address=address, work_dir=work_dir,
                                   job_time=job_time, job_nodes=nodes, time=seconds,
                                   table_mb=tt_mb, should_stop=stop.is_set,
                                   on_progress=show),
                stop.set, "hexgames-solve")
        except HexgamesError as error:
            raise InputError(str(error)) from None
    extra = (f"jobs: {result.jobs:,} run, {result.reused:,} taken from the work "
             f"directory; master trees {result.tree_nodes:,} positions; {result.workers} "
             f"{'Ray task' if result.executor == 'ray' else 'thread'}"
             f"{'s' if result.workers > 1 else ''}")
    _report(console, result, names, interrupted, proof_file, extra)
