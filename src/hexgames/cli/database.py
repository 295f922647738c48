"""The games database of the server mode as the commands that manage it open it
(``hexgames user``, ``hexgames explorer``): the ``--db`` option, the store, its errors
as one line and exit status 2."""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import click

from hexgames.cli.errors import InputError
from hexgames.cli.serve import db_path

db_option = click.option("--db", "db", metavar="PATH",
                         help="The games database (default: games.db in your user "
                              "data directory).")


def store_module() -> ModuleType:
    """:mod:`hexgames.web.store`, or an :class:`InputError` naming the web extra."""
    try:
        from hexgames.web import store
    except ModuleNotFoundError as error:
        raise InputError(f"accounts need the web extra: pip install 'hexgames[web]' "
                         f"(missing module {error.name})") from None
    return store


def open_store(db: str | None, *, create: bool, read_only: bool = False) -> Any:
    """The store of the database ``--db`` names (opened only to be read with
    ``read_only``); ``None`` when there is no such file and ``create`` is false (a
    command that only reads or changes accounts makes no file, and refuses an empty
    one, which SQLite would take for a database and the store would make one of)."""
    path = db_path(db)
    module = store_module()
    if not create and not exists(path):
        return None
    if not create and is_empty(path):
        raise InputError(f"{str(path)!r} is not a hexgames games database (the file is "
                         "empty)")
    with store_errors():
        return module.GameStore(path, read_only=read_only)


def exists(path: Path) -> bool:
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


def is_empty(path: Path) -> bool:
    """Whether ``path`` is a regular file of 0 bytes (``False`` when there is none, or
    it cannot be looked up: the store's own checks say what is wrong)."""
    try:
        return path.is_file() and path.stat().st_size == 0
    except OSError:
        return False


@contextlib.contextmanager
def store_errors() -> Iterator[None]:
    """The store's errors (a database it cannot open, one another program has locked,
    a full disk) as :class:`InputError`: one line, exit status 2."""
    store_error = store_module().StoreError
    try:
        yield
    except store_error as error:
        raise InputError(str(error)) from None
