"""The ``match`` and ``tournament`` commands: players play colour-swapped pairs of games
through :mod:`hexgames.arena` (in parallel processes with ``--jobs``, or on a Ray
cluster with ``--executor ray``), with a progress bar on standard error. ``match``
reports wins, draws and losses, score, Elo difference, results by colour and the series
score, and with ``--sprt`` plays until a sequential test decides; ``tournament`` plays a
round robin and reports standings, ratings and a crosstable."""

from __future__ import annotations

import random
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from hexgames.cli.display import (
    ArenaProgress,
    describe_outcome,
    player_tag,
    plural,
    print_output,
    stdout_console,
)
from hexgames.cli.errors import InputError
from hexgames.cli.options import (
    EloPairType,
    NumberType,
    PlayerSpecType,
    WholeNumberType,
    closing_executor,
    discarded_unless_begun,
    levels_epilog,
    load_game,
    make_executor,
    new_board,
    open_output,
    parse_rules,
    run_options,
    search_limit,
    spec_help,
)
from hexgames.core import FIRST
from hexgames.games import game_module


def _wdl_text(row: dict[str, Any]) -> str:
    if not row["games"]:
        return "no games"
    losses = row["losses"]
    return (f"{plural(row['wins'], 'win')}, {plural(row['draws'], 'draw')}, "
            f"{losses} loss{'' if losses == 1 else 'es'} ({row['score']:.1%})")


def print_match(console: Console, match: Any, output: Any = None) -> None:
    """The summary of a :class:`hexgames.arena.MatchResult` on ``console``, its
    sequential test's verdict if it played for one, and where ``output`` (a
    :class:`hexgames.arena.GameOutput`) put the files."""
    from hexgames.arena import format_elo

    module = game_module(match.game)
    a, b = match.players
    console.print(f"[bold]{module.GAME_NAME}[/]: A = {escape(a)}, B = {escape(b)}; "
                  f"{plural(match.played, 'game')}"
                  + ("" if match.complete else f" of {match.games}")
                  + f", seed {match.seed}", markup=True, highlight=False)
    if match.sprt is not None:
        _print_sprt(console, match.sprt)
    if not match.played:
        if output is not None:
            print_output(console, output)
        return
    row = {"games": match.played, "wins": match.wins, "draws": match.draws,
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
    if output is not None:
        print_output(console, output)


def _print_sprt(console: Console, sprt: Any) -> None:
    verdict = sprt.verdict()
    what = {"H1": f"H1 accepted: A is {sprt.elo1:+g} Elo rather than {sprt.elo0:+g}",
            "H0": f"H0 accepted: A is {sprt.elo0:+g} Elo rather than {sprt.elo1:+g}",
            None: "no verdict yet"}[verdict]
    console.print(f"  SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} "
                  f"beta={sprt.beta:g} (logistic Elo, pentanomial): {what}",
                  markup=False, highlight=False)
    penta = ", ".join(f"{name} {count}" for name, count in
                      zip(("LL", "LD", "DD/WL", "WD", "WW"), sprt.pentanomial, strict=True))
    console.print(f"  LLR {sprt.llr():+.3f} (bounds {sprt.lower:+.3f}, {sprt.upper:+.3f}) "
                  f"after {plural(sprt.pairs, 'pair')}: {penta}", markup=False,
                  highlight=False)


def _prepare_run(module: Any, rules_words: tuple[str, ...], position: str | None,
                 seconds: float | None, nodes: int | None,
                 depth: int | None) -> tuple[Any, Any]:
    """Rules and limit, every check that can fail done before any game: the rules, the
    position and the limit (each player was made once when its option was read, by
    :class:`~hexgames.cli.options.PlayerSpecType`, so that option values only the
    constructor checks, alphabeta:tt_mb=..., fail as one error line, not in the games
    behind the progress bar)."""
    rules = parse_rules(module, rules_words)
    board = new_board(module, rules, position)
    if board.is_game_over():
        raise InputError(f"the game is over in this position "
                         f"({describe_outcome(module, board.outcome())}): nothing to play")
    return rules, search_limit(seconds, nodes, depth)


@click.command("match", epilog=levels_epilog())
@click.argument("game")
@click.option("--player", "-p", "players", multiple=True, type=PlayerSpecType(),
              metavar="PLAYER", help=spec_help("A player; give exactly two (A, then B)"))
@click.option("--games", "-n", type=WholeNumberType(min=1),
              help="Games to play, in colour-swapped pairs (default 2; an odd number "
                   "leaves the last game unpaired, with a note).")
@click.option("--sprt", "sprt_elo", type=EloPairType(), metavar="ELO0,ELO1",
              help="Play colour-swapped pairs until a sequential probability ratio test "
                   "accepts H0 (A is ELO0 Elo stronger) or H1 (ELO1), in logistic Elo.")
@click.option("--alpha", type=NumberType(0.0, 1.0), default=0.05, show_default=True,
              help="With --sprt: the chance of accepting H1 when H0 holds.")
@click.option("--beta", type=NumberType(0.0, 1.0), default=0.05, show_default=True,
              help="With --sprt: the chance of accepting H0 when H1 holds.")
@click.option("--max-games", type=WholeNumberType(min=2), default=20000, show_default=True,
              help="With --sprt: stop after this many games (an even number) without "
                   "a verdict.")
@run_options("Directory for games.hgn and results.jsonl (each game as it finishes) and "
             "summary.json.")
def match_command(game: str, players: tuple[str, ...], games: int | None,
                  sprt_elo: tuple[float, float] | None, alpha: float, beta: float,
                  max_games: int, seconds: float | None, nodes: int | None,
                  depth: int | None, rules_words: tuple[str, ...], position: str | None,
                  opening_plies: int, jobs: int, executor: str, address: str | None,
                  seed: int | None, out: str | None) -> None:
    """Play a match of GAME between two players and report the result.

    Games come in colour-swapped pairs: A moves first in odd-numbered games, B in the
    others, both from the same seed. The summary gives A's wins, draws and losses, the
    score, the Elo difference with its 95% confidence interval, results by colour and,
    for Andantino, the series score. The same --seed gives the same games whatever
    --jobs or --executor, when the players' limits do not depend on the clock (--nodes,
    --depth).

    With --sprt ELO0,ELO1 the match plays pairs until the test decides (or --max-games):
    the generalised SPRT of fishtest over pentanomial pair results (logistic Elo), its
    log-likelihood ratio shown live against the bounds log(beta/(1-alpha)) and
    log((1-beta)/alpha). With --jobs or Ray, pairs count in the order they finish, so
    the stopping point may differ by a few pairs from a --jobs 1 run.

    A limit written in a player spec (mcts:time=2) wins over --time, --nodes and
    --depth, which win over a level's preset. --out is checked before the first game,
    and each game is written as it finishes; if a file can no longer be written, the
    output moves to a temporary directory, which the summary names. Ctrl-C stops the
    match and still reports, and writes, the games finished so far.
    """
    from hexgames.arena import Sprt, run_match

    if len(players) != 2:
        raise click.UsageError(
            f"give exactly two --player options (A and B), not {len(players)}")
    if sprt_elo is not None and games is not None:
        raise click.UsageError("--games is for a fixed match; with --sprt give --max-games")
    if sprt_elo is None and games is None:
        games = 2
    if sprt_elo is not None and max_games % 2:
        raise InputError(f"--max-games must be an even number (pairs of games), "
                         f"not {max_games}")
    module = load_game(game)
    rules, limit = _prepare_run(module, rules_words, position, seconds, nodes, depth)
    if sprt_elo is not None and alpha + beta >= 1:
        raise InputError(f"--alpha plus --beta must be below 1, not {alpha + beta:g}")
    sprt = None if sprt_elo is None else Sprt(sprt_elo[0], sprt_elo[1], alpha, beta)
    total = max_games if sprt is not None else games
    assert total is not None
    runner = make_executor(executor, address, jobs)
    console = stdout_console()
    progress = ArenaProgress(total, sprt=sprt)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    output = open_output(out)
    with discarded_unless_begun(output), closing_executor(runner), progress.progress:
        match = run_match(game, players[0], players[1], games=total, limit=limit,
                          rules=rules, seed=seed, executor=runner, progress=progress,
                          position=position, opening_plies=opening_plies, sprt=sprt,
                          out=output, keep_results=False, stop_on_interrupt=True)
    if match.interrupted:
        console.print(f"Interrupted after {match.played} of {total} games.")
    print_match(console, match, output)
    if match.interrupted:
        click.get_current_context().exit(130)


def print_tournament(console: Console, result: Any, output: Any = None) -> None:
    """The standings and crosstable of a :class:`hexgames.arena.TournamentResult`."""
    from rich.table import Table

    from hexgames.arena.ratings import virtual_draws
    from hexgames.arena.stats import elo_text

    module = game_module(result.game)
    console.print(f"[bold]{module.GAME_NAME}[/] tournament: "
                  f"{plural(len(result.players), 'player')}, "
                  f"{plural(result.games, 'game')}"
                  + ("" if result.complete else f" of {result.games_planned}")
                  + f", seed {result.seed}", markup=True, highlight=False)
    ratings = result.ratings()
    scores = result.scores()
    order = result.standings()
    rows = result.crosstable()
    table = Table(box=None, pad_edge=False, show_edge=False)
    for heading in ("#", "player", "points", "score", "Elo (95% CI)"):
        table.add_column(heading, justify="right" if heading != "player" else "left")
    for number in range(1, len(order) + 1):
        table.add_column(str(number), justify="center")
    for rank, i in enumerate(order, start=1):
        points, played = scores[i]
        if ratings is None:
            elo = "-"
        else:
            rating = ratings[i]
            elo = (f"{elo_text(rating.elo, 0)} ({elo_text(rating.low, 0)} to "
                   f"{elo_text(rating.high, 0)})")
        cells = []
        for j in order:
            cell = rows[i][j]
            cells.append("" if i == j else "-" if cell is None or not sum(cell.values())
                         else f"{cell['wins']}-{cell['draws']}-{cell['losses']}")
        table.add_row(str(rank), escape(result.players[i]), f"{points:g}/{played}",
                      "-" if not played else f"{points / played:.1%}", elo, *cells)
    console.print(table)
    console.print(f"  Columns: the opponent by rank, wins-draws-losses. Ratings: "
                  f"Bradley-Terry maximum likelihood, logistic Elo, mean 0, "
                  f"{virtual_draws(result.prior_draws)} a pair.", markup=False,
                  highlight=False, soft_wrap=True)
    if output is not None:
        print_output(console, output)


@click.command("tournament", epilog=levels_epilog())
@click.argument("game")
@click.option("--player", "-p", "players", multiple=True, type=PlayerSpecType(),
              metavar="PLAYER", help=spec_help("A player; give 2 to 64"))
@click.option("--games-per-pair", "-n", type=WholeNumberType(min=2), default=2,
              show_default=True,
              help="Games between each two players, in colour-swapped pairs (even).")
@run_options("Directory for games.hgn and results.jsonl (each game as it finishes) and "
             "summary.json (standings and crosstable).")
def tournament_command(game: str, players: tuple[str, ...], games_per_pair: int,
                       seconds: float | None, nodes: int | None, depth: int | None,
                       rules_words: tuple[str, ...], position: str | None,
                       opening_plies: int, jobs: int, executor: str, address: str | None,
                       seed: int | None, out: str | None) -> None:
    """Play a round-robin tournament of GAME and report standings and a crosstable.

    Every player plays every other --games-per-pair games in colour-swapped pairs, the
    pairings interleaved round by round. The standings give each player's points and
    Bradley-Terry rating (maximum likelihood on the logistic Elo scale, mean 0) with its
    95% interval. Options as for match; Ctrl-C stops and reports the games so far.
    """
    from hexgames.arena import run_tournament
    from hexgames.arena.ratings import MAX_PLAYERS

    if not 2 <= len(players) <= MAX_PLAYERS:
        raise click.UsageError(f"give 2 to {MAX_PLAYERS} --player options, "
                               f"not {len(players)}")
    if games_per_pair % 2:
        raise InputError(f"--games-per-pair must be an even number (colour-swapped "
                         f"pairs), not {games_per_pair}")
    lowered = [spec.strip().lower() for spec in players]
    for spec in lowered:
        if lowered.count(spec) > 1:
            raise InputError(f"player {spec} is given twice")
    module = load_game(game)
    rules, limit = _prepare_run(module, rules_words, position, seconds, nodes, depth)
    runner = make_executor(executor, address, jobs)
    console = stdout_console()
    n = len(players)
    total = games_per_pair * n * (n - 1) // 2
    progress = ArenaProgress(total, side_text="first-named")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    output = open_output(out)
    with discarded_unless_begun(output), closing_executor(runner), progress.progress:
        result = run_tournament(game, players, games_per_pair=games_per_pair,
                                limit=limit, rules=rules, seed=seed, executor=runner,
                                progress=progress, position=position,
                                opening_plies=opening_plies, out=output,
                                keep_results=False, stop_on_interrupt=True)
    if result.interrupted:
        console.print(f"Interrupted after {result.games} of {total} games.")
    print_tournament(console, result, output)
    if result.interrupted:
        click.get_current_context().exit(130)
