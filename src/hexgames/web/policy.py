"""Who may do what on which game: the one place where the server decides (the page only
hides what the server would refuse). Every refusal is logged on the logger
``hexgames.web.policy`` with the account, the action and the game.

In the **local mode** (no accounts) the one person at the computer may do everything,
as before: :data:`LOCAL`.

In the **server mode** an :class:`Actor` is a logged-in account (or nobody, for a
request without a valid session, which may do nothing but log in or sign up):

- **watch** (open a game's socket, read it, its record and pictures): any account.
- **move**: the account in the seat of the side to move.
- **resign**, **draw** (offer, accept, decline), **takeback** (ask, accept, decline):
  an account in one of the game's seats, for its own side. A take-back in a game
  between two people needs the opponent's consent; against an AI it is made at once,
  in an unrated game only.
- **stop** ("move now"): an account in a seat of an unrated game against an AI (in a
  rated one the level plays at its own strength).
- **hint**, **analyse**: in a running rated game nobody (not even a watcher, who could
  pass the moves on); in a running game between two people nobody either (lichess's
  rule), unless both agreed to a casual game with help (an unrated challenge with
  ``engine_help``: :attr:`GameFacts.engine_help`), when the accounts in its seats
  may; in a running unrated game against an AI, or an import, its player; in a
  finished game any account; and nowhere an account that sits in a running rated game
  or in a running game between two people without agreed help
  (:attr:`Actor.help_barred`): it could set that game's position up elsewhere.
- **explorer** (the opening explorer, whose answers hold the book's proven moves): as
  hint and analysis away from a game: nowhere an account that sits in a running rated
  game, or in a running game between two people without agreed help.
- **delete**: an administrator, or the only account seated in an unrated game
  (against an AI, or an import). A rated game, running or finished, is never deleted
  by its player: its result stands (an administrator's deletion takes it out of the
  ratings, which are folded again from the other results).
- **engine analysis** (a game's whole-game analysis, and what an engine wrote into its
  study record: the evaluations, the better lines, the judgement NAGs and the
  ``Annotator`` tag, :func:`hexgames.analysis.without_annotations`): shown with the game
  to whoever may watch it, except to an account barred from engine help
  (:attr:`Actor.help_barred`), which could look up a position of its running game in
  it: the server takes it out of what such an account gets (the sockets' ``state`` and
  ``game_analysis`` messages, and the record it downloads, which it gets without the
  engine's part rather than not at all) and says why (:func:`analysis_hidden`). When
  the barring game ends, its sockets get the state again with it
  (:meth:`hexgames.web.manager.GameManager.seats_changed`).
- **the computer's thinking** (what an AI finds as it searches its moves: the depth,
  nodes, best move, principal variation, score, evaluation, lines and proven value of
  its ``thinking`` messages, and the score and depth of its ``ai_move``): shown to
  whoever watches the game, except while a rated game is played (to nobody: only that
  the computer thinks, for how long, and the move it played) and to an account barred
  from engine help (:attr:`Actor.help_barred`), which could start an unrated game
  against the computer, replay its running game's moves there and watch it think; the
  server sends each socket what its account may see and says why
  (:func:`thinking_hidden`). An account's sockets follow its barring as it starts and
  ends (:meth:`hexgames.web.manager.GameManager.seats_changed`), and then lose an
  analysis or a hint they may no longer have. The AI writes nothing of what it found
  into the game's record.
- **study** (edit the game's study record: side lines, comments, NAGs, the annotations
  of a whole-game analysis): in a finished game the accounts in its seats; in a running
  game only a player who plays it alone (against an AI, or an imported game), and not
  in a rated one; and not while the account is barred from engine help, if the record
  holds engine analysis (which the account does not see: its edits would be made
  blind). Everyone else studies a private copy in the page, which the server only
  replays (``view``).
- **name** (the player names of the record): nobody in a game whose seats give the
  names (accounts, AI levels); in an imported game the importer, as **study**.
- **create** (a game against an AI level), **import**, **challenge**: any account; but
  no game against an AI level for an account barred from engine help
  (:attr:`Actor.help_barred`; :func:`computer_game_refusal` says why), from any start,
  rated or not: it could replay its running game's moves against the computer and take
  the computer's replies (the ``expert`` level's are proven wins from the opening
  book) for its own. Lichess lets a player of a correspondence game play its computer
  and looks for cheating afterwards; a club without that watch refuses it. For the same
  reason such an account takes back no moves in a game against the computer it began
  before (:func:`takeback_refusal`), which would let it set up its running game's
  positions there; the game goes on, the computer's thinking hidden from it, but **the
  computer waits**: it does not move in any game against it of that account (a
  tournament's too) while the account is barred, and moves when the barring ends
  (:meth:`hexgames.web.ai.GameAI.waits_for`), its clock stopped meanwhile; otherwise
  the account could copy the computer's moves into its running game and that game's
  replies back. A game against the computer that bars by itself (rated, or a
  tournament's) waits for a barring game between two people, and for an older barring
  game against the computer only (the oldest of them moves: none waits for another
  for ever).
- **abort** (before the second move), **rematch** (after the end): an account in one
  of the game's seats (the game's state is checked by :mod:`hexgames.web.live`).
- **premove**: an account in the seat of the side that is *not* to move.
- **chat**: an account in a seat of a game between two people; never a watcher (who
  neither writes nor sees it), never in a game against the computer.
- A **guest** (:data:`GUEST`: someone not logged in, on a server whose operator lets
  them watch: ``--watch anonymous``) may **watch**, nothing else.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from hexgames.web.views import AppError

log = logging.getLogger("hexgames.web.policy")


class ForbiddenError(AppError):
    """An action the policy refuses (HTTP 403)."""

    status = 403


class LoginRequiredError(ForbiddenError):
    """An action of the server mode without a valid session (HTTP 401; a kind of
    :class:`ForbiddenError`)."""

    status = 401


@dataclass(frozen=True)
class Actor:
    """Who asks: ``user_id`` and ``name`` of an account (``None`` for nobody or the
    local person), ``admin``, ``local`` for the local mode's one person, and
    ``help_barred``: the running games the account sits in that bar engine help from it
    anywhere, as pairs of the game's id and its kind (``"a rated game"``, ``"a game
    between two people"``: :meth:`hexgames.web.tables.AccountTables.games_without_help`;
    :meth:`barred_by` reads them)."""

    user_id: int | None = None
    name: str | None = None
    admin: bool = False
    local: bool = False
    help_barred: tuple[tuple[str, str], ...] = ()
    guest: bool = False

    @property
    def anonymous(self) -> bool:
        """Whether nobody is logged in (in server mode)."""
        return not self.local and self.user_id is None

    def barred_by(self, game: GameFacts | None = None) -> str | None:
        """The kind of game (``"a rated game"``...) that bars engine help from this
        account, asked in ``game`` (or away from any game), else ``None``. The game
        itself bars nothing once it is over: the account's games were read when its
        message came, which may be the one that ended it."""
        for game_id, kind in self.help_barred:
            if game is None or game_id != game.id or not game.over:
                return kind
        return None

    def describe(self) -> str:
        """For the log: ``alice``, ``someone not logged in`` or ``the local person``."""
        if self.local:
            return "the local person"
        return self.name or "someone not logged in"


#: The local mode's one person.
LOCAL = Actor(local=True)
#: Nobody logged in (server mode).
NOBODY = Actor()
#: Nobody logged in, on a server that lets them watch (``--watch anonymous``).
GUEST = Actor(guest=True)


@dataclass(frozen=True)
class GameFacts:
    """What the policy needs to know of a game.

    Attributes:
        id: the game's id (for the log).
        seats: the account in each seat (``None``: an AI's or an open seat), or
            ``None`` for a game of the local mode.
        ai: whether each side is played by an AI.
        turn: the side to move.
        over: whether the game has ended.
        rated: whether the game is rated.
        imported: whether the game was imported (its players' names are the record's).
        engine_help: whether both players agreed to engine help (an unrated game
            between two people made from a challenge that allowed it).
        annotated: whether the game's study record holds an engine's annotations
            (:func:`hexgames.analysis.has_annotations`).
    """

    id: str
    seats: tuple[int | None, int | None] | None
    ai: tuple[bool, bool]
    turn: int
    over: bool
    rated: bool
    imported: bool = False
    engine_help: bool = False
    annotated: bool = False

    @property
    def between_people(self) -> bool:
        """Whether two different accounts play the game (no AI, not an import)."""
        if self.seats is None or any(self.ai):
            return False
        people = {seat for seat in self.seats if seat is not None}
        return len(people) == 2

    def sides_of(self, actor: Actor) -> list[int]:
        """The sides ``actor`` plays: every side played by a person for the local
        person, the seats it holds for an account."""
        if actor.local:
            return [side for side in (0, 1) if not self.ai[side]]
        if self.seats is None or actor.user_id is None:
            return []
        return [side for side in (0, 1) if self.seats[side] == actor.user_id]


def refuse(actor: Actor, action: str, game: str | None, why: str) -> ForbiddenError:
    """Log a refusal and return the error that says it."""
    log.warning("refused: %s may not %s%s: %s", actor.describe(), action,
                f" in game {game}" if game else "", why)
    if actor.anonymous:
        return LoginRequiredError(f"log in first: {why}")
    return ForbiddenError(why)


def require_account(actor: Actor, action: str) -> None:
    """Refuse nobody (server mode) any ``action``."""
    if actor.anonymous:
        raise refuse(actor, action, None, f"only a logged-in account may {action}")


def check(actor: Actor, action: str, game: GameFacts, side: int | None = None) -> None:
    """Refuse ``actor`` the ``action`` on ``game`` unless the rules of this module allow
    it; ``side`` is the side the action is for (resign) when it names one.

    Raises:
        ForbiddenError: (or :class:`LoginRequiredError` for nobody) saying why.
    """
    why = _refusal(actor, action, game, side)
    if why is not None:
        raise refuse(actor, action, game.id, why)


def allows(actor: Actor, action: str, game: GameFacts, side: int | None = None) -> bool:
    """Whether :func:`check` would let ``actor`` do ``action`` (nothing is logged: for
    what the page is told it may do)."""
    return _refusal(actor, action, game, side) is None


def analysis_hidden(actor: Actor, game: GameFacts) -> str | None:
    """Why the engine analysis of ``game`` (see the module) is withheld from ``actor``,
    in the words the page shows, or ``None`` when it is not: while the account is barred
    from engine help (:meth:`Actor.barred_by`)."""
    barred = actor.barred_by(game)
    if barred is None:
        return None
    return f"engine analysis hidden while you play {barred} without engine help"


def thinking_hidden(actor: Actor, game: GameFacts) -> str | None:
    """Why what the computer finds as it searches its moves in ``game`` (see the module:
    the figures and lines of its ``thinking`` messages, the score and depth of its
    ``ai_move``) is withheld from ``actor``, in the words the page shows, or ``None``
    when it is not (and in a game no AI plays): from everyone while a rated game is
    played, and from an account barred from engine help (:meth:`Actor.barred_by`) in
    any game, which could replay its running game's moves against the computer."""
    if not any(game.ai):
        return None
    if game.rated and not game.over:
        return "the computer's thinking hidden in a rated game while it is played"
    barred = actor.barred_by(game)
    if barred is None:
        return None
    return f"the computer's thinking hidden while you play {barred} without engine help"


def computer_game_refusal(barred: str) -> str:
    """Why an account barred by ``barred`` (a kind of game: :meth:`Actor.barred_by`)
    starts no game against the computer, in the words the page shows."""
    return (f"no game against the computer while you play {barred} without engine help: "
            "its moves would be engine help for that game (play it when that game is "
            "over)")


def computer_waits(barred: str, player: str | None = None) -> str:
    """Why the computer does not move in a game against it while its player (``player``,
    an account's name; ``None``: the reader) is barred from engine help by ``barred``
    (a kind of game: :meth:`hexgames.web.ai.GameAI.waits_for`), in the words the page
    shows."""
    who = "you play" if player is None else f"{player} plays"
    return (f"the computer waits while {who} {barred} without engine help: it moves "
            "when that game ends")


def takeback_refusal(actor: Actor, game: GameFacts) -> str | None:
    """Why ``actor`` may not take back a move against the computer in ``game`` now, or
    ``None``: while its account is barred from engine help (see the module)."""
    barred = actor.barred_by(game) if any(game.ai) else None
    if barred is None:
        return None
    return (f"no take-backs against the computer while you play {barred} without engine "
            "help: they would let you set that game's positions up here (take back when "
            "it is over)")


def _refusal(actor: Actor, action: str, game: GameFacts, side: int | None) -> str | None:
    """Why ``actor`` may not do ``action`` on ``game``, or ``None`` if it may."""
    if actor.local:
        return None
    if actor.anonymous:
        if actor.guest and action == "watch":
            return None
        return f"only a logged-in account may {action}"
    if game.seats is None:
        # a game of the local mode in a server's database: watched, deleted by an admin
        if action == "watch" or (action == "delete" and actor.admin):
            return None
        return "this game has no seats: it was made in the local mode"
    mine = game.sides_of(actor)
    if action == "watch":
        return None
    if action == "move":
        if game.turn not in mine:
            return "it is not your turn" if mine else "you are not playing in this game"
        return None
    if action in ("resign", "draw", "takeback"):
        if not mine:
            return "you are not playing in this game"
        if side is not None and side not in mine:
            return "that side is not yours"
        return None
    if action in ("abort", "rematch"):
        if game.imported:
            return f"an imported game has no {action}"
        return None if mine else "you are not playing in this game"
    if action == "premove":
        if not mine:
            return "you are not playing in this game"
        if 1 - game.turn not in mine:
            return "it is your move: play it (a premove is made while the opponent thinks)"
        return None
    if action == "chat":
        if not mine:
            return ("only the players write in a game's chat (watchers do not see it)")
        if any(game.ai):
            return "the chat is between two people: the computer reads no chat"
        return None
    if action == "stop":
        if not mine or not any(game.ai):
            return "only the player of a game against the computer may make it move now"
        if game.rated and not game.over:
            return "in a rated game the computer takes its own time"
        return None
    if action in ("hint", "analyse"):
        barred = actor.barred_by(game)
        if barred:
            return (f"no engine help while you play {barred}: hints and analysis come "
                    "back when it is over")
        if game.over:
            return None
        if game.rated:
            return "no engine help in a rated game while it is played"
        if not mine:
            return "only the players may ask the engine while the game is played"
        if game.between_people and not game.engine_help:
            return ("no engine help in a game between two people while it is played "
                    "(unless both agreed to a casual game with engine help)")
        return None
    if action in ("study", "name"):
        if action == "name" and not game.imported:
            return "the players' names are their accounts' (an AI's is its level)"
        if not mine:
            return ("only the players edit the study of this game: your side lines are "
                    "a private copy in your page")
        hidden = analysis_hidden(actor, game) if action == "study" and game.annotated \
            else None
        if hidden:
            return (f"{hidden}, and the study holds some: edit it when that game is over "
                    "(your side lines stay in your page meanwhile)")
        if game.over:
            return None
        if game.rated:
            return "no study of a rated game while it is played"
        people = {seat for seat in game.seats if seat is not None}
        if people != {actor.user_id}:
            return ("while two people play the game, side lines stay private to each "
                    "page")
        return None
    if action == "delete":
        people = {seat for seat in game.seats if seat is not None}
        if actor.admin:
            return None
        if game.rated:
            return "a rated game is kept with its result: only an administrator may delete it"
        if people == {actor.user_id}:
            return None
        return "only an administrator may delete a game between two people"
    return f"unknown action {action}"
