"""The 12 symmetries as augmentation (:mod:`hexgames.integrations.symmetry`): on every
ply of random games of both games, the image of each legal move is a legal move of the
image position and the images are all its legal moves; the image of the observation is
the observation of the image position; and playing a move commutes with the symmetry."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from hexgames import abande, andantino  # noqa: E402
from hexgames.hexgrid import SYMMETRIES  # noqa: E402
from hexgames.integrations.encoding import AbandeEncoding, AndantinoEncoding  # noqa: E402
from hexgames.integrations.symmetry import NUM_SYMMETRIES, Symmetries  # noqa: E402

ANDANTINO_RULES = [
    ("tiles_per_player=6",),
    ("single_adjacency=on", "self_trap=illegal", "tiles_per_player=7"),
    ("extended=on", "tiles_per_player=3", "extended_move_limit=12"),
]
ABANDE_RULES = [(), ("max_height=4",)]


def _image_andantino(board: andantino.Board, k: int) -> andantino.Board:
    """The board whose tiles are the images of ``board``'s under symmetry ``k``."""
    transform = SYMMETRIES[k]

    def cells(match: re.Match[str]) -> str:
        if match.group(2) == "-":
            return match.group(0)
        images = []
        for text in match.group(2).split(";"):
            q, r = (int(x) for x in text.split(","))
            images.append("{},{}".format(*transform((q, r))))
        return f"{match.group(1)}={';'.join(images)}"

    position = re.sub(r"\b([wr])=(\S+)", cells, board.position())
    return andantino.Board(position, board.rules)


def _image_abande(board: abande.Board, k: int) -> abande.Board:
    transform = SYMMETRIES[k]

    def point(match: re.Match[str]) -> str:
        cell = abande.parse_cell(match.group(1))
        return f"{abande.cell_name(transform(cell))}={match.group(2)}"

    position = re.sub(r"\b([a-g][1-7])=(\S+)", point, board.position())
    return abande.Board(position, board.rules)


def _check_position(enc: Any, sym: Symmetries, board: Any, image_of: Any,
                    rng: random.Random) -> int:
    """Check every symmetry on ``board``; return a legal action to play (-1 if none)."""
    legal = enc.legal_actions(board)
    obs = {cf: enc.observation(board, channels_first=cf) for cf in (True, False)}
    mask = enc.legal_mask(board)
    for k in range(NUM_SYMMETRIES):
        image = image_of(board, k)
        assert sorted(sym.action(np.array(legal, np.int64), k).tolist()) == (
            enc.legal_actions(image)), (board.position(), k)
        for cf in (True, False):
            if getattr(enc, "window", None) is None:
                expected = enc.observation(image, channels_first=cf)
            else:
                # Through the window around the image of the centre.
                centre = enc.window_centre(board)
                turned = sym.cell(centre, k)
                assert tuple(sym.centre(np.array(centre), k)) == turned
                expected = enc.window_observation(image, turned, channels_first=cf)
                if turned == enc.window_centre(image):
                    assert np.array_equal(expected, enc.observation(image, channels_first=cf))
                # The window's squares map to the image actions.
                squares = enc.window_actions(np.array(centre))
                on = squares >= 0
                images = np.full_like(squares, -1)
                images[on] = sym.action(squares[on], k)
                turned_squares = images.reshape(-1)[sym.squares[k]].reshape(images.shape)
                assert np.array_equal(turned_squares, enc.window_actions(np.array(turned)))
            assert np.array_equal(sym.observation(obs[cf], k, cf), expected), (k, cf)
        assert np.array_equal(sym.policy(mask, k), enc.legal_mask(image))
        if legal:
            action = rng.choice(legal)
            after = board.copy()
            after.push(enc.move_of(action))
            image.push(enc.move_of(int(sym.action(action, k))))
            assert image.position() == image_of(after, k).position(), (k, action)
    return rng.choice(legal) if legal else -1


def _play_checked(enc: Any, board: Any, image_of: Any, seed: int, games: int,
                  max_plies: int) -> int:
    """Random games from ``board``'s start, every ply checked; the plies played."""
    rng = random.Random(seed)
    sym = Symmetries(enc)
    plies = 0
    for _ in range(games):
        game = board.copy()
        for _ in range(max_plies):
            action = _check_position(enc, sym, game, image_of, rng)
            if action < 0:
                break
            game.push(enc.move_of(action))
            plies += 1
    return plies


@pytest.mark.parametrize("options", ANDANTINO_RULES, ids=" ".join)
def test_andantino_symmetries_map_legal_moves_observations_and_plies(
        options: tuple[str, ...]) -> None:
    enc = AndantinoEncoding(andantino.Rules.from_options(options))
    assert _play_checked(enc, andantino.Board(rules=enc.rules), _image_andantino, 5,
                         games=3, max_plies=40) > 15


@pytest.mark.parametrize("window", [2, 4, 6])
@pytest.mark.parametrize("options", ANDANTINO_RULES[:2], ids=" ".join)
def test_andantino_window_symmetries_turn_about_the_window_centre(
        options: tuple[str, ...], window: int) -> None:
    enc = AndantinoEncoding(andantino.Rules.from_options(options), window)
    assert _play_checked(enc, andantino.Board(rules=enc.rules), _image_andantino, 6,
                         games=2, max_plies=40) > 10


def test_window_centres_turn_in_batches() -> None:
    sym = Symmetries(AndantinoEncoding(window=3))
    centres = np.array([[3, -2], [0, 1], [-4, 2]], np.int32)
    k = np.array([1, 6, 11])
    assert sym.centre(centres, k).tolist() == [
        list(SYMMETRIES[int(j)]((int(q), int(r)))) for (q, r), j in zip(centres, k,
                                                                          strict=True)]
    with pytest.raises(ValueError, match="centres must be integer"):
        sym.centre(np.array([1.0, 2.0]), 0)
    with pytest.raises(ValueError, match="shape"):
        sym.centre(centres, np.array([1, 2]))


@pytest.mark.parametrize("options", ABANDE_RULES, ids=" ".join)
def test_abande_symmetries_map_legal_moves_observations_and_plies(
        options: tuple[str, ...]) -> None:
    enc = AbandeEncoding(abande.Rules.from_options(options))
    # Abande games end within 200 plies (every ply enters, moves or passes twice).
    assert _play_checked(enc, abande.Board(rules=enc.rules), _image_abande, 7,
                         games=2, max_plies=10_000) > 20


def test_the_standard_andantino_hexagon_maps_onto_itself() -> None:
    enc = AndantinoEncoding()
    sym = Symmetries(enc)
    for k in range(NUM_SYMMETRIES):
        assert sorted(sym.actions[k].tolist()) == list(range(enc.num_actions))
        assert np.array_equal(sym.actions[k][sym.sources[k]], np.arange(enc.num_actions))
    # The first placement next to White's tile at (0, 0): (0, 1)'s images are its six
    # neighbours, each twice (a rotation and a reflection).
    first = enc.action_of(andantino.Move((0, 1)))
    images = {enc.move_of(int(sym.action(first, k))).to for k in range(NUM_SYMMETRIES)}
    assert images == {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    assert sym.action(first, 0) == first


def test_batched_symmetries_apply_one_per_sample() -> None:
    enc = AbandeEncoding()
    sym = Symmetries(enc)
    rng = random.Random(3)
    boards = []
    for _ in range(12):
        board = abande.Board()
        for _ in range(rng.randrange(2, 12)):
            board.push(rng.choice(board.legal_moves))
        boards.append(board)
    obs = np.stack([enc.observation(b) for b in boards])
    masks = np.stack([enc.legal_mask(b) for b in boards])
    ks = np.arange(12)
    rotated = sym.observation(obs, ks)
    moved = sym.policy(masks, ks)
    last = sym.observation(obs.transpose(0, 2, 3, 1), ks, channels_first=False)
    for i, k in enumerate(ks):
        assert np.array_equal(rotated[i], sym.observation(obs[i], int(k)))
        assert np.array_equal(last[i], sym.observation(obs[i], int(k)).transpose(1, 2, 0))
        assert np.array_equal(moved[i], sym.policy(masks[i], int(k)))
    actions = np.array([enc.legal_actions(b)[0] for b in boards])
    assert np.array_equal(sym.action(actions, ks),
                          [sym.action(int(a), int(k)) for a, k in zip(actions, ks, strict=True)])


def test_bad_input_is_a_value_error_naming_it() -> None:
    enc = AbandeEncoding()
    sym = Symmetries(enc)
    obs = np.zeros((2, 12, 7, 7), np.float32)
    with pytest.raises(ValueError, match=r"symmetry index must be in 0\.\.11, got 12"):
        sym.observation(obs, 12)
    with pytest.raises(ValueError, match=r"end in the shape \(12, 7, 7\), not \(2, 7, 7, 12\)"):
        sym.observation(obs.transpose(0, 2, 3, 1), 1)
    with pytest.raises(ValueError, match=r"shape \(batch,\).*\(2\), not \(3,\)"):
        sym.observation(obs, np.array([0, 1, 2]))
    with pytest.raises(ValueError, match=r"action 260 is outside the action space 0\.\.259"):
        sym.action(260, 1)
    with pytest.raises(ValueError, match="action -1 is outside"):
        sym.action(np.array([3, -1]), 1)
    with pytest.raises(ValueError, match="actions must be integers"):
        sym.action(np.array([1.5]), 1)
    with pytest.raises(ValueError, match="must end in the 260 actions"):
        sym.policy(np.zeros(259), 1)
    with pytest.raises(ValueError, match="symmetry must be an int"):
        sym.policy(np.zeros(260), "1")
    windowed = Symmetries(AndantinoEncoding(window=4))
    assert windowed.window == 4 and windowed.squares.shape == (12, 81)
    with pytest.raises(ValueError, match="window_observation needs an encoding with a"):
        AndantinoEncoding().window_observation(andantino.Board(), (0, 0))
    with pytest.raises(ValueError, match="AndantinoEncoding or an AbandeEncoding"):
        Symmetries("abande")  # type: ignore[arg-type]
