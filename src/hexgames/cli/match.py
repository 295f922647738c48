"""The ``match`` command: two players play colour-swapped pairs of games through
:mod:`hexgames.arena` (in parallel processes with ``--jobs``), with a progress bar on
standard error, and the summary: wins, draws and losses, score, Elo difference, results
by colour and the series score."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from hexgames.cli.display import describe_outcome, player_tag, plural, stdout_console
from hexgames.cli.errors import InputError
from hexgames.cli.options import (
    PlayerSpecType,
    SecondsType,
    WholeNumberType,
    levels_epilog,
    load_game,
    new_board,
    parse_rules,
    rules_option,
    search_limit,
    spec_help,
)
from hexgames.core import FIRST
from hexgames.games import game_module


class _MatchProgress:
    """A rich progress bar on standard error, with A's wins, draws and losses so far."""

    def __init__(self, total: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.results: list[Any] = []
        self.progress = Progress(
            TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
            TextColumn("A +{task.fields[wins]} ={task.fields[draws]} -{task.fields[losses]}"),
            TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
            console=Console(stderr=True, highlight=False))
        self.task = self.progress.add_task("match", total=total, wins=0, draws=0, losses=0)

    def __call__(self, result: Any, done: int, total: int) -> None:
        self.results.append(result)
        winners = [r.winner for r in self.results]
        self.progress.update(self.task, completed=done, wins=winners.count(0),
                             draws=winners.count(None), losses=winners.count(1))


def _prepare_out(out: str) -> Path:
    if not out.strip():  # Path("") is the current directory
        raise InputError("--out needs a directory name, not an empty one")
    path = Path(out)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot create --out directory {out}: "
                         f"{error.strerror or error}") from None
    return path


def _wdl_text(row: dict[str, Any]) -> str:
    if not row["games"]:
        return "no games"
    losses = row["losses"]
    return (f"{plural(row['wins'], 'win')}, {plural(row['draws'], 'draw')}, "
            f"{losses} loss{'' if losses == 1 else 'es'} ({row['score']:.1%})")


def print_match(console: Console, match: Any, paths: tuple[Path, Path] | None = None) -> None:
    """The summary of a :class:`hexgames.arena.MatchResult` on ``console``."""
    from hexgames.arena import format_elo

    module = game_module(match.game)
    a, b = match.players
    console.print(f"[bold]{module.GAME_NAME}[/]: A = {escape(a)}, B = {escape(b)}; "
                  f"{plural(len(match.results), 'game')}"
                  + ("" if match.complete else f" of {match.games}")
                  + f", seed {match.seed}", markup=True, highlight=False)
    if not match.results:
        return
    row = {"games": len(match.results), "wins": match.wins, "draws": match.draws,
           "losses": match.losses, "score": match.score}
    console.print(f"  A: {_wdl_text(row)}")
    elo = match.elo()
    line = f"  Elo A - B: {format_elo(elo)}"
    pairs = match.elo_pairs()
    if pairs is not None:
        line += f"; by colour-swapped pairs {format_elo(pairs)}"
    console.print(line)
    colours = match.by_colour()
    console.print("  " + "; ".join(f"A as {tag}: {_wdl_text(row)}"
                                   for tag, row in colours.items()))
    first = match.first_player()
    console.print(f"  {player_tag(module, FIRST)} (first player) scored {first['score']:.1%}")
    series = match.series()
    if series is not None:
        console.print(f"  Series score: A {series[0]}, B {series[1]}")
    console.print("  Terminations: " + ", ".join(
        f"{name} {count}" for name, count in match.terminations().items()))
    if match.games % 2:
        console.print("  note: an odd number of games is not colour-balanced "
                      "(the last game had A moving first)", style="yellow")
    if paths is not None:
        console.print(f"  Games: {paths[0]}", markup=False, highlight=False, soft_wrap=True)
        console.print(f"  Summary: {paths[1]}", markup=False, highlight=False,
                      soft_wrap=True)


@click.command("match", epilog=levels_epilog())
@click.argument("game")
@click.option("--player", "-p", "players", multiple=True, type=PlayerSpecType(),
              metavar="PLAYER", help=spec_help("A player; give exactly two (A, then B)"))
@click.option("--games", "-n", type=WholeNumberType(min=1), default=2, show_default=True,
              help="Games to play, in colour-swapped pairs (give an even number).")
@click.option("--time", "seconds", type=SecondsType(),
              help="Seconds a move, for players whose spec sets no limit.")
@click.option("--nodes", type=WholeNumberType(min=1),
              help="Nodes (or simulations) a move, for players whose spec sets no limit.")
@click.option("--depth", type=WholeNumberType(min=1),
              help="Plies of search a move, for players whose spec sets no limit.")
@rules_option
@click.option("--position", help="Start every game from this position string.")
@click.option("--opening-plies", type=WholeNumberType(min=0), default=0, show_default=True,
              help="Random plies that open each pair of games (the same for both games "
                   "of a pair), so players that search by depth or nodes get varied games.")
@click.option("--jobs", "-j", type=WholeNumberType(min=1), default=1, show_default=True,
              help="Games played in parallel, each in its own process.")
@click.option("--seed", type=WholeNumberType(),
              help="Match seed (default: random; it is printed).")
@click.option("--out", type=click.Path(file_okay=False),
              help="Directory for games.hgn (every game) and summary.json.")
def match_command(game: str, players: tuple[str, ...], games: int, seconds: float | None,
                  nodes: int | None, depth: int | None, rules_words: tuple[str, ...],
                  position: str | None, opening_plies: int, jobs: int, seed: int | None,
                  out: str | None) -> None:
    """Play a match of GAME between two players and report the result.

    Games come in colour-swapped pairs: A moves first in odd-numbered games, B in the
    others, both from the same seed. The summary gives A's wins, draws and losses, the
    score, the Elo difference with its 95% confidence interval, results by colour and,
    for Andantino, the series score. The same --seed gives the same games whatever
    --jobs, when the players' limits do not depend on the clock (--nodes, --depth).

    A limit written in a player spec (mcts:time=2) wins over --time, --nodes and
    --depth, which win over a level's preset. Ctrl-C stops the match and still
    reports, and writes, the games finished so far.
    """
    from hexgames.arena import MatchResult, run_match
    from hexgames.engine.players import make_player

    if len(players) != 2:
        raise click.UsageError(
            f"give exactly two --player options (A and B), not {len(players)}")
    module = load_game(game)
    rules = parse_rules(module, rules_words)
    board = new_board(module, rules, position)
    if board.is_game_over():
        raise InputError(f"the game is over in this position "
                         f"({describe_outcome(module, board.outcome())}): nothing to play")
    limit = search_limit(seconds, nodes, depth)
    for spec in players:
        # Option values only the player's constructor checks (alphabeta:tt_mb=...)
        # fail here, as one error line, not in the games behind the progress bar.
        make_player(spec, limit=limit)
    out_dir = None if out is None else _prepare_out(out)
    console = stdout_console()
    progress = _MatchProgress(games)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    start = time.perf_counter()
    try:
        with progress.progress:
            match = run_match(game, players[0], players[1], games=games, limit=limit,
                              rules=rules, jobs=jobs, seed=seed, progress=progress,
                              position=position, opening_plies=opening_plies)
    except KeyboardInterrupt:
        done = sorted(progress.results, key=lambda r: r.index)
        match = MatchResult(module.__name__.rpartition(".")[2],
                            (players[0], players[1]), done, games,
                            tuple(rules.options()), position, limit, seed, jobs,
                            time.perf_counter() - start, opening_plies)
        console.print(f"Interrupted after {len(done)} of {games} games.")
    paths = None
    if out_dir is not None:
        try:
            paths = match.write(out_dir)
        except OSError as error:
            raise InputError(f"cannot write to {out_dir}: {error.strerror or error}") from None
    print_match(console, match, paths)
    if not match.complete:
        click.get_current_context().exit(130)
