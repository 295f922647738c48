"""The browser app of ``hexgames serve``: a Starlette server (:mod:`hexgames.web.app`)
with games stored in SQLite (:mod:`hexgames.web.store`), each open game a session
(:mod:`hexgames.web.session`, kept by :mod:`hexgames.web.manager`) with its AI in worker
threads (:mod:`hexgames.web.ai`), and the page in ``static/``. Each game keeps its study
record (side lines, comments, NAGs, every tag: :mod:`hexgames.web.study`), and a finished
game can be analysed whole (:mod:`hexgames.web.game_analysis`). The rulebook and the
documents it links to, shipped in ``docs/``, are served as pages
(:mod:`hexgames.web.documents`).

The server mode (``hexgames serve --server``, docs/server.md) adds accounts and login
sessions (:mod:`~hexgames.web.accounts`, :mod:`~hexgames.web.auth`), who may do what
(:mod:`~hexgames.web.policy`), clocks (:mod:`~hexgames.web.clock`), challenges and the
lobby (:mod:`~hexgames.web.lobby`), Glicko-2 ratings (:mod:`~hexgames.web.ratings`) and
their tables (:mod:`~hexgames.web.tables`).

The protocol between page and server is docs/web-protocol.md. Needs the ``web`` extra
(starlette, uvicorn, websockets, platformdirs, argon2-cffi, itsdangerous,
markdown-it-py).
"""

from __future__ import annotations

from hexgames.web.app import create_app

__all__ = ["create_app"]
