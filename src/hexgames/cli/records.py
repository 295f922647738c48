"""The commands on ``.hgn`` game records: ``replay`` checks every game of a file (legal
moves, result, termination) and ``render`` draws a position of one as an SVG picture."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from hexgames.cli.display import plural, stdout_console
from hexgames.cli.errors import InputError
from hexgames.cli.options import (
    SavePathType,
    WholeNumberType,
    read_record_text,
    record_module,
    save_text,
)
from hexgames.core import HexgamesError
from hexgames.record.errors import shorten_in


def _check_game(game: Any) -> dict[str, Any]:
    """The report on one record: tags, plies (of the main line), result, termination,
    valid, error, variations (how many lines branch off another) and comments (how many
    places hold one)."""
    nodes = list(game.nodes())
    report: dict[str, Any] = {
        "game_index": game.game_index,
        "tags": dict(game.tags),
        "plies": len(game.moves),
        "result": game.result,
        "termination": game.tags.get("Termination"),
        "valid": True,
        "error": None,
        "variations": sum(node.starts_variation() for node in nodes),
        "comments": (game.root.comment is not None)
        + sum((node.comment is not None) + (node.starting_comment is not None)
              for node in nodes),
    }
    syntax_error = record_module().RecordSyntaxError
    try:
        game.validate()
        if report["termination"] is None:
            outcome = game.board().outcome()
            if outcome is not None:
                report["termination"] = outcome.termination.value
    except syntax_error:
        raise  # unreadable input, not a wrong game: exit status 2
    except HexgamesError as error:
        report["valid"] = False
        report["error"] = str(error)
    return report


@click.command("replay")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game and line.")
def replay(file: str, as_json: bool) -> None:
    """Check every game of a .hgn record FILE (- for standard input).

    Every move is checked, in the main line and in every variation. Prints each game's
    tags, plies (of the main line), result, termination, and how many variations and
    comments it holds. Exit status 1 if a game has an illegal move or a wrong result, 2
    if FILE cannot be read as game records or holds none.
    """
    record = record_module()
    games = record.parse_games(read_record_text(file))
    if not games:
        raise InputError(f"{'standard input' if file == '-' else file} contains no games")
    reports = [_check_game(game) for game in games]
    if as_json:
        for report in reports:
            click.echo(json.dumps(report, ensure_ascii=False))
    else:
        console = stdout_console()
        for number, report in enumerate(reports, 1):
            _print_report(console, number, report)
        bad = sum(not r["valid"] for r in reports)
        console.print(Text.assemble(f"{len(reports)} game(s), ",
                                    (f"{bad} invalid", "red") if bad
                                    else ("all valid", "green")), soft_wrap=True)
    if any(not r["valid"] for r in reports):
        click.get_current_context().exit(1)


def _print_report(console: Console, number: int, report: dict[str, Any]) -> None:
    """A game's report, each line one line however narrow the terminal (soft_wrap: the
    terminal folds it, rich does not break it) and printed as it is (no markup)."""
    if report["valid"]:
        verdict = ("ok", "green")
    else:
        verdict = (f"invalid: {shorten_in(report['error'], '')}", "red")
    console.print(Text.assemble((f"Game {number}", "bold"), " ", verdict), soft_wrap=True)
    for key, value in report["tags"].items():
        console.print(f"  [{key} {json.dumps(value, ensure_ascii=False)}]", markup=False,
                      soft_wrap=True)
    termination = report["termination"] or "-"
    console.print(f"  plies {report['plies']}, result {report['result']}, "
                  f"termination {termination}, variations {report['variations']}, "
                  f"comments {report['comments']}", markup=False, soft_wrap=True)


@click.command("render")
@click.argument("file")
@click.option("--game-index", "--index", "index", type=WholeNumberType(min=1), default=1,
              show_default=True, help="Which game of the file.")
@click.option("--ply", type=WholeNumberType(min=0),
              help="The position after this many plies (default: the end of the record).")
@click.option("--output", "-o", type=SavePathType(),
              help="Write the SVG here (default: stdout; checked before the work starts).")
@click.option("--size", type=WholeNumberType(min=16, max=20_000), default=400,
              show_default=True, help="The longer side of the picture, in pixels (16 to "
                                      "20000).")
@click.option("--flipped", is_flag=True, help="Turn the board by 180 degrees.")
@click.option("--no-coordinates", is_flag=True, help="Leave the cell names out.")
@click.option("--legal", is_flag=True, help="Mark the cells a legal move can go to.")
def render(file: str, index: int, ply: int | None, output: str | None, size: int,
           flipped: bool, no_coordinates: bool, legal: bool) -> None:
    """Draw a position of a .hgn record FILE (- for standard input) as an SVG picture.

    The position is the one after --ply plies of game --game-index, with the last move
    marked and, at the end of a game, the winning line, the trapped tiles or the
    sleeping stacks and the score shown.
    """
    from hexgames import svg

    games = record_module().parse_games(read_record_text(file))
    if not games:
        raise InputError(f"{'standard input' if file == '-' else file} contains no games")
    if index > len(games):
        raise InputError(f"{file} holds {plural(len(games), 'game')}, not a game {index}")
    board = games[index - 1].board(ply)
    picture = svg.board(board, size=size, coordinates=not no_coordinates, flipped=flipped,
                        legal=legal) + "\n"
    if output is None:
        click.echo(picture, nl=False)
        return
    saved = save_text(output, picture, suffix=".svg")
    if saved.path is None:
        click.echo(picture, nl=False)
        raise InputError(f"{saved.problem}, nor a file in the current or the temporary "
                         "directory; the picture is printed above")
    if saved.problem is not None:
        raise InputError(f"{saved.problem}; the picture was saved to {saved.path} instead")
