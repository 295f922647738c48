"""The shared encoding of hexgames.integrations: action spaces, the Andantino hexagon
bound, observation planes."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from hexgames import abande, andantino  # noqa: E402
from hexgames.hexgrid import DIRECTIONS, distance  # noqa: E402
from hexgames.integrations.encoding import (  # noqa: E402
    ANDANTINO_PLANES,
    ANDANTINO_WINDOW_PLANES,
    AbandeEncoding,
    AndantinoEncoding,
    encoding_for,
    rules_from,
)

ORIGIN = (0, 0)


# --- Andantino: the hexagon of radius tiles_per_player holds every game ---------------

def _max_distance_over_all_games(board: andantino.Board) -> int:
    """The farthest cell from the origin that any legal continuation places a tile on."""
    best = max(distance(cell, ORIGIN) for color in (0, 1) for cell in board.tiles(color))
    for move in board.legal_moves:
        board.push(move)
        best = max(best, _max_distance_over_all_games(board))
        board.pop()
    return best


@pytest.mark.parametrize("tiles, single", [(3, False), (4, False), (3, True), (4, True)])
def test_every_game_stays_within_radius_tiles_and_reaches_it(tiles: int, single: bool) -> None:
    # Exhaustive over all games with few tiles: the bound R = tiles_per_player is exact,
    # with and without the balance variant's single-adjacency placement.
    rules = andantino.Rules(tiles_per_player=tiles, single_adjacency=single)
    assert _max_distance_over_all_games(andantino.Board(rules=rules)) == tiles


def _grow_strip(board: andantino.Board, ply: int, reverse: bool) -> bool:
    """Depth-first search for a full drawn game whose placement ``ply`` (from 1) lies at
    distance ``ply // 2 + 1``, the fastest growth the rules allow."""
    if board.is_game_over():
        outcome = board.outcome()
        assert outcome is not None
        return outcome.winner is None and ply == 49
    level = ply // 2 + 1
    for move in sorted(board.legal_moves, key=lambda m: m.to, reverse=reverse):
        if distance(move.to, ORIGIN) != level:
            continue
        board.push(move)
        if _grow_strip(board, ply + 1, reverse):
            return True
        board.pop()
    return False


@pytest.mark.parametrize("reverse", [False, True])
def test_standard_game_grown_as_far_as_possible_ends_on_the_rim(reverse: bool) -> None:
    board = andantino.Board()
    assert _grow_strip(board, 1, reverse)
    enc = AndantinoEncoding()
    assert enc.radius == 25 and enc.num_actions == 1 + 3 * 25 * 26 == 1951
    tiles = board.tiles(0) | board.tiles(1)
    assert len(tiles) == 50
    assert max(distance(cell, ORIGIN) for cell in tiles) == 25
    assert distance(board.move_stack[-1].to, ORIGIN) == 25
    # Every move of the game, and every legal move on the way, has an action.
    replay = andantino.Board()
    for move in board.move_stack:
        actions = enc.legal_actions(replay)
        assert len(actions) == len(replay.legal_moves)
        assert enc.action_of(move) in actions
        replay.push(enc.move_of(enc.action_of(move)))
    assert replay.position() == board.position()


def test_random_games_map_every_legal_move_both_ways() -> None:
    rng = random.Random(6)
    enc = AndantinoEncoding(andantino.Rules(single_adjacency=True))
    for _ in range(10):
        board = andantino.Board(rules=enc.rules)
        while not board.is_game_over():
            moves = board.legal_moves
            actions = enc.legal_actions(board)
            assert actions == sorted(actions) and len(set(actions)) == len(moves)
            assert {enc.move_of(a) for a in actions} == set(moves)
            mask = enc.legal_mask(board)
            assert mask.dtype == np.int8 and mask.shape == (1951,)
            assert mask.sum() == len(moves) and all(mask[actions] == 1)
            board.push(enc.move_of(rng.choice(actions)))
        assert enc.is_over(board) and enc.legal_actions(board) == []


def test_action_order_and_errors() -> None:
    enc = AndantinoEncoding()
    assert enc.cells[0] == (0, -25) and enc.cells[-1] == (0, 25)
    start = andantino.Board()
    assert [enc.move_of(a).notation() for a in enc.legal_actions(start)] == ["1,-1", "0,1"]
    with pytest.raises(ValueError, match="leaves the hexagon of radius 25"):
        enc.action_of(andantino.Move((26, 0)))
    with pytest.raises(ValueError, match="extended play is off"):
        enc.action_of(andantino.Move((0, 1), (1, 0)))
    for bad in (-1, 1951):
        with pytest.raises(ValueError, match=r"outside 0\.\.1950"):
            enc.move_of(bad)
    with pytest.raises(ValueError, match="unlimited tiles"):
        AndantinoEncoding(andantino.Rules(tiles_per_player=None))
    with pytest.raises(ValueError, match="unknown game"):
        encoding_for("chess")
    assert encoding_for("Andantino", "tiles_per_player=10").num_actions == 331


def test_rules_that_cannot_be_played_or_named_are_value_errors() -> None:
    # Extended play with one tile each: no relocation can leave a tile touching two, so
    # the start has no move; refused as a rules error, not when the first board is made.
    with pytest.raises(ValueError, match="tiles_per_player of at least 2"):
        AndantinoEncoding(andantino.Rules(extended=True, tiles_per_player=1))
    assert AndantinoEncoding(andantino.Rules(tiles_per_player=1)).num_actions == 7
    with pytest.raises(ValueError, match=r"unknown Andantino rules option 'bogus' \(known: "):
        rules_from(andantino.Rules, {"bogus": 1, "extended": True})
    with pytest.raises(ValueError, match="max_height"):
        rules_from(abande.Rules, {"max_height": "3"})
    assert rules_from(abande.Rules, {"max_height": 4}) == abande.Rules(max_height=4)


@pytest.mark.parametrize("enc, board", [(AndantinoEncoding(), andantino.Board()),
                                        (AbandeEncoding(), abande.Board())])
def test_observation_player_must_be_a_player(enc: AndantinoEncoding | AbandeEncoding,
                                             board: andantino.Board | abande.Board) -> None:
    for player in (2, -1, "0"):
        with pytest.raises(ValueError, match="player must be 0, 1 or None"):
            enc.observation(board, player)


def test_extended_relocations_are_cell_pairs_and_confined_to_the_hexagon() -> None:
    enc = AndantinoEncoding(andantino.Rules(extended=True, tiles_per_player=3))
    n = 1 + 3 * 3 * 4
    assert enc.num_cells == n and enc.num_actions == n + n * n
    move = andantino.Move((0, 2), (1, 0))
    action = enc.action_of(move)
    assert action == n + enc.cells.index((1, 0)) * n + enc.cells.index((0, 2))
    assert enc.move_of(action) == move and enc.move_of(action).notation() == "1,0>0,2"
    # Relocations walk: play them until one is offered beyond the hexagon, which the
    # encoding leaves out.
    rng = random.Random(3)
    seen_outside = False
    for _ in range(40):
        board = andantino.Board(rules=enc.rules)
        while not board.is_game_over():
            actions = enc.legal_actions(board)
            inside = [m for m in board.legal_moves
                      if distance(m.to, ORIGIN) <= 3 and (m.from_ is None
                                                          or distance(m.from_, ORIGIN) <= 3)]
            seen_outside |= len(inside) < len(board.legal_moves)
            assert sorted(map(enc.action_of, inside)) == actions
            if not actions:
                assert enc.is_over(board) and enc.returns(board) == (0.0, 0.0)
                break
            board.push(enc.move_of(rng.choice(actions)))
    assert seen_outside


def test_andantino_observation_planes() -> None:
    enc = AndantinoEncoding()
    board = andantino.Board()
    board.push_notation("0,1")  # Red to move
    obs = enc.observation(board)
    assert obs.shape == (9, 51, 51) == enc.observation_shape() and obs.dtype == np.float32
    assert len(ANDANTINO_PLANES) == 9

    def at(plane: str, cell: tuple[int, int], array=obs) -> float:
        q, r = cell
        return float(array[ANDANTINO_PLANES.index(plane), r + 25, q + 25])

    # Red's point of view: own = Red.
    assert at("own", (1, 0)) == 1 and at("own", (0, 0)) == 0
    assert at("opponent", (0, 0)) == 1 and at("opponent", (0, 1)) == 1
    assert obs[0].sum() == 1 and obs[1].sum() == 2
    assert {(q, r) for q, r in [(-1, 1), (1, -1), (1, 1)]} == {
        (c - 25, r - 25) for r, c in zip(*np.nonzero(obs[2]), strict=True)}
    assert obs[3].sum() == 1951 and at("hexagon", (25, 0)) == 1 and obs[3, 0, 0] == 0
    assert at("own_hand", (0, 0)) == pytest.approx(24 / 25)
    assert at("opponent_hand", (3, 3)) == pytest.approx(23 / 25)
    assert at("to_move", (0, 0)) == 1 and obs[7].sum() == 0 and obs[8].sum() == 0
    assert obs[4:, 0, 0].sum() == 0  # nothing outside the hexagon
    white = enc.observation(board, player=0, channels_first=False)
    assert white.shape == (51, 51, 9)
    assert white[25, 25, 0] == 1 and white[25, 26, 1] == 1 and white[25, 25, 6] == 0
    variant = AndantinoEncoding(andantino.Rules(single_adjacency=True))
    assert variant.observation(board)[7, 25, 25] == 1


# --- Abande -------------------------------------------------------------------------

def test_abande_action_space() -> None:
    enc = AbandeEncoding()
    assert enc.num_actions == 37 + 37 * 6 + 1 == 260
    assert enc.cells == abande.POINTS
    assert enc.move_of(0).notation() == "a1" and enc.move_of(36).notation() == "g4"
    assert enc.move_of(259) == abande.PASS and enc.action_of(abande.PASS) == 259
    d4 = abande.POINTS.index((0, 0))
    east = DIRECTIONS.index((1, 0))
    assert enc.move_of(37 + 6 * d4 + east).notation() == "d4-e3"
    assert enc.action_of(abande.Move.from_notation("d4-e3")) == 37 + 6 * d4 + east
    assert enc.move_of(37).notation() == "a1-b1"
    a1 = abande.POINTS.index((-3, 3))
    with pytest.raises(ValueError, match="names no Abande move"):
        enc.move_of(37 + 6 * a1 + DIRECTIONS.index((0, 1)))
    with pytest.raises(ValueError, match="names no Abande move"):
        enc.move_of(260)
    with pytest.raises(ValueError, match="has no action"):
        enc.action_of(abande.Move((1, 0), (-1, 0)))


def test_abande_rules_example_legal_actions() -> None:
    enc = AbandeEncoding()
    assert len(enc.legal_actions(abande.Board())) == 37
    board = abande.Board()
    for text in ("d4", "e4", "c4"):
        board.push_notation(text)
    actions = enc.legal_actions(board)
    assert len(actions) == 11
    capture = enc.action_of(board.parse_notation("e4-d4"))
    assert capture in actions and all(a < 37 for a in actions if a != capture)


def test_abande_random_games() -> None:
    rng = random.Random(2)
    enc = AbandeEncoding()
    for _ in range(10):
        board = abande.Board()
        while not enc.is_over(board):
            actions = enc.legal_actions(board)
            assert {enc.move_of(a) for a in actions} == set(board.legal_moves)
            board.push(enc.move_of(rng.choice(actions)))
        outcome = board.outcome()
        assert outcome is not None
        black, white = board.score()
        expected = (0.0, 0.0) if black == white else (
            (1.0, -1.0) if black > white else (-1.0, 1.0))
        assert enc.returns(board) == expected


def test_abande_observation_planes() -> None:
    enc = AbandeEncoding()
    assert enc.plane_names() == (
        "own_1", "own_2", "own_3", "opponent_1", "opponent_2", "opponent_3",
        "entry", "hexagon", "own_hand", "opponent_hand", "to_move", "passed")
    board = abande.Board()
    for text in ("d4", "e4", "c4", "e4-d4"):  # White captures: d4 = BW, Black to move
        board.push_notation(text)
    obs = enc.observation(board)  # Black's point of view
    assert obs.shape == (12, 7, 7) and obs.dtype == np.float32

    def at(plane: str, cell: str, array=obs) -> float:
        q, r = abande.parse_cell(cell)
        return float(array[enc.plane_names().index(plane), r + 3, q + 3])

    assert at("opponent_2", "d4") == 1 and obs[:6].sum() == 2
    assert at("own_1", "c4") == 1
    entries = {m.to for m in board.legal_moves if m.is_entry}
    assert obs[6].sum() == len(entries) > 0
    assert obs[7].sum() == 37
    assert at("own_hand", "d4") == pytest.approx(16 / 18)
    assert at("opponent_hand", "a1") == pytest.approx(17 / 18)
    assert at("to_move", "g4") == 1 and obs[11].sum() == 0
    white = enc.observation(board, player=1, channels_first=False)
    assert white.shape == (7, 7, 12)
    assert np.array_equal(white[..., 1], obs[4]) and np.array_equal(white[..., 3], obs[0])
    assert white[..., 10].sum() == 0
    tall = AbandeEncoding(abande.Rules(max_height=5))
    assert tall.observation_shape(False) == (7, 7, 16)


# --- the point of view: a position and its colour swap look the same to the mover ----

def _swapped_andantino(board: andantino.Board) -> andantino.Board:
    fields = dict(word.split("=", 1) for word in board.position().split()[1:])
    white, red = fields["hands"].split(",")
    return andantino.Board(f"andantino w={fields['r']} r={fields['w']} "
                           f"turn={'r' if fields['turn'] == 'w' else 'w'} "
                           f"hands=w{red[1:]},r{white[1:]}")


def _swapped_abande(board: abande.Board) -> abande.Board:
    swap = str.maketrans("BWbw", "WBwb")
    words = []
    for word in board.position().split()[1:]:
        key, value = word.split("=", 1)
        if key == "hands":
            black, white = value.split(",")
            value = f"b{white[1:]},w{black[1:]}"
        else:
            value = value.translate(swap)
        words.append(f"{key}={value}")
    return abande.Board(" ".join(["abande", *words]))


@pytest.mark.parametrize("game", ["andantino", "abande"])
def test_observation_is_from_the_movers_point_of_view(game: str) -> None:
    # The same position with the colours swapped (and the other side to move) gives
    # the same tensors: own / opponent planes follow the player, not the colour.
    rng = random.Random(8)
    enc = encoding_for(game)
    swapped = _swapped_andantino if game == "andantino" else _swapped_abande
    seen = 0
    for _ in range(4):
        board = andantino.Board() if game == "andantino" else abande.Board()
        while not board.is_game_over():
            mirror = swapped(board)
            assert mirror.turn == 1 - board.turn
            for player in (None, 0, 1):
                other = None if player is None else 1 - player
                assert np.array_equal(enc.observation(board, player),
                                      enc.observation(mirror, other))
                assert np.array_equal(enc.observation(board, player, False),
                                      enc.observation(mirror, other, False))
            # Abande's opening restriction waits for Black's second piece: the mirror
            # (not a reachable position) may differ there, and only there.
            if game == "andantino" or max(board.hands) <= abande.PIECES_PER_PLAYER - 2:
                assert enc.legal_actions(board) == enc.legal_actions(mirror)
            seen += 1
            board.push(rng.choice(board.legal_moves))
    assert seen > 40


def test_spaces_too_big_for_a_framework_are_refused_by_name() -> None:
    # tiles_per_player is any whole number to the rules, but the hexagon grows with its
    # square and extended play squares that again: past the caps a ValueError names it
    # (OpenSpiel's GameInfo took 2**31 actions as a TypeError, and a PettingZoo mask of
    # that size exhausts memory).
    from hexgames.integrations.encoding import MAX_EXTENDED_TILES, MAX_SIZE, MAX_TILES

    def size(tiles: int, extended: bool) -> int:
        cells = 3 * tiles * (tiles + 1) + 1
        return max(cells + (cells * cells if extended else 0),
                   len(ANDANTINO_PLANES) * (2 * tiles + 1) ** 2)

    for tiles, extended in ((MAX_EXTENDED_TILES, True), (MAX_TILES, False)):
        assert size(tiles, extended) <= MAX_SIZE < size(tiles + 1, extended)
    enc = AndantinoEncoding(andantino.Rules(tiles_per_player=MAX_EXTENDED_TILES,
                                            extended=True))
    assert enc.num_actions <= MAX_SIZE
    for tiles, extended in ((MAX_EXTENDED_TILES + 1, True), (130, True)):
        rules = andantino.Rules(tiles_per_player=tiles, extended=extended)
        with pytest.raises(ValueError, match=f"tiles_per_player={tiles}.* capped at"):
            AndantinoEncoding(rules)
    # Without extended play the rules' own bound (500 tiles each) comes first.
    assert MAX_TILES > 500
    for tiles in (MAX_TILES + 1, 10**6):
        with pytest.raises(ValueError, match="tiles_per_player must be at most 500"):
            andantino.Rules(tiles_per_player=tiles)


def test_the_move_count_plane_is_the_plies_over_the_longest_game() -> None:
    board = abande.Board()
    for text in ("a1", "a2", "a3"):
        board.push_notation(text)
    enc = AbandeEncoding(move_count=True)
    assert enc.num_planes == 13 and enc.plane_names()[-1] == "move_count"
    planes = enc.observation(board)
    assert planes.shape == (13, 7, 7)
    assert np.array_equal(planes[-1], np.float32(3 / 143) * planes[7])  # the hexagon
    assert np.array_equal(planes[:-1], AbandeEncoding().observation(board))
    sand = andantino.Board(rules=andantino.Rules(tiles_per_player=5))
    sand.push_notation("1,-1")
    windowed = AndantinoEncoding(sand.rules, 2, move_count=True)
    assert windowed.plane_names() == (*ANDANTINO_WINDOW_PLANES, "move_count")
    window_planes = windowed.observation(sand)
    assert window_planes.shape == (13, 5, 5)
    assert np.array_equal(window_planes[-1], np.float32(1 / 8) * window_planes[3])
    whole = AndantinoEncoding(sand.rules, move_count=True).observation(sand)
    assert whole.shape == (10, 11, 11) and whole[-1].max() == np.float32(1 / 8)
