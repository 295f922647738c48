"""The ``verify-proof`` command: check a proof file (docs/proofs.md) with the
pure-Python boards only, and say what it proves or where it fails."""

from __future__ import annotations

import click

from hexgames.cli.display import stdout_console
from hexgames.cli.errors import InputError
from hexgames.cli.options import WholeNumberType
from hexgames.proof import MAX_PROOF_BYTES, ProofFailedError, ProofFileError, verify


@click.command("verify-proof")
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option("--max-bytes", type=WholeNumberType(min=1), default=MAX_PROOF_BYTES,
              show_default=True, help="Read at most this many bytes of the file (after "
              "decompression).")
def verify_proof(file: str, max_bytes: int) -> None:
    """Check the proof FILE (text or gzip) with the pure-Python boards: the winner's
    listed move in each of its positions, every legal reply in the defender's.

    Exit status 0 when the file proves its claim, 1 when it does not (the first position
    where it fails is named), 2 for a file that cannot be read or is malformed.
    """
    from hexgames.games import game_module

    console = stdout_console()
    shown = [0]

    def progress(checked: int) -> None:
        if checked >= shown[0] + 100_000:
            shown[0] = checked
            console.print(f"  {checked:,} positions checked...", highlight=False)

    try:
        report = verify(file, max_bytes=max_bytes, progress=progress)
    except ProofFileError as error:
        raise InputError(str(error)) from None
    except ProofFailedError as error:
        click.echo(str(error))
        raise click.exceptions.Exit(1) from None
    header = report.header
    module = game_module(header.game)
    names = [str(tag) for tag in module.PLAYER_TAGS]
    what = "wins" if header.claim == "win" else "does not lose (a draw or better)"
    rate = report.positions / report.seconds if report.seconds > 0 else 0.0
    console.print(f"proof verified: {names[header.winner]} {what} from {header.root}"
                  f"{' (' + ' '.join(header.rules) + ')' if header.rules else ''}",
                  highlight=False)
    console.print(f"{report.entries} positions of the winner listed; {report.positions:,} "
                  f"positions checked ({report.winner_positions:,} of the winner); the "
                  f"longest line {report.longest} plies; {report.seconds:.2f} s "
                  f"({rate:,.0f} positions/s)", highlight=False)
