"""The browser app of ``hexgames serve``: a Starlette server (:mod:`hexgames.web.app`)
with games stored in SQLite (:mod:`hexgames.web.store`), the AI in worker threads
(:mod:`hexgames.web.session`) and the page in ``static/``.

The protocol between page and server is docs/web-protocol.md. Needs the ``web`` extra
(starlette, uvicorn, websockets, platformdirs).
"""

from __future__ import annotations

from hexgames.web.app import create_app

__all__ = ["create_app"]
