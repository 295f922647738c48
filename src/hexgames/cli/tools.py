"""The ``perft`` and ``bench`` commands, which measure the rules engine: the number of
positions 1..DEPTH plies ahead (to check against docs/perft.md), and the speed and results of
uniformly random playouts."""

from __future__ import annotations

import click

from hexgames import limits
from hexgames.cli.display import player_tag, stdout_console
from hexgames.cli.options import (
    SecondsType,
    WholeNumberType,
    load_game,
    new_board,
    parse_rules,
    rules_option,
)
from hexgames.core import FIRST, SECOND

#: The deepest perft the command counts (the cap lives with the others).
MAX_PERFT_DEPTH = limits.MAX_PERFT_DEPTH


# ignore_unknown_options: "-1" is then a DEPTH to refuse, not an unknown option.
@click.command("perft", context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("depth", type=WholeNumberType(
    min=1, max=MAX_PERFT_DEPTH, why=" (deeper counts would not finish)"))
@rules_option
@click.option("--position", help="Count from this position string instead of the start.")
@click.option("--divide", is_flag=True,
              help="Split the count at DEPTH by the first move.")
def perft_command(game: str, depth: int, rules_words: tuple[str, ...], position: str | None,
                  divide: bool) -> None:
    """Count the positions 1..DEPTH plies ahead (one line "depth count" per depth);
    DEPTH is 1 to 12.

    A finished game is not expanded further. With --divide, print instead one line
    "move count" per legal move for DEPTH, then "total count".
    """
    from hexgames import perft as perft_module

    module = load_game(game)
    board = new_board(module, parse_rules(module, rules_words), position)
    if divide:
        counts = perft_module.divide(board, depth)
        for notation, count in counts:
            click.echo(f"{notation} {count}")
        click.echo(f"total {sum(count for _, count in counts)}")
        return
    for d in range(1, depth + 1):
        click.echo(f"{d} {perft_module.perft(board, d)}")


@click.command("bench")
@click.argument("game")
@click.option("--seconds", type=SecondsType(), default=5.0, show_default=True,
              help="About how long to play.")
@click.option("--seed", type=WholeNumberType(), default=None, help="Seed of the random moves.")
@click.option("--python", "python", is_flag=True,
              help="Play them on the pure-Python board instead of the native core.")
@rules_option
def bench(game: str, seconds: float, seed: int | None, python: bool,
          rules_words: tuple[str, ...]) -> None:
    """Play uniformly random games of GAME for about --seconds and report the speed.

    The native core plays them (its batch call, no Python per ply) unless --python asks
    for the pure-Python board. Ctrl-C stops the run early: the figures of the playouts
    finished so far are printed all the same (exit status 130).
    """
    from hexgames.bench import random_playouts

    module = load_game(game)
    rules = parse_rules(module, rules_words)
    console = stdout_console()
    path = "Python" if python else "native"
    with console.status(f"Playing random {module.GAME_NAME} games for {seconds:g} s "
                        f"({path})..."):
        result = random_playouts(game, seconds, seed, rules, interruptible=True,
                                 native=not python)
    if result.interrupted:
        console.print(f"Interrupted after {result.seconds:.2f} s: the figures below are "
                      "of the playouts finished so far.", highlight=False)
    n = result.playouts
    console.print(f"[bold]{module.GAME_NAME}[/] ({path}): {n:,} random playouts, "
                  f"{result.plies:,} plies in {result.seconds:.2f} s")
    if n:
        console.print(f"  {result.playouts_per_second:,.0f} playouts/s, "
                      f"{result.plies_per_second:,.0f} plies/s, "
                      f"{result.plies_per_playout:.1f} plies per playout")
        console.print(f"  {player_tag(module, FIRST)} wins {result.wins[0] / n:.1%}, "
                      f"{player_tag(module, SECOND)} wins {result.wins[1] / n:.1%}, "
                      f"draws {result.draws / n:.1%}")
        shares = ", ".join(f"{t.value} {count / n:.1%}"
                           for t, count in result.terminations.most_common())
        console.print(f"  terminations: {shares}")
    else:
        console.print("  no playout finished: nothing to measure")
    if result.interrupted:
        click.get_current_context().exit(130)
