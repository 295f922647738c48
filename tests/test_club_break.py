"""Defects found by breaking the club's server mode as a new member and a hostile
user would (after the merge of tournaments, live play, mail and the explorer): each
test names what went wrong, against a real server with real HTTP clients and
sockets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

from server_helpers import LiveServer
from test_tournaments_server import account, create


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path / "games.db")
    yield srv
    srv.stop()


def test_a_tournament_under_rules_that_end_its_games_at_once_is_refused(
        server: LiveServer) -> None:
    # it was made (201), and its games started over (no legal move) and were lost on time
    root = account(server, "root", admin=True)
    answer = create(root, rules={"tiles_per_player": 1})
    assert answer.status_code == 400, answer.text
    assert "over before its first move" in answer.json()["error"]
    assert root.http.get("/api/tournaments").json()["tournaments"] == []
