"""The browser app's server: HTTP routes and a WebSocket per open game
(docs/web-protocol.md), on Starlette.

    app = create_app("games.db", hosts=policy_for_bind("127.0.0.1"))
    uvicorn.run(app, host="127.0.0.1", port=8000, ws_max_size=limits.MAX_MESSAGE_BYTES)

Every handler answers bad input with an error (HTTP 400, 404, 409 or 413 with
``{"error": message}``; an ``error`` message on a socket) and never lets an exception
escape. Every input is bounded by a cap of :mod:`hexgames.limits` (request bodies,
socket messages, imports, pages of the games list), and the ``Host`` and ``Origin`` of
every request are checked by :mod:`hexgames.web.hosts`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
import re
import threading
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.engine.players import LEVELS
from hexgames.games import GAME_NAMES, game_module
from hexgames.web import documents, policy, study
from hexgames.web.accounts import CookieSigner, load_secret
from hexgames.web.auth import CLOSE_LOGIN, LOGIN_ENDED, SIGNUP_MODES, Auth
from hexgames.web.chat import ChatRoom
from hexgames.web.clock import TimeSource, clk_text, wall_clock
from hexgames.web.explorer import Explorer
from hexgames.web.explorer import upload as explorer_upload
from hexgames.web.hosts import HostPolicy, same_origin
from hexgames.web.limiter import ServerLimits, TooManyError, wait_text
from hexgames.web.lobby import Lobby
from hexgames.web.mail import MailConfig, Mailer, MailTokens
from hexgames.web.manager import GameManager
from hexgames.web.notices import Notifier
from hexgames.web.policy import Actor
from hexgames.web.searches import Closing, Outgoing, Subscriber
from hexgames.web.seeks import SeekPool
from hexgames.web.session import GameSession
from hexgames.web.store import GameStore, StoreBusyError, StoredGame, StoreError
from hexgames.web.summary import summary
from hexgames.web.tournaments import Tournaments
from hexgames.web.vacation import Vacations
from hexgames.web.views import (
    JSON,
    AppError,
    NotFoundError,
    TooLargeError,
    check_players,
    json_object,
    move_text,
    options_json,
    position_from_json,
    rules_from_json,
    upload_text,
    uploaded_records,
)
from hexgames.web.worker import WorkerPool

log = logging.getLogger("hexgames.web")

#: The folder of the page's files.
STATIC_DIR = Path(__file__).parent / "static"
#: The header of a record download that leaves the engine analysis out, saying why
#: (:func:`hexgames.web.policy.analysis_hidden`).
ANALYSIS_HIDDEN_HEADER = "X-Hexgames-Analysis-Hidden"
#: The largest request body read, in bytes (an imported record included; the cap lives
#: with the others).
MAX_BODY = limits.MAX_REQUEST_BYTES
#: WebSocket close code for an unknown or deleted game.
CLOSE_NOT_FOUND = 4404
#: WebSocket close code for a page of another site (its Origin is not this server), or
#: an account that may not watch the game.
CLOSE_FORBIDDEN = 4403
#: WebSocket close code for an account that holds its most sockets already.
CLOSE_TOO_MANY = 4429
#: Housekeeping rounds (each :data:`hexgames.limits.SESSION_CHECK_INTERVAL` apart)
#: between two deletions of expired sessions and invitations (a write: once a minute).
EXPIRE_EVERY = 30
#: Who may watch a game: logged-in accounts, or anyone (``--watch anonymous``).
WATCH_MODES = ("accounts", "anonymous")

_Endpoint = Callable[[Request], Awaitable[Response]]


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)




class _HostCheck:
    """ASGI middleware: a request (HTTP or WebSocket) whose ``Host`` header names no
    host of ``policy`` is refused before it reaches a route (against DNS rebinding):
    HTTP 400 with ``{"error"}``, a socket gets an ``error`` and is closed (4403)."""

    def __init__(self, app: Any, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = next((value.decode("latin-1") for key, value in scope.get("headers", ())
                     if key == b"host"), None)
        if self.policy.allows(host):
            await self.app(scope, receive, send)
            return
        shown = "no Host header" if host is None else f"the host {host[:60]!r}"
        message = (f"this server does not answer to {shown}; it answers "
                   f"{self.policy.describe()} (a page of another site may not reach it "
                   "through a name of its own; hexgames serve --public-host NAME adds one)")
        if scope["type"] == "http":
            await _error(message, 400)(scope, receive, send)
            return
        websocket = WebSocket(scope, receive, send)
        await websocket.accept()
        await websocket.send_json({"type": "error", "message": message})
        await websocket.close(CLOSE_FORBIDDEN)


def _guarded(endpoint: _Endpoint, hosts: HostPolicy | None,
             auth: Auth | None = None) -> _Endpoint:
    """``endpoint`` with every error answered as JSON: :class:`AppError` by its status,
    a library error 400, a database locked by another program 503, another database
    error 500, anything else 500 (and logged). A request of another site's page that
    would change something is refused (403), and in server mode one without this
    server's ``Origin`` or the session's CSRF token (:meth:`Auth.check_csrf`)."""

    async def guarded(request: Request) -> Response:
        origin = _foreign_origin(request.headers, hosts)
        if origin is not None and request.method not in ("GET", "HEAD"):
            # Another site's page in the person's browser may not change their games
            # (a form or no-cors fetch can post JSON without asking first).
            return _error(f"a page from {origin[:60]} may not use this server", 403)
        try:
            if auth is not None:
                auth.check_csrf(request)
            return await endpoint(request)
        except TooManyError as error:  # says when to try again, as HTTP has it
            answer = _error(str(error), error.status)
            answer.headers["Retry-After"] = str(max(1, math.ceil(error.wait)))
            return answer
        except AppError as error:
            return _error(str(error), error.status)
        except HexgamesError as error:
            return _error(str(error), 400)
        except StoreBusyError as error:
            return _error(str(error), 503)
        except StoreError as error:
            return _error(str(error), 500)
        except Exception as error:
            log.exception("%s %s failed", request.method, request.url.path)
            return _error(f"internal error: {error}", 500)

    return guarded


def _foreign_origin(headers: Any, hosts: HostPolicy | None) -> str | None:
    """The ``Origin`` of a request sent by a page of another site, else ``None``: one
    whose host and port are not those of the ``Host`` header, compared by value
    (:func:`~hexgames.web.hosts.same_origin`), or whose host ``hosts`` does not
    answer."""
    origin: str | None = headers.get("origin")
    if origin is not None and not same_origin(origin, headers.get("host"), hosts):
        return origin
    return None


async def _json_body(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object.

    Raises:
        AppError: for a body that is too large, not JSON or not an object.
    """
    too_large = TooLargeError(f"the request body is larger than {MAX_BODY} bytes "
                              "(hexgames.limits.MAX_REQUEST_BYTES)")
    with contextlib.suppress(ValueError):
        if int(request.headers.get("content-length", "0")) > MAX_BODY:
            raise too_large
    chunks = []
    size = 0
    async for chunk in request.stream():  # read no further than the limit
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large
        chunks.append(chunk)
    return json_object(b"".join(chunks), "the request body")


def create_app(db_path: str | Path, *, hint_time: float = 1.0, analysis_time: float = 60.0,
               game_analysis_time: float = 0.5,
               helper_spec: str = "alphabeta", static_dir: str | Path | None = None,
               workers: str = "process", prestart: int = 0,
               hosts: HostPolicy | None = None,
               max_workers: int | None = None, server: bool = False,
               signup: str = "open", ai_ratings: dict[str, float] | None = None,
               secret_dir: str | Path | None = None, secure_cookies: bool | None = None,
               now: TimeSource = wall_clock, login_clock: TimeSource | None = None,
               sweep_interval: float | None = 0.25,
               session_check_interval: float | None = limits.SESSION_CHECK_INTERVAL,
               mail: MailConfig | None = None,
               mail_interval: float | None = limits.MAIL_ROUND_SECONDS,
               chat: bool = True, watch: str = "accounts",
               tournaments: str = "admins") -> Starlette:
    """The app, with its games in the SQLite file ``db_path`` (created when missing).

    Args:
        db_path: the games database.
        hint_time: seconds the engine thinks for a hint.
        analysis_time: seconds an analysis runs at most for one position.
        game_analysis_time: seconds of search a position when the whole game is
            analysed.
        helper_spec: the player spec used for hints and analysis.
        static_dir: the page's folder (default: :data:`STATIC_DIR`); it may be missing,
            in which case ``/`` answers 404.
        workers: ``"process"`` to search in worker processes (the server keeps its
            interpreter to itself), ``"thread"`` to search in threads of the server.
        prestart: worker processes to start in the background when the app starts, so
            the first AI move does not wait for one.
        hosts: the hosts answered (against DNS rebinding; see
            :mod:`hexgames.web.hosts`), e.g. ``policy_for_bind("127.0.0.1")``; ``None``
            answers any ``Host`` (a test client's, or behind a proxy that checks). The
            ``Origin`` of a request that changes something must be this server's page
            either way.
        max_workers: the most worker processes searching at once (default:
            :func:`~hexgames.web.worker.default_limit`); more searches wait for one.
        server: the server mode: accounts, seats, clocks, challenges, ratings
            (docs/server.md); ``False`` is the local mode of one person, as before.
        signup: ``open``, ``invite`` (only with an invitation link) or ``closed``.
        ai_ratings: fixed ratings of AI levels (``{"easy": 1200}``): games against them
            may be rated for the person.
        secret_dir: the folder of the server's secret (``secret.key``; default: the
            database's folder).
        secure_cookies: mark the session cookie ``Secure``; ``None``: when the request
            came by https.
        now: the clocks' time source (seconds since the epoch; tests give a fake one).
        login_clock: the rate limits' time source (monotonic seconds): logins,
            sign-ups, imports.
        sweep_interval: seconds between two looks for fallen flags (``None``: no
            sweeper thread; the caller calls ``app.state.manager.sweep()``).
        session_check_interval: seconds between two looks for sockets whose login has
            ended in another process, expired sessions and invitations, and games
            kept in memory that nobody shows (``None``: no such thread; the caller
            calls ``app.state.housekeeping()``).
        mail: the SMTP server of the turn notifications (server mode;
            docs/server.md), or ``None``: no mail.
        mail_interval: seconds between two rounds of digests and warnings (``None``:
            no background task; the caller calls ``app.state.notifier.round()``).
        chat: the players' chat of a game (:mod:`hexgames.web.chat`; ``--chat off``).
        watch: who may watch a game: ``"accounts"`` (logged in), or ``"anonymous"``
            (anyone: people not logged in see the moves, and may do nothing else).
        tournaments: who may create tournaments: ``admins`` or ``members`` (every
            account; :mod:`hexgames.web.tournaments`).

    Raises:
        StoreError: if the database cannot be opened.
        ValueError: for another ``workers``, ``signup`` or ``tournaments``.
        OSError: if the server's secret can neither be read nor made.
    """
    if workers not in ("process", "thread"):
        raise ValueError(f"workers must be 'process' or 'thread', not {workers!r}")
    if watch not in WATCH_MODES:
        raise ValueError(f"watch must be one of {', '.join(WATCH_MODES)}, not {watch!r}")
    if signup not in SIGNUP_MODES:
        raise ValueError(f"signup must be one of {', '.join(SIGNUP_MODES)}, not {signup!r}")
    store = GameStore(db_path)
    pool = WorkerPool(limit=max_workers) if workers == "process" else None
    manager = GameManager(store, hint_time=hint_time, analysis_time=analysis_time,
                          helper_spec=helper_spec, pool=pool, server=server, now=now,
                          game_analysis_time=game_analysis_time)
    lobby = Lobby(store, manager, dict(ai_ratings or {}))
    club_tournaments = Tournaments(lobby, tournaments)

    def finished(session: GameSession) -> None:
        lobby.finished(session)
        club_tournaments.game_finished(session)

    manager.on_finished = finished
    explorer = Explorer(store, lobby.ai_ratings)
    manager.on_changed = lambda session: explorer.changed(session.stored)
    manager.rerate = lobby.rerate
    manager.make_rematch = lobby.rematch
    manager.seat_ratings = lobby.seat_ratings
    manager.chat = ChatRoom() if chat and server else None
    seeks = SeekPool(lobby)
    folder = Path(secret_dir) if secret_dir is not None else Path(db_path).parent
    secret = load_secret(folder) if server else b"local mode: no sessions"
    auth = Auth(store, CookieSigner(secret),
                ServerLimits(login_clock) if login_clock else ServerLimits(),
                server=server, signup=signup, secure=secure_cookies)
    static = Path(static_dir) if static_dir is not None else STATIC_DIR
    vacations = Vacations(store, manager)
    lobby.new_clock = vacations.pause_new
    notifier = Notifier(store, lobby, vacations, None if mail is None else Mailer(mail),
                        MailTokens(secret), "" if mail is None else mail.base_url, now)

    def actor(request: Request) -> Actor:
        return auth.actor(request)

    def server_only() -> None:
        if not server:
            raise NotFoundError("this route is of the server mode (hexgames serve --server)")

    async def index(request: Request) -> Response:
        page = static / "index.html"
        if not page.is_file():
            raise NotFoundError(f"the page is not installed ({page} is missing)")
        return FileResponse(page, media_type="text/html")

    async def document(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in documents.names():
            raise NotFoundError(f"there is no document {name[:40]!r}; there are "
                                f"{', '.join(documents.names())}")
        return HTMLResponse(await anyio.to_thread.run_sync(documents.page, name))

    async def meta(request: Request) -> Response:
        games = {}
        for name in GAME_NAMES:
            module = game_module(name)
            games[name] = {"sides": list(module.PLAYER_TAGS), "options": options_json(module)}
        levels = [{"name": name, "description": level.description}
                  for name, level in LEVELS.items()]
        return JSONResponse({"games": games, "levels": levels,
                             "mode": "server" if server else "local"})

    async def games(request: Request) -> Response:
        who = actor(request)
        if request.method == "GET":
            policy.require_account(who, "list the games")
            limit = _query_number(request, "limit", limits.GAMES_PAGE, 1,
                                  limits.MAX_GAMES_PAGE)
            offset = _query_number(request, "offset", 0, 0, None)
            mine = request.query_params.get("mine") == "1" and who.user_id is not None

            def page() -> tuple[list[JSON], int]:
                if mine:
                    assert who.user_id is not None
                    ids = store.game_ids_of(who.user_id, limit=limit, offset=offset)
                    rows = [row for row in (store.get(i, whole=False) for i in ids)
                            if row is not None]
                    total = store.count_games_of(who.user_id)
                else:  # summaries: no records or analyses read (issue 32)
                    rows = store.games(limit, offset, whole=False)
                    total = store.count()
                return [summary(row, manager.account_names(row)) for row in rows], total

            shown, total = await anyio.to_thread.run_sync(page)
            return JSONResponse({"games": shown, "total": total, "offset": offset,
                                 "limit": limit})
        body = await _json_body(request)
        if server:
            made = await anyio.to_thread.run_sync(lobby.play_ai, who, body)
            return JSONResponse(made, status_code=201)
        name = body.get("game")
        if not isinstance(name, str):
            raise AppError("\"game\" must be the name of a game "
                           f"({', '.join(GAME_NAMES)})")
        module = game_module(name)
        rules = rules_from_json(module, body.get("rules"))
        position = position_from_json(module, rules, body.get("position"))
        players = await anyio.to_thread.run_sync(check_players, body.get("players"))
        stored = await anyio.to_thread.run_sync(
            lambda: store.create(name.strip().lower(), rules.options(), players,
                                 position=position))
        return JSONResponse(summary(stored), status_code=201)

    def watched(request: Request) -> GameSession:
        return watched_by(request)[0]

    def watched_by(request: Request) -> tuple[GameSession, Actor]:
        session = manager.session(request.path_params["id"])
        who = actor(request)
        policy.check(who, "watch", session.facts())
        return session, who

    async def game(request: Request) -> Response:
        game_id = request.path_params["id"]
        if request.method == "DELETE":
            who = actor(request)

            def delete() -> None:
                if server:
                    stored = store.get(game_id)
                    if stored is None:
                        raise NotFoundError(f"no game with id {game_id[:40]!r}")
                    seats = stored.seats
                    facts = policy.GameFacts(
                        game_id, None if seats is None else (seats[0], seats[1]),
                        (stored.players[0] != "human", stored.players[1] != "human")
                        if len(stored.players) == 2 else (False, False), 0,
                        stored.result != "*",
                        stored.rated or "tournament" in stored.extra)
                    policy.check(who, "delete", facts)
                manager.delete(game_id)
                explorer.deleted(game_id)

            await anyio.to_thread.run_sync(delete)
            return JSONResponse({"deleted": game_id})
        session = await anyio.to_thread.run_sync(watched, request)

        def shown() -> JSON:
            with session.lock:  # not a move that is being saved, but the game as stored
                return session.summary()

        return JSONResponse(await anyio.to_thread.run_sync(shown))

    async def record(request: Request) -> Response:
        game_id = request.path_params["id"]
        session, who = await anyio.to_thread.run_sync(watched_by, request)

        def write() -> tuple[str, str | None]:
            with session.lock:
                hidden = policy.analysis_hidden(who, session.facts())
                return _record_text(session, engine=hidden is None), hidden

        text, hidden = await anyio.to_thread.run_sync(write)
        filename = f"{session.stored.game}-{game_id}.hgn"
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
        if hidden:
            headers[ANALYSIS_HIDDEN_HEADER] = hidden
        return Response(text, media_type="text/plain; charset=utf-8", headers=headers)

    async def picture(request: Request) -> Response:
        session = await anyio.to_thread.run_sync(watched, request)
        line = request.query_params.get("line")
        if line is not None and "ply" in request.query_params:  # one was ignored
            raise AppError("a picture shows a ply of the game or a line, not both: "
                           "give ply or line")
        try:
            from hexgames import svg
        except ImportError:
            return _error("board pictures are not available in this version of hexgames "
                          "(no hexgames.svg)", 501)

        def draw() -> tuple[str, str]:
            # The game's own board, or one the session keeps for the pages' views (the
            # position on view, mostly), so a picture replays no more than a view.
            with session.lock:
                moves = session.stored.moves
                if line is not None:
                    # a position of a side line: its moves from the start, by spaces
                    board, played = session.positions.board(
                        study.line_field(line.split(), "line"))
                    name = f"line{len(played)}"
                else:
                    ply = _query_number(request, "ply", len(moves), 0, None)
                    if ply > len(moves):
                        raise AppError(f"ply {ply} is out of range: the game has "
                                       f"{len(moves)} plies")
                    board = (session.board if ply == len(moves)
                             else session.positions.board(moves[:ply])[0])
                    name = f"ply{ply}"
                try:
                    return svg.board(board), name
                finally:
                    if not session.subscribers:
                        session.positions.clear()  # as when the last page leaves

        text, name = await anyio.to_thread.run_sync(draw)
        filename = f"{session.stored.game}-{session.stored.id}-{name}.svg"
        return Response(text, media_type="image/svg+xml", headers={
            "Content-Disposition": f'attachment; filename="{filename}"'})

    async def import_record(request: Request) -> Response:
        who = actor(request)
        policy.require_account(who, "import a record")
        body = await _json_body(request)
        text = upload_text(body.get("text"))  # a request without one is no import
        seats = None if not server else [who.user_id, who.user_id]
        if server:  # every attempt counts: each may cost the parsing of a MiB
            place = auth.limits.imports.take(str(who.user_id))
            if isinstance(place, float):
                raise TooManyError(f"at most {limits.MAX_IMPORTS_PER_USER} imports an hour: "
                                   f"{wait_text(place)}", place)
        ids = await anyio.to_thread.run_sync(_import, store, text, seats)
        return JSONResponse({"ids": ids}, status_code=201)

    # --- the server mode's routes ------------------------------------------------------

    async def me(request: Request) -> Response:
        shown = await anyio.to_thread.run_sync(auth.me, request)
        return JSONResponse({**shown, "watch": watch if server else None})

    async def login(request: Request) -> Response:
        server_only()
        return await auth.login(request, await _json_body(request))

    async def signup_route(request: Request) -> Response:
        server_only()
        return await auth.signup_route(request, await _json_body(request))

    async def logout(request: Request) -> Response:
        server_only()
        return await auth.logout(request)

    async def password(request: Request) -> Response:
        server_only()
        return await auth.password(request, await _json_body(request))

    async def challenges(request: Request) -> Response:
        server_only()
        who = actor(request)
        if request.method == "GET":
            return JSONResponse(await anyio.to_thread.run_sync(lobby.challenges, who))
        body = await _json_body(request)
        made = await anyio.to_thread.run_sync(lobby.create_challenge, who, body)
        return JSONResponse(made, status_code=201)

    async def challenge(request: Request) -> Response:
        server_only()
        who = actor(request)
        challenge_id = request.path_params["id"]
        await anyio.to_thread.run_sync(lobby.cancel, who, challenge_id)
        return JSONResponse({"cancelled": challenge_id})

    async def accept(request: Request) -> Response:
        server_only()
        who = actor(request)
        found = store.challenge(request.path_params["id"])
        made = await anyio.to_thread.run_sync(lambda: lobby.accept(who, found))
        return JSONResponse(made, status_code=201)

    async def invite(request: Request) -> Response:
        server_only()
        token = request.path_params["token"]
        if request.method == "GET":
            return JSONResponse(await anyio.to_thread.run_sync(
                lobby.invitation, actor(request), token))
        who = actor(request)
        found = store.challenge(invite=token[:100])
        made = await anyio.to_thread.run_sync(
            lambda: lobby.accept(who, found, by_invite=True))
        return JSONResponse(made, status_code=201)

    async def seek_route(request: Request) -> Response:
        server_only()
        who = actor(request)
        if request.method == "GET":
            return JSONResponse(await anyio.to_thread.run_sync(seeks.status, who))
        if request.method == "DELETE":
            return JSONResponse(await anyio.to_thread.run_sync(seeks.cancel, who))
        body = await _json_body(request)
        status, made = await anyio.to_thread.run_sync(seeks.seek, who, body)
        return JSONResponse(made, status_code=status)

    async def turn(request: Request) -> Response:
        server_only()
        return JSONResponse(await anyio.to_thread.run_sync(lobby.my_turn, actor(request)))

    async def ratings(request: Request) -> Response:
        server_only()
        game_name = request.query_params.get("game", "andantino")
        return JSONResponse(await anyio.to_thread.run_sync(
            lobby.rating_list, actor(request), game_name))

    async def player(request: Request) -> Response:
        server_only()
        return JSONResponse(await anyio.to_thread.run_sync(
            lobby.player, actor(request), request.path_params["name"]))

    async def explore(request: Request) -> Response:
        who = actor(request)
        policy.require_account(who, "use the opening explorer")
        params = dict(request.query_params)
        return JSONResponse(await anyio.to_thread.run_sync(explorer.query, who, params))

    async def explorer_import(request: Request) -> Response:
        who = actor(request)
        body = await _json_body(request)
        answer = await anyio.to_thread.run_sync(explorer_upload, store, who, body.get("text"))
        return JSONResponse(answer, status_code=201)

    async def tournament_list(request: Request) -> Response:
        server_only()
        who = actor(request)
        if request.method == "GET":
            return JSONResponse(await anyio.to_thread.run_sync(club_tournaments.listing, who))
        body = await _json_body(request)
        made = await anyio.to_thread.run_sync(club_tournaments.create, who, body)
        return JSONResponse(made, status_code=201)

    async def tournament_one(request: Request) -> Response:
        server_only()
        who = actor(request)
        tournament_id = request.path_params["id"]
        if request.method == "DELETE":
            await anyio.to_thread.run_sync(club_tournaments.cancel, who, tournament_id)
            return JSONResponse({"deleted": tournament_id})
        return JSONResponse(await anyio.to_thread.run_sync(club_tournaments.show, who,
                                                           tournament_id))

    async def tournament_action(request: Request) -> Response:
        server_only()
        who = actor(request)
        tournament_id = request.path_params["id"]
        action = request.path_params["action"]
        if action not in ("join", "leave", "start"):
            raise NotFoundError(f"a tournament has no action {action[:40]!r}: join, leave "
                                "or start")
        body = await _json_body(request) if action != "start" else {}
        if action == "join":
            shown = await anyio.to_thread.run_sync(club_tournaments.join, who, tournament_id, body)
        elif action == "leave":
            shown = await anyio.to_thread.run_sync(club_tournaments.leave, who, tournament_id, body)
        else:
            shown = await anyio.to_thread.run_sync(club_tournaments.start, who, tournament_id)
        return JSONResponse(shown)

    async def notifications(request: Request) -> Response:
        server_only()
        who = actor(request)
        if request.method == "GET":
            return JSONResponse(await anyio.to_thread.run_sync(notifier.settings, who))
        body = await _json_body(request)
        shown, confirmation = await anyio.to_thread.run_sync(notifier.change, who, body)
        if confirmation is not None:
            notifier.send_soon(confirmation)
        return JSONResponse(shown)

    async def vacation(request: Request) -> Response:
        server_only()
        who = actor(request)
        if request.method == "DELETE":
            return JSONResponse(await anyio.to_thread.run_sync(vacations.end, who))
        body = await _json_body(request)
        return JSONResponse(await anyio.to_thread.run_sync(vacations.start, who, body))

    async def mail_confirm(request: Request) -> Response:
        server_only()
        token = request.query_params.get("token", "")
        return HTMLResponse(await anyio.to_thread.run_sync(notifier.confirm, token))

    async def mail_stop(request: Request) -> Response:
        server_only()
        token = request.query_params.get("token", "")
        if request.method == "GET":
            return HTMLResponse(notifier.stop_form(token))
        if not token:  # the page's form sends it in the body (a short urlencoded one)
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > 4096:
                    raise TooLargeError("a form to stop the mails is at most 4096 bytes")
            fields = urllib.parse.parse_qs(body.decode("latin-1"), max_num_fields=4)
            token = (fields.get("token") or [""])[0]
        return HTMLResponse(await anyio.to_thread.run_sync(notifier.stop, token))

    async def socket(websocket: WebSocket) -> None:
        await _serve_socket(websocket, manager, hosts, auth, guests=watch == "anonymous")

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(str(exc.detail), exc.status_code)

    stopping = threading.Event()

    def every(interval: float, work: Callable[[], object], what: str) -> None:
        while not stopping.wait(interval):
            try:
                work()
            except Exception:
                log.exception("%s failed", what)

    def every_once(work: Callable[[], object], what: str) -> None:
        try:
            work()
        except Exception:
            log.exception("%s failed", what)

    rounds = itertools.count()

    def housekeeping() -> None:
        """Close the sockets whose login ended elsewhere and let go of games kept in
        memory that nobody shows; every :data:`EXPIRE_EVERY` rounds, delete expired
        sessions and invitations (a database locked by another program just waits for
        the next round)."""
        if server:
            auth.check_sockets()
            if next(rounds) % EXPIRE_EVERY == 0:
                manager.forget_names()  # an account removed by `hexgames user remove`
                try:
                    store.expire()
                except StoreBusyError as error:
                    log.warning("expired sessions not deleted this time: %s", error)
            club_tournaments.advance_all()  # a round whose last game ended while this was down
        manager.evict_idle()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if pool is not None and prestart > 0:
            pool.start_server()  # here, in the main thread: see WorkerPool.start_server
            threading.Thread(target=pool.prestart, args=(prestart,), daemon=True).start()
        await anyio.to_thread.run_sync(manager.watch_stored)
        await anyio.to_thread.run_sync(manager.sweep)  # flags that fell while it was down
        # the games that ended before the explorer's index was made (schema 9)
        threading.Thread(target=every_once, args=(explorer.catch_up, "the explorer's index"),
                         name="hexgames-explorer", daemon=True).start()
        if server:
            await anyio.to_thread.run_sync(club_tournaments.advance_all)
        if sweep_interval is not None:
            threading.Thread(target=every, args=(sweep_interval, manager.sweep,
                                                 "the clock sweep"),
                             name="hexgames-clocks", daemon=True).start()
        if session_check_interval is not None:
            threading.Thread(target=every, args=(session_check_interval, housekeeping,
                                                 "housekeeping"),
                             name="hexgames-housekeeping", daemon=True).start()
        mailing = None
        if server and mail is not None and mail_interval is not None:
            mailing = asyncio.create_task(notifier.run(mail_interval))
        yield
        if mailing is not None:
            mailing.cancel()
            with contextlib.suppress(BaseException):
                await mailing
        stopping.set()
        manager.close()

    def route(path: str, endpoint: _Endpoint, methods: list[str] | None = None) -> Route:
        return Route(path, _guarded(endpoint, hosts, auth), methods=methods)

    routes = [
        route("/", index),
        route("/docs/{name}", document),
        route("/api/meta", meta),
        route("/api/me", me),
        route("/api/games", games, ["GET", "POST"]),
        route("/api/games/{id}", game, ["GET", "DELETE"]),
        route("/api/games/{id}/record", record),
        route("/api/games/{id}/svg", picture),
        route("/api/import", import_record, ["POST"]),
        route("/api/auth/login", login, ["POST"]),
        route("/api/auth/signup", signup_route, ["POST"]),
        route("/api/auth/logout", logout, ["POST"]),
        route("/api/auth/password", password, ["POST"]),
        route("/api/challenges", challenges, ["GET", "POST"]),
        route("/api/challenges/{id}", challenge, ["DELETE"]),
        route("/api/challenges/{id}/accept", accept, ["POST"]),
        route("/api/invites/{token}", invite, ["GET"]),
        route("/api/invites/{token}/accept", invite, ["POST"]),
        route("/api/turn", turn),
        route("/api/seeks", seek_route, ["GET", "POST", "DELETE"]),
        route("/api/ratings", ratings),
        route("/api/users/{name}", player),
        route("/api/explorer", explore),
        route("/api/explorer/import", explorer_import, ["POST"]),
        route("/api/tournaments", tournament_list, ["GET", "POST"]),
        route("/api/tournaments/{id}", tournament_one, ["GET", "DELETE"]),
        route("/api/tournaments/{id}/{action}", tournament_action, ["POST"]),
        route("/api/account/notifications", notifications, ["GET", "POST"]),
        route("/api/account/vacation", vacation, ["POST", "DELETE"]),
        # a mail's links: the signed token is the authority (a mail program's one-click
        # stop sends no Origin and no session), so no CSRF check; another site's page
        # is still refused
        Route("/api/mail/confirm", _guarded(mail_confirm, hosts), methods=["GET"]),
        Route("/api/mail/stop", _guarded(mail_stop, hosts), methods=["GET", "POST"]),
        WebSocketRoute("/ws/games/{id}", socket),
        Mount("/static", StaticFiles(directory=static, check_dir=False), name="static"),
    ]
    middleware = []
    if hosts is not None:
        middleware.append(Middleware(_HostCheck, policy=hosts))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers={HTTPException: http_error})
    app.state.manager = manager
    app.state.store = store
    app.state.hosts = hosts
    app.state.auth = auth
    app.state.lobby = lobby
    app.state.explorer = explorer
    app.state.tournaments = club_tournaments
    app.state.seeks = seeks
    app.state.housekeeping = housekeeping
    app.state.notifier = notifier
    return app


def _query_number(request: Request, name: str, default: int, low: int,
                  high: int | None) -> int:
    """The whole number of query parameter ``name`` (ASCII digits, ``low`` .. ``high``),
    or ``default`` when it is missing.

    Raises:
        AppError: naming the parameter for another value.
    """
    text = request.query_params.get(name)
    if text is None:
        return default
    if not re.fullmatch(r"[0-9]{1,12}", text):
        raise AppError(f"{name} must be a whole number, not {text[:40]!r}")
    number = int(text)
    if number < low or (high is not None and number > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise AppError(f"{name} must be {bound}, not {number}")
    return number


def _record_text(session: GameSession, *, engine: bool = True) -> str:
    """The game of ``session`` as ``.hgn`` text (its lock held): its study record (every
    tag, comment, NAG and variation it holds, the main line the game; without
    ``engine``, without what an engine wrote into it:
    :meth:`~hexgames.web.session.GameSession.unannotated`), with the accounts' names in
    the player tags (server mode), the ``TimeControl`` tag and each move's clock reading
    as a ``{[%clk 0:04:32]}`` comment after the move's own comment (docs/records.md)."""
    stored = session.stored
    record = (session.record if engine else session.unannotated() or session.record).copy()
    tags = record.tags
    if session.seed_hidden():
        tags.pop(study.SEED_TAG, None)
    if session.accounts_name_players():  # else the record's own tags (or none)
        for tag, name in zip(session.names, session.player_names(), strict=True):
            tags[tag] = name
    clock = session.clock
    if clock is not None:
        tags["TimeControl"] = clock.control.tag()
        if clock.control.kind == "correspondence" and clock.control.cap is not None and \
                clock.control.cap != clock.control.base:
            tags["TimeBank"] = str(int(clock.control.cap))
        nodes = list(record.mainline())
        for node, reading in zip(nodes, clock.readings[:len(stored.moves)], strict=False):
            reading_text = clk_text(reading)
            node.comment = f"{node.comment} {reading_text}" if node.comment else reading_text
    if stored.rated:
        tags["Rated"] = "yes"
    return study.write(record)


def _import(store: GameStore, text: object,
            seats: list[int | None] | None = None) -> list[str]:
    """Store every game of a ``.hgn`` text for two people (in server mode both seats
    the importer's: ``seats``); their ids.

    Raises:
        AppError: naming the first problem of the record (nothing is stored then).
        TooLargeError: for a text over :data:`hexgames.limits.MAX_IMPORT_BYTES` or of
            more than :data:`hexgames.limits.MAX_IMPORT_GAMES` games.
    """
    records = uploaded_records(text, "imported")
    games = []
    for index, record in enumerate(records, 1):
        board = record.board()
        moves = [move_text(move) for move in board.move_stack]
        termination = record.tags.get("Termination")
        outcome = board.outcome()
        if outcome is not None:
            termination = outcome.termination.value
        elif record.result == "*":
            termination = None
        result = record.result
        if record.tags.get("Draw") == "agreement" and result == "*" and outcome is None:
            result, termination = "1/2-1/2", "agreement"  # as the server mode writes it
        size = study.count_nodes(record)
        if size > limits.MAX_STUDY_NODES:
            raise TooLargeError(f"game {index} of the record holds {size} moves with its "
                                f"variations: a game may hold at most "
                                f"{limits.MAX_STUDY_NODES} (hexgames.limits."
                                "MAX_STUDY_NODES); nothing was stored")
        try:
            study.canonical_moves(record)
        except HexgamesError as error:
            raise AppError(f"the record cannot be imported: {error}") from None
        module = game_module(record.game)
        names = [record.tags.get(tag) or study.UNKNOWN for tag in module.PLAYER_TAGS]
        games.append(StoredGame("", record.game, board.rules.options(),
                                record.tags.get("Position"), ["human", "human"], moves,
                                result, termination,
                                seats=None if seats is None else list(seats),
                                extra={"imported": True}, record=study.write(record),
                                player_names=names))
    return [stored.id for stored in store.create_many(games)]


async def _serve_socket(websocket: WebSocket, manager: GameManager,
                        hosts: HostPolicy | None, auth: Auth, *, guests: bool = False) -> None:
    """One page's socket on one game: state on connect, then its messages in order. In
    server mode the socket must carry this server's ``Origin`` and a session cookie,
    unless ``guests`` (``--watch anonymous``): then a socket without a login watches
    (:data:`~hexgames.web.policy.GUEST`), at most
    :data:`hexgames.limits.MAX_ANONYMOUS_SOCKETS` of them at once."""
    await websocket.accept()
    game_id = websocket.path_params.get("id", "")
    origin = _foreign_origin(websocket.headers, hosts)
    if origin is None and auth.server and websocket.headers.get("origin") is None:
        origin = "nowhere (no Origin header)"
    if origin is not None:
        # Another site's page in the person's browser may not drive their games.
        log.warning("refused: a socket of game %.40s from %.60s", game_id, origin)
        await websocket.send_json({"type": "error", "message":
                                   f"a page from {origin[:60]} may not use this server"})
        await websocket.close(CLOSE_FORBIDDEN)
        return
    actor = await anyio.to_thread.run_sync(auth.actor, websocket)
    if actor.anonymous and guests and auth.server:
        actor = policy.GUEST
    if actor.anonymous and not actor.guest:
        log.warning("refused: a socket of game %.40s without a session", game_id)
        await websocket.send_json({"type": "error", "message":
                                   "log in first: only a logged-in account may watch"})
        await websocket.close(CLOSE_LOGIN)
        return
    try:
        await anyio.to_thread.run_sync(manager.session, game_id)  # it can be opened
    except AppError as error:
        await websocket.send_json({"type": "error", "message": str(error)})
        await websocket.close(CLOSE_NOT_FOUND)
        return
    except Exception as error:
        log.exception("opening game %.40r failed", game_id)
        await websocket.send_json({"type": "error", "message": f"internal error: {error}"})
        await websocket.close(1011)
        return
    subscriber = Subscriber(asyncio.get_running_loop(), actor,
                            auth.token(websocket) if auth.server and not actor.guest
                            else None)
    refused = auth.sockets.add(subscriber)
    if refused is not None:
        log.warning("refused: a socket of game %.40s of %s: %s", game_id,
                    actor.describe(), refused)
        await websocket.send_json({"type": "error", "message": refused})
        await websocket.close(CLOSE_TOO_MANY)
        return

    async def sender() -> None:
        while True:
            message = await subscriber.queue.get()
            if isinstance(message, Outgoing):
                subscriber.taken(message)
                if not message.dropped:
                    await websocket.send_text(message.text)
                continue
            if isinstance(message, Closing):
                with contextlib.suppress(Exception):
                    await websocket.send_json({"type": "error", "message": message.message})
                    await websocket.close(message.code)
                return
            if message is None:
                if session is None or not session.closed:
                    return
                with contextlib.suppress(Exception):
                    await websocket.send_json({"type": "error",
                                               "message": f"game {game_id} was closed"})
                    await websocket.close(CLOSE_NOT_FOUND)
                return

    def act(text: str) -> bool:
        """Handle one message as the socket's login is now; ``False`` if it has ended."""
        assert session is not None
        if not subscriber.actor.guest and \
                session.actor_read(subscriber, lambda: auth.socket_actor(subscriber)) is None:
            return False
        session.handle(text, subscriber)
        return True

    session: GameSession | None = None
    send_task = asyncio.create_task(sender())
    try:
        try:
            session = await anyio.to_thread.run_sync(manager.subscribe, game_id, subscriber)
        except policy.ForbiddenError as error:
            subscriber.send({"type": "error", "message": str(error)})
            await asyncio.sleep(0)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(_drain(subscriber), 1.0)
            await websocket.close(CLOSE_FORBIDDEN)
            return
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                subscriber.send({"type": "error",
                                 "message": "messages are JSON text, not binary frames"})
                continue
            if len(text) > limits.MAX_MESSAGE_BYTES // 4 and \
                    len(text.encode("utf-8", "surrogatepass")) > limits.MAX_MESSAGE_BYTES:
                subscriber.send({"type": "error", "message":
                                 f"the message is longer than {limits.MAX_MESSAGE_BYTES} "
                                 "bytes (hexgames.limits.MAX_MESSAGE_BYTES)"})
                continue
            if not await anyio.to_thread.run_sync(act, text):
                log.warning("refused: a message on a socket of game %.40s whose login "
                            "ended (%s)", game_id, actor.describe())
                subscriber.close(CLOSE_LOGIN, LOGIN_ENDED)
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    except AppError as error:
        subscriber.send({"type": "error", "message": str(error)})
    except Exception:
        log.exception("socket of game %s failed", game_id)
    finally:
        auth.sockets.remove(subscriber)
        if session is not None:
            session.unsubscribe(subscriber)
        subscriber.send(None)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(send_task, 1.0)
        send_task.cancel()


async def _drain(subscriber: Subscriber) -> None:
    """Wait until the socket's sender has taken every queued message."""
    while not subscriber.queue.empty():
        await asyncio.sleep(0.01)
