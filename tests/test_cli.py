"""The ``hexgames`` command, driven through click's CliRunner (stdin piped as ``input``)."""

from __future__ import annotations

import json
import math
import os
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from hexgames import __version__, abande, andantino, book, cli, record
from hexgames.core import Termination


def run(*args: str, input: str | None = None) -> Result:
    # Without COLUMNS, piped output is 160 columns wide whatever the terminal running
    # the tests; tests of narrow terminals set it themselves.
    return CliRunner().invoke(cli.cli, list(args), input=input, prog_name="hexgames",
                              env={"COLUMNS": None})


def assert_input_error(result: Result, fragment: str = "") -> None:
    """Exit status 2, one line ``error: ...`` on stderr, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert fragment in lines[0]
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- global ---------------------------------------------------------------------------


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"hexgames, version {__version__}\n"


def test_help_lists_the_commands() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for command in ("play", "perft", "replay", "bench"):
        assert f"  {command} " in result.stdout


def test_no_command_prints_help() -> None:
    result = run()
    assert result.exit_code == 0
    assert "Commands:" in result.stdout


def test_play_help_names_the_player_options_of_every_game() -> None:
    result = run("play", "--help")
    assert result.exit_code == 0
    for option in ("--white", "--red", "--black", "--first", "--second", "--seed", "--save"):
        assert option in result.stdout


# --- play -----------------------------------------------------------------------------


def expected_game(seed: int, my_seed: int, *, human: int = 0) -> tuple[list[str], andantino.Board]:
    """A game of a human (side ``human``, moves chosen by ``Random(my_seed)``) against the
    CLI's random player seeded ``seed``: the human's input lines and the final board."""
    board = andantino.Board()
    computer = random.Random(seed)
    me = random.Random(my_seed)
    lines = []
    while not board.is_game_over():
        if int(board.turn) == human:
            move = me.choice(sorted(board.legal_moves, key=lambda m: m.notation()))
            lines.append(move.notation())
        else:
            move = cli.random_move(board, computer)
        board.push(move)
    return lines, board


def test_full_game_against_random_from_piped_input(tmp_path: Path) -> None:
    lines, board = expected_game(seed=7, my_seed=1)
    save = tmp_path / "game.hgn"
    result = run("play", "andantino", "--red", "random", "--seed", "7", "--save", str(save),
                 input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    outcome = board.outcome()
    assert outcome is not None
    assert f"Game over: {board.result()}" in result.stdout
    assert f"{board.ply()}. " in result.stdout
    saved = record.read_game(save.read_text(encoding="utf-8"))
    assert saved.moves == [m.notation() for m in board.move_stack]
    assert saved.tags["White"] == "Human"
    assert saved.tags["Red"] == "hexgames random"
    assert saved.result == board.result()
    assert saved.tags["Termination"] == outcome.termination.value


def test_human_can_play_red_against_a_random_white() -> None:
    lines, board = expected_game(seed=3, my_seed=2, human=1)
    result = run("play", "--white", "random", "--red", "human", "--seed", "3",
                 input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert f"Game over: {board.result()}" in result.stdout


def test_first_and_second_name_the_players() -> None:
    lines, board = expected_game(seed=5, my_seed=4)
    result = run("play", "--first", "human", "--second", "random", "--seed", "5",
                 input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert f"Game over: {board.result()}" in result.stdout


def test_two_humans_play_a_recorded_game() -> None:
    rng = random.Random(11)
    board = andantino.Board()
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    moves = [m.notation() for m in board.move_stack]
    result = run("play", "--white", "human", "--red", "human", input="\n".join(moves) + "\n")
    assert result.exit_code == 0, result.output
    assert f"Game over: {board.result()}" in result.stdout
    assert f"{len(moves)}. {'White' if len(moves) % 2 else 'Red'} (human) plays {moves[-1]}" \
        in result.stdout


def test_computer_against_computer_needs_no_input() -> None:
    result = run("play", "--white", "random", "--red", "random", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.stdout
    assert "move (or help)>" not in result.stdout


def test_the_board_labels_the_legal_cells_and_marks_the_last_move() -> None:
    result = run("play", "--seed", "2", input="0,1\nquit\n")
    assert result.exit_code == 0, result.output
    first = result.stdout.split("╰")[0]
    assert " 0,1 " in first and " 1,-1 " in first
    assert "White move (or help)>" in result.stdout
    last = result.stdout.split("╭")[-1]
    assert "(R)" in last  # the random reply
    assert "ply 2 · White to move" in last
    assert "23 in hand" in last


def test_undo_takes_back_the_move_and_the_reply(tmp_path: Path) -> None:
    save = tmp_path / "undo.hgn"
    result = run("play", "--seed", "4", "--save", str(save),
                 input="0,1\nundo\n1,-1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Took back 0,1 and " in result.stdout
    saved = record.read_game(save.read_text(encoding="utf-8"))
    assert saved.moves[0] == "1,-1"
    assert len(saved.moves) == 2
    assert saved.result == "*"


def test_undo_with_nothing_to_undo() -> None:
    result = run("play", input="undo\nquit\n")
    assert result.exit_code == 0
    assert "nothing to undo" in result.stdout


def test_undo_between_humans_takes_back_one_ply(tmp_path: Path) -> None:
    save = tmp_path / "g.hgn"
    result = run("play", "--red", "human", "--save", str(save),
                 input="0,1\n1,1\nundo\n-1,1\nquit\n")
    assert result.exit_code == 0, result.output
    assert record.read_game(save.read_text(encoding="utf-8")).moves == ["0,1", "-1,1"]


def test_resign_saves_a_record_that_replays(tmp_path: Path) -> None:
    save = tmp_path / "resign.hgn"
    result = run("play", "andantino", "--seed", "1", "--save", str(save),
                 input="0,1\nresign\n")
    assert result.exit_code == 0, result.output
    assert "White resigns: Red wins." in result.stdout
    text = save.read_text(encoding="utf-8")
    assert '[Result "0-1"]' in text
    assert '[Termination "resignation"]' in text
    replayed = run("replay", str(save))
    assert replayed.exit_code == 0, replayed.output
    assert "termination resignation" in replayed.stdout


def test_bad_input_prints_one_line_and_prompts_again() -> None:
    result = run("play", input="9,9\nfoo\n1,0\n\n0,1\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "illegal move 9,9: 9,9 touches 0 tile(s)" in out
    assert "'foo' is not an Andantino move" in out
    assert "illegal move 1,0: 1,0 is occupied" in out
    assert "1. White (human) plays 0,1" in out
    assert out.count("White move (or help)>") == 6  # five before 0,1, one for quit
    assert "Traceback" not in result.output


def test_help_and_moves_at_the_prompt() -> None:
    result = run("play", input="help\nmoves\nquit\n")
    assert result.exit_code == 0
    assert "resign" in result.stdout and "undo" in result.stdout
    assert "2 legal moves:" in result.stdout
    assert "0,1  1,-1" in result.stdout


def test_end_of_input_ends_the_game_like_quit(tmp_path: Path) -> None:
    save = tmp_path / "eof.hgn"
    result = run("play", "--seed", "9", "--save", str(save), input="0,1\n")
    assert result.exit_code == 0, result.output
    assert "End of input" in result.stdout
    saved = record.read_game(save.read_text(encoding="utf-8"))
    assert saved.result == "*" and saved.moves[0] == "0,1" and len(saved.moves) == 2


def test_empty_input() -> None:
    result = run("play", input="")
    assert result.exit_code == 0
    assert "End of input" in result.stdout


def test_play_with_rules_and_a_position() -> None:
    result = run("play", "--rules", "single_adjacency=on", "--red", "human",
                 input="0,1\nmoves\nquit\n")
    assert result.exit_code == 0, result.output
    assert "9 legal moves:" in result.stdout
    position = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w"
    result = run("play", "--position", position, "--red", "human", input="-1,1\n")
    assert result.exit_code == 0, result.output
    assert "Game over: 1-0 White wins by trap" in result.stdout
    assert "[R]" in result.stdout  # the trapped tile


def test_a_winning_line_is_marked() -> None:
    position = "andantino w=0,0;1,0;2,0;3,0;0,1;1,1 r=0,-1;1,-1;2,-1;-1,1;4,-1 turn=w"
    result = run("play", "--position", position, "--red", "human", input="4,0\n")
    assert result.exit_code == 0, result.output
    assert "White wins by line" in result.stdout
    board_lines = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert "\n".join(board_lines).count("*W*") == 5
    assert "key: *W* winning line" in result.stdout


def test_play_abande_names_its_players_black_and_white(tmp_path: Path) -> None:
    save = tmp_path / "abande.hgn"
    result = run("play", "abande", "--black", "human", "--white", "human",
                 "--save", str(save), input="d4\nc4\nmoves\nresign\n")
    assert result.exit_code == 0, result.output
    assert "Abande" in result.stdout
    assert "Black resigns: White wins." in result.stdout
    saved = record.read_game(save.read_text(encoding="utf-8"))
    assert saved.tags["Black"] == "Human" and saved.moves == ["d4", "c4"]


def test_abande_random_game_ends_with_a_score() -> None:
    result = run("play", "abande", "--first", "random", "--second", "random", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "by score" in result.stdout or "draw (score" in result.stdout


# --- perft ----------------------------------------------------------------------------


def test_perft_andantino() -> None:
    result = run("perft", "andantino", "5")
    assert result.exit_code == 0
    assert result.stdout == "1 2\n2 6\n3 24\n4 120\n5 672\n"


def test_perft_balance_variant() -> None:
    result = run("perft", "andantino", "5", "--rules", "single_adjacency=on")
    assert result.stdout == "1 2\n2 18\n3 72\n4 480\n5 2640\n"


def test_perft_abande() -> None:
    assert run("perft", "Abande", "3").stdout == "1 37\n2 180\n3 1176\n"


def test_perft_divide() -> None:
    result = run("perft", "andantino", "3", "--divide")
    assert result.stdout == "0,1 12\n1,-1 12\ntotal 24\n"


def test_perft_from_a_position() -> None:
    position = "andantino w=0,0;0,1 r=1,0 turn=r"
    result = run("perft", "andantino", "2", "--position", position)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "1 3"


def test_perft_repeatable_rules() -> None:
    result = run("perft", "andantino", "2", "--rules", "single_adjacency=on",
                 "--rules", "self_trap=illegal")
    assert result.stdout == "1 2\n2 18\n"


# --- replay ---------------------------------------------------------------------------

GOOD = """[Game "Andantino"]
[White "A"]
[Red "B"]
[Result "*"]

1. 0,1 1,1 2. -1,1 *
"""
ILLEGAL = GOOD.replace("-1,1", "5,5")
WRONG_RESULT = GOOD.replace("*", "1-0")


def test_replay_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "good.hgn"
    path.write_text(GOOD + "\n" + GOOD, encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.count("Game ") >= 2
    assert '[White "A"]' in result.stdout
    assert "plies 3, result *" in result.stdout
    assert "2 game(s), all valid" in result.stdout


def test_replay_json(tmp_path: Path) -> None:
    path = tmp_path / "games.hgn"
    path.write_text(GOOD + "\n" + ILLEGAL, encoding="utf-8")
    result = run("replay", "--json", str(path))
    assert result.exit_code == 1
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["valid"] for r in reports] == [True, False]
    assert reports[0] == {
        "game_index": 1, "tags": {"Game": "Andantino", "White": "A", "Red": "B",
                                  "Result": "*"},
        "plies": 3, "result": "*", "termination": None, "valid": True, "error": None,
        "variations": 0, "comments": 0}
    assert "5,5" in reports[1]["error"]


# Two variations (one inside the other) and three comments; the second game has an
# illegal move (0,0 is occupied) in the variation inside the variation.
BRANCHED = """[Game "Andantino"]
[Result "*"]

{start} 1. 0,1 (1. 1,-1 2,-1 (1... 0,-1 {b}) 2. 2,0) 1... 1,1 {c} 2. -1,1 *
"""


def test_replay_checks_and_counts_variations_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "branched.hgn"
    path.write_text(BRANCHED + "\n" + BRANCHED.replace("0,-1 {b}", "0,0 {b}"),
                    encoding="utf-8")
    result = run("replay", "--json", str(path))
    assert result.exit_code == 1, result.output
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert (first["valid"], first["plies"], first["variations"], first["comments"]) == (
        True, 3, 2, 3)
    assert second["valid"] is False
    assert second["error"] == (
        "game 2, move 1 (1... 0,0) in variation 1 of move 1. > variation 1 of move "
        "1... (line 9, column 36): illegal move 0,0: 0,0 is occupied")
    text = run("replay", str(path))
    assert "plies 3, result *, termination -, variations 2, comments 3" in text.stdout


def test_replay_reports_the_termination_of_a_finished_game(tmp_path: Path) -> None:
    rng = random.Random(5)
    board = andantino.Board()
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    rec = record.record_from_board(board)
    del rec.tags["Termination"]
    path = tmp_path / "done.hgn"
    path.write_text(record.write_game(rec), encoding="utf-8")
    result = run("replay", "--json", str(path))
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["termination"] == board.outcome().termination.value  # type: ignore[union-attr]
    assert report["plies"] == board.ply()


@pytest.mark.parametrize("text", [ILLEGAL, WRONG_RESULT])
def test_replay_invalid_game_exits_1(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.hgn"
    path.write_text(text, encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "invalid" in result.stdout
    assert "Traceback" not in result.output


def test_replay_from_stdin() -> None:
    result = run("replay", "-", input=GOOD)
    assert result.exit_code == 0
    assert "1 game(s), all valid" in result.stdout


def test_replay_unreadable_input_exits_2(tmp_path: Path) -> None:
    assert_input_error(run("replay", str(tmp_path / "missing.hgn")), "cannot read")
    binary = tmp_path / "binary.hgn"
    binary.write_bytes(b"\xff\xfe\x00junk")
    assert_input_error(run("replay", str(binary)), "not UTF-8")
    broken = tmp_path / "broken.hgn"
    broken.write_text('[Game "Andantino"\n\n1. 0,1 *\n', encoding="utf-8")
    assert_input_error(run("replay", str(broken)), "broken tag line")
    assert_input_error(run("replay", "-", input='[Game "Chess"]\n\n1. e4 *\n'), "Chess")
    assert_input_error(run("replay", str(tmp_path)), "cannot read")


# --- bench ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["andantino", "abande"])
def test_bench_runs(game: str) -> None:
    for extra, path in (((), "native"), (("--python",), "Python")):
        result = run("bench", game, "--seconds", "0.2", "--seed", "1", *extra)
        assert result.exit_code == 0, result.output
        assert f"({path}): " in result.stdout and "random playouts" in result.stdout
        assert "playouts/s" in result.stdout and "plies/s" in result.stdout
        assert "terminations:" in result.stdout


def test_bench_with_rules() -> None:
    result = run("bench", "andantino", "--seconds", "0.1", "--rules", "self_trap=ignore")
    assert result.exit_code == 0, result.output


def test_bench_ctrl_c_prints_what_it_measured_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: Ctrl-C during ``bench`` printed only "aborted"."""
    from hexgames.bench import random_playouts

    two = random_playouts("abande", math.inf, seed=5, max_playouts=2, native=False)
    push = abande.Board.push
    calls = 0

    def interrupted_push(self: abande.Board, move: abande.Move) -> None:
        nonlocal calls
        calls += 1
        if calls == two.plies + 3:  # in the third playout
            raise KeyboardInterrupt
        push(self, move)

    monkeypatch.setattr(abande.Board, "push", interrupted_push)
    result = run("bench", "abande", "--python", "--seconds", "60", "--seed", "5")
    assert result.exit_code == 130, result.output
    assert "(Python)" in result.stdout
    assert "Interrupted after" in result.stdout
    assert f"2 random playouts, {two.plies} plies" in result.stdout
    assert "playouts/s" in result.stdout and "terminations: score 100.0%" in result.stdout
    assert "aborted" not in result.output
    monkeypatch.setattr(abande.Board, "push", lambda self, move: (_ for _ in ()).throw(
        KeyboardInterrupt()))
    result = run("bench", "abande", "--python", "--seconds", "60")
    assert result.exit_code == 130, result.output
    assert "0 random playouts" in result.stdout
    assert "no playout finished: nothing to measure" in result.stdout


def test_bench_native_ctrl_c_keeps_the_finished_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native path plays batches; Ctrl-C in the third keeps the first two."""
    from hexgames import native

    real = native.state_class("andantino")
    calls = 0

    class Interrupted:
        def __init__(self, *args: object) -> None:
            self.state = real(*args)

        def random_playouts(self, **kwargs: object) -> dict[str, object]:
            nonlocal calls
            calls += 1
            if calls == 3:
                raise KeyboardInterrupt
            kwargs["count"] = 10
            return dict(self.state.random_playouts(**kwargs))

    monkeypatch.setattr(native, "state_class", lambda game: Interrupted)
    result = run("bench", "andantino", "--seconds", "60", "--seed", "5")
    assert result.exit_code == 130, result.output
    assert "Andantino (native): 20 random playouts" in result.stdout
    assert "Interrupted after" in result.stdout


# --- bad input everywhere -------------------------------------------------------------

POSITION = "andantino w=0,0 r=1,0 turn=w"


@pytest.mark.parametrize(("args", "fragment"), [
    (["play", "chess"], "unknown game 'chess'"),
    (["perft", "chess", "2"], "unknown game"),
    (["bench", "go", "--seconds", "0.1"], "unknown game"),
    (["perft", "andantino", "2", "--rules", "foo=1"], "unknown Andantino rules option 'foo'"),
    (["perft", "andantino", "2", "--rules", "single_adjacency"], "is not key=value"),
    (["perft", "andantino", "2", "--rules", "self_trap=sometimes"], "self_trap"),
    (["play", "--rules", "extended=maybe"], "extended"),
    (["bench", "andantino", "--rules", "nope=1"], "nope"),
    (["perft", "abande", "2", "--rules", "single_adjacency=on"], "single_adjacency"),
    (["perft", "andantino", "2", "--position", "andantino w=0,0"], "r="),
    (["perft", "andantino", "2", "--position", "chess w=0,0 r=1,0 turn=w"], "game name"),
    (["play", "--position", "andantino w=0,0 r=0,0 turn=w"], "both"),
    (["perft", "andantino", "x"], "DEPTH"),
    (["perft", "andantino", "0"], "DEPTH"),
    (["perft", "andantino"], "DEPTH"),
    (["bench", "andantino", "--seconds", "-1"], "--seconds"),
    (["play", "--black", "human"], "--black is not a player of Andantino"),
    (["play", "abande", "--red", "random"], "--red is not a player of Abande"),
    (["play", "--white", "human", "--first", "random"], "same player"),
    # --first is White's seat in Andantino: both options for it are refused even when
    # they agree (the same value was accepted, another refused)
    (["play", "--white", "easy", "--first", "easy"],
     "--white and --first name the same player (White moves first in Andantino): give "
     "one of them"),
    (["play", "abande", "--second", "human", "--white", "human"],
     "--white and --second name the same player (White moves second in Abande)"),
    (["play", "--red", "robot"], "robot"),
    (["play", "--save", "/no/such/dir/g.hgn"], "--save"),
    (["replay"], "FILE"),
    (["frobnicate"], "frobnicate"),
    (["--frobnicate"], "frobnicate"),
])
def test_bad_input_exits_2_with_one_error_line(args: list[str], fragment: str) -> None:
    assert_input_error(run(*args), fragment)


def test_a_bad_move_in_a_record_is_an_invalid_game_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "g.hgn"
    path.write_text('[Game "Abande"]\n[Result "*"]\n\n1. d4 z9 *\n', encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "z9" in result.stdout
    assert "Traceback" not in result.output


# --- the drawing ----------------------------------------------------------------------


def panel_text(renderable: object) -> str:
    from rich.console import Console

    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def render_text(board: object) -> str:
    return panel_text(cli.render_board(board))


def test_render_board_andantino_layout() -> None:
    board = andantino.Board()
    board.push_notation("0,1")
    lines = render_text(board).splitlines()
    body = [line.strip("│ ") for line in lines[1:-1]]
    # Rows r = -1, 0, 1; the legal cells of Red are labelled.
    assert [line.split() for line in body] == [["1,-1"], ["W", "R"], ["-1,1", "(W)", "1,1"]]
    # Each row is shifted half a cell (3 characters) right of the one above.
    assert lines[2].index("W") + 3 == lines[3].index("(W)") + 1
    assert "ply 1 · Red to move" in lines[-1]


def test_render_board_shows_a_relocation_phase() -> None:
    rules = andantino.Rules.from_options(["extended=on", "tiles_per_player=3"])
    board = andantino.Board(rules=rules)
    rng = random.Random(1)
    while board.hand(int(board.turn)) != 0:
        board.push(rng.choice(board.legal_moves))
    mover = int(board.turn)
    letter = "WR"[mover]
    text = render_text(board)
    body = "\n".join(text.splitlines()[1:-1])
    # The mover's tiles stay letters (they must not look like the labelled empty
    # cells); the ones it may lift are listed under the board, for "from>to".
    assert body.count(letter) == len(board.tiles(mover))
    for q, r in board.tiles(mover):
        assert f" {q},{r} " not in text
    sources = {m.from_ for m in board.legal_moves}
    assert None not in sources
    notes = cli.draw_board(board).notes
    lift = [note for note in notes if "may lift: " in note]
    assert len(lift) == 1
    assert sorted(lift[0].split("may lift: ")[1].split()) == sorted(
        f"{q},{r}" for q, r in sources)
    assert "from>to" in lift[0]
    assert f"relocations: 0 of {rules.extended_move_limit}" in "\n".join(notes)


def test_render_board_abande() -> None:
    board = abande.Board()
    for move in ("d4", "c4", "e4"):
        board.push_notation(move)
    text = render_text(board)
    lines = text.splitlines()
    body = [line.strip("│ ").split() for line in lines[1:-1]]
    # One word a point, each stack after its own name; White may enter next to them.
    assert body[5] == ["·", "c4:W", "(e4:b)", "·"]  # e4 is asleep: no White stack by it
    assert body[6] == ["b3", "d4:B", "f3"]
    assert body[0] == ["·"]  # d7: no piece may enter there
    assert len(body) == 13
    assert "ply 3 · White to move" in text


def test_terminations_are_described() -> None:
    board = andantino.Board(
        "andantino w=0,0;1,0;2,0;3,0;0,1;1,1 r=0,-1;1,-1;2,-1;-1,1;4,-1 turn=w")
    board.push_notation("4,0")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.LINE
    assert "White wins by line" in render_text(board)


def test_a_game_whose_module_is_missing_fails_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "hexgames.abande", None)  # as before abande existed
    for args in (["perft", "abande", "2"], ["bench", "abande", "--seconds", "0.1"],
                 ["play", "abande"]):
        assert_input_error(run(*args), "game abande is not available")
    assert_input_error(run("replay", "-", input='[Game "Abande"]\n\n1. d4 *\n'),
                       "game abande is not available")


# --- match ----------------------------------------------------------------------------


@pytest.fixture
def fake_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``fake`` player of tests/fake_players.py in the registry (this process only)."""
    from hexgames.engine import players

    monkeypatch.setitem(players._PLAYERS, "fake", ("fake_players", "FakePlayer"))


def test_help_lists_match_and_analyse() -> None:
    result = run("--help")
    assert "  match " in result.stdout and "  analyse " in result.stdout


def test_match_prints_a_summary_and_writes_records(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run("match", "andantino", "--player", "random", "-p", "random:nodes=1",
                 "--games", "4", "--seed", "5", "--out", str(out))
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    records = record.read_games((out / "games.hgn").read_text(encoding="utf-8"))
    assert len(records) == 4 and summary["games"] == 4 and summary["seed"] == 5
    assert [r.tags["White"] for r in records] == ["random", "random:nodes=1"] * 2
    out_text = result.stdout
    assert "Andantino: A = random, B = random:nodes=1; 4 games, seed 5" in out_text
    wins, draws = summary["wins"], summary["draws"]
    assert f"A: {wins} win" in out_text and f"{draws} draw" in out_text
    assert f"{summary['losses']} loss" in out_text
    assert f"({summary['score']:.1%})" in out_text
    assert "Elo A - B: " in out_text and "95% CI" in out_text
    assert "by colour-swapped pairs" in out_text
    assert "A as White: " in out_text and "A as Red: " in out_text
    series = summary["series"]
    assert f"Series score: A {series['A']}, B {series['B']}" in out_text
    assert "Terminations: " in out_text
    assert (f"  Games: {out / 'games.hgn'}\n  Results: {out / 'results.jsonl'}\n"
            f"  Summary: {out / 'summary.json'}\n") in out_text
    assert "games" in result.stderr  # the progress bar
    assert "Traceback" not in result.output


def test_match_is_reproducible_across_jobs(tmp_path: Path) -> None:
    texts = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        result = run("match", "abande", "-p", "random", "-p", "random", "-n", "4",
                     "--seed", "9", "--jobs", jobs, "--out", str(out))
        assert result.exit_code == 0, result.output
        assert "Series score" not in result.stdout
        # games.hgn lists the games as they finished: their Round tags give the order.
        games = record.read_games((out / "games.hgn").read_text(encoding="utf-8"))
        texts.append([r.moves for r in sorted(games, key=lambda r: int(r.tags["Round"]))])
    assert texts[0] == texts[1]


def test_match_limits_and_rules_reach_the_summary(tmp_path: Path) -> None:
    result = run("match", "andantino", "-p", "random", "-p", "random", "-n", "3",
                 "--nodes", "10", "--depth", "2", "--rules", "self_trap=ignore",
                 "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["limit"] == {"nodes": 10, "depth": 2}
    assert summary["rules"] == ["self_trap=ignore"]
    assert isinstance(summary["seed"], int)
    assert f"seed {summary['seed']}" in result.stdout
    assert "odd number of games" in result.stdout


def test_match_with_a_fake_player_in_process(fake_player: None) -> None:
    result = run("match", "andantino", "-p", "fake", "-p", "random", "-n", "2",
                 "--seed", "1", "--depth", "2")
    assert result.exit_code == 0, result.output
    assert "A = fake, B = random" in result.stdout


@pytest.mark.parametrize(("args", "fragment"), [
    (["match", "andantino", "-p", "random"], "exactly two --player"),
    (["match", "andantino", "-p", "random", "-p", "random", "-p", "random"],
     "exactly two --player"),
    (["match", "chess", "-p", "random", "-p", "random"], "unknown game 'chess'"),
    (["match", "andantino", "-p", "random", "-p", "robot"], "unknown player 'robot'"),
    (["match", "andantino", "-p", "random", "-p", "random:time=-1"], "limit time"),
    (["match", "andantino", "-p", "random", "-p", "random:rave=off"], "no option 'rave'"),
    (["match", "andantino", "-p", "random", "-p", "random", "-n", "0"], "--games"),
    (["match", "andantino", "-p", "random", "-p", "random", "--jobs", "0"], "--jobs"),
    (["match", "andantino", "-p", "random", "-p", "random", "--jobs", "100000"],
     "--jobs must be at most 256 (hexgames.limits.MAX_JOBS)"),
    (["match", "andantino", "-p", "random", "-p", "random", "--time", "0"], "--time"),
    (["match", "andantino", "-p", "random", "-p", "random", "--rules", "x=1"], "'x'"),
    (["match", "andantino", "-p", "random", "-p", "random", "--position", "andantino"],
     "field w= is missing"),
])
def test_match_bad_input(args: list[str], fragment: str) -> None:
    assert_input_error(run(*args), fragment)


def test_match_out_must_be_a_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert_input_error(run("match", "andantino", "-p", "random", "-p", "random",
                           "--out", str(blocker / "sub")),
                       "--out: cannot create the output directory")


def test_a_second_run_into_the_same_out_is_refused(tmp_path: Path) -> None:
    first = run("match", "abande", "-p", "random", "-p", "random", "-n", "2", "--seed",
                "1", "--out", str(tmp_path))
    assert first.exit_code == 0, first.output
    games = (tmp_path / "games.hgn").read_text(encoding="utf-8")
    for command in (["match", "abande", "-p", "random", "-p", "greedy"],
                    ["selfplay", "abande", "-p", "random"],
                    ["tournament", "abande", "-p", "random", "-p", "greedy"]):
        assert_input_error(run(*command, "-n" if command[0] != "tournament" else
                               "--games-per-pair", "2", "--out", str(tmp_path)),
                           f"--out: {tmp_path} already holds a run's games.hgn, "
                           "results.jsonl and summary.json: give another directory")
    assert (tmp_path / "games.hgn").read_text(encoding="utf-8") == games


def test_match_with_a_player_not_written_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames.engine import players

    monkeypatch.setitem(players._PLAYERS, "ghost", ("hexgames.engine.ghost", "Ghost"))
    assert_input_error(run("match", "andantino", "-p", "ghost", "-p", "random"),
                       "player ghost is not available yet")


# --- match --sprt, tournament, selfplay, outputs -------------------------------------


def test_match_sprt_plays_until_the_test_decides(tmp_path: Path) -> None:
    result = run("match", "andantino", "-p", "greedy", "-p", "random", "--sprt", "0,200",
                 "--seed", "3", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    sprt = summary["sprt"]
    assert sprt["verdict"] == "H1" and summary["games"] == 2 * sprt["pairs"]
    assert summary["games_planned"] == 20000
    assert ("SPRT elo0=0 elo1=200 alpha=0.05 beta=0.05 (logistic Elo, pentanomial): "
            "H1 accepted") in result.stdout
    assert f"LLR {sprt['llr']:+.3f} (bounds -2.944, +2.944) after {sprt['pairs']} pairs: " \
        "LL 0, LD 0, DD/WL 0, WD 0, WW" in result.stdout
    assert "LLR " in result.stderr and "penta [" in result.stderr  # the live display


def test_match_sprt_stops_at_max_games() -> None:
    result = run("match", "abande", "-p", "random", "-p", "random", "--sprt", "-5,5",
                 "--max-games", "6", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "no verdict yet" in result.stdout and "6 games, seed 1" in result.stdout


@pytest.mark.parametrize(("args", "fragment"), [
    (["--sprt", "nan,10"], "--sprt takes finite Elo values"),
    (["--sprt", "0,inf"], "--sprt takes finite Elo values"),
    (["--sprt", "0,5000"], "between -1000 and 1000"),
    (["--sprt", "10,0"], "--sprt needs ELO0 below ELO1"),
    (["--sprt", "5"], "--sprt takes two Elo values"),
    (["--sprt", "a,b"], "--sprt takes two numbers"),
    (["--sprt", "0,5", "--alpha", "nan"], "--alpha must be a finite number"),
    (["--sprt", "0,5", "--beta", "inf"], "--beta must be a finite number"),
    (["--sprt", "0,5", "--alpha", "0"], "--alpha must be between 0 and 1"),
    (["--sprt", "0,5", "--beta", "1"], "--beta must be between 0 and 1"),
    (["--sprt", "0,5", "--alpha", "0.6", "--beta", "0.5"], "--alpha plus --beta"),
    (["--sprt", "0,5", "--max-games", "7"], "--max-games must be an even number"),
    (["--sprt", "0,5", "--games", "8"], "with --sprt give --max-games"),
    (["--executor", "cloud"], "--executor"),
    (["--opening-plies", "1001"], "--opening-plies must be at most 1000"),
    (["--executor", "ray", "--address", "nowhere"], "--address is not an address"),
])
def test_match_bad_sprt_and_executor_options(args: list[str], fragment: str) -> None:
    assert_input_error(run("match", "andantino", "-p", "random", "-p", "random", *args),
                       fragment)


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")
def test_an_out_that_another_run_is_writing_is_refused(tmp_path: Path) -> None:
    # Two runs started at once into one new --out both wrote there. Here the other run is
    # this test, holding the directory's lock as a run does.
    import fcntl

    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        for command in (["match", "abande", "-p", "random", "-p", "greedy", "-n", "2"],
                        ["selfplay", "abande", "-p", "random", "-n", "2"],
                        ["tournament", "abande", "-p", "random", "-p", "greedy"]):
            assert_input_error(run(*command, "--out", str(tmp_path)),
                               f"--out: {tmp_path} is being written by another run: give "
                               "another directory, or wait for that run to end")
        assert list(tmp_path.iterdir()) == []
    finally:
        os.close(fd)
    assert run("match", "abande", "-p", "random", "-p", "greedy", "-n", "2", "--out",
               str(tmp_path)).exit_code == 0


@pytest.mark.parametrize("command", ["match", "selfplay", "tournament"])
def test_an_out_that_is_a_file_is_named(tmp_path: Path, command: str) -> None:
    # --out FILE had click's wording ("Invalid value for '--out': Directory ... is a
    # file.") where --out FILE/sub had ours.
    afile = tmp_path / "afile"
    afile.write_text("mine\n", encoding="utf-8")
    players = ["-p", "random"] if command == "selfplay" else ["-p", "random", "-p", "greedy"]
    for out in (afile, afile / "sub"):
        result = run(command, "abande", *players, "--out", str(out))
        assert_input_error(result, f"--out: {afile} is a file, not a directory"
                           if out == afile else f"--out: cannot create the output "
                           f"directory {out}: Not a directory")
    assert afile.read_text(encoding="utf-8") == "mine\n"


def test_an_out_that_is_no_file_and_no_directory_is_named(tmp_path: Path) -> None:
    # /dev/null and a FIFO were "a file", and a dangling symbolic link said "cannot create
    # the output directory ...: File exists".
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    dangling = tmp_path / "link"
    dangling.symlink_to(tmp_path / "gone")
    for out, message in ((os.devnull, f"{os.devnull} is not a directory"),
                         (fifo, f"{fifo} is not a directory"),
                         (dangling, f"{dangling} is a symbolic link that leads nowhere (to "
                                    f"{tmp_path / 'gone'})")):
        result = run("match", "abande", "-p", "random", "-p", "greedy", "--out", str(out))
        assert_input_error(result, f"--out: {message}")
    assert not (tmp_path / "gone").exists()
    # A line break in the name made the error several lines.
    named = tmp_path / "a\nfile"
    named.write_text("x", encoding="utf-8")
    result = run("match", "abande", "-p", "random", "-p", "greedy", "--out", str(named))
    assert_input_error(result, "a\\nfile is a file, not a directory")


def test_an_unwritable_record_file_fails_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "games.hgn").mkdir()
    result = run("match", "andantino", "-p", "random", "-p", "random", "-n", "100000000",
                 "--out", str(tmp_path))
    assert_input_error(result, f"--out: cannot write {tmp_path / 'games.hgn'}: Is a "
                               "directory")
    assert result.stdout == "" and not (tmp_path / "summary.json").exists()
    # A summary.json that cannot be written was found after a progress line, and its
    # error did not name --out.
    (tmp_path / "games.hgn").rmdir()
    (tmp_path / "summary.json").mkdir()
    result = run("match", "andantino", "-p", "random", "-p", "random", "--out", str(tmp_path))
    assert_input_error(result, f"--out: {tmp_path / 'summary.json'} is a directory")
    assert result.stdout == ""
    # The directory is named as it was given (--out . said "summary.json is a directory").
    monkeypatch.chdir(tmp_path)
    result = run("match", "andantino", "-p", "random", "-p", "random", "--out", ".")
    assert_input_error(result, "--out: ./summary.json is a directory")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_late_write_failure_saves_the_records_elsewhere(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "games.hgn").symlink_to("/dev/full")  # every write: no space left on device
    result = run("match", "abande", "-p", "random", "-p", "random", "-n", "4", "--seed",
                 "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    match = re.search(r"warning: cannot write \S+games.hgn \(No space left on device\): "
                      r"written to (\S+) instead", result.stdout)
    assert match is not None, result.stdout
    moved = Path(match.group(1))
    assert f"  Games: {moved / 'games.hgn'}" in result.stdout
    assert f"  Summary: {out / 'summary.json'}" in result.stdout
    assert len(record.read_games((moved / "games.hgn").read_text(encoding="utf-8"))) == 4
    assert "A: " in result.stdout  # the summary is printed as well
    for path in moved.iterdir():
        path.unlink()
    moved.rmdir()


def test_ctrl_c_in_a_huge_match_reports_and_writes_the_games_so_far(
        fake_player: None, tmp_path: Path) -> None:
    from fake_players import FakePlayer

    FakePlayer.games_made = 0
    result = run("match", "andantino", "-p", "fake:interrupt=3", "-p", "random", "-n",
                 "100000000", "--seed", "1", "--out", str(tmp_path))
    assert result.exit_code == 130, result.output
    assert "Interrupted after 2 of 100000000 games." in result.stdout
    assert "2 games of 100000000, seed 1" in result.stdout
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 2 and summary["interrupted"] is True
    assert len(record.read_games((tmp_path / "games.hgn").read_text("utf-8"))) == 2


def test_tournament_prints_standings_and_a_crosstable(tmp_path: Path) -> None:
    result = run("tournament", "abande", "-p", "random", "-p", "greedy", "-p", "easy",
                 "--games-per-pair", "4", "--seed", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 12 and summary["complete"]
    lines = result.stdout.splitlines()
    assert lines[0] == "Abande tournament: 3 players, 12 games, seed 1"
    assert lines[1].split()[:5] == ["#", "player", "points", "score", "Elo"]
    for rank, row in enumerate(summary["standings"], start=1):
        line = lines[1 + rank].split()
        assert line[:3] == [str(rank), row["player"], f"{row['points']:g}/{row['games']}"]
        assert f"{row['rating']['elo']:+.0f}" in line
    crosstable = summary["crosstable"]
    first, second = summary["standings"][0]["player"], summary["standings"][1]["player"]
    cell = crosstable[first][second]
    assert f"{cell['wins']}-{cell['draws']}-{cell['losses']}" in lines[2]
    assert "Bradley-Terry" in result.stdout
    assert len(record.read_games((tmp_path / "games.hgn").read_text("utf-8"))) == 12


@pytest.mark.parametrize(("args", "fragment"), [
    (["-p", "random"], "give 2 to 64 --player options"),
    (["-p", "random", "-p", "RANDOM"], "player random is given twice"),
    (["-p", "random", "-p", "greedy", "-n", "3"], "--games-per-pair must be an even"),
    (["-p", "random", "-p", "greedy", "-n", "1"], "--games-per-pair must be at least 2"),
    (["-p", "random", "-p", "robot"], "unknown player 'robot'"),
])
def test_tournament_bad_input(args: list[str], fragment: str) -> None:
    assert_input_error(run("tournament", "abande", *args), fragment)


def test_selfplay_writes_games_and_samples(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    result = run("selfplay", "abande", "-p", "greedy", "-n", "2", "--samples", "--seed",
                 "4", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    games = record.read_games((tmp_path / "games.hgn").read_text(encoding="utf-8"))
    rows = pq.read_table(tmp_path / "samples.parquet").num_rows
    assert rows == sum(len(g.moves) for g in games)
    assert f"{rows} samples" in result.stdout
    assert "Abande self-play of greedy: 2 games, seed 4" in result.stdout
    assert all(g.tags["Black"] == g.tags["White"] == "greedy" for g in games)


def test_selfplay_needs_an_output_directory() -> None:
    assert_input_error(run("selfplay", "abande", "-p", "random"), "--out")


def test_selfplay_takes_one_player(tmp_path: Path) -> None:
    # It silently played the second against itself (found by a helper).
    assert_input_error(run("selfplay", "abande", "-p", "random", "-p", "greedy", "--out",
                           str(tmp_path)),
                       "selfplay plays one player against itself: give --player once, "
                       "not 2 times")
    assert not any(tmp_path.iterdir())


# --- analyse --------------------------------------------------------------------------


def test_analyse_prints_each_depth_and_the_best_move(fake_player: None) -> None:
    result = run("analyse", "andantino", "--player", "fake:depth=3", "--seed", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Andantino andantino w=0,0 r=1,0 turn=w hands=w24,r24"
    assert lines[1] == "White to move; fake:depth=3 searching with depth 3"
    assert lines[2].split() == ["depth", "score", "eval", "nodes", "nps", "time", "pv"]
    board = andantino.Board()
    best = lines[-1].split()[2]
    move = board.parse_notation(best)
    board.push(move)
    reply = min(board.legal_moves, key=lambda m: m.notation()).notation()
    assert [line.split() for line in lines[3:6]] == [
        ["1", "51.0%", "+0.10", "10", "1,000", "0.00", best, reply],
        ["2", "52.0%", "+0.20", "20", "1,000", "0.00", best, reply],
        ["3", "53.0%", "+0.30", "30", "1,000", "0.00", best, reply],
    ]
    assert lines[-1] == f"best move {best} (53% for White, eval +0.30, depth 3)"
    assert len(lines) == 7


def test_analyse_a_record_at_a_ply(tmp_path: Path, fake_player: None) -> None:
    path = tmp_path / "g.hgn"
    path.write_text(GOOD + "\n" + GOOD.replace('"A"', '"C"'), encoding="utf-8")
    result = run("analyse", "andantino", "--record", str(path), "--ply", "2", "--index",
                 "2", "--player", "fake", "--depth", "1")
    assert result.exit_code == 0, result.output
    assert "andantino w=0,0;0,1 r=1,0;1,1 turn=w" in result.stdout
    assert "searching with depth 1" in result.stdout
    assert "best move " in result.stdout


def test_analyse_with_random_and_the_default_time() -> None:
    result = run("analyse", "abande", "--player", "random", "--position",
                 "abande d4=B turn=w hands=b17,w18")
    assert result.exit_code == 0, result.output
    assert "White to move; random searching with 5 s" in result.stdout
    best = result.stdout.splitlines()[-1].removeprefix("best move ")
    board = abande.Board("abande d4=B turn=w hands=b17,w18")
    assert board.parse_notation(best) in board.legal_moves


def test_analyse_shows_a_value_the_solver_proves_with_its_line() -> None:
    position = "andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 turn=w hands=w5,r5"
    result = run("analyse", "andantino", "--rules", "tiles_per_player=10", "--position",
                 position, "--time", "5")
    assert result.exit_code == 0, result.output
    verdict, _, line = result.stdout.splitlines()[-1].partition(": ")
    assert verdict.startswith("White wins in ") and verdict.endswith(" (proven)")
    board = andantino.Board(position, andantino.Rules(tiles_per_player=10))
    for text in line.split():
        board.push(board.parse_notation(text))
    assert board.outcome().winner == andantino.Color.WHITE
    assert verdict == f"White wins in {len(line.split())} (proven)"
    assert f"best move {line.split()[0]} (White wins in " in result.stdout
    # the start is proven (the shipped book, from benchmarks/runs/andantino-start)
    result = run("analyse", "andantino", "--time", "1")
    assert result.exit_code == 0, result.output
    # with the book's line: White's moves and Red's longest replies while it lists them
    book_line = " ".join(m.notation() for m in book.book_line(andantino.Board()))
    assert book_line.startswith("0,1 1,-1 ") and len(book_line.split()) == 15
    assert result.stdout.splitlines()[-1] == (
        f"White wins in 47 (proven): {book_line} (the opening book's line, 15 of 47 "
        "plies)")
    # the balance variant's start is not settled in a second: the engine's guess
    result = run("analyse", "andantino", "--rules", "single_adjacency=on", "--time", "1")
    assert result.exit_code == 0, result.output
    assert "proven" not in result.stdout and "proof" not in result.stdout
    assert "% for White" in result.stdout.splitlines()[-1]


def test_analyse_default_time_wins_over_the_players_own_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Alpha-beta and MCTS default to 1 s a move; analyse searches ANALYSE_SECONDS, as
    # --time's help says, unless the command line, the spec or a level sets a limit.
    monkeypatch.setattr(cli.analyse, "ANALYSE_SECONDS", 0.2)
    for player in ("alphabeta", "mcts", "solver"):
        result = run("analyse", "andantino", "--player", player)
        assert result.exit_code == 0, result.output
        assert f"White to move; {player} searching with 0.2 s" in result.stdout
    result = run("analyse", "andantino", "--player", "alphabeta:nodes=50")
    assert "alphabeta:nodes=50 searching with 50 nodes" in result.stdout
    result = run("analyse", "andantino", "--time", "0.1")
    assert "alphabeta searching with 0.1 s" in result.stdout


def test_analyse_ctrl_c_prints_the_best_move_so_far() -> None:
    # A real SIGINT while the main thread waits for the search: Thread.join interrupted
    # by KeyboardInterrupt would take the search thread for finished (CPython 3.11),
    # so analyse found no result (an IndexError traceback).
    import signal
    import threading

    main = threading.main_thread().ident
    assert main is not None
    timer = threading.Timer(0.5, signal.pthread_kill, (main, signal.SIGINT))
    timer.start()
    start = time.perf_counter()
    try:
        result = run("analyse", "abande", "--time", "30")
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 10
    assert result.exit_code == 130, result.output
    assert "Stopped." in result.stdout
    assert result.stdout.splitlines()[-1].startswith("best move ")


@pytest.mark.parametrize(("signals", "gap", "status"), [
    (["SIGTERM"], 0, 143), (["SIGHUP"], 0, 129),
    # a second signal killed the process after the report (20 ms), with its status; the
    # first decides (two sent at once may be taken in either order: not tested)
    (["SIGTERM", "SIGINT"], 0.02, 143),
])
def test_sigterm_stops_analyse_as_ctrl_c_does(signals: list[str], gap: float,
                                              status: int) -> None:
    # SIGTERM (kill, timeout) ended the process at once, printing nothing more. A real
    # process: without the handler, SIGTERM in this one would end the test run.
    import signal
    import subprocess
    import sys

    analyse = subprocess.Popen(
        [sys.executable, "-c", "from hexgames._console import main; main()", "analyse",
         "abande", "--time", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert analyse.stdout is not None
    for line in analyse.stdout:  # until the search's first report
        if line.split()[:1] == ["1"]:
            break
    start = time.perf_counter()
    for i, name in enumerate(signals):
        if i:
            time.sleep(gap)
        analyse.send_signal(getattr(signal, name))
    stdout = analyse.stdout.read()  # what the loop above has not read (communicate()
    assert analyse.stderr is not None  # would lose what it read ahead)
    stderr = analyse.stderr.read()
    analyse.wait(30)
    assert time.perf_counter() - start < 10
    assert analyse.returncode == status, stderr
    assert "Stopped." in stdout and "Traceback" not in stderr
    assert stdout.splitlines()[-1].startswith("best move ")


def test_analyse_a_level_uses_its_preset(fake_player: None,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames.engine import players
    from hexgames.engine.base import Limit

    monkeypatch.setitem(players.LEVELS, "hard", players.Level("fake", Limit(depth=2), "t"))
    result = run("analyse", "andantino", "--player", "hard")
    assert result.exit_code == 0, result.output
    assert "hard searching with depth 2" in result.stdout
    result = run("analyse", "andantino", "--player", "hard", "--depth", "1")
    assert "hard searching with depth 1" in result.stdout


@pytest.mark.parametrize(("args", "fragment"), [
    (["analyse", "andantino", "--player", "random", "--ply", "2"], "--ply needs --record"),
    (["analyse", "andantino", "--player", "random", "--record", "-", "--position",
      "andantino w=0,0 r=1,0 turn=w"], "not both"),
    (["analyse", "andantino", "--player", "random", "--record", "-", "--rules",
      "extended=on"], "--rules does not apply"),
    (["analyse", "abande", "--player", "random", "--record", "-"], "is Andantino, not Abande"),
    (["analyse", "andantino", "--player", "random", "--record", "-", "--index", "3"],
     "holds 1 game, not a game 3"),
    (["analyse", "andantino", "--player", "random", "--record", "-", "--ply", "9"],
     "out of range"),
    (["analyse", "andantino", "--player", "robot"], "robot"),
    (["analyse", "andantino", "--player", "random", "--position",
      "andantino w=0,0;1,0;2,0;3,0;4,0 r=0,1;1,1;2,1;3,1 turn=r"], "the game is over"),
    (["analyse", "andantino", "--player", "random", "--time", "-1"], "--time"),
    # an OverflowError traceback of the native search before
    (["analyse", "andantino", "--nodes", "99999999999999999999999"],
     "--nodes must be at most 999999999999999999"),
    (["analyse", "andantino", "--depth", "10000000000000000000"],
     "--depth must be at most 999999999999999999"),
])
def test_analyse_bad_input(args: list[str], fragment: str) -> None:
    assert_input_error(run(*args, input=GOOD), fragment)


# --- play against the engine players --------------------------------------------------


def test_play_against_an_engine_player_shows_its_evaluation_and_time(
        fake_player: None, tmp_path: Path) -> None:
    save = tmp_path / "g.hgn"
    result = run("play", "--white", "human", "--red", "fake:depth=2", "--seed", "4",
                 "--save", str(save), input="0,1\nquit\n")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("2. Red")]
    assert len(lines) == 1
    assert lines[0].startswith("2. Red (fake:depth=2) plays ")
    assert "(52% for Red, eval +0.20, depth 2, " in lines[0] and lines[0].endswith(" s)")
    saved = record.read_game(save.read_text(encoding="utf-8"))
    assert saved.tags["Red"] == "hexgames fake:depth=2"


def test_engines_play_each_other_with_levels(fake_player: None,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames.engine import players
    from hexgames.engine.base import Limit

    monkeypatch.setitem(players.LEVELS, "expert", players.Level("fake", Limit(depth=1), "t"))
    result = run("play", "abande", "--black", "expert", "--white", "fake", "--time", "0.5",
                 "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.stdout
    assert "Black (expert) plays" in result.stdout and "White (fake) plays" in result.stdout
    # The level's preset (depth 1) is overridden by --time: the fake then searches 3 deep.
    assert "for Black, eval +0.30, depth 3" in result.stdout


def test_play_with_the_same_seed_is_the_same_game(fake_player: None) -> None:
    outputs = [run("play", "--first", "fake", "--second", "fake:label=y", "--seed", "6").stdout
               for _ in range(2)]
    strip = [[line.rsplit(",", 1)[0] for line in out.splitlines() if " plays " in line]
             for out in outputs]
    assert strip[0] == strip[1] and len(strip[0]) > 5


@pytest.mark.parametrize(("args", "fragment"), [
    (["play", "--red", "random:time=x"], "limit time"),
    (["play", "--white", "random:bogus=1"], "bogus"),
    (["play", "--red", "ghost"], "unknown player 'ghost'"),
    # Options only the constructor checks: still one line naming the option and the spec
    # (they lacked the "Invalid value for" of the option).
    (["play", "--red", "alphabeta:tt_mb=1000000000000"],
     "player spec 'alphabeta:tt_mb=1000000000000': not enough memory"),
    (["play", "abande", "--white", "solver:fallback=bogus"],
     "player spec 'solver:fallback=bogus': fallback: unknown player 'bogus'"),
    (["play", "abande", "--white", "expert:solve_nodes=-1"], "solve_nodes must be 0 or more"),
    (["play", "andantino", "--white", "alphabeta:randomness=-1"],
     "player spec 'alphabeta:randomness=-1': randomness must be 0 or more points, not -1"),
    (["play", "--first", "alphabeta:multipv=0"], "multipv must be 1 to"),
    (["analyse", "andantino", "--player", "alphabeta:multipv=0"],
     "player spec 'alphabeta:multipv=0': multipv must be 1 to 1000, not 0"),
    (["match", "abande", "--player", "alphabeta:tt_mb=1000000000000", "--player", "random",
      "--games", "2"], "not enough memory"),
    (["selfplay", "abande", "--player", "mcts:grave_ref=-1", "--out", "unused"],
     "grave_ref must be 0 or more"),
])
def test_play_bad_player_specs(args: list[str], fragment: str) -> None:
    result = run(*args)
    assert_input_error(result, fragment)
    option = next(word for word in args if word.startswith("--"))
    assert result.stderr.startswith(f"error: Invalid value for '{option}'")


def test_undo_against_an_engine_player(fake_player: None) -> None:
    result = run("play", "--red", "fake", "--seed", "1", input="0,1\nundo\n1,-1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Took back 0,1 and " in result.stdout
    assert "1. White (human) plays 1,-1" in result.stdout
    assert result.stdout.count("2. Red (fake) plays ") == 2


# --- the side to move after undo ------------------------------------------------------


def test_undo_between_humans_prompts_the_side_to_move() -> None:
    result = run("play", "--red", "human", input="0,1\n1,1\nundo\n-1,1\nquit\n")
    assert result.exit_code == 0, result.output
    after = result.stdout.split("Took back 1,1.")[1]
    assert "ply 1 · Red to move" in after
    assert after.count("Red move (or help)>") == 1
    assert "2. Red (human) plays -1,1" in after
    assert "White move (or help)> quit" in after


def test_undo_between_humans_in_abande_prompts_the_side_to_move(tmp_path: Path) -> None:
    save = tmp_path / "a.hgn"
    result = run("play", "abande", "--white", "human", "--save", str(save),
                 input="d4\ne3\nundo\nc4\nquit\n")
    assert result.exit_code == 0, result.output
    after = result.stdout.split("Took back e3.")[1]
    assert "ply 1 · White to move" in after
    assert "White move (or help)> c4" in after
    assert "2. White (human) plays c4" in after
    saved = record.read_game(save.read_text(encoding="utf-8"))
    assert saved.moves == ["d4", "c4"]


# --- drawings that fit the terminal ---------------------------------------------------


def wide_andantino() -> andantino.Board:
    """A position whose longest row (with the coordinate labels) is 59 columns wide."""
    board = andantino.Board()
    rng = random.Random(91)
    for _ in range(30):
        board.push(rng.choice(board.legal_moves))
    return board


def body_of(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("│")]


def test_a_wide_andantino_board_turns_compact_on_a_narrow_terminal() -> None:
    board = wide_andantino()
    assert cli.draw_board(board).width == 63
    position = board.position()
    result = CliRunner().invoke(cli.cli, ["play", "--position", position, "--red", "human"],
                                input="quit\n", env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.output
    lines = body_of(result.stdout)
    assert lines and all(len(line) <= 60 and line.endswith("│") for line in lines)
    drawn = "".join(lines)
    # Every tile is still drawn, the legal cells are dots and listed under the board.
    for color, letter in ((0, "W"), (1, "R")):
        assert drawn.count(letter) == len(board.tiles(color))
    assert drawn.count(".") == len(board.legal_moves)
    lines_after = result.stdout.split("legal cells: ")[1].splitlines()
    listed = [w for line in lines_after[:3] if re.fullmatch(r"[-0-9, ]+", line)
              for w in line.split()]
    assert sorted(listed) == sorted(m.notation() for m in board.legal_moves)
    assert "note: the board is cut off" not in result.stdout
    assert "r= -5" in drawn  # the rows are labelled, as in str(board)


def test_draw_board_tries_ever_more_compact_layouts() -> None:
    board = wide_andantino()
    widths = {}
    for width in (None, 60, 40, 20):
        drawing = cli.draw_board(board, width=width)
        widths[width] = drawing.width
        assert drawing.fits == (width != 20)
    assert widths[None] == 63 and widths[60] <= 60 and widths[40] <= 40
    assert widths[60] > widths[40]  # 4 characters a cell, then 2
    # Nothing fits in 20 columns: the panel is cut to 20 and a note says so.
    drawing = cli.draw_board(board, width=20)
    assert drawing.width == 20
    assert drawing.notes[0] == "note: the board is cut off: it needs 29 columns"
    assert "ply 30 · White to move" in drawing.notes  # no room for it in the frame
    assert f"last move: {board.peek().notation()}" in drawing.notes


def test_abande_fits_36_columns() -> None:
    board = abande.Board()
    rng = random.Random(4)
    while board.hands != (0, 0):
        board.push(rng.choice(board.legal_moves))
    wide = cli.draw_board(board)
    narrow = cli.draw_board(board, width=36)
    assert narrow.fits and narrow.width <= 36
    assert wide.width >= narrow.width
    tokens = []
    for cell, pieces in board.stacks().items():
        letters = "".join("BW"[p] for p in pieces)
        if cell in board.sleeping():
            letters = letters.lower()
        tokens.append(f"{abande.cell_name(cell)}:{letters}")
    assert any(token[0] in "fg" for token in tokens)
    result = CliRunner().invoke(cli.cli, ["play", "abande", "--position", board.position(),
                                          "--white", "human"],
                                input="quit\n", env={"COLUMNS": "36"})
    assert result.exit_code == 0, result.output
    lines = body_of(result.stdout)
    assert all(len(line) <= 36 and line.endswith("│") for line in lines)
    words = [word for line in lines for word in line.strip("│ ").split()]
    assert len(words) == 37
    for token in tokens:
        assert token in words  # columns f and g too


# --- readable without colour ----------------------------------------------------------


def test_extended_play_draws_the_movers_tiles_as_letters() -> None:
    rules = andantino.Rules.from_options(["extended=on", "tiles_per_player=3"])
    board = andantino.Board(rules=rules)
    for move in ("0,1", "1,1", "-1,1", "-1,2"):
        board.push_notation(move)
    assert board.hand(0) == 0
    lines = render_text(board).splitlines()
    body = [line.strip("│ ").split() for line in lines[1:-1]]
    # White's three tiles are W, as before its hand ran out; the labels are empty cells.
    assert body == [["1,-1"], ["-1,0", "W", "R", "2,0"], ["W", "W", "R"],
                    ["-2,2", "(R)", "0,2"]]
    notes = cli.draw_board(board).notes
    assert "White moves a tile, from>to (e.g. -1,1>0,2); it may lift: 0,0  -1,1  0,1" \
        in notes
    assert "relocations: 0 of 200 (then the game is drawn)" in notes


def test_abande_points_are_one_word_each_and_marks_are_explained() -> None:
    board = abande.Board("abande c3=B c4=WB d4=W e3=BBW turn=w hands=b14,w15")
    board.push_notation("d3")
    drawing = cli.draw_board(board)
    body = [line.strip("│ ").split() for line in panel_text(drawing.panel).splitlines()[1:-1]]
    words = [word for line in body for word in line]
    assert len(words) == 37  # one word a point: nothing to misread
    entries = {m.to for m in board.legal_moves if m.from_ is None}
    assert sorted(w for w in words if ":" not in w and w != "·") == sorted(
        abande.cell_name(cell) for cell in entries)
    assert words.count("·") == 37 - 5 - len(entries)
    assert body[7] == ["·", "c3:B", "e3:bbw", "·"]  # e3 has only White stacks beside it
    assert body[8] == ["b2", "(d3:W)", "f2"]
    assert "c4:WB" in words and "d4:W" in words
    key = "\n".join(drawing.notes)
    assert "c3:bw sleeping (scores 0)" in key and "(c3:B) last move" in key
    assert "c3 you may enter" in key and "· empty" in key


def test_no_colour_output_keeps_every_mark() -> None:
    result = CliRunner().invoke(cli.cli, ["play", "abande", "--white", "human"],
                                input="d4\ne3\nquit\n", env={"NO_COLOR": "1", "COLUMNS": None})
    assert result.exit_code == 0, result.output
    assert "\x1b[" not in result.stdout
    assert "(e3:W)" in result.stdout and "d4:B" in result.stdout
    assert "key: c3:BW stack, bottom to top" in result.stdout


# --- what the end of the game and help say --------------------------------------------


def test_abande_game_over_lists_the_sleeping_stacks_and_the_scores() -> None:
    result = run("play", "abande", "--first", "random", "--second", "random", "--seed", "3")
    assert result.exit_code == 0, result.output
    end = result.stdout.split("Game over: ")[1].splitlines()
    assert end[0] == "1/2-1/2 draw (score 14-14)"
    assert end[1] == "  sleeping (score 0): a3, a4, b3, e3, f3, g1"
    assert end[2] == "  score: Black 14, White 14"
    assert "c3:bw sleeping (scores 0)" in result.stdout  # the key of the last drawing
    assert "last move: pass" in result.stdout


def test_andantino_shows_the_single_adjacency_right() -> None:
    result = run("play", "--rules", "single_adjacency=on", "--red", "human",
                 input="0,1\n2,0\nquit\n")
    assert result.exit_code == 0, result.output
    first, later = result.stdout.split("2. Red (human) plays 2,0")
    assert "Red's single-adjacency placement: unused" in first
    assert "Red's single-adjacency placement: used" in later
    plain = run("play", input="quit\n")
    assert "single-adjacency" not in plain.stdout and "relocations" not in plain.stdout


@pytest.mark.parametrize(("args", "expected", "absent"), [
    ([], ["q,r (e.g. 0,1 or -1,2)", "A legal move now: 0,1"], ["from>to", "pass"]),
    (["--rules", "extended=on"], ["q,r", "from>to (e.g. 2,-1>0,3)"], ["pass"]),
    (["abande"], ["d4      enter a piece", "c3-d4   move your stack", "pass    pass",
                  "A legal move now: a1"], ["q,r", "from>to"]),
])
def test_help_explains_the_move_syntax_of_the_game(args: list[str], expected: list[str],
                                                   absent: list[str]) -> None:
    result = run("play", *args, input="help\nquit\n")
    assert result.exit_code == 0, result.output
    text = result.stdout.split("(or help)> help")[1]
    for fragment in expected:
        assert fragment in text
    for fragment in absent:
        assert fragment not in text
    assert "resign  give up the game" in text


# --- the end of a game and Ctrl-C -----------------------------------------------------


def scripted_input(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> list[str]:
    """The prompt's input (``read_line``) answers ``lines``, then Ctrl-C; the prompts
    are collected."""
    prompts: list[str] = []
    answers = iter(lines)

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(cli.play, "read_line", fake_input)
    return prompts


def test_ctrl_c_at_the_prompt_saves_and_exits_130(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    scripted_input(monkeypatch, ["0,1"])
    save = tmp_path / "g.hgn"
    result = run("play", "--seed", "1", "--save", str(save))
    assert result.exit_code == 130, result.output
    assert "Interrupted: the game stops here, unfinished." in result.stdout
    saved = record.read_game(save.read_text(encoding="utf-8"))
    assert saved.moves[0] == "0,1" and len(saved.moves) == 2 and saved.result == "*"


def test_ctrl_c_during_a_computer_move_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(board: object, rng: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.play, "random_move", interrupted)
    result = run("play", "--white", "random", "--red", "random")
    assert result.exit_code == 130, result.output
    assert "Interrupted" in result.stdout


WIN_NEXT = "andantino w=0,0;1,0;2,0;3,0;0,1;1,1 r=0,-1;1,-1;2,-1;-1,1;4,-1 turn=w"


def test_after_the_end_undo_takes_the_last_move_back(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    prompts = scripted_input(monkeypatch, ["4,0", "board", "undo", "2,1", "quit"])
    save = tmp_path / "g.hgn"
    result = run("play", "--position", WIN_NEXT, "--red", "human", "--save", str(save))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Game over: 1-0 White wins by line" in out
    assert ("game over — type undo to take back the last move, or press Enter to quit"
            in out)
    assert prompts == ["White move (or help)> ", "> ", "> ", "White move (or help)> ",
                       "Red move (or help)> "]
    assert "Took back 4,0." in out
    assert record.read_game(save.read_text(encoding="utf-8")).moves == ["2,1"]


def test_after_the_end_enter_or_end_of_input_quits(tmp_path: Path) -> None:
    save = tmp_path / "g.hgn"
    for answer in ("\n", "", "whatever\n\n"):
        result = run("play", "--position", WIN_NEXT, "--red", "human", "--save", str(save),
                     input="4,0\n" + answer)
        assert result.exit_code == 0, result.output
        assert result.stdout.count("game over — type undo") == 1
        assert "Game over: 1-0" in result.stdout
        saved = record.read_game(save.read_text(encoding="utf-8"))
        assert saved.result == "1-0" and saved.moves == ["4,0"]
    assert "the game is over: type undo" in result.stdout


def test_no_prompt_after_the_end_without_a_human() -> None:
    result = run("play", "--white", "random", "--red", "random", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "game over — type undo" not in result.stdout


def test_no_prompt_after_the_end_of_a_game_that_began_over() -> None:
    # Nothing to take back: the finished position is shown with its result, and done.
    over = "andantino w=0,0;0,1;-1,1;-1,2;0,2 r=1,0;1,1;1,2;1,3;1,4 turn=w"
    result = run("play", "--position", over, input="undo\n")
    assert result.exit_code == 0, result.output
    assert "Game over: 0-1 Red wins by line" in result.stdout
    assert "game over — type undo" not in result.stdout
    assert "nothing to undo" not in result.stdout


def test_match_from_a_finished_position_is_an_input_error() -> None:
    over = "andantino w=0,0;0,1;-1,1;-1,2;0,2 r=1,0;1,1;1,2;1,3;1,4 turn=w"
    assert_input_error(run("match", "andantino", "--player", "random", "--player", "random",
                           "--games", "2", "--position", over),
                       "the game is over in this position (Red wins by line): nothing "
                       "to play")


@pytest.mark.parametrize("spec", ["human:time=1", "Human:"])
def test_human_takes_no_options(spec: str) -> None:
    """``human:time=1`` said "unknown player 'human'" in play, where human is a player."""
    assert_input_error(run("play", "andantino", "--white", spec, "--red", "random"),
                       f"Invalid value for '--white': human takes no options, not {spec!r}")


@pytest.mark.parametrize("command", [
    ["analyse", "andantino"], ["play", "andantino"],
    ["match", "andantino", "--player", "random", "--player", "random", "--games", "2"]])
@pytest.mark.parametrize(("option", "value", "fragment"), [
    ("--position", "x" * 100_000, "position must start with the game name andantino, "
                                  f"not '{'x' * 59}…'"),
    ("--position", "andantino " + "x" * 100_000, f"field '{'x' * 59}…' is not key=value"),
    ("--rules", "tiles_per_player=" + "1x" * 50_000,
     f"option tiles_per_player takes a whole number, not '{'1x' * 29}1…'"),
    # words of brackets are short one by one (90 KB were echoed)
    ("--position", "andantino " + "[x]" * 30_000, "field '[x][x]"),
    ("--rules", "[x]" * 30_000 + "=on", "unknown Andantino rules option '[x]"),
    # an escape is not cut in two
    ("--position", "a\x01" * 50_000,
     "position must start with the game name andantino, not '" + "a\\x01" * 11 + "a…'"),
])
def test_a_long_position_or_rules_option_is_not_echoed_whole(command: list[str], option: str,
                                                             value: str, fragment: str) -> None:
    """A 100 KB ``--position`` was repeated whole in its one-line error message."""
    result = run(*command, option, value)
    assert_input_error(result, fragment)
    assert len(result.stderr) < 500


def test_render_size_is_bounded() -> None:
    # 100,000,000 pixels was written into the picture, which viewers then tried to draw.
    assert_input_error(run("render", "-", "--size", "100000000", input=""),
                       "--size must be at most 20000, not 100000000")


@pytest.mark.parametrize(("args", "fragment"), [
    (["replay", ""], "a record file name cannot be empty"),
    (["render", " "], "a record file name cannot be empty"),
    (["analyse", "abande", "--record", ""], "a record file name cannot be empty"),
    (["render", "-", "-o", ""], "--output needs a file name, not an empty one"),
    (["match", "abande", "--player", "random", "--player", "random", "--games", "2",
      "--out", ""], "--out needs a directory name, not an empty one"),
    (["analyse", "abande", "--record", "-"], "standard input holds no game"),
])
def test_empty_file_names_are_input_errors(args: list[str], fragment: str,
                                           tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # An empty name is not the current directory ("cannot read : Is a directory"), and
    # match --out "" does not write into it.
    monkeypatch.chdir(tmp_path)
    assert_input_error(run(*args, input=""), fragment)
    assert list(tmp_path.iterdir()) == []


# --- long input is shortened when repeated --------------------------------------------


def test_long_input_is_shortened_in_messages() -> None:
    junk = "x" * 500
    result = run("play", input=f"{junk}\n9,9{' ' * 300}\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "x" * 61 not in out
    assert f"'{'x' * 59}…' is not an Andantino move" in out
    assert all(len(line) < 200 for line in out.splitlines())


def test_markup_in_input_is_printed_as_it_is() -> None:
    result = run("play", input="[red]oops[/red]\nquit\n")
    assert "'[red]oops[/red]' is not an Andantino move" in result.stdout


def test_replay_shortens_long_moves_and_keeps_each_game_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "g.hgn"
    path.write_text(GOOD + "\n" + GOOD.replace("-1,1", "x" * 400)
                    + "\n" + GOOD.replace("*", "1-0"), encoding="utf-8")
    result = CliRunner().invoke(cli.cli, ["replay", str(path)], env={"COLUMNS": "80"})
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    games = [line for line in lines if line.startswith("Game ")]
    assert games[0] == "Game 1 ok"
    assert games[1].startswith("Game 2 invalid: game 2, move 2 (2. " + "x" * 59 + "…): ")
    assert "x" * 61 not in result.stdout
    # Longer than 80 columns, still one line (the terminal folds it, rich does not).
    assert len(games[2]) > 80
    assert games[2].endswith("needs Termination resignation or time-forfeit")
    assert lines[-1] == "3 game(s), 2 invalid"


# --- bad values of options and arguments ----------------------------------------------


@pytest.mark.parametrize("input_text", ["", "\n\n  \n", "\ufeff"])
def test_replay_of_no_games_is_an_error(tmp_path: Path, input_text: str) -> None:
    path = tmp_path / "empty.hgn"
    path.write_text(input_text, encoding="utf-8")
    assert_input_error(run("replay", str(path)), f"error: {path} contains no games")
    assert_input_error(run("replay", "-", input=input_text),
                       "error: standard input contains no games")
    assert_input_error(run("replay", "--json", "-", input=input_text), "contains no games")


@pytest.mark.parametrize(("args", "message"), [
    (["bench", "andantino", "--seconds", "nan"],
     "--seconds must be a number of seconds above 0 (and finite), not nan"),
    (["bench", "andantino", "--seconds", "inf"], "--seconds must be a number of seconds"),
    (["bench", "andantino", "--seconds", "1e400"], "not 1e400"),
    (["bench", "andantino", "--seconds", "0"], "not 0"),
    (["bench", "andantino", "--seconds", "-1"], "not -1"),
    (["bench", "andantino", "--seconds", "abc"],
     "--seconds must be a number of seconds, not 'abc'"),
    (["play", "--time", "nan"], "--time must be a number of seconds"),
    (["match", "andantino", "-p", "random", "-p", "random", "--time", "inf"], "--time must"),
    (["analyse", "andantino", "--player", "random", "--time", "nan"], "--time must"),
    # Accepted, and ran until Ctrl-C (found by a helper):
    (["bench", "andantino", "--seconds", "1e308"],
     "--seconds must be at most 86400 seconds (a day), not 1e308"),
    (["match", "andantino", "-p", "random", "-p", "random", "--time", "1e308"],
     "--time must be at most 86400 seconds"),
    (["analyse", "andantino", "--time", "86401"], "--time must be at most 86400 seconds"),
    (["match", "abande", "-p", "alphabeta:time=1e308", "-p", "random"],
     "limit time must be at most 86400 seconds (a day), not 1e308"),
    (["perft", "andantino", "99999999999999999999"],
     "DEPTH must be at most 12 (deeper counts would not finish), not 99999999999999999999"),
    (["perft", "andantino", "13"], "DEPTH must be at most 12"),
    (["perft", "andantino", "9" * 500], "DEPTH must be at most 12"),
    (["perft", "andantino", "-1"], "DEPTH must be at least 1, not -1"),
    (["perft", "andantino", "-1", "--divide"], "DEPTH must be at least 1, not -1"),
    (["perft", "andantino", "0"], "DEPTH must be at least 1, not 0"),
    (["perft", "andantino", "abc"], "DEPTH must be a whole number, not 'abc'"),
    (["match", "andantino", "-p", "random", "-p", "random", "--games", "abc"],
     "--games must be a whole number, not 'abc'"),
    (["match", "andantino", "-p", "random", "-p", "random", "--jobs", "0"],
     "--jobs must be at least 1, not 0"),
    (["analyse", "andantino", "--nodes", "1.5"], "--nodes must be a whole number, not '1.5'"),
    # a game name or record path of 100,000 characters was echoed whole
    (["analyse", "a" * 100_000], f"unknown game '{'a' * 59}…' (known: andantino, abande)"),
    (["analyse", "andantino", "--record", "a" * 100_000],
     f"cannot read {'a' * 59}…: File name too long"),
    # a player spec is at most 200 characters (a 200 KB one was echoed whole)
    (["match", "andantino", "-p", "alphabeta:depth=" + "9" * 100_000, "-p", "random"],
     "a player spec has at most 200 characters, not 100016"),
    (["user", "list", "--db", "d" * 100_000],
     "--db is too long to be a path: 100000 bytes (at most 4095)"),
    # a count too large for a limit names the option (said "limit depth must be ...")
    (["match", "andantino", "-p", "random", "-p", "random", "--depth", "9" * 20],
     f"--depth must be at most 999999999999999999, not {'9' * 20}"),
    (["play", "--seed", "x"], "--seed must be a whole number, not 'x'"),
    (["play", "--seed", "9" * 5000], "--seed must have at most 100 digits, not 5000"),
    (["play", "--save", ""], "--save needs a file name"),
    (["play", "--save", "   "], "--save needs a file name"),
])
def test_bad_values_are_named_clearly(args: list[str], message: str,
                                     monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from hexgames import bench, perft

    monkeypatch.chdir(tmp_path)  # where an accepted --save "   " would write

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("a bad value must be refused before any work starts")

    # Unrefused, these values would run for ever (NaN or infinite seconds, deep perft).
    for module, name in ((bench, "random_playouts"), (perft, "perft"), (perft, "divide")):
        monkeypatch.setattr(module, name, never)
    assert_input_error(run(*args), message)


def test_play_checks_the_save_path_before_the_game(tmp_path: Path) -> None:
    result = run("play", "--save", str(tmp_path), input="0,1\n")
    assert_input_error(result, f"--save cannot be written to: {tmp_path} is a directory")
    assert "move (or help)>" not in result.stdout  # no game was played
    missing = tmp_path / "no" / "g.hgn"
    assert_input_error(run("play", "--save", str(missing)),
                       f"there is no directory {missing.parent}")


def test_perft_at_the_bounds() -> None:
    assert run("perft", "andantino", "1").stdout == "1 2\n"
    result = run("perft", "andantino", "2", "--frobnicate")
    assert_input_error(result, "--frobnicate")


# --- issue 14: bounded reads and no late loss -----------------------------------------


def test_standard_input_and_files_over_the_cap_are_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames import limits

    game = '[Game "Abande"]\n[Result "*"]\n\n1. d4 *\n'
    monkeypatch.setattr(limits, "MAX_RECORD_FILE_BYTES", len(game))
    path = tmp_path / "g.hgn"
    path.write_text(game, encoding="utf-8")
    assert run("replay", str(path)).exit_code == 0  # exactly the cap: read
    assert run("replay", "-", input=game).exit_code == 0
    path.write_text(game + "\n", encoding="utf-8")
    assert_input_error(run("replay", str(path)), f"{path} holds more than {len(game)} bytes")
    assert_input_error(run("replay", "-", input=game + " "),
                       f"standard input holds more than {len(game)} bytes")
    assert_input_error(run("render", "-", input=game * 2), "standard input holds more than")


@pytest.mark.parametrize(("args", "name"), [
    (["replay", "/dev/zero"], "/dev/zero"), (["render", "/dev/zero"], "/dev/zero"),
    (["analyse", "abande", "--record", "/dev/zero"], "/dev/zero"),
    (["replay", "-"], "standard input"), (["analyse", "abande", "--record", "-"],
                                          "standard input")])
def test_an_endless_record_input_is_refused_at_the_cap(args: list[str], name: str) -> None:
    """Issue 14: ``hexgames replay /dev/zero`` (and ``render``, ``analyse --record`` and
    standard input) read until the machine killed the process. The real command runs in
    a process limited to 1 GiB of address space (so a regression fails with a
    MemoryError instead of exhausting the machine) and standard input is /dev/zero."""
    import resource
    import subprocess
    import sys

    from hexgames import limits

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    start = time.monotonic()
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [sys.executable, "-c", "from hexgames.cli import main; main()", *args],
            stdin=zeros, capture_output=True, text=True, timeout=60, preexec_fn=limit,
            check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"error: {name} holds more than 8 MiB, the most a record file "
                           "may hold (hexgames.limits.MAX_RECORD_FILE_BYTES)\n")
    assert limits.MAX_RECORD_FILE_BYTES == 8 << 20
    assert time.monotonic() - start < 30


def test_a_piped_line_longer_than_the_cap_ends_the_game_and_it_is_saved(
        tmp_path: Path) -> None:
    """Issue 14 (standard input): ``play < /dev/zero`` would read one endless line. The
    game stops, its record is saved, and the command fails as for any bad input."""
    from hexgames import limits

    save = tmp_path / "g.hgn"
    cap = limits.MAX_INPUT_LINE
    too_long = f"a line of input is longer than {cap} characters"
    junk = "9" * (cap + 1)
    result = run("play", "--seed", "1", "--save", str(save), input=f"0,1\n{junk}\nquit\n")
    assert_input_error(result, too_long)
    assert "A line too long: the game stops here, unfinished." in result.stdout
    assert "End of input" not in result.stdout
    saved = record.read_game(save.read_text(encoding="utf-8"))
    assert saved.moves[0] == "0,1" and len(saved.moves) == 2
    for exact in ("x" * cap + "\n", "x" * cap + "\r\n"):  # at the cap: unknown, then quit
        result = run("play", input=f"{exact}quit\n")
        assert result.exit_code == 0 and "The game stops here" in result.stdout
    # A "\r" just past the cap is not the line's end (its tail was played as a move).
    # Real standard input, whose lines end only at "\n" (CliRunner's end at "\r" too).
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "from hexgames.cli import main; main()", "play", "--seed",
         "1", "--save", str(save)], input="x" * cap + "\r0,1\nquit\n",
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and too_long in done.stderr, done.stderr
    assert not record.read_game(save.read_text(encoding="utf-8")).moves
    # One endless line without a line end at all.
    result = run("play", input="a" * 100_000)
    assert_input_error(result, too_long)


def test_play_with_standard_input_closed_reads_it_as_empty() -> None:
    """``hexgames play <&-`` ended in a traceback (``sys.stdin`` is ``None``)."""
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "from hexgames.cli import main; main()", "play", "--seed",
         "1"], preexec_fn=lambda: os.close(0), capture_output=True, text=True, timeout=60,
        check=False)
    assert done.returncode == 0, done.stderr
    assert "End of input: the game stops here, unfinished." in done.stdout
    assert done.stderr == ""


def test_play_with_standard_output_closed_still_writes_save(tmp_path: Path) -> None:
    """``hexgames play --save F >&-`` ended in a traceback at the first prompt
    (``sys.stdout`` is ``None``) and lost the record (found by a helper)."""
    import os
    import subprocess
    import sys

    save = tmp_path / "g.hgn"
    done = subprocess.run(
        [sys.executable, "-c", "from hexgames.cli import main; main()", "play", "--seed",
         "1", "--save", str(save)], input="0,1\nquit\n", preexec_fn=lambda: os.close(1),
        stdout=None, stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert record.read_game(save.read_text(encoding="utf-8")).moves[0] == "0,1"


def test_a_piped_line_too_long_after_the_end_of_the_game(tmp_path: Path) -> None:
    """At the prompt after a finished game, the long line is an error, but the game
    is not said to be unfinished: its record keeps the result."""
    from hexgames import limits

    save = tmp_path / "won.hgn"
    position = "andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w hands=w20,r20"
    result = run("play", "--position", position, "--save", str(save),
                 input="-1,0\n" + "a" * (limits.MAX_INPUT_LINE + 1) + "\n")
    assert_input_error(result, "a line of input is longer than")
    assert "unfinished" not in result.stdout
    assert record.read_game(save.read_text(encoding="utf-8")).result == "1-0"


def test_play_save_to_a_name_the_file_system_refuses_is_caught_before_the_game(
        tmp_path: Path) -> None:
    """Issue 14: a path whose directory may be written, but not with this name (too
    long for the file system): ``os.access`` says yes, so the game was played and its
    record lost at the end."""
    save = tmp_path / ("x" * 300 + ".hgn")
    result = run("play", "--save", str(save), input="0,1\n")
    assert_input_error(result, "--save cannot be written to: ")
    assert "File name too long" in result.stderr
    assert "move (or help)>" not in result.stdout
    assert list(tmp_path.iterdir()) == []  # the check leaves nothing behind
    existing = tmp_path / "old.hgn"
    existing.write_text("keep", encoding="utf-8")
    result = run("play", "--white", "random", "--seed", "3", "--save", str(existing))
    assert result.exit_code == 0, result.output
    assert record.read_game(existing.read_text(encoding="utf-8")).result != "*"


def _failing_write(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """Writing ``target`` fails as on a full disk (after the check before the game)."""
    import errno

    write_text = Path.write_text

    def write(self: Path, *args: Any, **kwargs: Any) -> int:
        if self == target:
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", write)


def test_a_save_that_fails_at_the_end_is_written_to_a_fallback_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out" / "g.hgn"
    target.parent.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    _failing_write(monkeypatch, target)
    result = run("play", "--white", "random", "--seed", "3", "--save", str(target))
    assert result.exit_code == 2, result.output
    [fallback] = list(work.iterdir())
    assert re.fullmatch(r"hexgames-\d{8}-\d{6}\.hgn", fallback.name)
    assert result.stderr == (f"error: cannot write {target}: No space left on device; the "
                             f"game record was saved to {fallback} instead\n")
    game = record.read_game(fallback.read_text(encoding="utf-8"))
    assert game.result != "*" and game.tags["White"] == "hexgames random"
    assert not target.exists()


def test_a_save_whose_current_directory_was_removed_goes_to_the_temporary_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback looked for the current directory with ``Path.cwd()``, which raises
    once it is removed: the record was lost with a traceback (found by a helper)."""
    import tempfile

    target = tmp_path / "out" / "g.hgn"
    target.parent.mkdir()
    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(spare))
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    _failing_write(monkeypatch, target)
    result = run("play", "--white", "random", "--seed", "3", "--save", str(target))
    assert result.exit_code == 2, result.output
    [fallback] = list(spare.iterdir())
    assert f"game record was saved to {fallback} instead" in result.stderr
    assert record.read_game(fallback.read_text(encoding="utf-8")).result != "*"


def test_play_whose_output_is_closed_still_writes_save(tmp_path: Path) -> None:
    """``hexgames play --save F | head -1``: rich exited at the closed pipe before the
    record was written (found by a helper). Now the game stops, --save is written and
    the command ends quietly with status 141, a process ended by SIGPIPE's (1 would
    say the command failed: verify-proof's "the proof does not hold")."""
    import os
    import subprocess
    import sys

    save = tmp_path / "g.hgn"
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from hexgames.cli import main; main()", "play",
             "--seed", "1", "--save", str(save)], input="0,1\nquit\n", stdout=writer,
            stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    finally:
        os.close(writer)
    assert done.returncode == 141 and done.stderr == "", done.stderr
    assert record.read_game(save.read_text(encoding="utf-8")).result == "*"
    # a proof that holds, checked into a closed output: not status 1
    proof = tmp_path / "p.txt"
    solved = run("solve", "andantino", "andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;"
                 "1,2;-1,3 turn=w hands=w5,r5", "--rules", "tiles_per_player=10",
                 "--proof", str(proof))
    assert solved.exit_code == 0, solved.output
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from hexgames.cli import main; main()",
             "verify-proof", str(proof)], stdout=writer, stderr=subprocess.PIPE,
            text=True, timeout=60, check=False)
    finally:
        os.close(writer)
    assert done.returncode == 141 and done.stderr == "", done.stderr


def test_a_save_with_nowhere_to_go_prints_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    target = tmp_path / "g.hgn"
    _failing_write(monkeypatch, target)
    monkeypatch.setattr(Path, "cwd", classmethod(lambda cls: tmp_path / "gone"))
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path / "gone too"))
    result = run("play", "--white", "random", "--red", "random", "--seed", "3",
                 "--save", str(target))
    assert result.exit_code == 2, result.output
    assert "nor a file in the current or the temporary directory; the game record is " \
           "printed above" in result.stderr
    text = result.stdout[result.stdout.index('[Game "Andantino"]'):]
    assert record.read_game(text).tags["Red"] == "hexgames random"
    assert list(tmp_path.iterdir()) == []


def test_render_output_that_fails_at_the_end_goes_to_a_fallback_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "g.hgn"
    source.write_text('[Game "Abande"]\n[Result "*"]\n\n1. d4 *\n', encoding="utf-8")
    target = tmp_path / "p.svg"
    monkeypatch.chdir(tmp_path)
    _failing_write(monkeypatch, target)
    result = run("render", str(source), "-o", str(target))
    assert result.exit_code == 2
    [fallback] = [p for p in tmp_path.iterdir() if p.suffix == ".svg"]
    assert fallback.name.startswith("hexgames-")
    assert fallback.read_text(encoding="utf-8").startswith("<svg")
    assert f"the picture was saved to {fallback} instead" in result.stderr


#: Sends the console script's process the signals NAMES at once (held back, then let
#: through together) when WHEN happens: "import" (``hexgames.cli`` is imported) or "gap"
#: (its ``main`` is called, before the command line's own handlers exist).
_SIGNALS_WHILE_LOADING = """
import os, signal, sys, time
names, when = sys.argv.pop(1).split(','), sys.argv.pop(1)
signums = {getattr(signal, name) for name in names}

def send():
    signal.pthread_sigmask(signal.SIG_BLOCK, signums)
    for name in names:
        os.kill(os.getpid(), getattr(signal, name))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signums)
    time.sleep(0.5)

class Import:
    def find_spec(self, name, path=None, target=None):
        if name == 'hexgames.cli' and when == 'import':
            send()

def profile(frame, event, arg):
    if (event == 'call' and frame.f_code.co_name == 'main'
            and frame.f_code.co_filename.endswith('cli/__init__.py') and when == 'gap'):
        sys.setprofile(None)
        send()

sys.meta_path.insert(0, Import())
sys.setprofile(profile)
from hexgames._console import main
main()
"""


@pytest.mark.parametrize("when", ["import", "gap"])
@pytest.mark.parametrize(("names", "status", "message"), [
    ("SIGTERM", 143, "error: terminated\n"),
    ("SIGHUP", 129, "error: terminated\n"),
    ("SIGINT", 130, "error: aborted\n"),
    ("SIGHUP,SIGTERM", 129, "error: terminated\n"),  # taken in signal-number order
    ("SIGINT,SIGTERM", 130, "error: aborted\n"),
])
def test_a_signal_while_the_command_line_loads_ends_as_during_a_command(
        when: str, names: str, status: int, message: str) -> None:
    """SIGTERM or SIGHUP while ``hexgames`` loads (its imports, half a second) killed
    the process by the signal's default action (status -15, -1) before the command
    line's handlers existed; so did one in the moment between the imports and those
    handlers, where Ctrl-C printed a traceback. Two signals at once: the first decides
    (a second one replaced the first's status)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _SIGNALS_WHILE_LOADING, names, when,
                           "--version"], capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stdout, done.stderr) == (status, "", message)


#: While ``hexgames.cli`` is imported, a signal comes where Python swallows what its
#: handler raises (a weakref callback) or wraps it (a descriptor's ``__set_name__``).
_SIGNAL_SWALLOWED_OR_WRAPPED = """
import os, signal, sys, threading, time, weakref
how = sys.argv.pop(1)

class Descriptor:
    def __set_name__(self, owner, name):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.5)

class Import:
    def find_spec(self, name, path=None, target=None):
        if name != 'hexgames.cli':
            return None
        sys.meta_path.remove(self)
        if how == 'wrapped':
            type('Owner', (), {'field': Descriptor()})
        else:
            class Thing:
                pass
            thing = Thing()
            ref = weakref.ref(thing, lambda r: (os.kill(os.getpid(), signal.SIGINT),
                                                time.sleep(0.5)))
            del thing  # the Ctrl-C's KeyboardInterrupt is swallowed in the callback
            # and the command runs: a SIGTERM later stops it
            threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGTERM)).start()

sys.meta_path.insert(0, Import())
from hexgames._console import main
main()
"""


def test_a_stop_swallowed_while_loading_leaves_the_next_one_working() -> None:
    """A Ctrl-C whose KeyboardInterrupt Python swallowed as the command line loaded left
    every later signal dropped: the command could only be killed."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _SIGNAL_SWALLOWED_OR_WRAPPED, "swallowed",
                           "bench", "abande", "--seconds", "20"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 143, done.stderr
    assert "Interrupted after" in done.stdout


def test_a_stop_wrapped_while_loading_is_still_a_stop() -> None:
    # Python 3.11 wraps the interrupt raised in a __set_name__ in a RuntimeError: a
    # traceback and exit status 1.
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _SIGNAL_SWALLOWED_OR_WRAPPED, "wrapped",
                           "--version"], capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stdout, done.stderr) == (143, "", "error: terminated\n")


def test_a_signal_as_a_stopped_command_exits_leaves_the_first_ones_status() -> None:
    """A SIGTERM stops ``bench``; a Ctrl-C just as the command line's handlers were put
    back, before those of the process's end, set the exit status (130, and a second
    message)."""
    import subprocess
    import sys

    script = """
import os, signal, sys, threading, time
from contextlib import contextmanager
import hexgames.cli

handlers = hexgames.cli.terminate_as_interrupt

@contextmanager
def then_ctrl_c():
    with handlers() as termination:
        yield termination
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.2)

hexgames.cli.terminate_as_interrupt = then_ctrl_c
threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGTERM)).start()
from hexgames._console import main
main()
"""
    done = subprocess.run([sys.executable, "-c", script, "bench", "abande", "--seconds",
                           "20"], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (143, ""), done.stderr
    assert "Interrupted after" in done.stdout


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_an_ignored_signal_while_the_command_line_loads_stays_ignored(name: str) -> None:
    # nohup ignores SIGHUP: the command runs.
    import signal
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _SIGNALS_WHILE_LOADING, name, "import",
                           "--version"], capture_output=True, text=True, timeout=60,
                          check=False,
                          preexec_fn=lambda: signal.signal(getattr(signal, name),
                                                           signal.SIG_IGN))
    assert (done.returncode, done.stdout) == (0, f"hexgames, version {__version__}\n")


def test_ctrl_c_while_the_command_line_loads_is_no_traceback() -> None:
    """Ctrl-C in the first half second of ``hexgames`` (while ``hexgames.cli`` and its
    imports load) printed a KeyboardInterrupt traceback. The interrupt comes here at
    that import, in a process of its own, as the console script runs it."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'hexgames.cli':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from hexgames._console import main\n"
        "main()\n"
    )
    for module in ("hexgames.cli", "hexgames.core"):  # the package loads core lazily
        done = subprocess.run([sys.executable, "-c", script.replace("hexgames.cli", module),
                               "--version"], capture_output=True, text=True, timeout=60,
                              check=False)
        assert (done.returncode, done.stdout, done.stderr) == (130, "", "error: aborted\n")
    done = subprocess.run([sys.executable, "-c", script.replace("'hexgames.cli'", "''"),
                           "--version"], capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stdout) == (0, f"hexgames, version {__version__}\n")


@pytest.mark.parametrize(("command", "target"), [
    (["match", "abande", "-p", "random", "-p", "random"], "hexgames.arena.run_match"),
    (["tournament", "abande", "-p", "random", "-p", "greedy", "-p", "easy"],
     "hexgames.arena.run_tournament"),
    (["selfplay", "abande", "-p", "random"], "hexgames.arena.run_selfplay"),
    (["selfplay", "abande", "-p", "random", "--samples"], "hexgames.arena.run_selfplay"),
])
def test_a_stop_before_the_run_begins_leaves_no_output_without_a_summary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str],
        target: str) -> None:
    """A stop in the moment between ``--out`` being opened and the run's starting
    summary left a directory of empty records and no summary.json (found by a helper
    sending signals 0.25-0.5 s after the start: 5 in 110 runs). Now the empty files go,
    and the directories too that the run made."""
    def stopped(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(target, stopped)
    made = tmp_path / "new" / "out"
    result = run(*command, "--out", str(made))
    assert result.exit_code == 130 and result.stderr.endswith("\nerror: aborted\n")
    assert not (tmp_path / "new").exists()  # the parent it made goes too (it stayed)
    kept = tmp_path / "kept"  # a directory that was there: it stays, with its own files
    kept.mkdir()
    (kept / "notes.txt").write_text("mine", encoding="utf-8")
    result = run(*command, "--out", str(kept))
    assert result.exit_code == 130
    assert sorted(p.name for p in kept.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize(("first", "second", "status"), [
    ("SIGTERM", "SIGINT", 143), ("SIGTERM", "SIGHUP", 143), ("SIGINT", "SIGHUP", 130),
])
def test_the_first_of_two_signals_decides_though_native_code_held_them(
        first: str, second: str, status: int) -> None:
    """``bench`` plays in native code, which lets Python handle signals every 50 ms;
    two that came in between were handled in signal-number order, so SIGTERM then
    Ctrl-C 5 ms later gave 130 (9 times in 10). The order they arrived in decides."""
    import signal
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-c", "from hexgames._console import main; main()", "bench",
         "abande", "--seconds", "20"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        time.sleep(2.0)  # loaded and playing
        process.send_signal(getattr(signal, first))
        time.sleep(0.005)
        process.send_signal(getattr(signal, second))
        stdout, _ = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == status
    assert "Interrupted after" in stdout
