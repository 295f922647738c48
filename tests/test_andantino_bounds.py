"""Issue 14 for Andantino: finished set-up positions and the bounded tile supply, the
same in the Python board and the native core."""

from __future__ import annotations

import random
import time

import pytest
from big_positions import POSITIONS, RULES

from hexgames import _native
from hexgames.andantino import RED, WHITE, Board, Rules
from hexgames.core import InvalidPositionError, InvalidRulesError, Outcome, Termination
from hexgames.hexgrid import ring
from hexgames.limits import MAX_TILES_PER_PLAYER


def cells_text(cells: list[tuple[int, int]]) -> str:
    return ";".join(f"{q},{r}" for q, r in sorted(cells, key=lambda c: (c[1], c[0]))) or "-"


def position(white: list[tuple[int, int]], red: list[tuple[int, int]], turn: str) -> str:
    return f"andantino w={cells_text(white)} r={cells_text(red)} turn={turn}"


def native_outcome(text: str, rules: Rules) -> object:
    state = _native.AndantinoState(text, rules.options())
    return state.outcome()


def as_native(outcome: Outcome | None) -> object:
    if outcome is None:
        return None
    return (outcome.termination.value, outcome.winner, sorted(outcome.line),
            sorted(outcome.trapped))


def both_refuse(text: str, rules: Rules, fragment: str) -> None:
    with pytest.raises(InvalidPositionError, match=fragment) as python:
        Board(text, rules)
    with pytest.raises(InvalidPositionError) as native:
        _native.AndantinoState(text, rules.options())
    assert str(native.value) == str(python.value)


def random_finished_games(rules: Rules, count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        board = Board(rules=rules)
        while not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        games.append(board)
    return games


@pytest.mark.parametrize("self_trap", ["opponent_wins", "illegal", "ignore"])
def test_a_finished_game_reads_back_finished_with_its_outcome(self_trap: str) -> None:
    rules = Rules(self_trap=self_trap)
    seen = set()
    for board in random_finished_games(rules, 300, seed=len(self_trap)):
        outcome = board.outcome()
        assert outcome is not None
        again = Board(board.position(), rules)
        seen.add(outcome.termination)
        if self_trap == "ignore" and outcome.trapped:
            # Walled-in tiles may be ignored self-traps of a game in progress: a
            # position cannot tell them from a trap, so only a line ends it.
            expected: Outcome | None = None
            if outcome.line:
                expected = Outcome(Termination.LINE, outcome.winner, line=outcome.line)
            elif board.hand(board.turn) == 0:
                expected = Outcome(Termination.TILES_EXHAUSTED, None)
            assert again.outcome() == expected
            assert native_outcome(board.position(), rules) == as_native(expected)
            continue
        assert again.outcome() == outcome
        assert native_outcome(board.position(), rules) == as_native(outcome)
    assert {Termination.LINE, Termination.TRAP, Termination.TILES_EXHAUSTED} <= seen
    if self_trap == "opponent_wins":
        assert Termination.SELF_TRAP in seen


def test_a_line_of_the_side_to_move_is_refused() -> None:
    row = [(q, 0) for q in range(5)]
    text = position(row, [(0, 1), (1, 1), (2, 1)], "w")
    both_refuse(text, Rules(), "White to move already has five in a row through 0,0")
    # The same line of the player who moved last is that player's win.
    assert Board(position(row, [(0, 1), (1, 1), (2, 1)], "r")).outcome() == Outcome(
        Termination.LINE, WHITE, line=frozenset(row))


def test_a_self_trap_in_a_set_up_position_is_the_opponents_win() -> None:
    # Red (0,0) inside White's ring, Red having moved last: a self-trap.
    text = position(ring((0, 0), 1), [(0, 0), (5, -5), (6, -5)], "w")
    board = Board(text)
    assert board.outcome() == Outcome(Termination.SELF_TRAP, WHITE,
                                      trapped=frozenset({(0, 0)}))
    assert native_outcome(text, Rules()) == as_native(board.outcome())
    both_refuse(text, Rules(self_trap="illegal"), "which self_trap=illegal forbids")
    # Ignored self-traps are part of a game in progress.
    assert not Board(text, Rules(self_trap="ignore")).is_game_over()
    assert native_outcome(text, Rules(self_trap="ignore")) is None


def test_two_self_trapped_tiles_are_refused() -> None:
    wall = ring((0, 0), 2)
    text = position(wall, [(0, 0), (1, 0), (5, -5)], "w")
    both_refuse(text, Rules(), "beside another end of the game")


def test_a_trap_of_the_player_who_moved_last_is_a_finished_game() -> None:
    text = position(ring((0, 0), 1), [(0, 0), (5, -5), (6, -5)], "r")
    board = Board(text)
    assert board.outcome() == Outcome(Termination.TRAP, WHITE, trapped=frozenset({(0, 0)}))
    assert native_outcome(text, Rules()) == as_native(board.outcome())
    assert board.result() == "1-0"
    assert Board(text, Rules(self_trap="ignore")).outcome() is None


def test_tiles_per_player_is_bounded() -> None:
    assert Rules(tiles_per_player=MAX_TILES_PER_PLAYER).tiles_per_player == 500
    message = "tiles_per_player must be at most 500"
    with pytest.raises(InvalidRulesError, match=message):
        Rules(tiles_per_player=501)
    with pytest.raises(InvalidRulesError, match=message):
        Rules.from_options(["tiles_per_player=100000"])
    with pytest.raises(InvalidRulesError, match=message):
        _native.AndantinoState(None, ["tiles_per_player=501"])


def test_an_unlimited_position_holds_at_most_500_tiles_a_player() -> None:
    rules = Rules(tiles_per_player=None)
    line = [(q, 0) for q in range(-400, 401) if q % 5]  # no five in a row
    red = [(q, 1) for q in range(-400, 401) if q % 5][:10]
    text = position(line, red, "w")
    assert len(line) > MAX_TILES_PER_PLAYER
    both_refuse(text, rules, f"field w= lists {len(line)} tiles, more than the 500")
    fine = position(line[:MAX_TILES_PER_PLAYER - 20], red, "w")
    board = Board(fine, rules)
    assert board.hand(WHITE) is None and board.hand(RED) is None
    assert "hands=" not in board.position()


def strip(length: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """A two-row strip of ``2 * length`` tiles, colours in pairs so that no five of one
    colour stand in a row on any axis, and nothing is walled in."""
    white, red = [], []
    for q in range(length):
        (white if (q // 2) % 2 == 0 else red).append((q, 0))
        (white if ((q + 1) // 2) % 2 == 0 else red).append((q, 1))
    return white, red


def test_an_unlimited_game_ends_drawn_at_500_tiles_each() -> None:
    """With ``tiles_per_player=None`` the supply is bounded at 500: from a strip of 499
    tiles each the game is drawn once Red has placed its 500th (``tiles-exhausted``),
    in the Python board and the native core alike."""
    rules = Rules(tiles_per_player=None)
    white, red = strip(MAX_TILES_PER_PLAYER - 1)
    assert len(white) == len(red) == MAX_TILES_PER_PLAYER - 1
    board = Board(position(white, red, "w"), rules)
    state = _native.AndantinoState(board.position(), rules.options())
    assert not board.is_game_over() and state.outcome() is None
    while not board.is_game_over():
        for move in sorted(board.legal_moves, key=lambda m: m.to):
            board.push(move)
            if board.outcome() is None or board.outcome().winner is None:
                break
            board.pop()
        state.push(board.peek().notation())
        assert state.zobrist_hash() == board.zobrist_hash()
        assert state.position() == board.position()
    assert board.ply() == 2
    assert board.outcome() == Outcome(Termination.TILES_EXHAUSTED, None)
    assert state.outcome() == as_native(board.outcome())
    assert len(board.tiles(WHITE)) == len(board.tiles(RED)) == MAX_TILES_PER_PLAYER


def test_extended_play_with_500_tiles_a_side_lists_no_relocation_to_set_up_or_push() -> None:
    """Both sides relocate (some 500,000 moves each). Setting the board up and pushing
    a relocation used to list them all (1.5 million Move objects, 6 s each time) to
    learn whether the side to move has a move at all: the copy and the push around
    every search of a player took 18 s."""
    start = time.perf_counter()
    board = Board(POSITIONS["relocating"], RULES)
    copy = board.copy()
    copy.push_notation("5,0>1,-1")
    took = time.perf_counter() - start
    assert copy.outcome() is None and copy.turn == RED
    assert took < 3.0, f"{took:.2f} s"


def test_relocations_past_the_limit_are_refused() -> None:
    """A game is drawn when its relocations reach ``extended_move_limit``: more was
    loaded as a finished game (move-limit) before; now the field is refused, by the
    Python board and the native core alike."""
    for limit in (200, 5):
        rules = Rules(extended=True, extended_move_limit=limit)
        text = f"andantino w=0,0;0,1 r=1,0;1,1 turn=w relocations={limit + 1}"
        both_refuse(text, rules, f"field relocations=: {limit + 1} is more than the "
                                 f"extended_move_limit of {limit}, at which the game is drawn")
        at_limit = text.replace(f"={limit + 1}", f"={limit}")
        board = Board(at_limit, rules)
        assert board.outcome() == Outcome(Termination.MOVE_LIMIT, None)
        assert native_outcome(at_limit, rules) == as_native(board.outcome())
