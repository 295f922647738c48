"""The ``selfplay`` command: one player against itself through
:mod:`hexgames.arena.selfplay`, writing the records and, with ``--samples``, per-position
training samples (Parquet, :mod:`hexgames.arena.samples`) as games finish."""

from __future__ import annotations

import random

import click

from hexgames.cli.display import ArenaProgress, plural, print_output, stdout_console
from hexgames.cli.options import (
    PlayerSpecType,
    WholeNumberType,
    closing_executor,
    discarded_unless_begun,
    levels_epilog,
    load_game,
    make_executor,
    open_output,
    run_options,
    spec_help,
)


@click.command("selfplay", epilog=levels_epilog())
@click.argument("game")
@click.option("--player", "-p", "players", required=True, multiple=True,
              type=PlayerSpecType(), metavar="PLAYER",
              help=spec_help("The player (once: it plays both sides)"))
@click.option("--games", "-n", type=WholeNumberType(min=1), default=2, show_default=True,
              help="Games to play.")
@click.option("--samples", is_flag=True,
              help="Also write samples.parquet: one row per position the player moved "
                   "from (position, move, the search's score, evaluation and move "
                   "probabilities when given, the final result); needs pyarrow "
                   "(pip install 'hexgames[selfplay]').")
@run_options("Directory for games.hgn, results.jsonl, samples.parquet and summary.json "
             "(written as games finish).", out_required=True)
def selfplay_command(game: str, players: tuple[str, ...], games: int, samples: bool,
                     seconds: float | None, nodes: int | None, depth: int | None,
                     rules_words: tuple[str, ...], position: str | None,
                     opening_plies: int, jobs: int, executor: str, address: str | None,
                     seed: int | None, out: str) -> None:
    """Play GAME between a player and itself and write the games (and samples) to --out.

    Every game has its own seed (from --seed, printed), so a run can be played again;
    with --opening-plies each game opens with that many random plies (recorded, but
    giving no samples). The columns of samples.parquet are documented in
    hexgames.arena.samples. Ctrl-C stops and keeps the games finished so far.
    """
    from hexgames.arena import run_selfplay
    from hexgames.cli.match import _prepare_run

    if len(players) > 1:  # click would take the last one silently
        raise click.UsageError("selfplay plays one player against itself: give --player "
                               f"once, not {len(players)} times (a match of two is "
                               "'hexgames match')")
    [player] = players
    module = load_game(game)
    rules, limit = _prepare_run(module, rules_words, position, seconds, nodes, depth)
    runner = make_executor(executor, address, jobs)
    console = stdout_console()
    progress = ArenaProgress(games, side_text="first player")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    output = open_output(out, samples=samples)
    with discarded_unless_begun(output), closing_executor(runner), progress.progress:
        match = run_selfplay(game, player, games=games, limit=limit, rules=rules,
                             seed=seed, executor=runner, progress=progress,
                             position=position, opening_plies=opening_plies, out=output,
                             samples=samples, keep_results=False,
                             stop_on_interrupt=True)
    if match.interrupted:
        console.print(f"Interrupted after {match.played} of {games} games.")
    first = match.first_player()
    console.print(f"{module.GAME_NAME} self-play of {player}: "
                  f"{plural(match.played, 'game')}, seed {match.seed}", markup=False,
                  highlight=False)
    if match.played:
        console.print(f"  First player: {first['wins']} won, {first['draws']} drawn, "
                      f"{first['losses']} lost ({first['score']:.1%})", markup=False,
                      highlight=False)
    if output.samples is not None:
        console.print(f"  {plural(output.samples.rows, 'sample')}", markup=False,
                      highlight=False)
    print_output(console, output)
    if match.interrupted:
        click.get_current_context().exit(130)
