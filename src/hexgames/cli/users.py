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

import sys
from typing import Any

import click

from hexgames.cli.database import db_option, is_empty, open_store, store_errors, store_module
from hexgames.cli.errors import InputError
from hexgames.cli.serve import db_path
from hexgames.record.errors import quote, shorten


def _check_creatable(db: str | None) -> None:
    """Refuse, before a password is asked for, a database ``--db`` that could not be
    made (a file where a folder must be, a directory that may not be written)."""
    problem = store_module().unwritable_problem(db_path(db))
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


_stdin_option = click.option("--password-stdin", is_flag=True,
                             help="Read the password from standard input (one line).")


@click.group("user")
def user() -> None:
    """Manage the accounts of the server mode (hexgames serve --server)."""


@user.command("add")
@click.argument("name")
@click.option("--admin", is_flag=True, help="Make an administrator (the first one is).")
@_stdin_option
@db_option
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
    store = None if is_empty(db_path(db)) else open_store(db, create=False)
    if store is None:
        _check_creatable(db)
    try:
        with store_errors():
            taken = None if store is None else store.user(name)
            if taken is not None:
                raise InputError(_taken(name, taken.name))
            hashed = hash_password(_password(password_stdin))
            if store is None:
                store = open_store(db, create=True)
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
@db_option
def list_users(db: str | None) -> None:
    """List the accounts: name, role, when made (the database is only read)."""
    store = open_store(db, create=False, read_only=True)
    if store is None and db is not None:  # a mistyped path is not an empty list
        raise InputError(f"there is {_no_database(db)}")
    users: list[Any] = []
    if store is not None:
        try:
            with store_errors():
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
@db_option
def reset_password(name: str, password_stdin: bool, db: str | None) -> None:
    """Give the account NAME a new password (its logins end)."""
    from hexgames.web.accounts import hash_password

    store = open_store(db, create=False)
    try:
        with store_errors():
            account = _account(store, name, db)
            store.set_password(account.id, hash_password(_password(password_stdin)))
            click.echo(f"the password of {account.name} is changed; its logins have ended")
    finally:
        if store is not None:
            store.close()


@user.command("remove")
@click.argument("name")
@db_option
def remove(name: str, db: str | None) -> None:
    """Remove the account NAME (its games stay, its challenges and logins go)."""
    store = open_store(db, create=False)
    try:
        with store_errors():
            account = _account(store, name, db)
            store.remove_user(account.id)
            click.echo(f"account {account.name} removed")
            if account.admin and not any(user.admin for user in store.users()):
                click.echo("note: no administrator is left; make one with "
                           "'hexgames user add NAME --admin'", err=True)
    finally:
        if store is not None:
            store.close()
