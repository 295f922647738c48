"""How decided are a match's random openings? A deep native alpha-beta search of each.

A colour-swapped pair scores 50% whatever the players' strength when its opening is won
by force for one side and both players find the win, so a match's score can only reach
what its openings allow. This searches the opening of each pair (exactly as
:func:`hexgames.arena.run_match` draws it from the match seed, or with ``--draw uniform``
uniformly over the legal moves, the arena's way before it left Red's balance-variant
right alone) and prints, from the first player's point of view, how many are proven wins
and losses within the search and the quartiles of the evaluation of the rest. With
``--write FILE`` it writes the position strings of the openings the search leaves
undecided, one a line, for ``bench_strength.py --openings FILE``: a match from those
openings measures strength without the pairs that score 50% whatever the players do.

Random openings of a few plies repeat: Andantino's balance variant has only 110
positions after 4 plies of the match's opening moves (506 after 5, 2,306 after 6), so
100 pairs drawn at random hold about 60 different ones, and an opening drawn three
times weighs three times. With ``--distinct`` an opening already drawn, or (Andantino)
its mirror image in the line through the two starting tiles, is skipped and the draws
go on until ``--pairs`` different openings are found.

Prints figures; it is not a test.

Usage::

    .venv/bin/python benchmarks/bench_openings.py andantino --rules single_adjacency=on \\
        [--pairs 20] [--opening-plies 4] [--seed 21] [--seconds 3 | --nodes N]
        [--draw match|uniform]
        [--write FILE] [--distinct]
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn


def interrupted() -> NoReturn:
    """Ctrl-C, wherever it comes: one line and exit status 130, no traceback."""
    print("interrupted", file=sys.stderr)
    sys.exit(130)


try:  # the imports take a moment (the native core, the engines): Ctrl-C may come here
    import argparse
    import math
    import random
    import statistics

    from hexgames.arena.match import derive_seed, opening_moves
    from hexgames.cli.display import plural
    from hexgames.core import HexgamesError
    from hexgames.engine.players import make_player
    from hexgames.games import GAME_NAMES, game_module
except KeyboardInterrupt:
    interrupted()


def opening(module: Any, rules: Any, seed: int, pair: int, plies: int, draw: str) -> Any:
    """The board after the random opening of pair ``pair`` of a match with ``seed``."""
    board = module.Board(None, rules)
    rng = random.Random(derive_seed(derive_seed(seed, "pair", pair), "opening"))
    for _ in range(plies):
        if board.is_game_over():
            break
        moves = opening_moves(board) if draw == "match" else list(board.legal_moves)
        board.push(rng.choice(moves))
    return board


def _count(least: int) -> Any:
    def count(text: str) -> int:
        value = int(text)
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value
    return count


def seconds(text: str) -> float:
    """A search time: more than 0 and at most an hour."""
    value = float(text)
    if not math.isfinite(value) or not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 3600 seconds, "
                                         f"not {text}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("game", choices=GAME_NAMES)
    parser.add_argument("--rules", nargs="*", default=[], help="rules options key=value")
    parser.add_argument("--pairs", type=_count(1), default=20)
    parser.add_argument("--opening-plies", type=_count(0), default=4)
    parser.add_argument("--seed", type=int, default=21)
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--seconds", type=seconds, default=3.0,
                       help="search time per opening (default 3)")
    limit.add_argument("--nodes", type=_count(1),
                       help="nodes searched per opening instead of a time: the same "
                            "openings proven on a busy machine as on an idle one")
    parser.add_argument("--draw", choices=("match", "uniform"), default="match")
    parser.add_argument("--distinct", action="store_true",
                        help="skip an opening already drawn (Andantino: or its mirror image)")
    parser.add_argument("--write", metavar="FILE",
                        help="write the undecided openings' position strings to FILE")
    args = parser.parse_args()
    module = game_module(args.game)
    try:
        rules = module.Rules.from_options(args.rules)
    except HexgamesError as error:
        parser.error(str(error))
    try:  # a node limit beyond the players' says so before any search
        make_player(searcher(args))
    except HexgamesError as error:
        parser.error(str(error))
    if args.write:  # before the searches: a file that cannot be written says so at once
        try:
            with open(args.write, "a", encoding="utf-8"):
                pass
        except OSError as error:
            parser.error(f"cannot write {args.write!r}: {error.strerror or error}")
    survey(args, module, rules)


def searcher(args: argparse.Namespace) -> str:
    """The spec of the player that searches each opening: ``--nodes`` or ``--seconds``."""
    return f"alphabeta:nodes={args.nodes}" if args.nodes else f"alphabeta:time={args.seconds}"


def opening_key(board: Any) -> object:
    """What two openings that are the same position share: Andantino's tiles (as the
    smaller of their set and its mirror image in the line through the starting tiles,
    (q, r) -> (q + r, -r), which keeps the rules' start), the side to move, Red's right
    and the relocations of extended play; another game's position string."""
    if not hasattr(board, "single_adjacency_used"):
        return board.position()

    def tiles(mirror: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
        return tuple(tuple(sorted((q + r, -r) if mirror else (q, r)
                                  for q, r in board.tiles(color))) for color in (0, 1))

    return (min(tiles(False), tiles(True)), int(board.turn), board.single_adjacency_used,
            board.relocations)


def draws(args: argparse.Namespace, module: Any, rules: Any) -> Any:
    """``(pair, board)`` of each opening to search: pairs 0, 1, ...; with ``--distinct``
    those of openings not drawn before, until ``--pairs`` (at most 100 draws an opening
    sought)."""
    seen: dict[object, int] = {}
    for pair in range(args.pairs * (100 if args.distinct else 1)):
        if len(seen) == args.pairs:
            return
        board = opening(module, rules, args.seed, pair, args.opening_plies, args.draw)
        if args.distinct:
            key = opening_key(board)
            if key in seen:
                continue
            seen[key] = pair
        yield pair, board
    if args.distinct and len(seen) < args.pairs:
        print(f"only {plural(len(seen), 'different opening')} in {args.pairs * 100} draws")


def survey(args: argparse.Namespace, module: Any, rules: Any) -> None:
    """Search each opening and print the figures."""
    first = module.Color(0)
    wins = losses = spent = ended = 0
    values: list[float] = []
    undecided: list[str] = []
    searched = 0
    for pair, board in draws(args, module, rules):
        searched += 1
        if board.is_game_over():
            print(f"pair {pair:3d}: the game ended in the opening ({board.result()})")
            ended += 1
            continue
        if getattr(board, "single_adjacency_used", False):
            spent += 1
        player = make_player(searcher(args))
        info = player.play(board, None).info
        sign = 1 if board.turn == first else -1
        mate = None if info.mate is None else sign * info.mate
        value = None if info.eval is None else sign * info.eval
        print(f"pair {pair:3d}: depth {info.depth:2d}  "
              + (f"first player {'wins' if mate > 0 else 'loses'} in {abs(mate)} plies"
                 if mate is not None else f"eval {value:+8.1f}")
              + f"  {board.position()}", flush=True)
        if mate is not None:
            wins += mate > 0
            losses += mate < 0
        else:
            undecided.append(board.position())
            if value is not None:
                values.append(value)
    print(f"{args.game} {' '.join(args.rules) or 'standard'}, {plural(searched, 'opening')} of "
          f"{args.opening_plies} plies drawn '{args.draw}' (seed {args.seed}"
          f"{', distinct' if args.distinct else ''}), "
          + (f"{args.nodes:,} nodes each:" if args.nodes else f"{args.seconds:g} s each:"))
    print(f"  proven first-player wins {wins}, proven losses {losses}"
          + (f", games that ended in the opening {ended}" if ended else ""))
    if getattr(rules, "single_adjacency", False):
        print(f"  openings that spent Red's balance-variant right: {spent}")
    if len(values) >= 2:
        q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
        print(f"  evaluation of the other {len(values)} (first player's view, points): "
              f"quartiles {q1:+.0f} / {q2:+.0f} / {q3:+.0f}")
    if args.write:
        with open(args.write, "w", encoding="utf-8") as out:
            out.writelines(position + "\n" for position in undecided)
        print(f"  {len(undecided)} undecided openings written to {args.write}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        interrupted()
