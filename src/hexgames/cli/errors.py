"""The error of bad input that is no option value (a file that cannot be read or
written, a record without the game asked for, a position with nothing to play): the
group of :mod:`hexgames.cli` prints it as one line ``error: <message>`` and exits with
status 2, as for all bad input. A module of its own so that every command module can
raise it without importing the group."""

from __future__ import annotations

import click


class InputError(click.ClickException):
    """A file that cannot be read or written (exit status 2, as all bad input)."""

    exit_code = 2
