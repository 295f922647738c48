"""Tests of hexgames.record: reading, validating and writing .hgn game records."""

from __future__ import annotations

import contextlib
import datetime
import random
import re
import types
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexgames import Outcome, Termination, andantino, record
from hexgames.games import game_module
from hexgames.record import (
    GameRecord,
    RecordError,
    RecordMoveError,
    RecordResultError,
    RecordSyntaxError,
    parse_games,
    read_game,
    read_games,
    record_from_board,
    write_game,
    write_games,
)

# The example of docs/notation.md with its elided end ("3. 0,-1 ... 1-0") played out: White
# completes the line 0,-2 .. 0,2 with its fifth move.
EXAMPLE = """\
[Game "Andantino"]
[Event "Casual game"]
[Date "2026.11.29"]
[White "Alice"]
[Red "hexgames mcts 2s"]
[Rules "single_adjacency=off self_trap=opponent_wins extended=off"]
[Result "1-0"]
[Termination "line"]

1. 0,1 1,1 2. -1,1 -1,0 {a comment} 3. 0,-1 1,-1 4. 0,2 -1,-1 5. 0,-2 1-0
"""
EXAMPLE_MOVES = ["0,1", "1,1", "-1,1", "-1,0", "0,-1", "1,-1", "0,2", "-1,-1", "0,-2"]
HEAD = '[Game "Andantino"] [Result "*"]\n\n'


def game(movetext: str, tags: str = "") -> str:
    """A record of ``movetext``; unless ``tags`` give one, its Result tag (on the Game
    tag's line) is the last result token of ``movetext``."""
    result = ""
    if "[Result " not in tags:
        ends = [word for word in movetext.split() if word in record.RESULTS]
        result = f' [Result "{ends[-1] if ends else "*"}"]'
    return f'[Game "Andantino"]{result}\n{tags}\n{movetext}\n'


def played(moves: list[str], board: andantino.Board | None = None) -> andantino.Board:
    board = board if board is not None else andantino.Board()
    for text in moves:
        board.push_notation(text)
    return board


# --- the docs/notation.md example ----------------------------------------------------------


def test_notation_example_reads_and_validates() -> None:
    rec = read_game(EXAMPLE)
    assert rec.game == "andantino"
    assert rec.result == "1-0"
    assert rec.moves == EXAMPLE_MOVES
    assert rec.comments == {4: "a comment"}
    assert list(rec.tags) == ["Game", "Event", "Date", "White", "Red", "Rules", "Result",
                              "Termination"]
    assert rec.tags["Red"] == "hexgames mcts 2s"
    assert rec.rules() == andantino.Rules()
    board = rec.board()
    assert board.result() == "1-0"
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.LINE
    assert outcome.line == frozenset((0, r) for r in range(-2, 3))
    assert write_game(rec) == EXAMPLE


def test_notation_example_as_printed_has_an_ellipsis_that_is_no_move() -> None:
    printed = EXAMPLE.replace("1,-1 4. 0,2 -1,-1 5. 0,-2", "...")
    with pytest.raises(RecordSyntaxError, match=r"game 1, line 10: unexpected '\.\.\.'"):
        parse_games(printed)


def test_board_replays_a_given_number_of_plies() -> None:
    rec = read_game(EXAMPLE)
    assert rec.board(0).position() == andantino.STARTING_POSITION
    assert rec.board(4) == played(EXAMPLE_MOVES[:4])
    assert rec.board(4).turn == andantino.WHITE
    assert rec.starting_board() == andantino.Board()
    with pytest.raises(RecordError, match="ply 10 is out of range"):
        rec.board(10)
    with pytest.raises(RecordError, match="ply -1 is out of range"):
        rec.board(-1)


# --- several games, whitespace, comments, tags ----------------------------------------


def test_several_games_in_one_file() -> None:
    text = (
        "\ufeff" + EXAMPLE + "\n"
        '[Game "andantino"]\r\n[White "Carol"]\r\n[Result "*"]\r\n\r\n1. 0,1 1,1 *\r\n'
        # no blank line: the result token ends the game, a new tag section starts one
        '[Game "ANDANTINO"]\n[Result "0-1"]\n[Termination "resignation"]\n1.0,1\t1,1\n0-1'
        "\n\n"
        '[Game "Andantino"]\n[Result "*"]\n*'  # no moves
    )
    recs = read_games(text)
    assert [r.game_index for r in recs] == [1, 2, 3, 4]
    assert [r.moves for r in recs] == [EXAMPLE_MOVES, ["0,1", "1,1"], ["0,1", "1,1"], []]
    assert [r.result for r in recs] == ["1-0", "*", "0-1", "*"]
    assert all(r.tags["Game"] == "Andantino" for r in recs)
    assert recs[1].tags == {"Game": "Andantino", "White": "Carol", "Result": "*"}
    assert recs[2].move_lines == [20, 20]
    assert write_games(recs) == (
        EXAMPLE + "\n"
        '[Game "Andantino"]\n[White "Carol"]\n[Result "*"]\n\n1. 0,1 1,1 *\n\n'
        '[Game "Andantino"]\n[Result "0-1"]\n[Termination "resignation"]\n\n1. 0,1 1,1 0-1\n\n'
        '[Game "Andantino"]\n[Result "*"]\n\n*\n')
    assert parse_games(write_games(recs)) == recs


def test_a_game_without_moves_still_ends_with_its_result_token() -> None:
    recs = parse_games('[Game "Andantino"]\n[Result "*"]\n\n*\n\n'
                       '[Game "Andantino"] [Result "*"] *')
    assert len(recs) == 2
    assert recs[1].tags == {"Game": "Andantino", "Result": "*"}
    assert recs[1].moves == []
    # A tag section alone is no game: its move text (empty) lacks the result token.
    with pytest.raises(RecordSyntaxError,
                       match=r"game 1, line 2: the game ends without a result token"):
        parse_games('[Game "Andantino"]\n[Result "*"]\n\n[Game "Andantino"]\n')


def test_empty_text_has_no_games() -> None:
    assert parse_games("") == []
    assert parse_games(" \n\t\r\n\ufeff"[:-1]) == []
    assert parse_games("\ufeff") == []


def test_comments_at_several_places() -> None:
    text = game("{ before the first move }  1. 0,1 {after White} 1... 1,1 {after Red}\n"
                "2. -1,1 {one} {two} 2... {between number and move} -1,0 *"
                "  {after the\nresult}")
    rec = read_game(text)
    assert rec.moves == ["0,1", "1,1", "-1,1", "-1,0"]
    assert rec.comments == {0: "before the first move", 1: "after White", 2: "after Red",
                            3: "one two between number and move", 4: "after the\nresult"}
    assert write_game(rec) == (
        '[Game "Andantino"]\n[Result "*"]\n\n'
        "{before the first move} 1. 0,1 {after White} 1... 1,1 {after Red} 2. -1,1\n"
        "{one two between number and move} 2... -1,0 {after the\nresult} *\n")
    assert parse_games(write_game(rec)) == [rec]


def test_empty_comment_is_kept() -> None:
    rec = read_game(game("1. 0,1 {} *"))
    assert rec.comments == {1: ""}
    assert "1. 0,1 {} *" in write_game(rec)


def test_a_comment_may_hold_brackets_and_blank_lines() -> None:
    rec = read_game(game('1. 0,1 {see\n\n[Game "Andantino"]\n} 1,1 *'))
    assert rec.comments == {1: 'see\n\n[Game "Andantino"]'}
    assert rec.moves == ["0,1", "1,1"]


def test_tag_values_with_escapes() -> None:
    text = ('[Game "Andantino"]\n[Event "the \\"big\\" one \\\\ 2"]\n'
            '[Site    "Zürich  "]  [Round ""] [Result "*"]\n\n*\n')
    rec = read_game(text)
    assert rec.tags["Event"] == 'the "big" one \\ 2'
    assert rec.tags["Site"] == "Zürich  "
    assert rec.tags["Round"] == ""
    assert write_game(rec) == ('[Game "Andantino"]\n[Event "the \\"big\\" one \\\\ 2"]\n'
                               '[Site "Zürich  "]\n[Round ""]\n[Result "*"]\n\n*\n')


def test_writer_orders_tags() -> None:
    rec = GameRecord({"Zeta": "z", "Result": "*", "Red": "r", "Position":
                      "andantino w=0,0 r=1,0 turn=w hands=w24,r24", "Termination": "",
                      "White": "w", "Round": "3", "Game": "andantino", "Alpha": "a",
                      "Score": "1-2", "Rules": "extended=off", "Date": "d", "Site": "s",
                      "Event": "e"}, [])
    del rec.tags["Termination"]
    head = write_game(rec).split("\n\n")[0]
    assert [line.split()[0][1:] for line in head.splitlines()] == [
        "Game", "Event", "Site", "Date", "Round", "White", "Red", "Rules", "Position",
        "Result", "Score", "Zeta", "Alpha"]
    assert head.startswith('[Game "Andantino"]')


def test_reader_accepts_moves_without_numbers_and_parenthesised_cells() -> None:
    rec = read_game(game("0,1 (1, 1)".replace(", ", ",") + " -1,1 *"))
    assert rec.moves == ["0,1", "(1,1)", "-1,1"]
    assert rec.board().position() == played(["0,1", "1,1", "-1,1"]).position()


def test_long_games_are_wrapped() -> None:
    moves = [f"{i},{-i}" for i in range(150)]  # written as they are, not replayed
    rec = GameRecord({"Game": "Andantino", "Result": "*"}, moves, {7: "x" * 100})
    text = write_game(rec)
    movetext = text.split("\n\n", 1)[1].splitlines()
    assert len(movetext) > 10
    assert all(len(line) <= 80 for line in movetext if "x" not in line)
    assert sum(len(line) >= 70 for line in movetext) >= 10
    assert f"{{{'x' * 100}}}" in movetext
    assert not any(line.endswith(".") for line in movetext)  # numbers stay with moves
    assert parse_games(text) == [rec]


# --- set-up positions and rules -------------------------------------------------------

SETUP = "andantino w=0,0;0,1 r=1,0 turn=r hands=w23,r24 single=unused"


def test_position_and_rules_tags() -> None:
    text = game("1... 2,0 {Red uses its single right} 2. -1,1 -1,0 *",
                f'[Rules "single_adjacency=on"]\n[Position "{SETUP}"]\n')
    rec = read_game(text)
    assert rec.rules() == andantino.Rules(single_adjacency=True)
    assert rec.starting_board().position() == SETUP
    board = rec.board()
    assert isinstance(board, andantino.Board)
    assert board.single_adjacency_used
    assert board.position() == ("andantino w=0,0;-1,1;0,1 r=-1,0;1,0;2,0 turn=w "
                                "hands=w22,r22 single=used")
    assert write_game(rec).endswith(
        "\n\n1... 2,0 {Red uses its single right} 2. -1,1 -1,0 *\n")
    assert parse_games(write_game(rec)) == [rec]


def test_second_single_placement_is_reported_with_its_number() -> None:
    text = game("1... 2,0 2. -1,1 3,0 *",
                f'[Rules "single_adjacency=on"]\n[Position "{SETUP}"]\n')
    with pytest.raises(RecordMoveError) as info:
        read_game(text)
    assert str(info.value) == (
        "game 1, move 2 (2... 3,0): illegal move 3,0: 3,0 touches one tile and Red has "
        "already used its single-adjacency placement")
    assert (info.value.move_number, info.value.ply) == (2, 3)


def test_position_tag_checked_under_the_rules_tag() -> None:
    with pytest.raises(RecordSyntaxError,
                       match=r"game 1, line 2: bad Position tag .*single= needs the balance"):
        parse_games(game("*", f'[Position "{SETUP}"]\n'))


def test_move_numbers_follow_a_position_with_the_second_player_to_move() -> None:
    tags = f'[Rules "single_adjacency=on"]\n[Position "{SETUP}"]\n'
    with pytest.raises(RecordSyntaxError,
                       match=r"line 5: move number 1\. does not fit: ply 2 \(-1,1\) is move "
                             r"2\."):
        parse_games(game("1... 2,0 1. -1,1 *", tags))


# --- syntax errors --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    ('[Game "Andantino"]\n[Event "x]\n\n*', r"line 2: broken tag line '\[Event \"x\]'"),
    ('[Game "Andantino"]\n[Event x]\n', r"line 2: broken tag line"),
    ('[Game "Andantino"]\n[Event "a\\nb"]\n', r"line 2: tag Event: unknown escape \\n"),
    ('[Game "Andantino"]\n[Event "a"]\n[Event "b"]\n', r"line 3: tag Event is given twice"),
    (HEAD + "1. 0,1 {oops\n1,1 *\n", r"line 3: unterminated comment"),
    ('[Event "x"]\n\n1. 0,1 *\n', r"game 1, line 3: no Game tag"),
    ("1. 0,1 *\n", r"game 1, line 1: no Game tag"),
    ('[Event "x"]\n[game "Andantino"]\n\n*', r"line 2: no Game tag .*case-sensitive, not 'game'"),
    ('[Game "Chess"]\n\n*', r"line 1: Game tag 'Chess' names no known game"),
    ('[Game "Andantino"]\n[Rules "single_adjacency=maybe"]\n\n*',
     r"line 2: bad Rules tag 'single_adjacency=maybe': option single_adjacency takes on"),
    ('[Game "Andantino"]\n[Rules "colour=blue"]\n\n*',
     r"line 2: bad Rules tag .*unknown Andantino rules option 'colour'"),
    ('[Game "Andantino"]\n[Position "andantino w=0,0 turn=w"]\n\n*',
     r"line 2: bad Position tag .*field r= is missing"),
    ('[Game "Andantino"]\n[Result "2-0"]\n\n*', r"line 2: Result tag '2-0' is not one of"),
    ('[Game "Andantino"]\n[Termination "checkmate"]\n\n*',
     r"line 2: Termination tag 'checkmate' is not one of line, trap"),
    ('[Game "Andantino"]\n[Score "15:10"]\n\n*', r"line 2: Score tag '15:10' is not"),
    (HEAD + "1. 0,1 ; a comment\n", r"line 3: unexpected ';'"),
    # $1 and 1,1!? are NAGs since records keep annotations; these are not.
    (HEAD + "1. 0,1 $x *", r"line 3: unexpected '\$x'"),
    (HEAD + "1. 0,1 } *", r"line 3: unexpected '}'"),
    (HEAD + "1. 0,1 1,1!x *", r"line 3: unexpected '1,1!x'"),
    (HEAD + "1. 0,1 1,1 3. -1,1 *",
     r"line 3: move number 3\. does not fit: ply 3 \(-1,1\) is move 2\."),
    (HEAD + "1. 0,1\n2... 1,1 *", r"line 4: move number 2\.\.\. does not fit: ply 2 "
                                  r"\(1,1\) is move 1\.\.\."),
    (HEAD + "1... 0,1 *", r"line 3: move number 1\.\.\. marks a second player's move, but "
                          r"0,1 is White's"),
    (HEAD + "1. 0,1 1,1 2. *", r"line 3: move number 2\. is not followed by a move"),
    (HEAD + "1. 0,1 1,1 2.", r"line 3: move number 2\. is not followed by a move"),
    (HEAD + "1. 2. 0,1", r"line 3: move number 1\. is not followed by a move"),
    (HEAD + "1. 0,1 1-0 1,1", r"line 3: unexpected '1,1' after the result 1-0"),
    (HEAD + "1. 0,1 * *", r"line 3: unexpected '\*' after the result \*"),
    ('[Game "Andantino"]\n[Result "1-0"]\n\n1. 0,1\n0-1\n',
     r"line 5: result token 0-1 disagrees with the Result tag 1-0"),
    (HEAD + "1. 0,1\n\n1,1 *", r"game 1, line 3: the move text ends without a result "
                                r"token: it must end with one of 1-0, 0-1, 1/2-1/2, \* "
                                r"\(the Result tag is \*\)"),
    (HEAD + "1. 0,1 1,1 *\n\n1,1 *", r"game 2, line 5: no Game tag"),
    (HEAD + "1. 0,1 1,1", r"game 1, line 3: the move text ends without a result token"),
    (HEAD + "1. 0,1 1,1 {the end?}\n", r"game 1, line 3: the move text ends without a "
                                       r"result token"),
    (HEAD + "1. 0,1 1,1\n" + HEAD + "*", r"game 1, line 3: the move text ends without"),
    ('[Game "Andantino"]\n\n1. 0,1 1,1 *\n', r"game 1, line 3: no Result tag \(it is "
                                              r"required: the result, one of 1-0, 0-1, "
                                              r"1/2-1/2, \*\)$"),
    ('[Game "Andantino"]\n[result "*"]\n\n*\n', r"game 1, line 2: no Result tag .*"
                                              r"case-sensitive, not 'result'"),
    ('[Game "Andantino"]\n', r"game 1, line 1: no Result tag"),
])
def test_syntax_errors(text: str, message: str) -> None:
    with pytest.raises(RecordSyntaxError, match=message) as info:
        parse_games(text)
    assert info.value.game_index is not None
    assert info.value.line is not None


def test_syntax_error_names_game_and_line() -> None:
    text = EXAMPLE + "\n" + '[Game "Andantino"]\n[Result "*"]\n\n1. 0,1 {unclosed\n'
    with pytest.raises(RecordSyntaxError) as info:
        parse_games(text)
    assert (info.value.game_index, info.value.line) == (2, 15)
    assert str(info.value) == "game 2, line 15: unterminated comment: '{' without a closing '}'"
    assert isinstance(info.value, ValueError)


def test_read_game_needs_exactly_one_game() -> None:
    with pytest.raises(RecordSyntaxError, match="expected one game, found 0"):
        read_game("\n")
    with pytest.raises(RecordSyntaxError, match="expected one game, found 2"):
        read_game(EXAMPLE + "\n" + EXAMPLE)


def test_the_result_tag_and_the_result_token_are_both_required() -> None:
    # docs/notation.md: Game and Result are required tags; the move text ends with the result.
    with pytest.raises(RecordSyntaxError, match="no Result tag") as info:
        parse_games('[Game "Andantino"]\n\n1. 0,1 1,1 0-1\n')
    assert (info.value.game_index, info.value.line) == (1, 3)
    with pytest.raises(RecordSyntaxError, match="ends without a result token") as info:
        read_game(HEAD + "1. 0,1 1,1\n")
    assert (info.value.game_index, info.value.line) == (1, 3)
    rec = parse_games(game("1. 0,1 1,1 0-1"))[0]
    assert rec.tags["Result"] == "0-1"
    with pytest.raises(RecordResultError):
        rec.validate()  # no termination: checked by validate, not by parse


# --- move errors ----------------------------------------------------------------------


def test_illegal_move_reports_number_ply_and_reason() -> None:
    with pytest.raises(RecordMoveError) as info:
        read_games(game("1. 0,1 1,1 2. -1,1 -1,2 3. 0,-1 1,-1 *"))
    error = info.value
    assert str(error) == ("game 1, move 3 (3. 0,-1): illegal move 0,-1: 0,-1 touches 1 "
                          "tile(s); a tile must touch at least two")
    assert (error.game_index, error.move_number, error.ply, error.move_text) == (1, 3, 5,
                                                                                "0,-1")
    assert error.reason == ("illegal move 0,-1: 0,-1 touches 1 tile(s); a tile must touch at "
                            "least two")
    assert error.line == 3


def test_illegal_second_player_move_in_a_later_game() -> None:
    text = EXAMPLE + "\n" + game("1. 0,1 1,1\n2. -1,1 0,1 *")
    with pytest.raises(RecordMoveError) as info:
        read_games(text)
    assert str(info.value) == "game 2, move 2 (2... 0,1): illegal move 0,1: 0,1 is occupied"
    assert (info.value.game_index, info.value.ply, info.value.line) == (2, 4, 15)


def test_malformed_move() -> None:
    with pytest.raises(RecordMoveError) as info:
        read_game(game("1. 0,1 1,x *"))
    assert str(info.value).startswith("game 1, move 1 (1... 1,x): '1,x' is not an Andantino")
    with pytest.raises(RecordMoveError, match=r"move 2 \(2\. e4\): 'e4' is not an Andantino"):
        read_game(game("1. 0,1 1,1 2. e4 *"))


@pytest.mark.parametrize("text", ["\x01" * 30, "a\x01" * 100, "'\"" * 100, "\n\t" * 40])
def test_shortening_never_cuts_an_escape_in_two(text: str) -> None:
    """``'\\x01…\\x0…'``: an escape cut in two, then cut again (a second ellipsis)."""
    from hexgames.record.errors import quote, shorten, shorten_in

    for shown in (shorten(text), quote(text)[1:-1], shorten_in(f"bad {text!r}", text)):
        assert shown.count("\u2026") == 1
        assert re.search(r"\\(x[0-9a-f]?|u[0-9a-f]{0,3})?\u2026", shown) is None, shown
    assert len(shorten(text)) <= 60 and len(quote(text)) <= 62
    assert len(shorten_in("x " + "[x]" * 30_000, "")) == 400


def test_long_text_is_shortened_in_error_messages() -> None:
    long_move = "x" * 300
    with pytest.raises(RecordMoveError) as info:
        read_game(game(f"1. {long_move} *"))
    message = str(info.value)
    assert f"(1. {'x' * 59}\u2026): '{'x' * 59}\u2026' is not an Andantino move" in message
    assert len(message) < 250
    assert info.value.move_text == long_move  # the attribute keeps the whole text
    with pytest.raises(RecordSyntaxError) as syntax:
        parse_games(game("1. " + "$" * 300 + " *"))
    assert str(syntax.value) == ("game 1, line 3: unexpected '" + "$" * 59 + "\u2026': not a "
                                 "move, move number, result or comment")
    with pytest.raises(RecordSyntaxError) as syntax:
        parse_games(game("*", f'[Rules "{"a" * 300}=1"]\n'))
    assert len(str(syntax.value)) < 300 and "a" * 61 not in str(syntax.value)



@pytest.mark.parametrize("text", [
    game("*", f'[Event "{"a" * 1_000_000}"]\n'),
    game("*", f'[Event "{chr(92) + chr(34) * 1} {"a" * 999_990}"]\n'),
    game("1. " + "x" * 1_000_000 + " *"),
    game("1. " + "(0,1)" * 200_000 + " *"),
])
def test_a_long_tag_value_or_word_takes_memory_of_its_size(text: str) -> None:
    """A 1 MB tag value took 192 MB to lex (a regular expression's alternation in a
    repeat keeps a backtracking state a character), a 1 MB word 122 MB: at the 8 MiB
    of a record file 1.6 GB. Now a few times the text."""
    import tracemalloc

    tracemalloc.start()
    try:
        with contextlib.suppress(ValueError):
            parse_games(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * len(text), peak
    if text.startswith('[Event "a'):
        assert parse_games(text)[0].tags["Event"] == "a" * 1_000_000

def test_move_after_the_end() -> None:
    text = EXAMPLE.replace("0,-2 1-0", "0,-2 2,2 1-0")
    with pytest.raises(RecordMoveError) as info:
        read_game(text)
    assert str(info.value) == ("game 1, move 5 (5... 2,2): the game is over: it ended 1-0 "
                               "(White wins by line) after ply 9")
    assert info.value.ply == 10
    rec = parse_games(text)[0]
    assert rec.board(9).result() == "1-0"
    with pytest.raises(RecordMoveError):
        rec.board(10)


# --- result checks --------------------------------------------------------------------


def with_tags(text: str, **tags: str) -> str:
    for name, value in tags.items():
        if f"[{name} " in text:
            start = text.index(f"[{name} ")
            text = text[:start] + f'[{name} "{value}"]' + text[text.index("\n", start):]
        else:
            text = text.replace("\n\n", f'\n[{name} "{value}"]\n\n', 1)
    return text


def test_line_win_recorded_as_a_loss() -> None:
    text = with_tags(EXAMPLE, Result="0-1").replace("0,-2 1-0", "0,-2 0-1")
    with pytest.raises(RecordResultError) as info:
        read_game(text)
    assert str(info.value) == ("game 1: Result tag says 0-1 but the moves give 1-0 (White "
                               "wins by line)")
    assert (info.value.tag, info.value.value, info.value.actual) == ("Result", "0-1", "1-0")


def test_finished_game_recorded_as_unfinished() -> None:
    text = with_tags(EXAMPLE, Result="*").replace("0,-2 1-0", "0,-2 *")
    with pytest.raises(RecordResultError, match=r"Result tag says \* but the moves give 1-0"):
        read_game(text)


@pytest.mark.parametrize("termination", ["trap", "resignation"])
def test_wrong_termination(termination: str) -> None:
    with pytest.raises(RecordResultError) as info:
        read_game(with_tags(EXAMPLE, Termination=termination))
    assert str(info.value) == (f"game 1: Termination tag says {termination} but the moves "
                               "end the game by line")
    assert (info.value.tag, info.value.value, info.value.actual) == (
        "Termination", termination, "line")


def test_termination_tag_is_optional() -> None:
    text = EXAMPLE.replace('[Termination "line"]\n', "")
    assert read_game(text).tags.get("Termination") is None


def test_unfinished_decisive_result_needs_a_reason() -> None:
    text = game("1. 0,1 1,1 1-0")
    with pytest.raises(RecordResultError) as info:
        read_game(text)
    assert str(info.value) == (
        "game 1: Result tag says 1-0 but the moves do not end the game (2 plies, * (not "
        "over, White to move)); a result before the end needs Termination resignation or "
        "time-forfeit")
    assert (info.value.tag, info.value.value) == ("Termination", None)
    with pytest.raises(RecordResultError, match=r"time-forfeit, not line$"):
        read_game(with_tags(text, Termination="line"))


@pytest.mark.parametrize(("result", "termination"), [
    ("1-0", "resignation"), ("0-1", "resignation"), ("0-1", "time-forfeit")])
def test_resignation_and_time_forfeit_accepted(result: str, termination: str) -> None:
    rec = read_game(with_tags(game(f"1. 0,1 1,1 {result}"), Termination=termination))
    assert (rec.result, rec.tags["Termination"]) == (result, termination)


def test_unfinished_game_cannot_be_drawn() -> None:
    with pytest.raises(RecordResultError, match=r"says 1/2-1/2 but the moves do not end the "
                                                r"game .*no agreed draws"):
        read_game(game("1. 0,1 1/2-1/2"))


def test_unfinished_game_takes_no_termination() -> None:
    with pytest.raises(RecordResultError,
                       match=r"Termination tag says resignation but the Result is \*"):
        read_game(with_tags(game("1. 0,1 *"), Termination="resignation"))


def test_andantino_has_no_score() -> None:
    with pytest.raises(RecordResultError, match="Score tag says 1-0 but the moves give no "
                                                r"score \(the game ended by line\)"):
        read_game(with_tags(EXAMPLE, Score="1-0"))
    with pytest.raises(RecordResultError, match=r"do not end the game.*so there is no score"):
        read_game(with_tags(game("*"), Score="1-0"))


def test_drawn_by_exhausted_tiles() -> None:
    rules = andantino.Rules(tiles_per_player=3)
    board = played(["0,1", "1,1", "-1,1", "-1,0"], andantino.Board(rules=rules))
    assert board.result() == "1/2-1/2"
    rec = record_from_board(board)
    assert rec.tags["Rules"] == "tiles_per_player=3"
    assert rec.tags["Termination"] == "tiles-exhausted"
    again = read_game(write_game(rec))
    assert again == rec
    with pytest.raises(RecordResultError, match=r"the moves give 1/2-1/2 \(a draw by "
                                                r"tiles-exhausted\)"):
        read_game(with_tags(write_game(rec), Result="1-0").replace("1/2-1/2\n", "1-0\n"))


# --- record_from_board ----------------------------------------------------------------


def test_record_from_a_finished_game() -> None:
    board = played(EXAMPLE_MOVES)
    rec = record_from_board(board, tags={"White": "Alice", "Event": "Casual game"},
                            comments={4: "a comment"})
    today = datetime.date.today().strftime("%Y.%m.%d")
    assert rec.tags == {"Game": "Andantino", "Event": "Casual game", "Date": today,
                        "White": "Alice", "Result": "1-0", "Termination": "line"}
    assert list(rec.tags) == ["Game", "Event", "Date", "White", "Result", "Termination"]
    assert rec.moves == EXAMPLE_MOVES
    rec.validate()
    assert write_game(rec).endswith(
        "\n\n1. 0,1 1,1 2. -1,1 -1,0 {a comment} 3. 0,-1 1,-1 4. 0,2 -1,-1 5. 0,-2 1-0\n")
    assert rec.tags == dict(read_game(write_game(rec)).tags)


def test_record_from_an_unfinished_game() -> None:
    board = played(EXAMPLE_MOVES[:5])
    rec = record_from_board(board, tags={"Date": "2026.01.02"})
    assert rec.tags == {"Game": "Andantino", "Date": "2026.01.02", "Result": "*"}
    resigned = record_from_board(board, result="0-1", termination=Termination.RESIGNATION)
    assert (resigned.result, resigned.tags["Termination"]) == ("0-1", "resignation")
    resigned.validate()
    with pytest.raises(RecordResultError, match="needs Termination resignation or"):
        record_from_board(board, result="0-1")
    with pytest.raises(RecordResultError, match="no agreed draws"):
        record_from_board(board, result="1/2-1/2", termination=Termination.TIME_FORFEIT)


def test_record_from_board_checks_its_arguments() -> None:
    finished = played(EXAMPLE_MOVES)
    with pytest.raises(RecordResultError, match="Result tag says 0-1 but the moves give 1-0"):
        record_from_board(finished, result="0-1", termination=Termination.RESIGNATION)
    with pytest.raises(RecordError, match="tags Result, Termination come from the board"):
        record_from_board(finished, tags={"Termination": "line", "Result": "1-0"})
    with pytest.raises(RecordError, match="outside the 9 plies"):
        record_from_board(finished, comments={10: "x"})
    with pytest.raises(RecordError, match="tag Event cannot be written"):
        record_from_board(finished, tags={"Event": "two\nlines"})
    with pytest.raises(RecordError, match="tag name 'Bad name' cannot be written"):
        record_from_board(finished, tags={"Bad name": "x"})
    with pytest.raises(RecordSyntaxError, match="Result tag 'won' is not one of"):
        record_from_board(andantino.Board(), result="won")


def test_record_from_a_set_up_position_with_rules() -> None:
    rules = andantino.Rules(single_adjacency=True, self_trap=andantino.SelfTrap.IGNORE)
    board = played(["2,0", "-1,1"], andantino.Board(SETUP, rules))
    rec = record_from_board(board, comments={0: "from a diagram"})
    assert rec.tags["Rules"] == "single_adjacency=on self_trap=ignore"
    assert rec.tags["Position"] == SETUP
    assert rec.moves == ["2,0", "-1,1"]
    text = write_game(rec)
    assert text.endswith("\n\n{from a diagram} 1... 2,0 2. -1,1 *\n")
    assert read_game(text) == rec
    assert read_game(text).board() == board


def test_record_from_board_leaves_out_the_standard_start() -> None:
    rules = andantino.Rules(tiles_per_player=10)
    rec = record_from_board(played(["0,1"], andantino.Board(rules=rules)))
    assert "Position" not in rec.tags
    assert rec.starting_board().position() == "andantino w=0,0 r=1,0 turn=w hands=w9,r9"


# --- writer errors --------------------------------------------------------------------


@pytest.mark.parametrize(("rec", "message"), [
    (GameRecord({"Game": "Andantino"}, ["0,1"], {1: "a } b"}), "after ply 1 cannot be written"),
    (GameRecord({"Game": "Andantino"}, ["0,1"], {2: "x"}), "keyed by ply 2, outside the 1"),
    (GameRecord({"Game": "Andantino"}, ["0, 1"]), r"move 1 '0, 1' cannot be written"),
    (GameRecord({"Game": "Andantino"}, ["1-0"]), r"move 1 '1-0' cannot be written"),
    (GameRecord({"Game": "Andantino"}, [""]), r"move 1 '' cannot be written"),
    (GameRecord({"Game": "Andantino", "Event": "a\r"}, []), "tag Event cannot be written"),
    (GameRecord({"Game": "Andantino", "9x": "a"}, []), "tag name '9x' cannot be written"),
    (GameRecord({"Result": "*"}, []), "no Game tag"),
    (GameRecord({"Game": "Andantino", "Termination": "mate"}, []), "Termination tag 'mate'"),
])
def test_writer_refuses_what_it_cannot_write_readably(rec: GameRecord, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        write_game(rec)


def test_missing_result_is_written_as_unfinished() -> None:
    rec = GameRecord({"Game": "Andantino"}, ["0,1"])
    assert rec.result == "*"
    assert write_game(rec) == '[Game "Andantino"]\n[Result "*"]\n\n1. 0,1 *\n'
    assert parse_games(write_game(rec)) == [GameRecord({"Game": "Andantino", "Result": "*"},
                                                       ["0,1"])]
    empty = GameRecord({"Game": "Andantino"}, [])
    assert parse_games(write_game(empty)) == [GameRecord({"Game": "Andantino", "Result": "*"},
                                                         [])]


# --- a scored game, through the game registry -----------------------------------------
# A stand-in for Abande (not written yet) proves that records use only the module's
# attributes: a move is "d4" (worth one point) or "pass"; the game ends after four plies
# and is scored.


@dataclass(frozen=True)
class _ScoredRules:
    @classmethod
    def from_options(cls, options: str) -> _ScoredRules:
        if options.split():
            raise ValueError(f"unknown option {options!r}")
        return cls()

    def options(self) -> list[str]:
        return []


@dataclass(frozen=True)
class _ScoredMove:
    text: str

    def notation(self) -> str:
        return self.text


class _ScoredBoard:
    def __init__(self, position: str | None = None, rules: _ScoredRules | None = None) -> None:
        self.rules = rules or _ScoredRules()
        self.move_stack: list[_ScoredMove] = []
        self.points = [0, 0]

    @property
    def turn(self) -> int:
        return len(self.move_stack) % 2

    def parse_notation(self, text: str) -> _ScoredMove:
        if text not in ("d4", "pass"):
            raise ValueError(f"{text!r} is not a move")
        if self.is_game_over():
            raise ValueError("the game is over")
        return _ScoredMove(text)

    def push(self, move: _ScoredMove) -> None:
        self.points[self.turn] += move.text == "d4"
        self.move_stack.append(move)

    def is_game_over(self) -> bool:
        return len(self.move_stack) >= 4

    def outcome(self) -> Outcome | None:
        if not self.is_game_over():
            return None
        first, second = self.points
        winner = None if first == second else (0 if first > second else 1)
        return Outcome(Termination.SCORE, winner, score=(first, second))

    def result(self) -> str:
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result()

    def position(self) -> str:
        return f"abande turn={'bw'[self.turn]}"

    def root(self) -> _ScoredBoard:
        return _ScoredBoard(None, self.rules)


@pytest.fixture
def scored_game(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    module = types.ModuleType("hexgames.abande")
    module.GAME_NAME = "Abande"  # type: ignore[attr-defined]
    module.PLAYER_TAGS = ("Black", "White")  # type: ignore[attr-defined]
    module.Rules = _ScoredRules  # type: ignore[attr-defined]
    module.Board = _ScoredBoard  # type: ignore[attr-defined]
    def fake(name: str) -> Any:
        return module if name.strip().lower() == "abande" else game_module(name)

    monkeypatch.setattr(record, "game_module", fake)
    return module


ABANDE = """\
[Game "Abande"]
[Black "B"]
[White "W"]
[Result "1-0"]
[Termination "score"]
[Score "2-1"]

1. d4 d4 2. d4 pass 1-0
"""


@pytest.mark.usefixtures("scored_game")
def test_score_tag_of_a_scored_game() -> None:
    rec = read_game(ABANDE.replace('[White "W"]\n[Black "B"]', '[White "W"]\n[Black "B"]'))
    assert rec.game == "abande"
    assert write_game(rec) == ABANDE
    with pytest.raises(RecordResultError) as info:
        read_game(ABANDE.replace('"2-1"', '"15-10"'))
    assert str(info.value) == "game 1: Score tag says 15-10 but the moves give 2-1"
    assert (info.value.tag, info.value.value, info.value.actual) == ("Score", "15-10", "2-1")
    with pytest.raises(RecordResultError, match=r"says 0-1 but the moves give 1-0 \(Black "
                                                r"wins by score\)"):
        read_game(ABANDE.replace("1-0", "0-1"))
    with pytest.raises(RecordMoveError, match=r"move 2 \(2\.\.\. e5\): 'e5' is not a move"):
        read_game(ABANDE.replace("pass", "e5"))


@pytest.mark.usefixtures("scored_game")
def test_record_from_a_scored_board() -> None:
    board = _ScoredBoard()
    for text in ("d4", "d4", "pass", "d4"):
        board.push(board.parse_notation(text))
    rec = record_from_board(board, tags={"White": "W", "Black": "B"})
    assert list(rec.tags) == ["Game", "Date", "Black", "White", "Result", "Termination",
                              "Score"]
    assert (rec.result, rec.tags["Score"], rec.tags["Termination"]) == ("0-1", "1-2", "score")
    assert read_game(write_game(rec)) == rec


# --- properties -----------------------------------------------------------------------

_TAG_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True).filter(
    lambda name: name not in {"Game", "Rules", "Position", "Result", "Termination", "Score"})
_ONE_LINE = st.characters(codec="utf-8", exclude_characters="\r\n")
_TAG_VALUES = st.text(st.one_of(st.sampled_from('"\\ '), _ONE_LINE), max_size=12)
_COMMENTS = st.text(st.one_of(st.sampled_from('"\\ \n[]'),
                              st.characters(codec="utf-8", exclude_characters="{}\r")),
                    max_size=15).map(str.strip)


@st.composite
def random_records(draw: st.DrawFn) -> GameRecord:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rules = andantino.Rules(single_adjacency=draw(st.booleans()))
    board = andantino.Board(rules=rules)
    if draw(st.booleans()):  # start from a set-up position
        for _ in range(draw(st.integers(1, 6))):
            board.push(rng.choice(board.legal_moves))
        board = andantino.Board(board.position(), rules)
    for _ in range(draw(st.integers(0, 40))):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves))
    result, termination = None, None
    if not board.is_game_over() and draw(st.booleans()):
        result = rng.choice(["1-0", "0-1"])
        termination = rng.choice([Termination.RESIGNATION, Termination.TIME_FORFEIT])
    plies = len(board.move_stack)
    return record_from_board(
        board, tags=draw(st.dictionaries(_TAG_NAMES, _TAG_VALUES, max_size=4)),
        result=result, termination=termination,
        comments=draw(st.dictionaries(st.integers(0, plies), _COMMENTS, max_size=4)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(random_records(), min_size=1, max_size=3))
def test_records_round_trip(recs: list[GameRecord]) -> None:
    for index, rec in enumerate(recs, 1):
        rec.game_index = index
    text = write_games(recs)
    again = parse_games(text)
    assert again == recs
    assert [r.game_index for r in again] == list(range(1, len(recs) + 1))
    for rec in again:
        rec.validate()
    assert write_games(again) == text


def _assert_reads_or_raises_record_error(text: str) -> None:
    try:
        recs = parse_games(text)
    except RecordError:
        return
    for rec in recs:
        with contextlib.suppress(RecordError):
            rec.validate()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_fuzz_any_text(text: str) -> None:
    _assert_reads_or_raises_record_error(text)


_PIECES = ['[Game "Andantino"]', '[Result "1-0"]', '[Position "andantino w=0,0 r=1,0 turn=r"]',
           '[Rules "single_adjacency=on"]', '[Termination "line"]', '[Ev "a\\"b"]', "[", "]",
           '"', "\\", "{", "}", "\n", "\n\n", "\r\n", " ", "1.", "2...", "0,1", "1,1", "-1,1",
           "1-0", "0-1", "*", "1/2-1/2", "x", ";", "\ufeff", "99999999999999999999."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_fuzz_record_like_text(pieces: list[str]) -> None:
    _assert_reads_or_raises_record_error("".join(pieces))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(EXAMPLE)), st.integers(0, 5), st.text(max_size=3))
def test_fuzz_damaged_example(start: int, length: int, insert: str) -> None:
    _assert_reads_or_raises_record_error(EXAMPLE[:start] + insert + EXAMPLE[start + length:])
