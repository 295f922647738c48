"""The console script ``hexgames``: it imports the command line (:mod:`hexgames.cli`,
about half a second of imports) itself, so that Ctrl-C while it loads ends as Ctrl-C at
the command's prompts does, ``error: aborted`` and exit status 130, not a traceback."""

from __future__ import annotations

import sys


def main() -> None:
    """Run ``hexgames`` (:func:`hexgames.cli.main`)."""
    try:
        from hexgames.cli import main as cli_main
    except KeyboardInterrupt:
        print("error: aborted", file=sys.stderr)
        sys.exit(130)
    cli_main()
