"""The ``serve`` command: start the browser app (:mod:`hexgames.web`, the ``web`` extra)
on ``--host`` and ``--port``, with its games database (``--db``). The web app and uvicorn
are imported only when the command runs."""

from __future__ import annotations

import threading
from pathlib import Path

import click

from hexgames import limits
from hexgames.cli.display import shorten
from hexgames.cli.errors import InputError
from hexgames.cli.options import WholeNumberType


def default_db_path() -> Path:
    """The browser app's games database when ``--db`` is not given: ``games.db`` in the
    user's data directory (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("hexgames", appauthor=False)) / "games.db"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default serves this computer only.")
@click.option("--port", type=WholeNumberType(min=1, max=65535), default=8000,
              show_default=True, help="Port to listen on.")
@click.option("--public-host", "public_hosts", multiple=True, metavar="NAME",
              help="A host name or address people open the app at, besides this "
                   "computer's own (repeatable); needed with --host 0.0.0.0 or ::.")
@click.option("--db", "db", metavar="PATH",
              help="The games database (default: games.db in your user data directory).")
@click.option("--open", "open_browser", is_flag=True, help="Open the app in the web browser.")
def serve(host: str, port: int, public_hosts: tuple[str, ...], db: str | None,
          open_browser: bool) -> None:
    """Start the browser app: play, review and analyse games in a web browser.

    Every game is kept in a SQLite file, each move saved as it is played, so a stopped
    server loses nothing and lists every game when started again. Ctrl-C stops it.

    Against pages of other sites, the server answers only requests addressed to it: on
    a loopback address (the default) every loopback address and localhost; on every
    address (--host 0.0.0.0 or ::) also the --public-host names, which must be given.
    """
    import socket
    import webbrowser

    try:
        import uvicorn

        from hexgames.web import create_app
        from hexgames.web.hosts import HostError, policy_for_bind
        from hexgames.web.store import StoreError
    except ModuleNotFoundError as error:
        raise InputError(f"the browser app needs the web extra: pip install "
                         f"'hexgames[web]' (missing module {error.name})") from None
    try:
        hosts = policy_for_bind(host, public_hosts)
    except HostError as error:
        raise InputError(str(error)) from None
    path = Path(db) if db else default_db_path()
    try:
        app = create_app(path, prestart=1, hosts=hosts)
    except StoreError as error:
        raise InputError(str(error)) from None
    try:
        with socket.create_server((host, port),
                                  family=socket.AF_INET6 if ":" in host else socket.AF_INET):
            pass
    except OSError as error:
        raise InputError(f"cannot listen on {shorten(host)}:{port}: "
                         f"{error.strerror or error}") from None
    if not host.strip() or host.strip() in ("0.0.0.0", "::"):
        # every address: this computer's own is one of them (and 0.0.0.0 is no host)
        shown = "[::1]" if ":" in host else "127.0.0.1"
    else:
        shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    click.echo(f"hexgames: the browser app is at {url} (games in {path}); Ctrl-C stops it")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning",
                ws_max_size=limits.MAX_MESSAGE_BYTES,
                h11_max_incomplete_event_size=limits.MAX_HEADER_BYTES)
