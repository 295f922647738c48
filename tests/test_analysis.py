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

    def __init__(self, chances: list[float], mates: dict[int, int] | None = None) -> None:
        super().__init__()
        self.chances = chances
        self.mates = mates or {}  # ply -> a mate score reported there (with the chance)
        self.searched: list[int] = []

    def _search(self, board: Any, limit: Limit, on_info: Any) -> PlayResult:
        ply = board.ply()
        self.searched.append(ply)
        move = max(board.legal_moves, key=lambda m: m.notation())
        chance = self.chances[ply]
        mate = self.mates.get(ply)
        return PlayResult(move, Info(score=chance,
                                     eval=None if mate else (chance - 0.5) * 1000,
                                     mate=mate, pv=[move], depth=1, nodes=1))


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


def test_without_annotations_takes_out_the_engines_part_alone() -> None:
    """What an account barred from engine help is shown of an annotated record
    (hexgames.web.policy): the record as it was before :func:`annotate`, a person's
    comments, NAGs, side lines and clock readings kept."""
    game = record.read_game("""[Game "Andantino"]
[White "Ann"]
[Red "Bob"]
[Result "*"]

{before it all} 1. 0,1 $1 {[%clk 0:04:32]} 1,1 (1... 1,-1 {mine}) 2. -1,1 {quiet} -1,0
3. 0,-1 *
""")
    player = Scripted([0.6, 0.4, 0.75, 0.6, 0.3, 0.5])  # as above: ?! at ply 1, ?? at 2
    annotated = analysis.annotate(game, analysis.analyse_record(game, player, Limit(depth=1)))
    nodes = list(annotated.root.mainline())
    assert nodes[2].nags == [4] and len(nodes[2].parent.variations) == 2
    assert analysis.has_annotations(annotated) and not analysis.has_annotations(game)
    shown = analysis.without_annotations(annotated)
    assert shown == game
    assert "[%wp " in (nodes[0].comment or "")  # the annotated record is unchanged
    # a record does not say who wrote a judgement NAG: in one the engine annotated,
    # those of the main line are its own
    nodes[3].nags = [2, 3]
    assert list(analysis.without_annotations(annotated).root.mainline())[3].nags == [3]


def test_walking_into_a_forced_loss_is_a_blunder() -> None:
    """Issue 35: a move after which the opponent wins by force is a blunder, whatever
    the drop; a mate score counts as a chance of 1 (0 for the loser), whatever chance
    the player put beside it."""
    game = record.read_game(GAME)
    # Red's 1,1 (ply 1) from 0.25 into White's mate in 13: a drop of 0.25 alone would
    # be a mistake. White's -1,1 (ply 2) from that forced win (reported beside a chance
    # of 0.81) to Red's 0.32: a drop from 1. White's 0,-1 (ply 4) from 0.3 into Red's
    # mate in 5 reported beside a chance of 0.75: taken as 0.75, no drop worth a word.
    player = Scripted([0.6, 0.25, 0.81, 0.32, 0.3, 0.75], mates={2: 13, 5: 5})
    result = analysis.analyse_record(game, player, Limit(depth=1))
    judged = [(m.move, round(m.before, 2), round(m.after, 2), m.judgement)
              for m in result.moves]
    assert judged == [("0,1", 0.6, 0.75, None), ("1,1", 0.25, 0.0, "blunder"),
                      ("-1,1", 1.0, 0.68, "blunder"), ("-1,0", 0.32, 0.7, None),
                      ("0,-1", 0.3, 0.0, "blunder")]
    # the graph and the records say the same: a mate's winning chance is 1 or 0
    assert [result.first_player_chance(ply) for ply in (2, 5)] == [1.0, 0.0]
    nodes = list(analysis.annotate(game, result).root.mainline())
    assert nodes[1].comment == "[%eval #13] [%wp 1.00]"
    assert nodes[4].comment == "[%eval #-5] [%wp 0.00]"
    assert analysis.judge(0.05, forced_loss=True) == "blunder"


def test_a_lost_position_losing_by_force_is_judged_by_its_drop() -> None:
    """A move from a position already lost by force into another is no blunder for
    that alone."""
    game = record.read_game(GAME)
    player = Scripted([0.6, 0.0, 1.0, 0.5, 0.5, 0.5], mates={1: -9, 2: 8})
    result = analysis.analyse_record(game, player, Limit(depth=1))
    assert result.moves[1].judgement is None and result.moves[1].drop == 0.0


def test_annotating_again_replaces_the_engine_tags() -> None:
    """Issue 35: "write into the record" pressed twice, or ``analyse --all`` of a record
    annotated already, added the evaluations again (``{[%eval 0.85] [%wp 0.58] [%eval
    0.85] [%wp 0.58]}``), the better lines too."""
    game = record.read_game(GAME)
    player = Scripted([0.6, 0.4, 0.75, 0.6, 0.3, 0.5])
    result = analysis.analyse_record(game, player, Limit(depth=1), name="scripted")
    once = analysis.annotate(game, result)
    twice = analysis.annotate(once, result)
    assert record.write_game(twice) == record.write_game(once)
    nodes = list(twice.root.mainline())
    assert nodes[2].comment == "quiet [%eval -1.00] [%wp 0.40]"
    assert len(nodes[2].parent.variations) == 2
    # a newer analysis replaces the values and the judgement, keeps other commands
    nodes[0].comment = "[%clk 0:04:52] [%eval 0.85] [%wp 0.58] [%eval 0.85] [%wp 0.58]"
    nodes[2].nags = [1, 6]
    newer = analysis.analyse_record(game, Scripted([0.6, 0.4, 0.75, 0.7, 0.3, 0.5]),
                                    Limit(depth=1))
    again = list(analysis.annotate(twice, newer).root.mainline())
    assert again[0].comment == "[%clk 0:04:52] [%eval 1.00] [%wp 0.60]"
    assert again[2].comment == "quiet [%eval -2.00] [%wp 0.30]"
    assert again[2].nags == [1, 4]


def test_annotating_keeps_a_comment_within_its_limit() -> None:
    from hexgames import limits

    game = record.read_game(GAME)
    long = "x" * limits.MAX_COMMENT
    game.root.variations[0].comment = long
    result = analysis.analyse_record(game, Scripted([0.6, 0.4, 0.75, 0.6, 0.3, 0.5]),
                                     Limit(depth=1))
    for _ in range(2):
        game = analysis.annotate(game, result)
        comment = game.root.variations[0].comment or ""
        assert len(comment) == limits.MAX_COMMENT
        assert comment.endswith("x… [%eval 1.00] [%wp 0.60]")


def test_engine_tags_read_the_newest_and_strip_leaves_the_text() -> None:
    stale = "good [%eval 0.85] [%wp 0.58] [%clk 0:01:00] [%eval #-3]  [%wp 0.00]"
    assert analysis.engine_tags(stale) == {"eval": "#-3", "wp": "0.00"}
    assert analysis.strip_engine_tags(stale) == "good [%clk 0:01:00]"
    assert analysis.strip_engine_tags("[%eval 0.10] [%wp 0.52]") is None
    assert analysis.strip_engine_tags("plain") == "plain"
    assert analysis.strip_engine_tags(None) is None
    assert analysis.engine_tags(None) == {}


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
    # an annotated record analysed again holds one evaluation a move (issue 35)
    again = runner.invoke(cli, ["analyse", "andantino", "--record", str(out), "--all",
                                "--depth", "2", "-o", str(tmp_path / "again.hgn")])
    assert again.exit_code == 0, again.output
    text = (tmp_path / "again.hgn").read_text(encoding="utf-8")
    assert text.count("[%eval ") == len(annotated.moves), text
    assert record.read_game(text) == annotated
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
