"""The ``explorer`` command group: the opening explorer's index (issue 35) in the games
database of the browser app (``--db``; docs/server.md, "The opening explorer").

    hexgames explorer import FILES... [--db PATH]   (records for the explorer only)
    hexgames explorer build [--db PATH]             (this server's finished games)

``import`` reads ``.hgn`` records (every game of each file) and adds their finished
games to the explorer as the collection (they are not games of the server: nobody
opens them); a game imported before is not counted twice. ``build`` indexes the
server's finished games that are not indexed yet (the server does that itself when it
starts; this is for a database that is not served now).
"""

from __future__ import annotations

from pathlib import Path

import click

from hexgames.cli.database import db_option, open_store, store_errors
from hexgames.cli.errors import InputError
from hexgames.core import HexgamesError


@click.group("explorer")
def explorer() -> None:
    """The opening explorer's index of positions and moves."""


@explorer.command("import")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@db_option
def import_command(files: tuple[Path, ...], db: str | None) -> None:
    """Add the finished games of the .hgn FILES to the explorer's collection."""
    from hexgames.record import read_games
    from hexgames.web.explorer import import_records

    records = []
    for path in files:
        try:
            records.extend(read_games(path.read_text(encoding="utf-8")))
        except (HexgamesError, UnicodeDecodeError, OSError) as error:
            raise InputError(f"{path}: {error}") from None
    store = open_store(db, create=True)
    try:
        with store_errors():
            try:
                added, skipped = import_records(store, records)
            except HexgamesError as error:
                raise InputError(str(error)) from None
            total = store.explorer_count("collection")
    finally:
        store.close()
    click.echo(f"{added} games added to the explorer's collection ({skipped} left out: "
               f"unfinished or imported before); {total} in all")


@explorer.command("build")
@db_option
def build_command(db: str | None) -> None:
    """Index the server's finished games that are not in the explorer yet."""
    from hexgames.web.explorer import Explorer

    store = open_store(db, create=False)
    if store is None:
        raise InputError("there is no games database there")
    try:
        with store_errors():
            added = Explorer(store, {}).catch_up()
            total = store.explorer_count("games")
    finally:
        store.close()
    click.echo(f"{added} games indexed; {total} of this server's games in the explorer")
