"""Promoting a side line as far as it goes (the study action ``first``; issue 35): up
through the lines it leaves, to the first alternative after the game's own move."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")

from hexgames.record import GameRecord, write_game
from hexgames.web import study
from hexgames.web.studying import promote_first
from hexgames.web.views import AppError


def test_a_nested_line_rises_to_the_game_line() -> None:
    record = GameRecord({"Game": "Andantino", "Result": "*"}, ["0,1", "1,1", "0,2"])
    study.add_line(record, ["0,1", "1,-1", "0,-1", "1,1"])  # a side line at ply 1
    study.add_line(record, ["0,1", "1,-1", "2,-1", "1,1"])  # inside it: 2. 2,-1
    study.add_line(record, ["0,1", "1,-1", "2,-1", "0,-1"])  # and inside that: 2... 0,-1
    before = write_game(record)
    assert "(1... 1,-1 2. 0,-1 (2. 2,-1 1,1 (2... 0,-1)) 2... 1,1)" in before
    promote_first(record, ["0,1", "1,-1", "2,-1", "0,-1"])
    after = write_game(record)
    # 2... 0,-1 is the main line of 2. 2,-1, which is the main line of the side line
    assert "(1... 1,-1 2. 2,-1 (2. 0,-1 1,1) 2... 0,-1 (2... 1,1))" in after, after
    # as far as it goes: the game's own move stays first, and a move of the game is no
    # side line
    with pytest.raises(AppError, match="game's own move stays first"):
        promote_first(record, ["0,1", "1,-1"])
    with pytest.raises(AppError, match="main line is the game"):
        promote_first(record, ["0,1", "1,1"])
