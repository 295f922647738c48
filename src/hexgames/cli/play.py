"""The ``play`` command: a game in the terminal between people and computer players.

A person types moves in the game's notation at a prompt, or one of the commands ``moves``,
``undo``, ``board``, ``resign``, ``quit`` and ``help``; the computer's moves show its
winning chance, evaluation and time. On a terminal the board is redrawn in place; with
input or output piped, the game is printed as a log.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import click
from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from hexgames import limits
from hexgames.cli.display import (
    describe_info,
    describe_outcome,
    draw_board,
    player_tag,
    stdout_console,
)
from hexgames.cli.errors import InputError
from hexgames.cli.options import (
    PLAYER_KINDS,
    PlayerSpecType,
    SavePathType,
    SecondsType,
    WholeNumberType,
    levels_epilog,
    load_game,
    new_board,
    parse_rules,
    record_module,
    rules_option,
    save_text,
    search_limit,
    spec_help,
)
from hexgames.core import FIRST, SECOND, HexgamesError, InvalidMoveError, Termination
from hexgames.games import GAME_NAMES, game_module
from hexgames.record.errors import shorten, shorten_in


def _hands(board: Any) -> tuple[int | None, int | None] | None:
    """Pieces still in each hand (``None`` for an unlimited supply), or ``None`` when the
    game has no hands. Games spell this ``board.hand(color)`` or ``board.hands``."""
    hand = getattr(board, "hand", None)
    if callable(hand):
        return (hand(FIRST), hand(SECOND))
    hands = getattr(board, "hands", None)
    if callable(hands):
        hands = hands()
    if hands is not None:
        first, second = hands
        return (first, second)
    return None


def _score(board: Any) -> tuple[int, int] | None:
    """The running score for games scored by points (Abande's ``board.score()``)."""
    score = getattr(board, "score", None)
    if not callable(score):
        return None
    value = score()
    if isinstance(value, tuple) and len(value) == 2:
        return (int(value[0]), int(value[1]))
    return None


#: How moves are typed, by game module, for ``help`` at the prompt.
_MOVE_SYNTAX: dict[str, Callable[[Any], str]] = {
    "hexgames.andantino": lambda board: (
        "Type a move as the cell to place a tile on, q,r (e.g. 0,1 or -1,2): the cells\n"
        "labelled with their coordinates are the legal ones."
        + ("\nIn extended play, once your hand is empty, move one of your tiles with\n"
           "from>to (e.g. 2,-1>0,3): lift the tile on from, put it on the empty cell to."
           if board.rules.extended else "")),
    "hexgames.abande": lambda board: (
        "Type a move as one of (columns a-g from left to right, numbers from 1 at the\n"
        "bottom of each column):\n"
        "  d4      enter a piece from your hand on the empty point d4\n"
        "  c3-d4   move your stack on c3 onto the enemy stack on d4\n"
        "  pass    pass (only when your hand is empty)"),
}


def _move_syntax(board: Any) -> str:
    """How to type a move of ``board``'s game, with a legal move as an example."""
    describe = _MOVE_SYNTAX.get(type(board).__module__)
    example = min((m.notation() for m in board.legal_moves), default=None)
    text = describe(board) if describe is not None else "Type a move in the game's notation."
    return text + (f"\nA legal move now: {example}" if example is not None else "")


class LineTooLongError(Exception):
    """A line of piped input longer than :data:`~hexgames.limits.MAX_INPUT_LINE`."""


def read_line(prompt: str) -> str:
    """One line of standard input after ``prompt``, without its line end.

    On a terminal this is :func:`input` (line editing; the terminal bounds the line).
    Piped input is read with :meth:`readline` and a bound, so an endless line
    (``play < /dev/zero``) costs bounded memory.

    Raises:
        EOFError: at the end of input.
        LineTooLongError: for a piped line longer than the bound.
    """
    if sys.stdin.isatty():
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    cap = limits.MAX_INPUT_LINE
    # Room for the cap and a line end of two characters: a longer read without a "\n"
    # is a longer line (a "\r" inside it must not pass for its end).
    line = sys.stdin.readline(cap + 2)
    if not line:
        raise EOFError
    ended = line.endswith("\n")
    text = line.removesuffix("\n").removesuffix("\r")
    if len(text) > cap or (not ended and len(line) == cap + 2):
        raise LineTooLongError(f"a line of input is longer than {cap} characters (the most "
                               "a move or command may be)")
    return text


_PLAYER_NAMES = {"human": "Human", "random": "hexgames random"}


def _player_label(kind: str) -> str:
    """The record tag of a player: ``Human``, ``hexgames random``, ``hexgames hard``."""
    return _PLAYER_NAMES.get(kind, f"hexgames {kind}")


_HELP = """\
Or type one of:
  moves   list the legal moves
  undo    take back your last move (and the computer's reply)
  board   draw the board again
  resign  give up the game
  quit    stop here (the game stays unfinished); end of input does the same
  help    this text"""

_GAME_OVER_PROMPT = "game over — type undo to take back the last move, or press Enter to quit"


def random_move(board: Any, rng: random.Random) -> Any:
    """The ``random`` player: a uniformly random legal move, ``rng.choice`` over the
    legal moves in the board's order."""
    return rng.choice(list(board.legal_moves))


def _game_modules() -> list[ModuleType]:
    """The module of every game that imports (one that does not is reported when it is
    used)."""
    modules = []
    for game in GAME_NAMES:
        try:
            modules.append(game_module(game))
        except Exception:
            continue
    return modules


def _player_options() -> dict[str, list[str]]:
    """Player option names (``white``, ``red``, ``black``) and the games that use them,
    from the ``PLAYER_TAGS`` of every game module that imports."""
    names: dict[str, list[str]] = {}
    for module in _game_modules():
        for tag in module.PLAYER_TAGS:
            names.setdefault(tag.lower(), []).append(module.GAME_NAME)
    return names


def _seat_help(color: int) -> str:
    """What ``--first`` (``color`` 0) or ``--second`` (1) is in every game, for its
    help: ``the player of --white in Andantino, --black in Abande, so give one of the
    two``."""
    seats = ", ".join(f"--{module.PLAYER_TAGS[color].lower()} in {module.GAME_NAME}"
                      for module in _game_modules())
    return f"the player of {seats}, so give one of the two"


def _game_over_lines(module: ModuleType, board: Any) -> list[str]:
    """What the end of a game scored by points needs besides the result: the sleeping
    stacks (they score 0) and each side's score. Empty for other games."""
    sleeping = getattr(board, "sleeping", None)
    score = _score(board)
    if not callable(sleeping) or score is None:
        return []
    names = sorted(module.cell_name(cell) for cell in sleeping())
    return [f"  sleeping (score 0): {', '.join(names) if names else 'none'}",
            f"  score: {player_tag(module, FIRST)} {score[0]}, "
            f"{player_tag(module, SECOND)} {score[1]}"]


@dataclass
class _PlaySession:
    """One game at the terminal: the board, who plays each side and what to say."""

    module: ModuleType
    board: Any
    kinds: tuple[str, str]
    rng: random.Random
    console: Console
    interactive: bool
    pending: list[str] = field(default_factory=list)
    movers: list[str] = field(default_factory=list)  # the kind that made each ply
    resigned: int | None = None
    interrupted: bool = False  # stopped by Ctrl-C: the command exits with status 130
    bad_input: str | None = None  # why input stopped the game: the command's error (status 2)

    ai: dict[int, Any] = field(default_factory=dict)  # colour -> Player of a spec

    def name(self, color: int) -> str:
        kind = self.kinds[color]
        return f"{player_tag(self.module, color)} ({kind})"

    def say(self, message: str, style: str = "") -> None:
        """Print ``message`` as it is (no markup), on one line however long."""
        self.console.print(Text(message, style=style), soft_wrap=True)

    def show(self) -> None:
        """Draw the board, the players, and what happened since the last drawing."""
        if self.interactive:
            self.console.clear()
        drawing = draw_board(self.board, width=self.console.width)
        self.console.print(drawing.panel)
        for note in drawing.notes:
            self.console.print(note, markup=False, highlight=False)
        self.console.print(self._status())
        options = self.board.rules.options()
        if options:
            self.console.print(f"   rules: {' '.join(options)}", style="dim", markup=False)
        for message in self.pending:
            self.console.print(message)
        self.pending.clear()

    def _status(self) -> Table:
        hands = _hands(self.board)
        score = _score(self.board)
        grid = Table.grid(padding=(0, 2))
        for color in (FIRST, SECOND):
            marker = "▶" if (self.board.outcome() is None
                             and int(self.board.turn) == color) else " "
            cells = [marker, f"[bold]{player_tag(self.module, color)}[/]",
                     escape(_player_label(self.kinds[color]))]
            if hands is not None:
                hand = hands[color]
                cells.append("unlimited" if hand is None else f"{hand} in hand")
            if score is not None:
                cells.append(f"score {score[color]}")
            grid.add_row(*cells)
        return grid

    def play(self) -> None:
        """Run the game until it ends, a human resigns or quits, or input ends. When a
        human plays, the end of the game offers to take the last move back."""
        try:
            self.show()
            while True:
                if not self.board.is_game_over():
                    if not self._turn():
                        return
                    continue
                self.console.print(f"[bold]Game over:[/] {self.board.result()} "
                                   f"{describe_outcome(self.module, self.board.outcome())}")
                for line in _game_over_lines(self.module, self.board):
                    self.say(line)
                # The offer to take a move back needs a human move to take back: not
                # in a game between computers, nor one that began over.
                if "human" not in self.movers or not self._after_the_end():
                    return
        except KeyboardInterrupt:
            self.console.print()
            self.console.print("Interrupted: the game stops here.")
            self.interrupted = True

    def _turn(self) -> bool:
        """Let the side to move play; False when the game stops here."""
        color = int(self.board.turn)
        if self.kinds[color] == "random":
            self._push(random_move(self.board, self.rng), "random")
            self.show()
            return True
        if color in self.ai:
            if not self._ai_turn(color):
                return False
            self.show()
            return True
        return self._human_turn()

    def _ai_turn(self, color: int) -> bool:
        """Let the AI of ``color`` move; False when interrupted (the game stops)."""
        player = self.ai[color]
        start = time.perf_counter()
        try:
            if self.interactive:
                with self.console.status(f"{self.name(color)} is thinking..."):
                    chosen = player.play(self.board)
            else:
                chosen = player.play(self.board)
        except KeyboardInterrupt:
            self.console.print()
            self.console.print("Interrupted: the game stops here, unfinished.")
            self.interrupted = True
            return False
        elapsed = time.perf_counter() - start
        note = describe_info(chosen.info, player_tag(self.module, color))
        note = f"{note}, {elapsed:.2f} s" if note else f"{elapsed:.2f} s"
        self._push(chosen.move, self.kinds[color], note)
        return True

    def _push(self, move: Any, kind: str, note: str | None = None) -> None:
        color = int(self.board.turn)
        self.board.push(move)
        self.movers.append(kind)
        message = f"{self.board.ply()}. {self.name(color)} plays [bold]{move.notation()}[/]"
        if note:
            message += f" ({note})"
        if self.interactive:
            self.pending.append(message)
        else:
            self.console.print(message)

    def _read(self, prompt: str) -> str | None:
        """A line typed at ``prompt``; ``None`` at the end of input, or after a piped
        line longer than :data:`~hexgames.limits.MAX_INPUT_LINE` (which ends the game as
        the end of input does, but sets :attr:`bad_input`: the command's error, exit
        status 2). Ctrl-C propagates."""
        try:
            self.console.file.flush()
            line = read_line(prompt)
        except EOFError:
            self.console.print()
            return None
        except LineTooLongError as error:
            self.console.print()
            self.bad_input = str(error)
            return None
        if not sys.stdin.isatty():
            # Piped input is not echoed by a terminal: show it, for a readable log.
            self.say(shorten(line))
        return line

    def _human_turn(self) -> bool:
        """Read commands until the side to move makes a move (True) or the game stops
        here (False). An undo returns True too: the caller asks whoever is to move now."""
        color = int(self.board.turn)
        # Plain text, handed to input() itself, so that readline can redraw the line.
        prompt = f"{player_tag(self.module, color)} move (or help)> "
        while True:
            try:
                line = self._read(prompt)
            except KeyboardInterrupt:
                self.console.print()
                self.console.print("Interrupted: the game stops here, unfinished.")
                self.interrupted = True
                return False
            if line is None:
                why = "A line too long" if self.bad_input else "End of input"
                self.console.print(f"{why}: the game stops here, unfinished.")
                return False
            text = line.strip()
            command = text.lower()
            if not text:
                continue
            if command in ("quit", "exit"):
                self.console.print("The game stops here, unfinished.")
                return False
            if command == "resign":
                self.resigned = color
                self.console.print(f"{player_tag(self.module, color)} resigns: "
                                   f"{player_tag(self.module, 1 - color)} wins.")
                return False
            if command in ("help", "?"):
                self.say(_move_syntax(self.board))
                self.say(_HELP)
            elif command == "moves":
                notations = sorted(m.notation() for m in self.board.legal_moves)
                self.console.print(f"{len(notations)} legal moves:")
                self.console.print(Columns(notations, padding=(0, 2)))
            elif command == "board":
                self.show()
            elif command == "undo":
                if self._undo():
                    self.show()
                    return True  # the side to move has changed
            else:
                try:
                    move = self.board.parse_notation(text)
                except InvalidMoveError as error:
                    self.say(shorten_in(str(error), text) + " (type help for the commands)",
                             "red")
                    continue
                except HexgamesError as error:
                    self.say(shorten_in(str(error), text), "red")
                    continue
                self._push(move, "human")
                nxt = int(self.board.turn)
                if self.board.is_game_over() or self.kinds[nxt] == "human":
                    self.show()
                return True

    def _after_the_end(self) -> bool:
        """The prompt after the end of a game a human played: True when a move was taken
        back (play goes on), False to finish."""
        self.say(_GAME_OVER_PROMPT)
        while True:
            line = self._read("> ")
            if line is None:
                return False
            command = line.strip().lower()
            if command in ("", "quit", "exit"):
                return False
            if command == "undo":
                if self._undo():
                    self.show()
                    return True
            elif command == "board":
                self.show()
                self.say(_GAME_OVER_PROMPT)
            else:
                self.say(f"the game is over: {_GAME_OVER_PROMPT.partition('— ')[2]}", "red")

    def _undo(self) -> bool:
        """Take back plies up to and including the last human move."""
        if "human" not in self.movers:
            self.console.print("[red]nothing to undo[/]")
            return False
        taken = []
        while True:
            kind = self.movers.pop()
            taken.append(self.board.pop().notation())
            if kind == "human":
                break
        for player in self.ai.values():
            player.new_game()  # a kept search tree would not know of the take-back
        self.pending.append(f"Took back {' and '.join(reversed(taken))}.")
        if not self.interactive:
            self.console.print(self.pending.pop())
        return True

    def game_record(self) -> Any:
        """The game as a record (``hexgames.record.GameRecord``)."""
        record = record_module()
        tags = {player_tag(self.module, c): _player_label(self.kinds[c]) for c in (FIRST, SECOND)}
        if self.resigned is not None:
            result = "0-1" if self.resigned == FIRST else "1-0"
            return record.record_from_board(self.board, tags=tags, result=result,
                                            termination=Termination.RESIGNATION)
        return record.record_from_board(self.board, tags=tags)


def _play_command(func: Callable[..., None]) -> click.Command:
    """Add a ``--<player>`` option for every player tag of every game."""
    for tag, games in reversed(_player_options().items()):
        func = click.option(
            f"--{tag}", f"player_{tag}", type=PlayerSpecType(human=True),
            help=f"Who plays {tag.title()} in {' and '.join(games)}: human, or a player "
            "spec as for --first.")(func)
    return click.command("play", epilog=levels_epilog())(func)


@_play_command
@click.argument("game", default="andantino", required=False)
@rules_option
@click.option("--position", help="Start from this position string instead of the start.")
@click.option("--first", type=PlayerSpecType(human=True),
              help=f"Who moves first (default: human): {_seat_help(0)}. "
                   + spec_help("Human, or the computer"))
@click.option("--second", type=PlayerSpecType(human=True),
              help=f"Who moves second (default: random): {_seat_help(1)}.")
@click.option("--time", "seconds", type=SecondsType(),
              help="Seconds a move for a computer player whose spec sets no limit.")
@click.option("--seed", type=WholeNumberType(), help="Seed of the computer players.")
@click.option("--save", type=SavePathType(),
              help="Write the game record (.hgn) here when the game ends (checked at once).")
def play(game: str, rules_words: tuple[str, ...], position: str | None, first: str | None,
         second: str | None, seconds: float | None, seed: int | None, save: str | None,
         **player_options: str | None) -> None:
    """Play GAME (default andantino) in the terminal, against the computer or a person.

    By default you move first and a random player replies; name the players with
    --white/--red (Andantino), --black/--white (Abande) or --first/--second (the
    same seats whatever the game: give one name for each), each human or a computer
    player: `--red hard`, `--white mcts:time=2`. The computer's moves show its winning
    chance, evaluation and time.

    When a person plays, the end of the game offers to take the last move back. Ctrl-C
    stops the game (exit status 130), after writing --save.
    """
    module = load_game(game)
    kinds = _choose_players(module, first, second, player_options)
    rules = parse_rules(module, rules_words)
    board = new_board(module, rules, position)
    console = stdout_console()
    interactive = sys.stdin.isatty() and console.is_terminal
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - line editing and history at the prompt
    ai = _make_ai(kinds, seed, None if seconds is None else search_limit(seconds, None, None))
    session = _PlaySession(module, board, kinds, random.Random(seed), console, interactive,
                           ai=ai)
    broken = None
    try:
        session.play()
    except BrokenPipeError as error:  # the output's reader went away (`| head -1`)
        broken = error  # the game stops here; --save is still written
    if save is not None:
        text = record_module().write_game(session.game_record())
        saved = save_text(save, text, suffix=".hgn")
        if saved.problem is None:
            if broken is None:
                console.print(f"Saved the game record to {save}", markup=False,
                              soft_wrap=True)
        elif saved.path is not None:
            # Checked before the game, but the file could not be written at its end (a
            # full disk, a directory removed meanwhile): the game is kept elsewhere.
            raise InputError(f"{saved.problem}; the game record was saved to "
                             f"{saved.path} instead")
        else:
            click.echo(text, nl=False)
            raise InputError(f"{saved.problem}, nor a file in the current or the "
                             "temporary directory; the game record is printed above")
    if broken is not None:
        raise broken  # click ends the command quietly, with exit status 1
    if session.interrupted:
        click.get_current_context().exit(130)
    if session.bad_input:
        raise InputError(session.bad_input)


def _choose_players(module: ModuleType, first: str | None, second: str | None,
                    options: dict[str, str | None]) -> tuple[str, str]:
    """The kind of player for each side, from --first/--second and --<tag> options."""
    chosen: list[str | None] = [first, second]
    tags = [t.lower() for t in module.PLAYER_TAGS]
    for key, value in options.items():
        if value is None:
            continue
        tag = key.removeprefix("player_")
        if tag not in tags:
            raise click.UsageError(
                f"--{tag} is not a player of {module.GAME_NAME}; its players are "
                f"--{tags[0]} and --{tags[1]} (or --first and --second)")
        color = tags.index(tag)
        if chosen[color] is not None:  # even with the same value: one seat, one option
            order = ("first", "second")[color]
            raise click.UsageError(
                f"--{tag} and --{order} name the same player ({tag.title()} moves "
                f"{order} in {module.GAME_NAME}): give one of them")
        chosen[color] = value
    return (chosen[0] or "human", chosen[1] or "random")


def _make_ai(kinds: tuple[str, str], seed: int | None, limit: Any) -> dict[int, Any]:
    """The engine players of the sides that are neither human nor the plain random
    player, seeded from ``seed`` by colour."""
    from hexgames.arena import derive_seed
    from hexgames.engine.players import make_player

    ai = {}
    for color, kind in enumerate(kinds):
        if kind not in PLAYER_KINDS:
            player_seed = None if seed is None else derive_seed(seed, "play", color)
            ai[color] = make_player(kind, player_seed, limit=limit)
    return ai
