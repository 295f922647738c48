"""The lobby and engine help of the server mode (issue 35) with real clients on a real
uvicorn server: no engine help in a running game between two people unless both agreed
to a casual game with help, no stored engine analysis for its players meanwhile, nor the
computer's thinking in their games against it, and the creator of a challenge learns
that it was accepted."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

from server_helpers import (
    Client,
    FakeClock,
    LiveServer,
    Message,
    Socket,
    challenge_game,
    signed_up,
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path / "games.db", now=FakeClock())
    yield srv
    srv.stop()


@pytest.fixture
def people(server: LiveServer) -> Iterator[tuple[Client, Client, Client]]:
    alice, bob, carol = Client(server), Client(server), Client(server)
    for client, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        assert client.signup(name).status_code == 201
    yield alice, bob, carol
    for client in (alice, bob, carol):
        client.close()


def test_no_engine_help_in_an_unrated_game_between_two_people(
        people: tuple[Client, Client, Client]) -> None:
    alice, bob, carol = people
    game_id = challenge_game(alice, bob, time_control={"kind": "live", "base": 300,
                                                       "increment": 2})
    a, b, c = alice.socket(game_id), bob.socket(game_id), carol.socket(game_id)
    state = a.receive()
    assert (state["rated"], state["engine_help"], state["help"]) == (False, False, False)
    assert b.receive()["help"] is False
    for socket in (a, b):
        assert "between two people" in socket.error({"type": "hint"})
        assert "between two people" in socket.error({"type": "analyse", "on": True})
    c.receive()
    assert "only the players" in c.error({"type": "hint"})
    # once it is over, anyone may analyse it
    a.send({"type": "resign", "side": 0})
    over = a.until(lambda m: m["type"] == "state" and m["over"])
    assert over["help"] is True
    c.send({"type": "analyse", "on": True})
    assert c.until(lambda m: m["type"] == "analysis")["ply"] == 0
    for socket in (a, b, c):
        socket.close()


def test_a_casual_game_with_engine_help_agreed_by_both(
        people: tuple[Client, Client, Client]) -> None:
    alice, bob, carol = people
    # only unrated; a bad value says what is wrong
    rated = alice.http.post("/api/challenges", json={
        "game": "andantino", "rated": True, "engine_help": True,
        "time_control": {"kind": "live", "base": 300, "increment": 2}})
    assert rated.status_code == 400 and "only for unrated" in rated.json()["error"]
    bad = alice.http.post("/api/challenges", json={"game": "andantino",
                                                   "engine_help": "yes"})
    assert bad.status_code == 400 and "engine_help must be" in bad.json()["error"]
    made = alice.http.post("/api/challenges", json={"game": "andantino", "color": "first",
                                                    "engine_help": True})
    assert made.status_code == 201 and made.json()["engine_help"] is True
    listed = bob.http.get("/api/challenges").json()["challenges"]
    assert [c["engine_help"] for c in listed] == [True]
    game_id = bob.http.post(f"/api/challenges/{made.json()['id']}/accept").json()["id"]
    a, b, c = alice.socket(game_id), bob.socket(game_id), carol.socket(game_id)
    state = a.receive()
    assert (state["engine_help"], state["help"]) == (True, True)
    assert b.receive()["engine_help"] is True
    a.send({"type": "hint"})
    assert a.until(lambda m: m["type"] == "hint")["move"]
    b.send({"type": "hint"})
    assert b.until(lambda m: m["type"] == "hint")["move"]
    # a watcher still gets none while it runs
    assert c.receive()["help"] is False
    assert "only the players" in c.error({"type": "hint"})
    for socket in (a, b, c):
        socket.close()


def test_the_creator_learns_that_a_challenge_was_accepted(
        people: tuple[Client, Client, Client]) -> None:
    alice, bob, carol = people
    assert alice.http.get("/api/challenges").json()["accepted"] == []
    made = alice.http.post("/api/challenges", json={"game": "abande"}).json()
    game_id = bob.http.post(f"/api/challenges/{made['id']}/accept").json()["id"]
    assert alice.http.get("/api/challenges").json()["accepted"] == [
        {"challenge": made["id"], "game": game_id}]
    # only to its creator, and only while the game runs
    assert bob.http.get("/api/challenges").json()["accepted"] == []
    assert carol.http.get("/api/challenges").json()["accepted"] == []
    socket = bob.socket(game_id)
    socket.receive()
    socket.send({"type": "resign", "side": int(socket.state()["you"][0])})
    socket.until(lambda m: m["type"] == "state" and m["over"])
    socket.close()
    assert alice.http.get("/api/challenges").json()["accepted"] == []


def test_two_acceptances_at_once_make_one_game_the_creator_is_told_of(
        people: tuple[Client, Client, Client]) -> None:
    alice, bob, carol = people
    made = alice.http.post("/api/challenges", json={"game": "andantino"}).json()
    answers: list[int] = []

    def accept(client: Client) -> None:
        answers.append(client.http.post(f"/api/challenges/{made['id']}/accept").status_code)

    threads = [threading.Thread(target=accept, args=(c,)) for c in (bob, carol)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201, 404]
    accepted = alice.http.get("/api/challenges").json()["accepted"]
    assert [a["challenge"] for a in accepted] == [made["id"]]


def test_a_game_between_people_tells_its_players_other_games_that_help_changed(
        people: tuple[Client, Client, Client]) -> None:
    """The state of another game (``help``) was its socket's as it opened: a game
    between two people that started since barred engine help (the server refused it),
    and the page still offered it; its end brought it back, and the page did not know.
    Now the sockets of the players' other games get a new state at both."""
    alice, bob, carol = people
    made = alice.http.post("/api/games", json={"game": "abande",
                                               "players": ["human", "easy"]})
    assert made.status_code == 201, made.text
    elsewhere = alice.socket(made.json()["id"])
    assert elsewhere.receive()["help"] is True
    watcher = carol.socket(made.json()["id"])  # carol plays in neither game
    assert watcher.receive()["help"] is False  # (a watcher of a running game)
    game_id = challenge_game(alice, bob)
    assert elsewhere.until(lambda m: m["type"] == "state")["help"] is False
    assert "while you play a game between two people" in elsewhere.error({"type": "hint"})
    played = bob.socket(game_id)
    played.receive()
    played.send({"type": "resign", "side": int(played.state()["you"][0])})
    played.until(lambda m: m["type"] == "state" and m["over"])
    assert elsewhere.until(lambda m: m["type"] == "state")["help"] is True
    elsewhere.send({"type": "hint"})
    assert elsewhere.until(lambda m: m["type"] == "hint")["move"]
    # carol's socket was told nothing of games she does not play
    with pytest.raises(TimeoutError):
        watcher.until(lambda m: m["type"] == "state", timeout=1.0)
    for socket in (elsewhere, watcher, played):
        socket.close()



FINISHED = """[Game "Andantino"]
[White "Ann"]
[Red "Ben"]
[Result "0-1"]
[Termination "resignation"]

1. 0,1 {opening as planned} 1,1 2. -1,1 -1,0 3. 0,-1 1,-1 0-1
"""


@pytest.fixture
def analysed(tmp_path: Path) -> Iterator[tuple[LiveServer, list[Client]]]:
    """A server (whole-game analyses of 0.05 s a position) and alice, bob and carol."""
    srv = LiveServer(tmp_path / "games.db", now=FakeClock(), game_analysis_time=0.05)
    clients = signed_up(srv, "alice", "bob", "carol")
    yield srv, clients
    for client in clients:
        client.close()
    srv.stop()


def _annotated_import(client: Client) -> str:
    """The id of a finished game that ``client`` imports, analyses whole and writes the
    analysis into (its study then holds the engine's evaluations and ``Annotator``)."""
    imported = client.http.post("/api/import", json={"text": FINISHED})
    assert imported.status_code == 201, imported.text
    [game_id] = imported.json()["ids"]
    socket = client.socket(game_id)
    socket.receive()
    socket.send({"type": "analyse_game", "action": "start"})
    socket.until(lambda m: m["type"] == "game_analysis" and not m["running"])
    socket.send({"type": "study", "action": "annotate"})
    annotated = socket.until(lambda m: m["type"] == "state" and "Annotator" in m["tags"])
    assert _engine_part(annotated) == (True, True, True)
    socket.close()
    return str(game_id)


def _engine_part(state: dict[str, Any]) -> tuple[bool, bool, bool]:
    """Whether a state carries the engine's evaluations in its tree, the ``Annotator``
    tag of the whole-game analysis written in, and the analysis itself."""
    comments = " ".join(node["comment"] or "" for node in state["tree"]["nodes"])
    analysis = state["game_analysis"]
    return ("[%wp " in comments, "Annotator" in state["tags"],
            analysis is not None and analysis["result"] is not None)


#: What the page says to an account barred by a game between two people.
HIDDEN = "engine analysis hidden while you play a game between two people without engine help"


def test_a_barred_account_gets_no_engine_analysis_of_a_finished_game(
        analysed: tuple[LiveServer, list[Client]]) -> None:
    """A finished game's whole-game analysis, and the evaluations written into its
    study record, reached an account that plays a game between two people (by the
    state, the ``game_analysis`` messages and the record download): it could look its
    running game's position up in them. Now the server leaves them out for it and says
    why; an account not barred gets them all."""
    _, (alice, bob, carol) = analysed
    studied = _annotated_import(carol)
    challenge_game(alice, bob)  # alice is barred from engine help now
    barred, watcher = alice.socket(studied), carol.socket(studied)
    state = barred.receive()
    assert _engine_part(state) == (False, False, False)
    assert state["analysis_hidden"] == HIDDEN
    assert state["tree"]["nodes"][0]["comment"] == "opening as planned"  # a person's
    seen = watcher.receive()
    assert _engine_part(seen) == (True, True, True) and seen["analysis_hidden"] is None
    download = alice.http.get(f"/api/games/{studied}/record")
    assert download.status_code == 200
    assert "[%wp " not in download.text and "Annotator" not in download.text
    assert "{opening as planned}" in download.text
    assert download.headers["x-hexgames-analysis-hidden"] == HIDDEN
    shown = carol.http.get(f"/api/games/{studied}/record")
    assert "[%wp " in shown.text and "Annotator" in shown.text
    assert "x-hexgames-analysis-hidden" not in shown.headers
    # a new analysis's result reaches the watcher, not her
    watcher.send({"type": "analyse_game", "action": "start"})
    done = watcher.until(lambda m: m["type"] == "game_analysis" and not m["running"])
    assert done["result"]["reports"]
    kept_out = barred.until(lambda m: m["type"] == "game_analysis" and not m["running"])
    assert kept_out["result"] is None
    assert _engine_part(barred.until(lambda m: m["type"] == "state")) == (
        False, False, False)
    for socket in (barred, watcher):
        socket.close()


def test_the_engine_analysis_comes_back_when_the_barring_game_ends(
        analysed: tuple[LiveServer, list[Client]]) -> None:
    """The socket open on the annotated game loses the engine's part when its account's
    game between two people starts and gets it back when that game ends; meanwhile the
    account does not edit that study (its edits would be made blind)."""
    _, (alice, bob, _) = analysed
    studied = _annotated_import(alice)
    mine = alice.socket(studied)
    mine.receive()
    playing = challenge_game(alice, bob)
    barred = mine.until(lambda m: m["type"] == "state")
    assert _engine_part(barred) == (False, False, False)
    assert (barred["analysis_hidden"], barred["study"]) == (HIDDEN, False)
    refused = mine.error({"type": "study", "action": "comment", "line": ["0,1"],
                          "text": "edited blind"})
    assert refused.startswith(HIDDEN)
    played = bob.socket(playing)
    played.receive()
    played.send({"type": "resign", "side": 1})
    played.until(lambda m: m["type"] == "state" and m["over"])
    back = mine.until(lambda m: m["type"] == "state")
    assert _engine_part(back) == (True, True, True)
    assert (back["analysis_hidden"], back["study"]) == (None, True)
    download = alice.http.get(f"/api/games/{studied}/record")
    assert "[%wp " in download.text and "Annotator" in download.text
    for socket in (mine, played):
        socket.close()


#: What the page says to an account barred by a game between two people, of the
#: computer's thinking.
THINKING_HIDDEN = ("the computer's thinking hidden while you play a game between two "
                   "people without engine help")
#: The fields of the AI's ``thinking`` and ``ai_move`` messages that say nothing of what
#: it found.
BARE_THINKING = {"type", "side", "elapsed"}
BARE_MOVE = {"type", "move", "side", "time"}
#: What the engine found, as the AI's messages carry it.
FOUND = {"depth", "best", "pv", "score"}


def _computer_game(client: Client, *players: str) -> tuple[str, Socket]:
    """An unrated Abande game of ``client`` from the standard start against the computer
    (``players``: by default ``expert``, which moves first, and ``human``), and its
    socket with the state read (made before the account is barred: a barred account
    starts none)."""
    made = client.http.post("/api/games", json={"game": "abande",
                                                "players": players or ["expert", "human"]})
    assert made.status_code == 201, made.text
    game_id = str(made.json()["id"])
    socket = client.socket(game_id)
    assert socket.receive()["type"] == "state"
    return game_id, socket


def _ai_turn(socket: Socket) -> tuple[Message, Message]:
    """The AI's first ``thinking`` message of its search, and its ``ai_move`` when told to
    move now (after that, the state with the person to move has been read)."""
    thinking = socket.until(lambda m: m["type"] == "thinking")
    socket.send({"type": "stop"})
    played = socket.until(lambda m: m["type"] == "ai_move", timeout=30)
    socket.until(lambda m: m["type"] == "state" and not m["thinking"])
    return thinking, played


def _move(socket: Socket) -> None:
    """Play a legal move of the person to move (the state's first placement)."""
    state = socket.state()
    socket.send({"type": "move", "move": state["legal"][0], "ply": state["ply"]})


def test_a_barred_account_does_not_watch_the_computer_think(
        people: tuple[Client, Client, Client]) -> None:
    """An account that plays a game between two people could play an unrated game
    against the computer (one begun before: it starts none now), replay its running
    game's moves there and read what the computer found as it thought (its
    ``thinking`` messages' scores and lines, the score and depth of its ``ai_move``):
    only a rated game kept them back. Now the server sends that account's sockets that
    the computer thinks and nothing of what it found, and says why; a watcher not
    barred gets it all, as before. (In its own games against the computer the computer
    waits meanwhile, tests/test_server_computer_waits.py: here it watches alice's.)"""
    alice, bob, carol = people
    game_id, mine = _computer_game(alice, "human", "expert")
    challenge_game(carol, bob)  # carol is barred from engine help now, alice not
    barred = carol.socket(game_id)
    assert barred.receive()["thinking_hidden"] == THINKING_HIDDEN
    assert mine.state()["thinking_hidden"] is None
    _move(mine)
    thinking = barred.until(lambda m: m["type"] == "thinking")
    thought = mine.until(lambda m: m["type"] == "thinking")
    mine.send({"type": "stop"})  # (the player's to ask)
    played = barred.until(lambda m: m["type"] == "ai_move", timeout=30)
    assert (set(thinking), set(played)) == (BARE_THINKING, BARE_MOVE)
    assert set(thought) >= FOUND
    moved = mine.until(lambda m: m["type"] == "ai_move", timeout=30)
    assert {"score", "depth"} <= set(moved) and moved["move"] == played["move"]
    for socket in (barred, mine):
        socket.close()


def test_the_computers_thinking_follows_the_barring_game(
        people: tuple[Client, Client, Client]) -> None:
    """The same account's open socket gets what the computer found while the account is
    not barred, nothing of it from when its game between two people starts (a new state
    says why; the computer waits meanwhile), and all of it again once that game is
    over."""
    alice, bob, _ = people
    _, mine = _computer_game(alice)
    thinking, played = _ai_turn(mine)
    assert set(thinking) >= FOUND and {"score", "depth"} <= set(played)
    playing = challenge_game(alice, bob)
    barred = mine.until(lambda m: m["type"] == "state")
    assert (barred["thinking_hidden"], barred["help"]) == (THINKING_HIDDEN, False)
    _move(mine)
    waiting = mine.until(lambda m: m["type"] == "state" and m["ply"] == 2)
    assert waiting["computer_waits"] is not None and not waiting["thinking"]
    played_by_bob = bob.socket(playing)
    played_by_bob.receive()
    played_by_bob.send({"type": "resign", "side": 1})
    back = mine.until(lambda m: m["type"] == "state")
    assert (back["thinking_hidden"], back["help"], back["computer_waits"]) == \
        (None, True, None)
    thinking, played = _ai_turn(mine)
    assert set(thinking) >= FOUND and {"score", "depth"} <= set(played)
    for socket in (mine, played_by_bob):
        socket.close()


def _held_help_news(srv: LiveServer) -> threading.Event:
    """Hold the server's one thread that tells the sockets of accounts that their engine
    help changed (busy with other accounts' news, as on a club whose tournament round
    starts) until the event is set."""
    release = threading.Event()
    srv.manager._help_news.submit(release.wait, 30)
    return release


@pytest.fixture
def slow_help(tmp_path: Path) -> Iterator[tuple[LiveServer, list[Client]]]:
    """A server whose hints and analyses search with alpha-beta (a hint for 2 s), and
    alice and bob."""
    srv = LiveServer(tmp_path / "games.db", now=FakeClock(), helper_spec="alphabeta",
                     hint_time=2.0)
    clients = signed_up(srv, "alice", "bob")
    yield srv, clients
    for client in clients:
        client.close()
    srv.stop()


@pytest.mark.parametrize("news_held", [False, True])
def test_a_hint_found_after_its_asker_is_barred_is_withheld(
        slow_help: tuple[LiveServer, list[Client]], news_held: bool) -> None:
    """A hint asked for before the account's game between two people started came when
    it was found. Now the server asks the policy again before it sends it, with the
    account's barring read afresh: the socket's, as it last knew it, let the hint
    through while the thread that tells the sockets had not yet come to it
    (``news_held``)."""
    srv, (alice, bob) = slow_help
    _, mine = _computer_game(alice, "human", "easy")
    release = _held_help_news(srv) if news_held else threading.Event()
    try:
        mine.send({"type": "hint"})
        challenge_game(alice, bob)
        withheld = mine.until(lambda m: m["type"] in ("hint", "error"))
    finally:
        release.set()
    assert withheld["type"] == "error", withheld
    assert "no engine help while you play a game between two people" in \
        withheld["message"]
    mine.close()


def test_an_analysis_switched_on_stops_when_its_account_is_barred(
        slow_help: tuple[LiveServer, list[Client]]) -> None:
    """A page's analysis, switched on in a game against the computer, went on after the
    account's game between two people started (for each new position of that game, as
    long as the switch was on). Now the new state that tells the page switches it off,
    and nothing more of it comes."""
    _, (alice, bob) = slow_help
    _, mine = _computer_game(alice, "human", "easy")
    mine.send({"type": "analyse", "on": True})
    assert mine.until(lambda m: m["type"] == "analysis")["ply"] == 0
    challenge_game(alice, bob)
    barred = mine.until(lambda m: m["type"] == "state" and m["help"] is False)
    assert barred["analysis"] is False
    with pytest.raises(TimeoutError):
        mine.until(lambda m: m["type"] == "analysis", timeout=1.5)
    mine.close()


def test_an_analysis_stops_when_the_socket_learns_of_its_barring_by_itself(
        slow_help: tuple[LiveServer, list[Client]]) -> None:
    """A socket reads its account afresh with each message it sends; one that sent any
    (the page asks for the state, a view...) after its account's game between two people
    started, before the thread that tells the sockets had come to it, was then skipped
    by that thread (its account already as it found it), and its analysis went on for
    every new position. Now a socket whose barring changed as it reads its account
    loses the analysis there and then."""
    srv, (alice, bob) = slow_help
    _, mine = _computer_game(alice, "human", "easy")
    mine.send({"type": "analyse", "on": True})
    assert mine.until(lambda m: m["type"] == "analysis")["ply"] == 0
    release = _held_help_news(srv)
    try:
        challenge_game(alice, bob)
        barred = mine.state()
    finally:
        release.set()
    assert (barred["help"], barred["analysis"]) == (False, False)
    with pytest.raises(TimeoutError):
        mine.until(lambda m: m["type"] == "analysis", timeout=1.5)
    assert mine.state()["analysis"] is False
    mine.close()


class _WatchedLock:
    """A game's lock as the test sees it: whether the thread that tells the sockets of
    their engine help (``help-news``) has asked for it (``news_asked``) and let it go
    again (``news_done``), and whether the calling thread holds it."""

    def __init__(self, lock: Any) -> None:
        self.lock = lock
        self.owner: int | None = None
        self.depth = 0
        self.news_asked = threading.Event()
        self.news_done = threading.Event()

    @staticmethod
    def _news() -> bool:
        return threading.current_thread().name.startswith("help-news")

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if self._news():
            self.news_asked.set()
        got = bool(self.lock.acquire(blocking, timeout))
        if got:
            self.owner, self.depth = threading.get_ident(), self.depth + 1
        return got

    def release(self) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.owner = None
        self.lock.release()
        if self.depth == 0 and self._news():
            self.news_done.set()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()

    def held_here(self) -> bool:
        return self.owner == threading.get_ident()


def _pause_next_read(srv: LiveServer, monkeypatch: pytest.MonkeyPatch, name: str,
                     until: Any) -> tuple[threading.Event, threading.Event]:
    """Make the next read of the account's barring (the store's ``games_without_help``)
    by a thread other than the help news return only once ``until()`` has returned (the
    value read before); the events: that read has been made, and the help news has read
    the account's barring since."""
    store = srv.manager.store
    srv.manager._help_news.submit(lambda: None).result(20)  # earlier news done
    user = store.user(name)
    real = store.games_without_help
    armed = [True]
    made, news = threading.Event(), threading.Event()

    def read(user_id: int) -> Any:
        value = real(user_id)
        if user_id == user.id and _WatchedLock._news() and made.is_set():
            news.set()
        elif user_id == user.id and armed[0]:
            armed[0] = False
            made.set()
            until()
        return value

    monkeypatch.setattr(store, "games_without_help", read)
    return made, news


def test_a_message_read_before_the_barring_does_not_unbar_the_socket_after_the_news(
        people: tuple[Client, Client, Client], server: LiveServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket's message reads its account (its login and engine help) and then applies
    what it read to the socket. Read just before the account's game between two people
    was saved and applied after the server's news had marked the socket barred, it
    marked it unbarred again: its page was told it may have help, and the computer's
    thinking came to it whole, until its next message. Now the read and the update are
    one step under the game's lock, which the news takes too. Made deterministic by
    pausing the message's read (its value already read) until the news is done with the
    game, or is waiting for its lock."""
    alice, bob, _ = people
    game_id, mine = _computer_game(alice, "human", "easy")
    server.manager._help_news.submit(lambda: None).result(20)  # earlier news done
    session = server.manager.session(game_id)
    watched = _WatchedLock(session.lock)
    session.lock = watched

    def until_the_news() -> None:
        assert watched.news_asked.wait(20), "the news did not come to the game"
        if not watched.held_here():  # else it waits for this lock: let it come after
            assert watched.news_done.wait(20), "the news did not leave the game"

    made, _ = _pause_next_read(server, monkeypatch, "alice", until_the_news)
    mine.send({"type": "state"})
    assert made.wait(20)
    challenge_game(alice, bob)
    server.manager._help_news.submit(lambda: None).result(20)  # the news is done
    states = []
    with pytest.raises(TimeoutError):
        while True:
            message = mine.receive(timeout=1.0)
            if message["type"] == "state":
                states.append(message)
    assert states and (states[-1]["help"], states[-1]["thinking_hidden"]) == \
        (False, THINKING_HIDDEN), [s["help"] for s in states]
    assert [bool(s.actor.help_barred) for s in session.subscribers] == [True]
    mine.close()


def test_a_socket_opened_as_the_barring_starts_is_barred(
        people: tuple[Client, Client, Client], server: LiveServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket reads its account when it opens and joins the game a moment later; the
    server's news of a barring that came in between missed it (not yet among the game's
    sockets), and it was opened as unbarred: help, and the computer's thinking, until
    its first message. Now it reads the account's barring again as it joins, under the
    game's lock. Deterministic: the opening read (its value read before the game between
    two people is saved) returns once the news is done."""
    alice, bob, _ = people
    made = alice.http.post("/api/games", json={"game": "abande",
                                               "players": ["human", "easy"]})
    game_id = made.json()["id"]
    told: list[threading.Event] = []

    def until_the_news() -> None:
        assert told[0].wait(20), "no news of the barring"
        server.manager._help_news.submit(lambda: None).result(20)  # it is done

    read, news = _pause_next_read(server, monkeypatch, "alice", until_the_news)
    told.append(news)
    opened: list[Socket] = []
    opener = threading.Thread(target=lambda: opened.append(alice.socket(game_id)))
    opener.start()
    assert read.wait(20)
    challenge_game(alice, bob)
    opener.join(20)
    (mine,) = opened
    state = mine.receive()
    assert (state["help"], state["thinking_hidden"]) == (False, THINKING_HIDDEN)
    mine.close()


def test_an_analysis_is_not_restarted_for_a_socket_barred_meanwhile(
        slow_help: tuple[LiveServer, list[Client]]) -> None:
    """A socket's analysis, switched on, is started again at every change of the game
    (after the computer's move, say), and that asked only whether its switch was on:
    an account whose game between two people had started, before the server's news of
    it came to this socket (the help-news thread busy), had its analysis started again
    by the computer's move, and got it. Now the policy is asked again, with the
    account's barring read afresh, before each start: refused, the switch is turned off
    and the page gets an ``error`` that says why, and the state."""
    srv, (alice, bob) = slow_help
    game_id, mine = _computer_game(alice, "human", "expert")
    other = alice.socket(game_id)  # another page of alice's: it tells the AI to move
    other.receive()
    mine.send({"type": "analyse", "on": True})
    assert mine.until(lambda m: m["type"] == "analysis")["ply"] == 0
    _move(mine)
    mine.until(lambda m: m["type"] == "thinking")  # the analysis waits meanwhile
    release = _held_help_news(srv)
    try:
        challenge_game(alice, bob)
        other.send({"type": "stop"})
        seen = []
        while not seen or seen[-1]["type"] not in ("error", "analysis"):
            seen.append(mine.receive())
        refused = seen[-1]
        assert refused["type"] == "error", refused
        assert "no engine help while you play a game between two people" in \
            refused["message"]
        state = mine.until(lambda m: m["type"] == "state")
        assert (state["help"], state["analysis"]) == (False, False)
        with pytest.raises(TimeoutError):
            mine.until(lambda m: m["type"] == "analysis", timeout=1.5)
    finally:
        release.set()
    for socket in (mine, other):
        socket.close()


def test_a_watchers_analysis_stops_when_a_take_back_makes_the_game_run_again(
        people: tuple[Client, Client, Client]) -> None:
    """Anyone may analyse a finished game, and a watcher nobody while it runs. A
    watcher's analysis switched on once the game was over was started again when the
    player took the last move back, the game running again. Now it is refused there:
    switched off, with an ``error`` that says why."""
    alice, _, carol = people
    made = alice.http.post("/api/games", json={
        "game": "andantino", "players": ["human", "easy"],
        "position": "andantino w=0,0;0,1;0,2;0,3 r=1,0;1,1;1,2;1,3 turn=w hands=w20,r20"})
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    player, watcher = alice.socket(game_id), carol.socket(game_id)
    player.receive()
    watcher.receive()
    player.send({"type": "move", "move": "0,4", "ply": 0})  # a line of five
    assert player.until(lambda m: m["type"] == "state" and m["over"])["result"] == "1-0"
    watcher.send({"type": "analyse", "on": True, "line": []})
    assert watcher.until(lambda m: m["type"] == "analysis")["ply"] == 0
    player.send({"type": "undo", "ply": 1})
    seen = [watcher.receive()]
    while seen[-1]["type"] not in ("error", "analysis"):
        seen.append(watcher.receive())
    refused = seen[-1]
    assert refused["type"] == "error", refused
    assert refused["message"] == ("the analysis is switched off: only the players may "
                                  "ask the engine while the game is played")
    state = watcher.until(lambda m: m["type"] == "state")
    assert (state["over"], state["help"], state["analysis"]) == (False, False, False)
    with pytest.raises(TimeoutError):
        watcher.until(lambda m: m["type"] == "analysis", timeout=1.5)
    for socket in (player, watcher):
        socket.close()


COMPUTER_REFUSED = ("no game against the computer while you play {} without engine "
                    "help: its moves would be engine help for that game (play it when "
                    "that game is over)")


def test_a_barred_account_starts_no_game_against_the_computer(
        people: tuple[Client, Client, Client]) -> None:
    """An account barred from engine help could start an unrated game against the
    computer from the standard start (only a set-up position was refused), replay its
    running game's moves there and take the computer's replies for its own: expert's
    are proven wins from the opening book. Now the server refuses it any game against
    the computer (any level, any start) while a game between two people without agreed
    help, or a rated game, runs; others may, and so may it once that game is over."""
    alice, bob, carol = people
    playing = challenge_game(alice, bob)
    for body in ({"game": "andantino", "players": ["human", "expert"]},
                 {"game": "abande", "players": ["easy", "human"],
                  "time_control": {"kind": "live", "base": 300, "increment": 2}},
                 {"game": "abande", "players": ["human", "easy"],
                  "position": "abande d4=B turn=w hands=b17,w18"}):
        refused = alice.http.post("/api/games", json=body)
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"] == COMPUTER_REFUSED.format(
            "a game between two people")
    assert carol.http.post("/api/games", json={
        "game": "andantino", "players": ["human", "expert"]}).status_code == 201
    # a casual game with help agreed bars nothing
    helped = alice.http.post("/api/challenges", json={
        "game": "andantino", "color": "first", "engine_help": True}).json()["id"]
    assert carol.http.post(f"/api/challenges/{helped}/accept").status_code == 201
    socket = bob.socket(playing)
    socket.receive()
    socket.send({"type": "resign", "side": 1})
    socket.until(lambda m: m["type"] == "state" and m["over"])
    socket.close()
    assert alice.http.post("/api/games", json={
        "game": "andantino", "players": ["human", "expert"]}).status_code == 201
    # a rated game bars it too
    challenge_game(alice, bob, rated=True,
                   time_control={"kind": "correspondence", "days": 3})
    refused = alice.http.post("/api/games", json={"game": "andantino",
                                                 "players": ["human", "easy"]})
    assert (refused.status_code, refused.json()["error"]) == (
        403, COMPUTER_REFUSED.format("a rated game"))


def test_a_barred_account_takes_no_move_back_against_the_computer(
        people: tuple[Client, Client, Client]) -> None:
    """A game against the computer begun before the account's game between two people
    goes on, but with take-backs the account could set up its running game's positions
    there and play them against the computer: they are refused while that game runs,
    and allowed again when it is over."""
    alice, bob, _ = people
    _, mine = _computer_game(alice, "human", "easy")
    _move(mine)
    mine.until(lambda m: m["type"] == "state" and m["ply"] == 2)
    playing = challenge_game(alice, bob)
    refused = mine.error({"type": "undo", "ply": 2})
    assert refused == ("no take-backs against the computer while you play a game between "
                       "two people without engine help: they would let you set that "
                       "game's positions up here (take back when it is over)")
    assert mine.state()["ply"] == 2
    socket = bob.socket(playing)
    socket.receive()
    socket.send({"type": "resign", "side": 1})
    socket.until(lambda m: m["type"] == "state" and m["over"])
    socket.close()
    mine.send({"type": "undo", "ply": 2})
    assert mine.until(lambda m: m["type"] == "state" and m["ply"] == 0)["help"] is True
    mine.close()
