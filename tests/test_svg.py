"""Board pictures (hexgames.svg) and the ``hexgames render`` command."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hexgames import abande, andantino, cli, record, svg
from hexgames.core import InvalidMoveError, Termination

NS = "{http://www.w3.org/2000/svg}"

# White (0,0)..(3,0) and Red beside them; White 4,0 makes a line of five along (1, 0).
LINE_POSITION = "andantino w=0,0;1,0;2,0;3,0 r=4,-1;0,1;1,1;2,1 turn=w hands=w21,r21"
# docs/rules.md's example: White -1,1 closes a ring around Red 0,0.
TRAP_POSITION = ("andantino w=1,-1;0,-1;-1,0;1,0;0,1 r=2,-1;-2,0;0,0;2,0;-2,1 "
                 "turn=w hands=w20,r20")


def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    return root


def cells(root: ET.Element) -> dict[str, ET.Element]:
    """The cell groups by their data-cell attribute (each cell exactly once)."""
    found = [el for el in root.iter(f"{NS}g") if "data-cell" in el.attrib]
    by_name = {el.attrib["data-cell"]: el for el in found}
    assert len(by_name) == len(found)
    return by_name


def classes(element: ET.Element) -> set[str]:
    return set(element.attrib.get("class", "").split())


def with_class(root: ET.Element, name: str) -> set[str]:
    return {cell for cell, el in cells(root).items() if name in classes(el)}


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    x, y, w, h = map(float, root.attrib["viewBox"].split())
    return x, y, w, h


def points(element: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in
            (pair.split(",") for pair in element.attrib["points"].split())]


def centre(group: ET.Element) -> tuple[float, float]:
    corners = points(group.find(f"{NS}polygon"))  # type: ignore[arg-type]
    return (sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6)


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{NS}text")]


def random_game(board: andantino.Board | abande.Board, seed: int,
                plies: int | None = None) -> None:
    rng = random.Random(seed)
    while not board.is_game_over() and (plies is None or board.ply() < plies):
        board.push(rng.choice(board.legal_moves))  # type: ignore[arg-type]


# --- Andantino ------------------------------------------------------------------------


def test_andantino_start_is_a_standalone_svg_with_two_tiles() -> None:
    picture = svg.board(andantino.Board(), size=300)
    root = parse(picture)
    assert picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    _, _, w, h = view_box(root)
    assert w > h  # two tiles side by side
    assert root.attrib["width"] == "300"
    assert root.attrib["height"] == str(round(300 * h / w))
    assert with_class(root, "tile") == {"0,0", "1,0"}
    assert with_class(root, "white") == {"0,0"}
    assert with_class(root, "red") == {"1,0"}
    groups = cells(root)
    fills = [p.attrib["fill"] for p in groups["1,0"].iter(f"{NS}polygon")]
    assert svg.DEFAULT_COLORS["red tile"] in fills
    assert svg.DEFAULT_COLORS["white tile"] not in fills
    assert "empty" in classes(groups["0,1"])
    assert root.find(f"{NS}desc").text == andantino.Board().position()  # type: ignore[union-attr]


@pytest.mark.parametrize("flipped", [False, True])
def test_andantino_view_holds_every_tile_and_its_neighbours(flipped: bool) -> None:
    board = andantino.Board()
    random_game(board, seed=7, plies=30)
    root = parse(svg.board(board, flipped=flipped))
    x0, y0, w, h = view_box(root)
    groups = cells(root)
    tiles = board.tiles(0) | board.tiles(1)
    assert with_class(root, "tile") == {f"{q},{r}" for q, r in tiles}
    for q, r in tiles:
        for dq, dr in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
            group = groups[f"{q + dq},{r + dr}"]
            for px, py in points(group.find(f"{NS}polygon")):  # type: ignore[arg-type]
                assert x0 <= px <= x0 + w and y0 <= py <= y0 + h


def test_andantino_flipped_turns_the_picture() -> None:
    board = andantino.Board()
    board.push_notation("0,1")
    plain = cells(parse(svg.board(board)))
    turned = cells(parse(svg.board(board, flipped=True)))
    for name in ("0,0", "1,0", "0,1"):
        x, y = centre(plain[name])
        fx, fy = centre(turned[name])
        assert (fx, fy) == pytest.approx((-x, -y), abs=0.02)
    # 0,1 is below 0,0, and above it once turned.
    assert centre(plain["0,1"])[1] > centre(plain["0,0"])[1]
    assert centre(turned["0,1"])[1] < centre(turned["0,0"])[1]


def test_andantino_last_move_defaults_to_the_board_s_last_move() -> None:
    board = andantino.Board()
    assert with_class(parse(svg.board(board)), "lastmove") == set()
    board.push_notation("0,1")
    assert with_class(parse(svg.board(board)), "lastmove") == {"0,1"}
    assert with_class(parse(svg.board(board, lastmove=False)), "lastmove") == set()
    assert with_class(parse(svg.board(board, lastmove="1,0")), "lastmove") == {"1,0"}
    move = andantino.Move((0, 0))
    assert with_class(parse(svg.board(board, lastmove=move)), "lastmove") == {"0,0"}


def test_andantino_legal_cells_are_marked_only_on_request() -> None:
    board = andantino.Board()
    board.push_notation("0,1")
    assert with_class(parse(svg.board(board)), "legal") == set()
    marked = with_class(parse(svg.board(board, legal=True)), "legal")
    assert marked == {"-1,1", "1,-1", "1,1"}
    assert marked == {m.notation() for m in board.legal_moves}


def test_andantino_highlight_takes_pairs_and_notation() -> None:
    board = andantino.Board()
    root = parse(svg.board(board, highlight=[(0, 0), "2,-1", " (5, 5) "]))
    assert with_class(root, "highlight") == {"0,0", "2,-1", "5,5"}
    # A highlighted far cell is brought into view.
    x0, y0, w, h = view_box(root)
    x, y = centre(cells(root)["5,5"])
    assert x0 < x < x0 + w and y0 < y < y0 + h
    with pytest.raises(InvalidMoveError):
        svg.board(board, highlight=["a1"])
    with pytest.raises(InvalidMoveError):
        svg.board(board, highlight=[(0, "x")])  # type: ignore[list-item]


def finished(position: str, move: str, termination: Termination) -> andantino.Board:
    board = andantino.Board(position)
    board.push_notation(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is termination
    return board


def test_andantino_winning_line_is_drawn() -> None:
    root = parse(svg.board(finished(LINE_POSITION, "4,0", Termination.LINE)))
    assert with_class(root, "win") == {f"{q},0" for q in range(5)}
    assert with_class(root, "trapped") == set()
    strokes = [el for el in root.iter(f"{NS}line") if "winning-line" in classes(el)]
    assert len(strokes) == 1
    groups = cells(root)
    ends = {(float(strokes[0].attrib["x1"]), float(strokes[0].attrib["y1"])),
            (float(strokes[0].attrib["x2"]), float(strokes[0].attrib["y2"]))}
    expected = {centre(groups["0,0"]), centre(groups["4,0"])}
    for got, want in zip(sorted(ends), sorted(expected), strict=True):
        assert got == pytest.approx(want, abs=0.02)


def test_andantino_trapped_tiles_are_ringed() -> None:
    root = parse(svg.board(finished(TRAP_POSITION, "-1,1", Termination.TRAP)))
    assert with_class(root, "trapped") == {"0,0"}
    assert "red" in classes(cells(root)["0,0"])
    assert with_class(root, "win") == set()
    assert not [el for el in root.iter(f"{NS}line") if "winning-line" in classes(el)]
    rings = [el for el in cells(root)["0,0"].iter(f"{NS}circle")
             if el.attrib.get("stroke") == svg.DEFAULT_COLORS["win"]]
    assert len(rings) == 1


def test_andantino_coordinates_toggle() -> None:
    board = andantino.Board()
    with_names = parse(svg.board(board))
    groups = cells(with_names)
    assert texts(groups["0,0"]) == ["0,0"]
    assert texts(groups["1,-1"]) == ["1,-1"]  # a cell next to a tile
    without = parse(svg.board(board, coordinates=False))
    assert [t for t in texts(without) if re.fullmatch(r"-?\d+,-?\d+", t)] == []


def test_size_none_leaves_the_size_to_the_page_and_bad_input_is_refused() -> None:
    root = parse(svg.board(andantino.Board(), size=None))
    assert "width" not in root.attrib and "height" not in root.attrib
    with pytest.raises(ValueError, match="size"):
        svg.board(andantino.Board(), size=0)
    with pytest.raises(TypeError, match="str"):
        svg.board("andantino")  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError, match="colour"):
        svg.board(andantino.Board(), colors={"pink": "#fcc"})
    custom = svg.board(andantino.Board(), colors={"red tile": "#123456"})
    assert 'fill="#123456"' in custom


# --- far-apart tiles (issue 14) -----------------------------------------------------------

# Two groups of tiles 400 cells apart along both axes, with a move to make at each.
FAR_POSITION = "andantino w=0,0;0,1;400,400 r=1,0;401,400 turn=w"


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def axial(name: str) -> tuple[int, int]:
    q, r = name.split(",")
    return int(q), int(r)


def assert_drawn_as_on_the_surface(root: ET.Element) -> None:
    """Two drawn cells are neighbours in the picture (centres one cell apart) exactly
    when they are neighbours on the surface, and no two overlap."""
    groups = cells(root)
    places = {axial(name): centre(group) for name, group in groups.items()}
    step = 20.0 * 3 ** 0.5  # the distance between neighbours' centres
    names = sorted(places)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (x1, y1), (x2, y2) = places[a], places[b]
            apart = ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5
            assert apart > step * 0.99, (a, b)
            assert (abs(apart - step) < 0.05) == (hex_distance(a, b) == 1), (a, b, apart)


@pytest.mark.parametrize("flipped", [False, True])
def test_far_apart_tiles_draw_only_the_cells_near_them(flipped: bool) -> None:
    """Issue 14: every cell of the bounding box was drawn, 47 MB of SVG for two tiles
    400 cells apart (a MemoryError at 2,000). Now the tiles, their neighbours and the
    legal cells are drawn, each group as on the surface, the empty space between them
    left out and marked."""
    board = andantino.Board(FAR_POSITION)
    picture = svg.board(board, legal=True, flipped=flipped)
    assert len(picture) < 20_000
    root = parse(picture)
    tiles = board.tiles(0) | board.tiles(1)
    near = {(q + dq, r + dr) for q, r in tiles
            for dq, dr in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))}
    assert {axial(name) for name in cells(root)} == near
    assert with_class(root, "tile") == {f"{q},{r}" for q, r in tiles}
    assert with_class(root, "legal") == {m.notation() for m in board.legal_moves}
    assert with_class(root, "lastmove") == set()
    assert_drawn_as_on_the_surface(root)
    elided = [el for el in root.iter(f"{NS}line") if "elided" in classes(el)]
    assert len(elided) == 2  # one band of rows, one of diagonals
    x0, y0, w, h = view_box(root)
    assert w < 20 * 40 and h < 20 * 40  # some 20 cells across, not 600
    for group in cells(root).values():
        for px, py in points(group.find(f"{NS}polygon")):  # type: ignore[arg-type]
            assert x0 <= px <= x0 + w and y0 <= py <= y0 + h


def test_the_picture_grows_with_the_tiles_not_their_spread() -> None:
    sizes = []
    for apart in (20, 400, 4000, andantino.COORDINATE_LIMIT - 1):
        board = andantino.Board(f"andantino w=0,0;0,1;{apart},0 r=1,0;{apart},1 turn=w")
        sizes.append(len(svg.board(board, legal=True, highlight=[(-apart, apart)])))
    assert max(sizes) < 20_000
    assert max(sizes) < 1.2 * min(sizes)  # longer only by the digits of far coordinates


def test_scattered_groups_keep_their_shape_and_marks(seed: int = 3) -> None:
    """Random groups of tiles far apart, a won line among them and the last move, in
    both orientations: each cell's neighbours in the picture are its neighbours."""
    rng = random.Random(seed)
    for _ in range(20):
        cells_of: list[set[tuple[int, int]]] = [set(), set()]
        origins = [(rng.randrange(-3000, 3000), rng.randrange(-3000, 3000))
                   for _ in range(rng.randrange(2, 6))]
        origins.append((0, 0))
        for oq, or_ in origins:
            for _ in range(rng.randrange(2, 6)):
                cell = (oq + rng.randrange(-2, 3), or_ + rng.randrange(-2, 3))
                if cell not in cells_of[0] | cells_of[1]:
                    cells_of[rng.randrange(2)].add(cell)
        text = {side: ";".join(f"{q},{r}" for q, r in sorted(cs, key=lambda c: (c[1], c[0])))
                or "-" for side, cs in enumerate(cells_of)}
        try:
            board = andantino.Board(f"andantino w={text[0]} r={text[1]} turn=w")
        except ValueError:
            continue  # no legal move: not a position
        root = parse(svg.board(board, legal=True, flipped=rng.random() < 0.5,
                               highlight=[origins[0]]))
        assert with_class(root, "tile") == {f"{q},{r}" for q, r in cells_of[0] | cells_of[1]}
        assert_drawn_as_on_the_surface(root)


def test_ordinary_positions_still_draw_the_whole_grid() -> None:
    """The bounded drawing changes nothing for a position whose grid is small: every cell
    of the view box is drawn, and nothing is left out."""
    board = andantino.Board()
    random_game(board, seed=11, plies=40)
    root = parse(svg.board(board))
    tiles = board.tiles(0) | board.tiles(1)
    drawn = {axial(name) for name in cells(root)}
    qs = [q for q, _ in tiles]
    assert len(drawn) > 3 * len(tiles)
    assert (min(qs) - 1, min(r for q, r in tiles if q == min(qs))) in drawn
    assert not [el for el in root.iter(f"{NS}line") if "elided" in classes(el)]


# --- Abande ---------------------------------------------------------------------------


def test_abande_empty_board_has_37_named_points_and_full_hands() -> None:
    root = parse(svg.board(abande.Board()))
    groups = cells(root)
    assert set(groups) == {abande.cell_name(cell) for cell in abande.POINTS}
    assert len(groups) == 37
    assert all({"cell", "point"} <= classes(g) for g in groups.values())
    assert with_class(root, "stack") == set()
    assert texts(groups["d4"]) == ["d4"]
    assert texts(groups["a1"]) == ["a1"]
    hands = {el.attrib["data-hand"]: el for el in root.iter(f"{NS}g") if "data-hand" in el.attrib}
    assert set(hands) == {"black", "white"}
    for hand in hands.values():
        pieces = [el for el in hand.iter(f"{NS}ellipse") if "piece" in classes(el)]
        assert len(pieces) == 18
        assert "18 in hand" in texts(hand)
    assert "to move" in texts(hands["black"])
    assert "to move" not in texts(hands["white"])


def test_abande_board_names_run_up_the_columns() -> None:
    groups = cells(parse(svg.board(abande.Board())))
    # Column d is upright with d1 at the bottom; a is left of g.
    assert centre(groups["d1"])[0] == pytest.approx(centre(groups["d7"])[0])
    assert centre(groups["d1"])[1] > centre(groups["d4"])[1] > centre(groups["d7"])[1]
    assert centre(groups["a1"])[0] < centre(groups["d4"])[0] < centre(groups["g1"])[0]
    turned = cells(parse(svg.board(abande.Board(), flipped=True)))
    assert centre(turned["d1"])[1] < centre(turned["d7"])[1]
    assert centre(turned["a1"]) == pytest.approx(
        tuple(-v for v in centre(groups["a1"])), abs=0.02)


def test_abande_stacks_show_colours_bottom_to_top_and_height() -> None:
    board = abande.Board("abande c3=BW d4=B e4=WBW turn=b hands=b15,w15")
    root = parse(svg.board(board))
    groups = cells(root)
    assert with_class(root, "stack") == {"c3", "d4", "e4"}
    assert classes(groups["c3"]) >= {"stack", "white", "h2"}
    assert classes(groups["d4"]) >= {"stack", "black", "h1"}
    assert classes(groups["e4"]) >= {"stack", "white", "h3"}

    def piece_colours(name: str) -> list[str]:
        return [("black" if "black" in classes(el) else "white")
                for el in groups[name].iter(f"{NS}ellipse") if "piece" in classes(el)]

    assert piece_colours("c3") == ["black", "white"]
    assert piece_colours("e4") == ["white", "black", "white"]
    assert piece_colours("d4") == ["black"]
    assert "2" in texts(groups["c3"]) and "3" in texts(groups["e4"])
    assert texts(groups["d4"]) == ["d4"]  # no height number on a single piece
    with_no_names = cells(parse(svg.board(board, coordinates=False)))
    assert texts(with_no_names["d4"]) == []
    assert texts(with_no_names["c3"]) == ["2"]


def test_abande_last_stack_move_marks_both_points_with_an_arrow() -> None:
    board = abande.Board()
    for move in ("d4", "e4", "c4", "e4-d4"):
        board.push_notation(move)
    root = parse(svg.board(board))
    assert with_class(root, "lastmove") == {"e4", "d4"}
    arrows = [el for el in root.iter(f"{NS}line") if "lastmove-arrow" in classes(el)]
    assert len(arrows) == 1
    groups = cells(root)
    fx, tx = centre(groups["e4"])[0], centre(groups["d4"])[0]
    line = arrows[0].attrib
    # The arrow points from e4 towards d4.
    assert (float(line["x2"]) - float(line["x1"])) * (tx - fx) > 0
    assert classes(groups["d4"]) >= {"white", "h2"}
    board.pop()
    assert with_class(parse(svg.board(board)), "lastmove") == {"c4"}
    assert with_class(parse(svg.board(board, lastmove="e4-d4")), "lastmove") == {"e4", "d4"}


def test_abande_legal_marks_entries_and_highlight_takes_names() -> None:
    board = abande.Board()
    board.push_notation("d4")
    root = parse(svg.board(board, legal=True, highlight=["c3", (0, 3)]))
    entries = {m.notation() for m in board.legal_moves if m.is_entry}
    assert with_class(root, "legal") == entries
    assert len(entries) == 6
    assert with_class(root, "highlight") == {"c3", "d1"}
    with pytest.raises(InvalidMoveError):
        svg.board(board, highlight=["h1"])
    with pytest.raises(InvalidMoveError):
        svg.board(board, highlight=[(4, 0)])


def test_abande_finished_game_shows_sleeping_stacks_and_the_score() -> None:
    board = abande.Board()
    random_game(board, seed=4)
    outcome = board.outcome()
    assert outcome is not None and outcome.score is not None
    root = parse(svg.board(board))
    sleeping = {abande.cell_name(cell) for cell in board.sleeping()}
    assert sleeping  # this game ends with a sleeping stack
    assert with_class(root, "sleeping") == sleeping
    assert with_class(root, "awake") == with_class(root, "stack") - sleeping
    hands = {el.attrib["data-hand"]: el for el in root.iter(f"{NS}g") if "data-hand" in el.attrib}
    assert f"score {outcome.score[0]}" in texts(hands["black"])
    assert f"score {outcome.score[1]}" in texts(hands["white"])
    winner = "black" if outcome.winner == 0 else "white"
    assert "wins" in texts(hands[winner])
    # While the game goes on, sleeping stacks are shown only on request.
    board.pop()
    assert with_class(parse(svg.board(board)), "sleeping") == set()
    assert with_class(parse(svg.board(board, sleeping=True)), "sleeping") == {
        abande.cell_name(cell) for cell in board.sleeping()}


def test_repr_svg_hook_draws_the_board() -> None:
    board = abande.Board()
    board.push_notation("d4")
    assert board._repr_svg_() == svg.board(board)
    other = andantino.Board()
    assert other._repr_svg_() == svg.board(other)
    assert with_class(parse(other._repr_svg_()), "tile") == {"0,0", "1,0"}


# --- hexgames render ------------------------------------------------------------------


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.cli, list(args), input=input, prog_name="hexgames",
                              env={"COLUMNS": None})


def assert_input_error(result: Result, fragment: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert fragment in lines[0]
    assert "Traceback" not in result.output


@pytest.fixture
def records(tmp_path: Path) -> Path:
    """A file with a won Andantino game (line) and an unfinished Abande game."""
    line = finished(LINE_POSITION, "4,0", Termination.LINE)
    game = abande.Board()
    for move in ("d4", "e4", "c4", "e4-d4"):
        game.push_notation(move)
    path = tmp_path / "games.hgn"
    path.write_text(record.write_games([record.record_from_board(line),
                                        record.record_from_board(game)]), encoding="utf-8")
    return path


def test_render_writes_the_end_of_the_first_game_to_stdout(records: Path) -> None:
    result = run("render", str(records))
    assert result.exit_code == 0, result.output
    root = parse(result.stdout)
    assert "andantino" in classes(root)
    assert root.attrib["width"] == "400" or root.attrib["height"] == "400"
    assert with_class(root, "win") == {f"{q},0" for q in range(5)}
    assert with_class(root, "lastmove") == {"4,0"}


def test_render_options(records: Path, tmp_path: Path) -> None:
    out = tmp_path / "picture.svg"
    result = run("render", str(records), "--game-index", "2", "--ply", "3", "-o", str(out),
                 "--size", "250", "--flipped", "--no-coordinates")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    root = parse(out.read_text(encoding="utf-8"))
    assert "abande" in classes(root)
    assert max(int(root.attrib["width"]), int(root.attrib["height"])) == 250
    assert with_class(root, "stack") == {"d4", "e4", "c4"}
    assert with_class(root, "lastmove") == {"c4"}
    groups = cells(root)
    assert centre(groups["d1"])[1] < centre(groups["d7"])[1]  # flipped
    assert all(texts(g) == [] for g in groups.values())  # no names, no stack of 2 yet
    board = abande.Board()
    for move in ("d4", "e4", "c4"):
        board.push_notation(move)
    expected = svg.board(board, size=250, flipped=True, coordinates=False) + "\n"
    assert out.read_text(encoding="utf-8") == expected


def test_render_reads_standard_input(records: Path) -> None:
    result = run("render", "-", "--ply", "0", input=records.read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.output
    assert with_class(parse(result.stdout), "tile") == {
        f"{q},0" for q in range(4)} | {"4,-1", "0,1", "1,1", "2,1"}


def test_render_bad_input(records: Path, tmp_path: Path) -> None:
    assert_input_error(run("render", str(tmp_path / "missing.hgn")), "cannot read")
    bad = tmp_path / "bad.hgn"
    bad.write_text('[Game "Andantino"]\n[Result "*"]\n\n1. 0,1 9,9 *\n', encoding="utf-8")
    assert_input_error(run("render", str(bad)), "9,9")
    broken = tmp_path / "broken.hgn"
    broken.write_text('[Game "Chess"]\n[Result "*"]\n\n*\n', encoding="utf-8")
    assert_input_error(run("render", str(broken)), "Chess")
    empty = tmp_path / "empty.hgn"
    empty.write_text("\n", encoding="utf-8")
    assert_input_error(run("render", str(empty)), "contains no games")
    assert_input_error(run("render", str(records), "--ply", "2"), "ply 2 is out of range")
    assert_input_error(run("render", str(records), "--game-index", "3"), "not a game 3")
    result = run("render", str(records), "--ply", "-1")
    assert result.exit_code == 2 and result.stderr.startswith("error: ")
    assert_input_error(run("render", str(records), "-o", str(tmp_path / "no" / "x.svg")),
                       "--output cannot be written to: there is no directory")
