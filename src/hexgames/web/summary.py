"""The SUMMARY of a stored game (docs/web-protocol.md): what the games list, the lobby
and ``GET /api/games/<id>`` show of a game without replaying it, and which side moved
first.
"""

from __future__ import annotations

from hexgames.core import HexgamesError
from hexgames.games import game_module
from hexgames.web import study
from hexgames.web.store import StoredGame
from hexgames.web.views import JSON, rules_json


def summary(stored: StoredGame, accounts: list[str | None] | None = None) -> JSON:
    """The SUMMARY of the protocol for a stored game (``accounts``: the names of the
    accounts in its seats, server mode).

    A game this version cannot read (an unknown game, or a rules option it does not
    know, say from another version, or a row whose columns are unreadable) is summed up
    all the same, with what could be read of it and ``"error"`` saying what is wrong,
    so that one such game does not hide the others from the list (and can be
    deleted)."""
    names = ["first player", "second player"]
    problem = stored.error
    try:
        module = game_module(stored.game)
        names = list(module.PLAYER_TAGS)
        rules: JSON = rules_json(module.Rules.from_options(stored.rules))
    except HexgamesError as error:
        problem = problem or f"game {stored.id} cannot be opened: {error}"
        rules = dict(word.partition("=")[::2] for word in stored.rules)
    player_names = stored.player_names
    if player_names is None or (stored.seats is not None and
                                not stored.extra.get("imported")):
        player_names = study.default_names(stored, accounts) \
            if len(stored.players) == 2 else None
    shown = {"id": stored.id, "game": stored.game, "rules": rules,
             "players": list(stored.players), "names": names,
             "created": stored.created, "updated": stored.updated,
             "moves": len(stored.moves), "result": stored.result,
             "termination": stored.termination, "player_names": player_names,
             "setup": stored.position is not None,
             "imported": bool(stored.extra.get("imported"))}
    if stored.seats is not None:
        shown["accounts"] = accounts if accounts is not None else [None, None]
        shown["rated"] = stored.rated
        control = (stored.clock or {}).get("control")
        shown["time_control"] = control
        turn = None
        if stored.result == "*" and not problem:
            turn = (len(stored.moves) + first_turn(stored)) % 2
        shown["turn"] = turn
    if problem is not None:
        shown["error"] = problem
    return shown


def first_turn(stored: StoredGame) -> int:
    """The side that moved first in a stored game (0 or 1): 1 only for a set-up position
    with the second player to move (:func:`first_side`)."""
    return 0 if stored.position is None else first_side(stored.game, stored.position)


def first_side(game: str, position: str) -> int:
    """The side to move (0 or 1) in a position string of ``game`` (``"andantino"`` or
    ``"abande"``): 1 for ``turn=r`` in Andantino, ``turn=w`` in Abande."""
    second = "turn=r" if game == "andantino" else "turn=w"
    return int(second in position.split())
