"""Whole-game analysis and annotated records (hexgames.analysis, analyse --all)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexgames import analysis, record
from hexgames.cli import cli
from hexgames.engine.base import Info, Limit, Player, PlayResult

GAME = """[Game "Andantino"]
[White "Ann"]
[Red "Bob"]
[Result "*"]

1. 0,1 1,1 2. -1,1 {quiet} -1,0 3. 0,-1 *
"""


class Scripted(Player):
    """Reports a fixed winning chance for the side to move at each ply, and the
    legal move last in notation order as its best move."""

    name = "scripted"

    def __init__(self, chances: list[float]) -> None:
        super().__init__()
        self.chances = chances
        self.searched: list[int] = []

    def _search(self, board: Any, limit: Limit, on_info: Any) -> PlayResult:
        ply = board.ply()
        self.searched.append(ply)
        move = max(board.legal_moves, key=lambda m: m.notation())
        chance = self.chances[ply]
        return PlayResult(move, Info(score=chance, eval=(chance - 0.5) * 1000, pv=[move],
                                     depth=1, nodes=1))


def test_an_even_position_is_no_negative_zero() -> None:
    """``[%eval -0.00]`` was written for an evaluation of 0 (or a hair below) with the
    second player to move."""
    for value, sign in [(0.0, -1), (0.0, 1), (0.4, -1), (-0.4, 1)]:
        assert analysis._eval_text(Info(eval=value, score=0.5), sign) == \
            "[%eval 0.00] [%wp 0.50]"
    assert analysis._eval_text(Info(eval=150, score=0.7), -1).startswith("[%eval -1.50]")


def test_judgements_by_the_drop_of_the_winning_chance() -> None:
    assert [analysis.judge(d) for d in (0.0, 0.09, 0.1, 0.19, 0.2, 0.29, 0.3, 1.0)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_drops_judgements_and_annotations() -> None:
    game = record.read_game(GAME)
    # The side to move's chance at plies 0..5. White's 0,1 keeps 0.6 (Red then 0.4);
    # Red's 1,1 leaves White 0.75 (Red had 0.4: a drop of 0.15, an inaccuracy); White's
    # -1,1 leaves Red 0.6 (0.75 -> 0.4, a blunder of 0.35); Red's -1,0 leaves White
    # 0.3 (0.6 -> 0.7: a gain, no drop); White's 0,-1 leaves Red 0.5 (0.3 -> 0.5).
    player = Scripted([0.6, 0.4, 0.75, 0.6, 0.3, 0.5])
    result = analysis.analyse_record(game, player, Limit(depth=1), name="scripted")
    assert result.complete and player.searched == [0, 1, 2, 3, 4, 5]
    drops = [(m.move, m.mover, round(m.drop, 2), m.judgement) for m in result.moves]
    assert drops == [("0,1", 0, 0.0, None), ("1,1", 1, 0.15, "inaccuracy"),
                     ("-1,1", 0, 0.35, "blunder"), ("-1,0", 1, 0.0, None),
                     ("0,-1", 0, 0.0, None)]
    assert result.first_player_chance(3) == pytest.approx(0.4)
    annotated = analysis.annotate(game, result)
    text = record.write_game(annotated)
    again = record.read_game(text)  # it reads back, and every variation is legal
    assert again == annotated
    nodes = list(again.root.mainline())
    assert nodes[1].nags == [6] and nodes[2].nags == [4] and nodes[0].nags == []
    assert nodes[2].comment == "quiet [%eval -1.00] [%wp 0.40]"
    assert nodes[0].comment == "[%eval 1.00] [%wp 0.60]"
    # The blunder's better line as a variation from the position before it; an
    # inaccuracy gets none.
    [better] = nodes[2].parent.variations[1:]
    assert better.move == result.moves[2].best
    assert "lost 35%" in (better.comment or "")
    assert len(nodes[1].parent.variations) == 1
    assert again.tags["Annotator"] == "hexgames scripted, depth 1 a position"
    assert again.tags["White"] == "Ann" and again.moves == game.moves


def test_a_finished_game_takes_its_result_for_the_last_move() -> None:
    text = ("[Game \"Abande\"]\n[Result \"*\"]\n\n1. d4 e4 *\n")
    game = record.read_game(text)
    player = Scripted([0.5, 0.5, 0.5])
    result = analysis.analyse_record(game, player, Limit(depth=1))
    assert len(result.moves) == 2 and result.complete


def test_stopping_keeps_what_was_analysed() -> None:
    game = record.read_game(GAME)
    player = Scripted([0.6, 0.4, 0.75, 0.6, 0.3, 0.5])
    calls = iter(range(100))
    result = analysis.analyse_record(game, player, Limit(depth=1),
                                     should_stop=lambda: next(calls) >= 3)
    assert not result.complete
    assert sorted(result.infos) == [0, 1, 2]
    assert [m.move for m in result.moves] == ["0,1", "1,1"]
    annotated = record.read_game(record.write_game(analysis.annotate(game, result)))
    assert [n.comment is not None for n in annotated.root.mainline()] == [
        True, True, True, False, False]


def test_a_stop_before_an_engine_begins_reaches_it() -> None:
    # The browser app's whole-game analysis makes an engine per position; a player's
    # play() clears a stop that came before it began, so a stop while the engine was
    # being made was lost and that position searched its whole time.
    from hexgames.andantino import Board
    from hexgames.web.game_analysis import EnginePlayer

    seen: list[Limit] = []

    class Recording(Scripted):
        def _search(self, board: Any, limit: Limit, on_info: Any) -> PlayResult:
            seen.append(limit)
            return super()._search(board, limit, on_info)

    player = EnginePlayer(lambda: Recording([0.5]), "recording")
    player.play(Board(), Limit(time=30.0))
    player.stop()
    player.play(Board(), Limit(time=30.0))
    assert seen == [Limit(time=30.0), Limit(nodes=1)]


def test_analyse_all_on_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "game.hgn"
    source.write_text(GAME, encoding="utf-8")
    out = tmp_path / "annotated.hgn"
    runner = CliRunner()
    result = runner.invoke(cli, ["analyse", "andantino", "--record", str(source), "--all",
                                 "--depth", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    annotated = record.read_game(out.read_text(encoding="utf-8"))
    assert annotated.moves == record.read_game(GAME).moves
    assert annotated.tags["Annotator"] == "hexgames alphabeta, depth 2 a position"
    assert all("[%wp " in (node.comment or "") for node in annotated.root.mainline())
    assert "White: " in result.stderr and "Red: " in result.stderr
    to_stdout = runner.invoke(cli, ["analyse", "andantino", "--record", str(source),
                                    "--all", "--depth", "1"])
    assert to_stdout.exit_code == 0
    assert record.read_game(to_stdout.stdout).tags["Annotator"].startswith("hexgames")


@pytest.mark.parametrize(("args", "message"), [
    (["--all"], "--all needs --record"),
    (["--output", "x.hgn"], "--output goes with --all"),
    (["--record", "GAME", "--all", "--ply", "2"], "leave --ply out"),
])
def test_analyse_all_refuses_what_does_not_fit(tmp_path: Path, args: list[str],
                                               message: str) -> None:
    source = tmp_path / "game.hgn"
    source.write_text(GAME, encoding="utf-8")
    args = [str(source) if a == "GAME" else a for a in args]
    result = CliRunner().invoke(cli, ["analyse", "andantino", *args])
    assert result.exit_code == 2
    assert message in result.output
