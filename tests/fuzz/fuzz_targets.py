"""What the fuzz suite runs on one input: each target feeds a text to a parser (or to the
browser app's server) and returns normally when the input was taken or refused the way
hexgames promises, and raises :class:`Broken` when it was not.

The promise (issue 14): bad input of any kind gets a ``ValueError`` subclass of the
package (a ``HexgamesError``), an HTTP error status other than 500, or an ``error``
message on a socket; never another exception, never a crash, and within a time and
memory budget (enforced by :mod:`fuzz_pool`, which runs the targets in worker
processes). A target also checks what it can of an input that was taken: a position
string that was read is written back and read again to the same position.

Targets take ``str``; :data:`TARGETS` names them. They import what they need lazily,
so a worker process pays only for the targets it runs.
"""

from __future__ import annotations

import json
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote


class Broken(Exception):
    """An input that hexgames did not handle as promised (the message says how)."""


def _refused_well(error: BaseException) -> bool:
    from hexgames.core import HexgamesError

    return isinstance(error, HexgamesError)


def _call(what: str, function: Callable[[], Any]) -> Any:
    """``function()``; ``None`` if it refused its input with a ``HexgamesError``.

    Raises:
        Broken: if it raised anything else.
    """
    try:
        return function()
    except Exception as error:
        if _refused_well(error):
            return None
        raise Broken(f"{what} raised {type(error).__name__}: {error}"[:500]) from error


def _board_checks(game: str, board: Any) -> None:
    """What must hold of any board that was made: its position reads back to itself,
    its moves can be listed and its outcome asked for."""
    from hexgames.games import game_module

    module = game_module(game)
    text = board.position()
    again = _call(f"{game}.Board(its own position {text[:80]!r})",
                  lambda: module.Board(text, board.rules))
    if again is None:
        raise Broken(f"{game}: the position {text[:200]!r} that a board wrote is refused")
    if again.position() != text:
        raise Broken(f"{game}: {text[:200]!r} reads back as {again.position()[:200]!r}")
    moves = _call(f"{game} legal_moves", lambda: list(board.legal_moves))
    _call(f"{game} outcome", board.outcome)
    if moves:
        board.push(moves[0])
        board.pop()
        if board.position() != text:
            raise Broken(f"{game}: push then pop changed {text[:200]!r}")


def andantino_position(text: str) -> None:
    """``andantino.Board(text)`` (default and some other rules)."""
    from hexgames import andantino

    for rules in (andantino.Rules(), andantino.Rules(extended=True, tiles_per_player=None)):
        board = _call(f"andantino.Board({text[:80]!r})", lambda r=rules: andantino.Board(text, r))
        if board is not None:
            _board_checks("andantino", board)


def abande_position(text: str) -> None:
    """``abande.Board(text)``."""
    from hexgames import abande

    board = _call(f"abande.Board({text[:80]!r})", lambda: abande.Board(text))
    if board is not None:
        _board_checks("abande", board)


def _move(game: str, text: str) -> None:
    from hexgames.games import game_module

    module = game_module(game)
    board = module.Board()
    _call(f"{game}.Move.from_notation", lambda: module.Move.from_notation(text))
    move = _call(f"{game} parse_notation", lambda: board.parse_notation(text))
    if move is not None:
        board.push(move)
        if board.peek().notation() != move.notation():
            raise Broken(f"{game}: {text!r} was pushed as another move")


def andantino_move(text: str) -> None:
    """An Andantino move's notation, parsed on the start position."""
    _move("andantino", text)


def abande_move(text: str) -> None:
    """An Abande move's notation, parsed on the start position."""
    _move("abande", text)


def record(text: str) -> None:
    """``.hgn`` text through the public reader (``record.read_games``), and each game's
    final position."""
    from hexgames import record as record_module

    games = _call("record.read_games", lambda: record_module.read_games(text))
    for game in games or ():
        _call("GameRecord.board()", game.board)
        _call("write_game", lambda g=game: record_module.write_game(g))


def rules(text: str) -> None:
    """``Rules.from_options`` of both games, on the words of ``text``."""
    from hexgames import abande, andantino

    for module in (andantino, abande):
        _call(f"{module.__name__}.Rules.from_options",
              lambda m=module: m.Rules.from_options(text.split()))
        _call(f"{module.__name__}.Rules.from_options(str)",
              lambda m=module: m.Rules.from_options(text))


def player_spec(text: str) -> None:
    """A player spec: parsed, checked, and the player made when the spec checks."""
    from hexgames.engine.players import check_spec, make_player

    if _call("check_spec", lambda: check_spec(text)) is not None:
        _call("make_player", lambda: make_player(text))


# --- the browser app's server --------------------------------------------------------

_APP: dict[str, Any] = {}


def _client() -> tuple[Any, str]:
    """A test client of an app (searches in threads) with a database in a temporary
    folder, and the id of an Andantino game played by two people; made once per
    worker process."""
    if not _APP:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from starlette.testclient import TestClient

        from hexgames.web import create_app
        from hexgames.web.hosts import policy_for_bind

        folder = Path(tempfile.mkdtemp(prefix="hexgames-fuzz-"))
        app = create_app(folder / "games.db", workers="thread", helper_spec="random",
                         hint_time=0.05, analysis_time=0.2,
                         hosts=policy_for_bind("127.0.0.1"))
        client = TestClient(app, base_url="http://127.0.0.1:8000")
        client.__enter__()
        game = client.post("/api/games", json={"game": "andantino"}).json()["id"]
        _APP.update(client=client, game=game)
    return _APP["client"], _APP["game"]


#: The headers of a request from the server's own page.
_OWN_PAGE = {"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"}
#: The statuses a route may answer bad input with.
_CLEAN = {200, 201, 400, 403, 404, 405, 409, 413}
_ROUTES = [("POST", "/api/games"), ("POST", "/api/import"), ("GET", "/api/games"),
           ("GET", "/api/games/{id}/svg"), ("GET", "/api/games/{id}"),
           ("DELETE", "/api/games/{text}"), ("GET", "/api/games/{text}/record")]


def http(text: str) -> None:
    """``text`` as the body, the query or the game id of each route of the server: every
    answer is JSON (or the asked-for record or picture) with a clean status."""
    client, game = _client()
    for method, path in _ROUTES:
        url = path.replace("{id}", game).replace("{text}", _path_part(text))
        if method == "GET" and "{text}" not in path:
            url += "?" + quote(text[:2000], safe="=&")
        content = text.encode("utf-8", "surrogatepass") if method == "POST" else None
        try:
            response = client.request(method, url, content=content,
                                      headers={"content-type": "application/json",
                                               **_OWN_PAGE})
        except Exception as error:
            raise Broken(f"{method} {url[:100]} raised {type(error).__name__}: "
                         f"{error}"[:500]) from error
        if response.status_code not in _CLEAN:
            raise Broken(f"{method} {url[:100]} answered {response.status_code}: "
                         f"{response.text[:300]}")
        if response.status_code >= 400:
            error_text = response.json().get("error")
            if not isinstance(error_text, str) or not error_text:
                raise Broken(f"{method} {url[:100]}: an error without a message")
    # body as the JSON fields the routes read
    for field in ("game", "rules", "players", "text"):
        value: Any = _json_value(text)
        response = client.post("/api/games" if field != "text" else "/api/import",
                               json={"game": "abande", field: value},
                               headers=_OWN_PAGE)
        if response.status_code not in _CLEAN:
            raise Broken(f"POST with {field}={text[:80]!r} answered "
                         f"{response.status_code}: {response.text[:300]}")


def _path_part(text: str) -> str:
    return quote(text[:200], safe="") or "x"


def _json_value(text: str) -> Any:
    """``text`` parsed as JSON if it is JSON, else the text itself (``NaN`` and
    ``Infinity``, which Python reads but no JSON client sends, stay text)."""
    try:
        return json.loads(text, parse_constant=lambda _: text)
    except (ValueError, RecursionError):
        return text


def websocket(text: str) -> None:
    """``text`` as a socket message (and as each field of each message type) on a new
    game: every answer is a message of the protocol, and the socket still answers
    ``state``."""
    client, _ = _client()
    game = client.post("/api/games", json={"game": "andantino"},
                       headers=_OWN_PAGE).json()["id"]
    messages = [text]
    value = _json_value(text)
    for kind in ("move", "undo", "resign", "hint", "analyse", "stop", "view", "state",
                 "study", "names", "analyse_game", "targets"):
        for field in ("move", "ply", "side", "on", "line", "action", "from"):
            messages.append(json.dumps({"type": kind, field: value}))
    try:
        with client.websocket_connect(f"/ws/games/{game}", headers=_OWN_PAGE) as ws:
            first = ws.receive_json()
            if first.get("type") != "state":
                raise Broken(f"the socket opened with {first}")
            for message in messages:
                ws.send_text(message)
                ws.send_text('{"type": "state"}')
                while True:  # the answers to the message, up to the state asked for
                    answer = ws.receive_json()
                    kind = answer.get("type")
                    if kind not in _SERVER_MESSAGES:
                        raise Broken(f"{message[:80]!r} was answered with {answer}"[:500])
                    if kind == "error" and "internal error" in answer.get("message", ""):
                        raise Broken(f"{message[:80]!r}: {answer['message']}"[:500])
                    if kind == "state":
                        break
    except Broken:
        raise
    except Exception as error:
        raise Broken(f"the socket failed on {text[:80]!r}: {type(error).__name__}: "
                     f"{error}"[:500]) from error
    client.delete(f"/api/games/{game}", headers=_OWN_PAGE)


_SERVER_MESSAGES = frozenset({"state", "error", "view", "hint", "analysis", "thinking",
                              "ai_move", "game_analysis", "targets"})


def harness_check(text: str) -> None:
    """Not a target: a failure of each kind on demand, for the test of the harness."""
    import os
    import time

    if text == "sleep":
        time.sleep(3600)
    elif text == "memory":
        bytearray(1 << 40)  # far over any limit: a MemoryError
    elif text == "grow":
        chunks = []
        while True:  # memory grows until the limit stops it
            chunks.append(bytearray(1 << 24))
    elif text == "abort":
        os.abort()
    elif text == "keyerror":
        _call("a parser", lambda: {}["x"])


#: The targets by name.
TARGETS: dict[str, Callable[[str], None]] = {
    "harness_check": harness_check,
    "andantino_position": andantino_position,
    "abande_position": abande_position,
    "andantino_move": andantino_move,
    "abande_move": abande_move,
    "record": record,
    "rules": rules,
    "player_spec": player_spec,
    "http": http,
    "websocket": websocket,
}
