"""The ``user`` command group: the operator's accounts of the server mode
(``hexgames serve --server``), in the same database as the games (``--db``).

    hexgames user add NAME [--admin] [--db PATH]      (asks for the password twice)
    hexgames user list [--db PATH]
    hexgames user reset-password NAME [--db PATH]
    hexgames user remove NAME [--db PATH]

The database's first account, made here, is an administrator (a sign-up in the
browser never is: after sign-ups, use ``--admin``). A password is read at a prompt that
does not echo, or from standard input with ``--password-stdin`` (one line); a database
that could not be made or written is refused before the password is asked for.
``user list`` only reads the database (SQLite's read-only mode), so it lists a file that
may not be written and leaves a file that is no games database as it was.
"""

from __future__ import annotations

import contextlib
import errno
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import click

from hexgames.cli.errors import InputError
from hexgames.cli.serve import db_path
from hexgames.record.errors import quote, shorten


def _store_module() -> ModuleType:
    """:mod:`hexgames.web.store`, or an :class:`InputError` naming the web extra."""
    try:
        from hexgames.web import store
    except ModuleNotFoundError as error:
        raise InputError(f"accounts need the web extra: pip install 'hexgames[web]' "
                         f"(missing module {error.name})") from None
    return store


def _store(db: str | None, *, create: bool, read_only: bool = False) -> Any:
    """The store of the database ``--db`` names (opened only to be read with
    ``read_only``); ``None`` when there is no such file and ``create`` is false (a
    command that only reads or changes accounts makes no file, and refuses an empty
    one, which SQLite would take for a database and the store would make one of)."""
    path = db_path(db)
    module = _store_module()
    if not create and not _exists(path):
        return None
    if not create and _is_empty(path):
        raise InputError(f"{str(path)!r} is not a hexgames games database (the file is "
                         "empty)")
    with _store_errors():
        return module.GameStore(path, read_only=read_only)


def _exists(path: Path) -> bool:
    """Whether the file ``path`` exists (not when a folder on the way is a file or a
    link to nothing), or an :class:`InputError` when it cannot even be looked up (a
    name too long, a directory on the way that may not be searched, a loop of symbolic
    links)."""
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):  # a link to nothing too
        return False
    except OSError as error:
        why = error.strerror or str(error)
        if error.errno == errno.ELOOP:
            where = "it is" if path.is_symlink() else "a folder on its way is"
            why = f"{where} a symbolic link in a loop of them"
        raise InputError(f"cannot open the games database {str(path)!r}: {why}") from None
    return True


def _is_empty(path: Path) -> bool:
    """Whether ``path`` is a regular file of 0 bytes (``False`` when there is none, or
    it cannot be looked up: the store's own checks say what is wrong)."""
    try:
        return path.is_file() and path.stat().st_size == 0
    except OSError:
        return False


@contextlib.contextmanager
def _store_errors() -> Iterator[None]:
    """The store's errors (a database it cannot open, one another program has locked,
    a full disk) as :class:`InputError`: one line, exit status 2."""
    store_error = _store_module().StoreError
    try:
        yield
    except store_error as error:
        raise InputError(str(error)) from None


def _check_creatable(db: str | None) -> None:
    """Refuse, before a password is asked for, a database ``--db`` that could not be
    made (a file where a folder must be, a directory that may not be written)."""
    problem = _store_module().unwritable_problem(db_path(db))
    if problem is not None:
        raise InputError(problem)


def _no_database(db: str | None) -> str:
    """What a command says when the database ``--db`` names does not exist."""
    return f"no database at {shorten(str(db_path(db)))}"


def _account(store: Any, name: str, db: str | None) -> Any:
    """The account ``name`` of ``store``, or an :class:`InputError` naming what is not
    there."""
    name = name.strip()
    account = None if store is None else store.user(name)
    if account is None:
        where = "" if store is not None else f" ({_no_database(db)})"
        raise InputError(f"there is no account {quote(name)}{where}")
    return account


def _taken(name: str, holder: str) -> str:
    """What ``user add NAME`` says when the account ``holder`` has the name in another
    letter case or in this one (names are told apart without letter case)."""
    if holder == name:
        return f"the name {name} is taken"
    return f"the name {name} is taken: account {holder} has it (names ignore letter case)"


def _ask(text: str) -> str:
    """One answer at a prompt on standard error. On a terminal the answer is not
    echoed; from a pipe nothing echoes the line's end either, so it is ended here, and
    the next prompt or message starts a line of its own."""
    # A pipe has no echo to turn off (getpass would warn that it cannot).
    piped = not sys.stdin.isatty()
    try:
        return str(click.prompt(text, hide_input=not piped, err=True))
    finally:
        if piped:
            click.echo(err=True)


def _password(from_stdin: bool) -> str:
    from hexgames.web.accounts import AccountError, check_password

    try:
        if from_stdin:
            line = sys.stdin.readline(1024)
            text = line.rstrip("\r\n")
            if not text:
                where = "the first line of standard input is empty" if line \
                    else "standard input is empty"
                raise InputError(f"no password was given: {where} (--password-stdin "
                                 "reads the password from its first line)")
        else:
            text = _ask("Password")
            again = _ask("Repeat for confirmation")
            if text != again:
                raise InputError("the two passwords entered differ; nothing was changed")
    except UnicodeDecodeError:
        raise InputError("the password is not valid text (bytes that are not "
                         "UTF-8?)") from None
    except click.Abort:  # only the prompt raises it
        if sys.stdin.isatty():
            raise  # Ctrl-C or Ctrl-D at the prompt
        raise InputError("no password: standard input ended at the prompt (pipe one "
                         "line with --password-stdin)") from None
    try:
        return check_password(text)
    except AccountError as error:
        raise InputError(str(error)) from None


_db_option = click.option("--db", "db", metavar="PATH",
                          help="The games database (default: games.db in your user "
                               "data directory).")
_stdin_option = click.option("--password-stdin", is_flag=True,
                             help="Read the password from standard input (one line).")


@click.group("user")
def user() -> None:
    """Manage the accounts of the server mode (hexgames serve --server)."""


@user.command("add")
@click.argument("name")
@click.option("--admin", is_flag=True, help="Make an administrator (the first one is).")
@_stdin_option
@_db_option
def add(name: str, admin: bool, password_stdin: bool, db: str | None) -> None:
    """Make the account NAME."""
    from hexgames.web.accounts import AccountError, check_name, hash_password

    try:
        name = check_name(name)
    except AccountError as error:
        raise InputError(f"account name {quote(name.strip())}: {error}") from None
    # The database is made only once the name and the password are good (in an empty
    # file too), but one that cannot be made is refused before the password is asked
    # for.
    store = None if _is_empty(db_path(db)) else _store(db, create=False)
    if store is None:
        _check_creatable(db)
    try:
        with _store_errors():
            taken = None if store is None else store.user(name)
            if taken is not None:
                raise InputError(_taken(name, taken.name))
            hashed = hash_password(_password(password_stdin))
            if store is None:
                store = _store(db, create=True)
            first = store.user_count() == 0
            made = store.add_user(name, hashed, admin=admin or first)
            if made is None:  # made meanwhile by another program
                holder = store.user(name)
                raise InputError(_taken(name, name if holder is None else holder.name))
            role = "administrator" if made.admin else "player"
            click.echo(f"account {name} made ({role})")
    finally:
        if store is not None:
            store.close()


@user.command("list")
@_db_option
def list_users(db: str | None) -> None:
    """List the accounts: name, role, when made (the database is only read)."""
    store = _store(db, create=False, read_only=True)
    if store is None and db is not None:  # a mistyped path is not an empty list
        raise InputError(f"there is {_no_database(db)}")
    users: list[Any] = []
    if store is not None:
        try:
            with _store_errors():
                users = store.users()
        finally:
            store.close()
    if not users:
        click.echo("no accounts")
    for account in users:
        role = "administrator" if account.admin else "player"
        click.echo(f"{account.name}\t{role}\t{account.created}")


@user.command("reset-password")
@click.argument("name")
@_stdin_option
@_db_option
def reset_password(name: str, password_stdin: bool, db: str | None) -> None:
    """Give the account NAME a new password (its logins end)."""
    from hexgames.web.accounts import hash_password

    store = _store(db, create=False)
    try:
        with _store_errors():
            account = _account(store, name, db)
            store.set_password(account.id, hash_password(_password(password_stdin)))
            click.echo(f"the password of {account.name} is changed; its logins have ended")
    finally:
        if store is not None:
            store.close()


@user.command("remove")
@click.argument("name")
@_db_option
def remove(name: str, db: str | None) -> None:
    """Remove the account NAME (its games stay, its challenges and logins go)."""
    store = _store(db, create=False)
    try:
        with _store_errors():
            account = _account(store, name, db)
            store.remove_user(account.id)
            click.echo(f"account {account.name} removed")
            if account.admin and not any(user.admin for user in store.users()):
                click.echo("note: no administrator is left; make one with "
                           "'hexgames user add NAME --admin'", err=True)
    finally:
        if store is not None:
            store.close()
