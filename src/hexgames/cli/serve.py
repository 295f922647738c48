"""The ``serve`` command: start the browser app (:mod:`hexgames.web`, the ``web`` extra)
on ``--host`` and ``--port``, with its games database (``--db``), in the local mode (one
person, no login; the default) or the server mode (``--server``: accounts, seats,
clocks, challenges, ratings; docs/server.md). Options may come from a TOML file
(``--config``); the command line wins. The web app and uvicorn are imported only when
the command runs."""

from __future__ import annotations

import os
import threading
import tomllib
from pathlib import Path
from typing import Any

import click

from hexgames import limits
from hexgames.cli.errors import InputError
from hexgames.cli.options import WholeNumberType
from hexgames.record.errors import shorten

#: The keys a ``--config`` file may hold, with their types.
CONFIG_KEYS: dict[str, type | tuple[type, ...]] = {
    "server": bool, "host": str, "port": int, "db": str, "public_host": list,
    "signup": str, "trust_proxy": bool, "forwarded_allow_ips": str,
    "secure_cookies": bool, "ai_ratings": dict, "chat": str, "watch": str,
    "tournaments": str,
}


#: The range of a fixed AI rating (``--ai-rating``, ``[ai_ratings]``), on the Glicko scale.
MIN_AI_RATING = 0.0
MAX_AI_RATING = 5000.0


def default_db_path() -> Path:
    """The browser app's games database when ``--db`` is not given: ``games.db`` in the
    user's data directory (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("hexgames", appauthor=False)) / "games.db"


#: The longest path a system call takes, in bytes (Linux's PATH_MAX, the terminating
#: zero included).
_MAX_PATH = 4095


def db_path(db: str | None) -> Path:
    """The games database that ``--db`` names, or :func:`default_db_path` without one.

    Raises:
        InputError: for an empty path (it named the default database) or a folder's (it
            ends in a path separator, ``.`` or ``..``). ``:memory:`` is a file too (in
            the working directory), not SQLite's database in memory, which would lose
            the games.
    """
    if db is None:
        return default_db_path()
    if not db.strip():
        raise InputError("--db names no file: the path is empty")
    size = len(db.encode("utf-8", "surrogatepass"))  # any text: no encoding error here
    if size > _MAX_PATH:
        raise InputError(f"--db is too long to be a path: {size} bytes (at most {_MAX_PATH})")
    if os.path.basename(db) in ("", ".", ".."):  # Path() drops a last "/" or "/."
        raise InputError(f"--db names a folder, not a file: {db!r}")
    path = Path(db)
    if str(path) == ":memory:":  # SQLite's name of a database in memory: a file here
        path = path.absolute()
    return path


def check_forwarded_allow_ips(text: str) -> None:
    """``--forwarded-allow-ips``: ``*`` alone (trust every address), or addresses and
    networks separated by commas (``127.0.0.1``, ``10.0.0.0/8``, ``::1``), read as
    uvicorn reads them: a network strictly (no host bits), and an item that is neither
    an address nor a network is no error there but trusts nothing.

    Raises:
        InputError: naming the first item that uvicorn would not take as meant.
    """
    import ipaddress

    if text == "*":
        return
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue  # "127.0.0.1," as uvicorn takes it
        if item == "*":
            raise InputError("--forwarded-allow-ips: * trusts every address only alone "
                             "(exactly *, without spaces or other items)")
        try:
            if "/" in item:
                ipaddress.ip_network(item)
            else:
                ipaddress.ip_address(item)
        except ValueError as error:
            why = ("has host bits set" if "host bits" in str(error)
                   else "is not an IP address or network")
            raise InputError(
                f"--forwarded-allow-ips: {shorten(item)!r} {why} (e.g. 127.0.0.1,"
                f"10.0.0.0/8, or * for any)") from None


def _server_class(uvicorn: Any, first_stop: list[int]) -> Any:
    """uvicorn's ``Server``, whose second Ctrl-C forces the stop as uvicorn's does, but
    without the tracebacks then logged of the app's cancelled shutdown and of the AI
    searches it ends (the games are saved move by move, so a forced stop loses
    nothing). The first stop signal it catches is put in ``first_stop`` if that is
    still empty (uvicorn raises them again after its shutdown, the last first)."""
    import logging

    class Server(uvicorn.Server):  # type: ignore[misc]
        def handle_exit(self, sig: int, frame: Any) -> None:
            if not first_stop:
                first_stop.append(sig)
            super().handle_exit(sig, frame)
            if self.force_exit:  # and the searches that the stop cuts short
                for name in ("uvicorn.error", "hexgames.web"):
                    logging.getLogger(name).setLevel(logging.CRITICAL)

    return Server


def read_config(path: str) -> dict[str, Any]:
    """The settings of a TOML config file (docs/server.md lists the keys).

    Raises:
        InputError: for a file that cannot be read, is not TOML, or holds an unknown
            key, a value of the wrong type or a port outside 1 to 65535.
    """
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except OSError as error:
        raise InputError(f"cannot read the config file {shorten(path)}: "
                         f"{error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"the config file {shorten(path)} is not TOML: {error}") from None
    for key, value in data.items():
        kind = CONFIG_KEYS.get(key)
        if kind is None:
            raise InputError(f"the config file {shorten(path)} has an unknown key {key!r} "
                             f"(known: {', '.join(CONFIG_KEYS)})")
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InputError(f"the config file's {key} has the wrong type")
    port = data.get("port")
    if port is not None and not 1 <= port <= 65535:  # as --port; bind() raised OverflowError
        raise InputError(f"the config file's port must be 1 to 65535, not {shorten(str(port))}")
    return data


#: The environment variable that holds the SMTP server's password (``--smtp-user``).
SMTP_PASSWORD_ENV = "HEXGAMES_SMTP_PASSWORD"


def mail_config(smtp: str | None, user: str | None, password_file: str | None,
                sender: str | None, starttls: bool, mail_url: str | None,
                public_hosts: tuple[str, ...], server_mode: bool) -> Any:
    """The :class:`hexgames.web.mail.MailConfig` of the ``--smtp`` options, or ``None``
    without ``--smtp``. The password comes from ``--smtp-password-file`` or the
    environment variable :data:`SMTP_PASSWORD_ENV`, never from the command line.

    Raises:
        InputError: naming the option that is missing or wrong.
    """
    from hexgames.web.mail import AddressError, MailConfig, check_address, parse_server

    if smtp is None:
        given = [name for name, value in (("--smtp-user", user), ("--smtp-from", sender),
                                           ("--smtp-password-file", password_file),
                                           ("--smtp-starttls", starttls or None),
                                           ("--mail-url", mail_url)) if value is not None]
        if given:
            raise InputError(f"{given[0]} needs --smtp HOST:PORT (the SMTP server)")
        return None
    if not server_mode:
        raise InputError("--smtp is of the server mode: give --server too")
    try:
        host, port = parse_server(smtp)
    except ValueError as error:
        raise InputError(f"--smtp: {error}") from None
    if sender is None:
        raise InputError("--smtp needs --smtp-from ADDRESS (the mails' sender)")
    try:
        sender = check_address(sender)
    except AddressError as error:
        raise InputError(f"--smtp-from: {error}") from None
    password = None
    if password_file is not None:
        try:
            with open(password_file, encoding="utf-8") as file:
                text = file.read(4096)
            password = text.splitlines()[0] if text.strip() else ""
        except (OSError, UnicodeDecodeError) as error:
            why = error.strerror if isinstance(error, OSError) else "it is not text"
            raise InputError(f"--smtp-password-file: cannot read {shorten(password_file)}: "
                             f"{why or error}") from None
        if user is None:
            raise InputError("--smtp-password-file needs --smtp-user NAME")
    elif user is not None:
        password = os.environ.get(SMTP_PASSWORD_ENV)
        if password is None:
            raise InputError(f"--smtp-user needs the password: in the environment "
                             f"variable {SMTP_PASSWORD_ENV} or a file "
                             "(--smtp-password-file PATH); never on the command line")
    if mail_url is None:
        if not public_hosts:
            raise InputError("--smtp needs the address the mails' links open: "
                             "--public-host NAME (https://NAME) or --mail-url URL")
        mail_url = f"https://{public_hosts[0]}"
    elif not mail_url.startswith(("http://", "https://")) or len(mail_url) > 200:
        raise InputError(f"--mail-url must be an http:// or https:// address, not "
                         f"{shorten(mail_url)}")
    return MailConfig(host, port, sender, mail_url.rstrip("/"), user=user,
                      password=password, starttls=starttls)


def _ai_ratings(pairs: tuple[str, ...], config: dict[str, Any]) -> dict[str, float]:
    from hexgames.engine.players import LEVELS

    ratings: dict[str, float] = {}
    for level, value in dict(config.get("ai_ratings", {})).items():
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise InputError(f"ai_ratings.{level} must be a number")
        ratings[str(level)] = float(value)
    for pair in pairs:
        level, _, value = pair.partition("=")
        try:
            ratings[level.strip()] = float(value)
        except ValueError:
            raise InputError(f"--ai-rating {shorten(pair)}: give LEVEL=RATING, e.g. "
                             "easy=1200") from None
    for level, rating in ratings.items():
        if level not in LEVELS:
            raise InputError(f"--ai-rating: {shorten(level)} is no AI level "
                             f"({', '.join(LEVELS)})")
        # NaN would make every rating it meets NaN, and a rating far off the scale
        # overflows the Glicko-2 update when a rated game ends.
        if not MIN_AI_RATING <= rating <= MAX_AI_RATING:
            raise InputError(f"--ai-rating {level}: a rating is a number from "
                             f"{MIN_AI_RATING:g} to {MAX_AI_RATING:g}, not {rating:g}")
    return ratings


@click.command("serve")
@click.option("--host", default=None,
              help="Address to listen on [default: 127.0.0.1]; the default serves this "
                   "computer only.")
@click.option("--port", type=WholeNumberType(min=1, max=65535), default=None,
              help="Port to listen on [default: 8000].")
@click.option("--public-host", "public_hosts", multiple=True, metavar="NAME",
              help="A host name or address people open the app at, besides this "
                   "computer's own (repeatable); needed with --host 0.0.0.0 or ::.")
@click.option("--db", "db", metavar="PATH",
              help="The games database (default: games.db in your user data directory).")
@click.option("--open", "open_browser", is_flag=True, help="Open the app in the web browser.")
@click.option("--server", "server_mode", is_flag=True, default=None,
              help="Server mode: accounts, seats, clocks, challenges and ratings, for "
                   "people on other computers (docs/server.md).")
@click.option("--signup", type=click.Choice(["open", "invite", "closed"]), default=None,
              help="Server mode: who may sign up [default: open]; invite: only with an "
                   "invitation link; closed: accounts come from 'hexgames user add'.")
@click.option("--trust-proxy", is_flag=True, default=None,
              help="Believe X-Forwarded-For and X-Forwarded-Proto from the reverse proxy "
                   "(--forwarded-allow-ips); off by default.")
@click.option("--forwarded-allow-ips", default=None, metavar="IPS",
              help="The proxy addresses trusted with --trust-proxy [default: 127.0.0.1].")
@click.option("--ai-rating", "ai_rating", multiple=True, metavar="LEVEL=RATING",
              help="Server mode: give an AI level a fixed rating, so that games against "
                   "it may be rated (repeatable).")
@click.option("--smtp", metavar="HOST:PORT", default=None,
              help="Server mode: send turn notifications by e-mail through this SMTP "
                   "server (docs/server.md).")
@click.option("--smtp-user", metavar="NAME", default=None,
              help="The login at the SMTP server; its password comes from the "
                   "environment variable HEXGAMES_SMTP_PASSWORD or --smtp-password-file.")
@click.option("--smtp-password-file", metavar="PATH", default=None,
              help="A file holding the SMTP password (its first line).")
@click.option("--smtp-from", metavar="ADDRESS", default=None,
              help="The mails' sender address (needed with --smtp).")
@click.option("--smtp-starttls", is_flag=True, default=None,
              help="Upgrade the SMTP connection with STARTTLS before the login.")
@click.option("--mail-url", metavar="URL", default=None,
              help="The address the mails' links open [default: https:// and the first "
                   "--public-host].")
@click.option("--chat", type=click.Choice(["on", "off"]), default=None,
              help="Server mode: the players' chat in a game [default: on].")
@click.option("--watch", type=click.Choice(["accounts", "anonymous"]), default=None,
              help="Server mode: who may watch games [default: accounts]; anonymous: "
                   "also people without an account (they see the moves, nothing else).")
@click.option("--tournaments", type=click.Choice(["admins", "members"]), default=None,
              help="Server mode: who may create tournaments [default: admins]; members: "
                   "every account.")
@click.option("--config", "config_path", metavar="FILE",
              help="A TOML file with these settings (docs/server.md); options given "
                   "here win.")
def serve(host: str | None, port: int | None, public_hosts: tuple[str, ...],
          db: str | None, open_browser: bool, server_mode: bool | None,
          signup: str | None, trust_proxy: bool | None, forwarded_allow_ips: str | None,
          ai_rating: tuple[str, ...], smtp: str | None, smtp_user: str | None,
          smtp_password_file: str | None, smtp_from: str | None,
          smtp_starttls: bool | None, mail_url: str | None, chat: str | None,
          watch: str | None, tournaments: str | None,
          config_path: str | None) -> None:
    """Start the browser app: play, review and analyse games in a web browser.

    Every game is kept in a SQLite file, each move saved as it is played, so a stopped
    server loses nothing and lists every game when started again. Ctrl-C stops it (exit
    status 130); so does SIGTERM, a service manager's stop, with exit status 0.

    Against pages of other sites, the server answers only requests addressed to it: on
    a loopback address (the default) every loopback address and localhost; on every
    address (--host 0.0.0.0 or ::) also the --public-host names, which must be given.

    With --server people sign up and log in, and the server decides who may move.
    """
    import os
    import signal
    import socket
    import webbrowser

    config = read_config(config_path) if config_path else {}
    host = host if host is not None else str(config.get("host", "127.0.0.1"))
    port = port if port is not None else int(config.get("port", 8000))
    if not public_hosts:
        public_hosts = tuple(str(name) for name in config.get("public_host", []))
    db = db if db is not None else config.get("db")
    server_mode = bool(server_mode if server_mode is not None else config.get("server"))
    signup = signup or str(config.get("signup", "open"))
    trust = bool(trust_proxy if trust_proxy is not None else config.get("trust_proxy"))
    allow = forwarded_allow_ips or str(config.get("forwarded_allow_ips", "127.0.0.1"))
    check_forwarded_allow_ips(allow)
    ratings = _ai_ratings(ai_rating, config)
    mail = mail_config(smtp, smtp_user, smtp_password_file, smtp_from,
                       bool(smtp_starttls), mail_url, public_hosts, server_mode)
    chat = chat or str(config.get("chat", "on"))
    if chat not in ("on", "off"):
        raise InputError(f"chat must be on or off, not {shorten(chat)}")
    watch = watch or str(config.get("watch", "accounts"))
    if watch not in ("accounts", "anonymous"):
        raise InputError(f"watch must be accounts or anonymous, not {shorten(watch)}")
    if signup not in ("open", "invite", "closed"):
        raise InputError(f"signup must be open, invite or closed, not {shorten(signup)}")
    tournaments = tournaments or str(config.get("tournaments", "admins"))
    if tournaments not in ("admins", "members"):
        raise InputError(f"tournaments must be admins or members, not "
                         f"{shorten(tournaments)}")
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
    try:  # before the database is made
        with socket.create_server((host, port),
                                  family=socket.AF_INET6 if ":" in host else socket.AF_INET):
            pass
    except OSError as error:  # its str() also names the address, as a tuple
        # A name that does not resolve (socket.gaierror) numbers its errors apart from
        # the system's: its strerror says what went wrong, os.strerror would not.
        # A name that does not resolve came as an OSError with a negative errno (an
        # EAI_ code, "Unknown error -2" to os.strerror).
        told = (error.strerror or "").split(" (while attempting")[0]
        if isinstance(error, socket.gaierror) or (error.errno or 0) < 0:
            why = f"cannot find the address of this host name ({told or 'no such name'})"
        else:
            why = os.strerror(error.errno) if error.errno else str(error)
        raise InputError(f"cannot listen on {shorten(host)}:{port}: {why}") from None
    path = db_path(db)
    # uvicorn shuts down gracefully on Ctrl-C (SIGINT) and SIGTERM and then raises the
    # signals again with the handler it found: this one, which notes them (a
    # KeyboardInterrupt there, or a second Ctrl-C, printed tracebacks; SIGTERM's default
    # ended the process before the store was closed, leaving its -wal and -shm files),
    # so that the store is closed and the command ends with status 130 after Ctrl-C like
    # the others, 0 after SIGTERM (a service manager's stop: a clean one) or SIGHUP (its
    # terminal closed), by the first signal. It is set before the store opens: a signal
    # while it opens closes it and serves nothing; one before uvicorn listens stops it as
    # soon as it does.
    first_stop: list[int] = []
    server: Any = None

    def on_stop(signum: int, frame: object) -> None:
        if not first_stop:
            first_stop.append(signum)
        if server is not None:
            server.should_exit = True

    stops = [signal.SIGINT, signal.SIGTERM]
    hangup = getattr(signal, "SIGHUP", None)  # the terminal closed; nohup ignores it
    if hangup is not None and signal.getsignal(hangup) is not signal.SIG_IGN:
        stops.append(hangup)
    previous = {signum: signal.signal(signum, on_stop) for signum in stops}
    app: Any = None
    browser: threading.Timer | None = None
    try:
        try:
            app = create_app(path, prestart=1, hosts=hosts, server=server_mode,
                             signup=signup, ai_ratings=ratings, mail=mail,
                             chat=chat == "on", watch=watch, tournaments=tournaments,
                             secure_cookies=True if config.get("secure_cookies") else None)
        except StoreError as error:
            raise InputError(str(error)) from None
        except OSError as error:
            raise InputError(f"cannot keep the server's secret beside {path}: "
                             f"{error.strerror or error}") from None
        if not first_stop:
            if not host.strip() or host.strip() in ("0.0.0.0", "::"):
                # every address: this computer's own is one of them (0.0.0.0 is no host)
                shown = "[::1]" if ":" in host else "127.0.0.1"
            else:
                shown = f"[{host}]" if ":" in host else host
            url = f"http://{shown}:{port}/"
            mode = " in server mode" if server_mode else ""
            click.echo(f"hexgames: the browser app is at {url}{mode} (games in {path}); "
                       "Ctrl-C stops it")
            if open_browser:
                browser = threading.Timer(1.0, webbrowser.open, args=(url,))
                browser.start()
            # uvicorn believes X-Forwarded-* from 127.0.0.1 by default: only when told
            settings = uvicorn.Config(app, host=host, port=port, log_level="warning",
                                      ws_max_size=limits.MAX_MESSAGE_BYTES,
                                      h11_max_incomplete_event_size=limits.MAX_HEADER_BYTES,
                                      proxy_headers=trust,
                                      forwarded_allow_ips=allow if trust else None)
            server = _server_class(uvicorn, first_stop)(settings)
            server.should_exit = bool(first_stop)  # a signal just now
            server.run()
    finally:
        if browser is not None and first_stop:  # no page of a server stopped at once
            browser.cancel()
        # once stopped, another signal would only cut the store's closing and the
        # interpreter's own short ending (and end the process by the signal)
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_IGN if first_stop else handler)
        if app is not None:  # the last connection: SQLite checkpoints, removes -wal
            app.state.store.close()
    if first_stop:
        click.echo("hexgames: the browser app has stopped", err=True)
        click.get_current_context().exit(130 if first_stop[0] == signal.SIGINT else 0)
