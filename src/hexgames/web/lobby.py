"""The lobby of the server mode: challenges (open to anyone or for one account),
invitation links, standing challenges against the AI levels, the games waiting for an
account ("your turn"), the rating lists and the players' pages; and the rating of a
game that has ended (:mod:`hexgames.web.ratings`).

A game made from a challenge has its seats filled (the creator's colour ``first``,
``second`` or ``random``), its clock started for the first player, and is rated when
the challenge says so. The caps (open challenges, running games of an account) are
checked and the row stored in one transaction of the store, so that requests arriving
at once cannot pass them; the challenge is taken in the same transaction as its game is
made. A rated game's result is stored with the new ratings in one transaction
(:meth:`~hexgames.web.tables.AccountTables.record_result`), and the ratings of a game
are the rated results folded in order (:meth:`Lobby.rerate`, used when an administrator
deletes a rated game).
"""

from __future__ import annotations

import datetime
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hexgames import limits
from hexgames.engine.players import LEVELS
from hexgames.games import GAME_NAMES, game_module
from hexgames.web import policy
from hexgames.web.clock import GameClock, TimeControl, TimeControlError
from hexgames.web.manager import GameManager
from hexgames.web.policy import Actor, ForbiddenError
from hexgames.web.ratings import FIXED_RD, Glicko, rate_game, update
from hexgames.web.session import GameSession
from hexgames.web.store import ChallengeGoneError, GameStore, HelpBarredError, StoredGame
from hexgames.web.summary import first_side, summary
from hexgames.web.tables import CapError, Challenge, GameResult, Rating
from hexgames.web.views import (
    HUMAN,
    JSON,
    AppError,
    ConflictError,
    NotFoundError,
    check_players,
    position_from_json,
    rules_from_json,
)

log = logging.getLogger("hexgames.web.lobby")

#: The colours a challenge's creator may take.
COLORS = ("first", "second", "random")


@dataclass
class Lobby:
    """Challenges, games between accounts and their ratings.

    Attributes:
        store, manager: the database and the live games.
        ai_ratings: the fixed ratings the operator gave AI levels (level -> rating);
            games against the others are unrated.
    """

    store: GameStore
    manager: GameManager
    ai_ratings: dict[str, float] = field(default_factory=dict)
    #: called with a new game's clock and seats before it is stored (vacations pause it)
    new_clock: Callable[[GameClock, list[int | None]], None] | None = None

    # --- challenges --------------------------------------------------------------------

    def challenge_json(self, challenge: Challenge) -> JSON:
        """A challenge as the protocol shows it."""
        names = self.store.user_names({challenge.creator} | (
            {challenge.opponent} if challenge.opponent is not None else set()))
        control = TimeControl.from_json(challenge.time_control)
        module = game_module(challenge.game)
        return {"id": challenge.id, "game": challenge.game,
                "rules": rules_from_json_words(module, challenge.rules),
                "time_control": challenge.time_control,
                "time_text": control.describe() if control else "no clock",
                "color": challenge.color, "creator": names.get(challenge.creator),
                "opponent": None if challenge.opponent is None
                else names.get(challenge.opponent),
                "rated": challenge.rated, "created": challenge.created,
                "invite": challenge.invite, "engine_help": challenge.engine_help,
                "expires": _invite_expiry(challenge),
                "creator_rating": round(self.store.rating(challenge.creator,
                                                          challenge.game).rating)}

    def create_challenge(self, actor: Actor, body: dict[str, Any]) -> JSON:
        """``POST /api/challenges``: a new challenge of ``actor``.

        Raises:
            AppError: naming the field that is wrong (an unknown opponent, a bad time
                control...).
        """
        policy.require_account(actor, "make a challenge")
        assert actor.user_id is not None
        name = body.get("game")
        if not isinstance(name, str):
            raise AppError(f"\"game\" must be the name of a game ({', '.join(GAME_NAMES)})")
        module = game_module(name)
        rules = rules_from_json(module, body.get("rules"))
        position_from_json(module, rules, None)  # a game over at once is no game
        control = _time_control(body.get("time_control"))
        color = body.get("color", "random")
        if color not in COLORS:
            raise AppError(f"color must be one of {', '.join(COLORS)}")
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise AppError("rated must be true or false")
        if rated:
            _check_rated(module, rules, None, control)
        engine_help = body.get("engine_help", False)
        if not isinstance(engine_help, bool):
            raise AppError("engine_help must be true or false")
        if engine_help and rated:
            raise AppError("engine help is only for unrated games: a rated game is "
                           "played without it")
        opponent_id = None
        opponent = body.get("opponent")
        if opponent is not None:
            if not isinstance(opponent, str):
                raise AppError("opponent must be an account name or null")
            user = self.store.user(opponent.strip()[:100])
            if user is None:
                raise NotFoundError(f"there is no account {opponent[:40]!r}")
            if user.id == actor.user_id:
                raise AppError("you cannot challenge yourself")
            opponent_id = user.id
        wants_invite = body.get("invite", False)
        if not isinstance(wants_invite, bool):
            raise AppError("invite must be true or false")
        invite = secrets.token_urlsafe(16) if wants_invite else None
        try:
            challenge = self.store.add_challenge(Challenge(
                "", actor.user_id, module.GAME_NAME.lower(), rules.options(),
                None if control is None else control.to_json(), color, opponent_id, rated,
                invite, engine_help=engine_help), limits.MAX_CHALLENGES_PER_USER)
        except CapError as error:
            raise ConflictError(str(error)) from None
        log.info("%s made challenge %s", actor.name, challenge.id)
        return self.challenge_json(challenge)

    def challenges(self, actor: Actor) -> JSON:
        """``GET /api/challenges``: the challenges ``actor`` sees, and the standing
        challenges of the AI levels."""
        policy.require_account(actor, "see the lobby")
        assert actor.user_id is not None
        shown = [self.challenge_json(c) for c in self.store.challenges(actor.user_id)]
        for challenge in shown:
            if challenge["creator"] != actor.name:
                challenge["invite"] = None  # only its creator passes the link on
        ai = [{"level": name, "description": level.description,
               "rating": self.ai_ratings.get(name)} for name, level in LEVELS.items()]
        return {"challenges": shown, "ai": ai, "accepted": self.accepted(actor.user_id)}

    def accepted(self, user_id: int) -> list[JSON]:
        """The running games made from challenges of ``user_id`` (its creator), as
        ``{"challenge": id, "game": id}``: how the creator's lobby learns that a
        challenge it shows was accepted, and opens the game."""
        return [{"challenge": challenge, "game": game}
                for challenge, game in self.store.accepted_challenges(user_id)]

    def accept(self, actor: Actor, challenge: Challenge | None, *,
               by_invite: bool = False) -> JSON:
        """Accept a challenge: the game is made and the challenge is gone.

        Raises:
            NotFoundError: for an unknown challenge (or one taken meanwhile).
            ForbiddenError: for one's own challenge, or one for another account, or an
                invitation accepted without its link.
        """
        policy.require_account(actor, "accept a challenge")
        assert actor.user_id is not None
        if challenge is None:
            raise NotFoundError("no such challenge (it may have been taken or cancelled)")
        if challenge.creator == actor.user_id:
            raise policy.refuse(actor, "accept", None, "that challenge is your own")
        if challenge.opponent is not None and challenge.opponent != actor.user_id:
            raise policy.refuse(actor, "accept", None, "that challenge is for someone else")
        if challenge.invite is not None and not by_invite and challenge.opponent is None:
            raise policy.refuse(actor, "accept", None,
                                "an invitation is accepted through its link")
        color = challenge.color
        if color == "random":
            color = secrets.choice(("first", "second"))
        seats: list[int | None] = [challenge.creator, actor.user_id]
        if color == "second":
            seats.reverse()
        control = TimeControl.from_json(challenge.time_control)
        stored = self._new_game(challenge.game, challenge.rules, [HUMAN, HUMAN], seats,
                                control, challenge.rated, challenge.creator, actor=actor,
                                challenge=challenge.id,
                                engine_help=challenge.engine_help)
        log.info("%s accepted challenge %s: game %s", actor.name, challenge.id, stored.id)
        return summary(stored, self.manager.account_names(stored))

    def cancel(self, actor: Actor, challenge_id: str) -> None:
        """``DELETE /api/challenges/{id}``: its creator (or an administrator) takes a
        challenge back.

        Raises:
            NotFoundError, ForbiddenError.
        """
        policy.require_account(actor, "cancel a challenge")
        challenge = self.store.challenge(challenge_id)
        if challenge is None:
            raise NotFoundError(f"no challenge {challenge_id[:40]!r}")
        if challenge.creator != actor.user_id and not actor.admin:
            raise policy.refuse(actor, "cancel", None, "only its creator may cancel a "
                                                       "challenge")
        self.store.take_challenge(challenge_id)

    def invitation(self, actor: Actor, token: str) -> JSON:
        """``GET /api/invites/{token}``: the invitation (no login needed, so that a
        friend without an account sees what it is before signing up); once an account
        signed up with it, only that account and its creator see it."""
        challenge = self.store.challenge(invite=token[:100])
        if challenge is None or (challenge.opponent is not None and actor.user_id not in
                                 (challenge.opponent, challenge.creator)):
            raise NotFoundError("this invitation was taken, cancelled or never made")
        shown = self.challenge_json(challenge)
        shown.pop("invite")
        return shown

    def play_ai(self, actor: Actor, body: dict[str, Any]) -> JSON:
        """``POST /api/games`` in server mode: a game against an AI level (the standing
        challenge), ``actor`` in the person's seat; rated only when asked and the level
        has a fixed rating.

        Raises:
            AppError: for players that are not one person and one AI, or a bad field.
        """
        policy.require_account(actor, "start a game")
        name = body.get("game")
        if not isinstance(name, str):
            raise AppError(f"\"game\" must be the name of a game ({', '.join(GAME_NAMES)})")
        module = game_module(name)
        rules = rules_from_json(module, body.get("rules"))
        position = position_from_json(module, rules, body.get("position"))
        players = check_players(body.get("players") or [HUMAN, "easy"])
        humans = [side for side in (0, 1) if players[side] == HUMAN]
        if len(humans) != 1:
            raise ForbiddenError("in server mode a game is against the computer (one "
                                 "person, one AI level); play a person through a challenge")
        control = _time_control(body.get("time_control"))
        rated = body.get("rated", False)
        if not isinstance(rated, bool):  # "rated": 1 made an unrated game, silently
            raise AppError("rated must be true or false")
        ai = players[1 - humans[0]]
        if rated and ai not in self.ai_ratings:
            raise AppError(f"a game against {ai} is unrated: the operator gave it no rating")
        if rated:
            _check_rated(module, rules, position, control)
        barred = actor.barred_by()
        if barred:
            # the computer's replies, its running game's moves replayed here, would be
            # engine help for it (from any start: see hexgames.web.policy)
            raise policy.refuse(actor, "start a game against the computer", None,
                                policy.computer_game_refusal(barred))
        seats: list[int | None] = [None, None]
        seats[humans[0]] = actor.user_id
        try:
            # asked again as the game is stored: a barring game (another request's
            # rated game against the computer, a challenge accepted) may have been
            # stored since the account was read
            stored = self._new_game(module.GAME_NAME.lower(), rules.options(), players,
                                    seats, control, rated, actor.user_id, position,
                                    actor=actor, unbarred=actor.user_id)
        except HelpBarredError as error:
            raise policy.refuse(actor, "start a game against the computer", None,
                                policy.computer_game_refusal(error.kind)) from None
        return summary(stored, self.manager.account_names(stored))

    def _new_game(self, game: str, rules: list[str], players: list[str],
                  seats: list[int | None], control: TimeControl | None, rated: bool,
                  creator: int | None, position: str | None = None, *, actor: Actor,
                  challenge: str | None = None, engine_help: bool = False,
                  open_session: bool = True, extra: JSON | None = None,
                  unbarred: int | None = None) -> StoredGame:
        """Store a new game of accounts (each under its cap of running games; taking
        ``challenge`` in the same transaction, and keeping its id in the game's
        ``extra``, with ``engine_help`` when the players agreed to it; with
        ``unbarred``, that account barred from engine help by no running game, in the
        same transaction) and start its clock and AI. Without ``open_session`` (a game
        of two people made while another game's lock is held) only its flag's deadline
        is noted; the session opens when first used.

        Raises:
            ConflictError: when an account plays its most games already.
            NotFoundError: when the challenge was taken or cancelled meanwhile.
            HelpBarredError: when ``unbarred`` is barred from engine help.
        """
        clock = None
        first = 0 if position is None else first_side(game, position)
        if control is not None:
            started = GameClock.start(control, first, self.manager.now())
            if self.new_clock is not None:
                self.new_clock(started, seats)
            clock = started.to_json()
        stored_extra: dict[str, Any] = {"creator": creator, **(extra or {})}
        if challenge is not None:
            stored_extra["challenge"] = challenge
        if engine_help:
            stored_extra["engine_help"] = True
        try:
            stored = self.store.create(game, rules, players, seats=seats, clock=clock,
                                       rated=rated, extra=stored_extra,
                                       position=position, challenge=challenge, capped=True,
                                       unbarred=unbarred)
        except ChallengeGoneError as error:
            raise NotFoundError(str(error)) from None
        except CapError as error:
            who = "you are" if error.user_id == actor.user_id else \
                f"{self.store.user_names({error.user_id}).get(error.user_id, 'they')} is"
            raise ConflictError(error.text(who)) from None
        if seats is not None:  # its accounts' engine help elsewhere
            self.manager.seats_changed(stored.id, seats, running=True)
        if not open_session and players[first] == HUMAN:
            self.manager.watch_deadline(stored.id, None if clock is None else
                                        GameClock.from_json(clock).deadline())
        elif clock is not None or players[first] != HUMAN:
            session = self.manager.session(stored.id)
            with session.lock:
                self.manager.changed(session)  # its flag is watched from now on
                session.start_searches()  # an AI that moves first starts thinking
        return stored

    def rematch(self, session: GameSession) -> str:
        """The rematch of a finished game between two people (its lock held): a new
        game with the colours swapped, the same rules, start, clock and rating; its id.

        Raises:
            ConflictError: when an account plays its most games already.
        """
        stored = session.stored
        assert stored.seats is not None
        control = session.clock.control if session.clock is not None else None
        names = self.manager.account_names(stored) or [None, None]
        actor = Actor(stored.seats[1], names[1])
        made = self._new_game(stored.game, list(stored.rules), [HUMAN, HUMAN],
                              [stored.seats[1], stored.seats[0]], control, stored.rated,
                              stored.extra.get("creator"), stored.position, actor=actor,
                              open_session=False, extra={"rematch_of": stored.id},
                              engine_help=stored.extra.get("engine_help") is True)
        log.info("game %s: rematch %s", stored.id, made.id)
        return made.id

    def seat_ratings(self, stored: StoredGame) -> list[JSON | None] | None:
        """For each seat of a game of the server mode, the rating of its account in
        that game (``{"rating", "rd", "games", "provisional"}``) or of its AI level
        when the operator gave it one (``{"rating", "fixed": true}``), else ``None``."""
        if stored.seats is None or stored.extra.get("imported"):
            return None
        shown: list[JSON | None] = []
        for side, seat in enumerate(stored.seats):
            if seat is not None:
                shown.append(_rating_json(self.store.rating(seat, stored.game)))
            elif stored.players[side] in self.ai_ratings:
                shown.append({"rating": round(self.ai_ratings[stored.players[side]]),
                              "fixed": True})
            else:
                shown.append(None)
        return shown

    # --- games of an account, ratings ------------------------------------------------

    def my_turn(self, actor: Actor) -> JSON:
        """``GET /api/turn``: the running games where it is ``actor``'s move."""
        policy.require_account(actor, "see the games waiting for you")
        assert actor.user_id is not None
        waiting = []
        for stored in self.store.games_of(actor.user_id, running=True):
            if stored.error is not None or stored.seats is None:
                continue
            shown = summary(stored, self.manager.account_names(stored))
            turn = shown.get("turn")
            if turn is not None and stored.seats[turn] == actor.user_id:
                shown["clock"] = _clock_now(stored, self.manager.now())
                waiting.append(shown)
        return {"games": waiting}

    def rating_list(self, actor: Actor, game: str) -> JSON:
        """``GET /api/ratings?game=...``: the accounts' ratings, best first."""
        policy.require_account(actor, "see the ratings")
        module = game_module(game)
        name = module.GAME_NAME.lower()
        return {"game": name, "ratings": [
            {"name": user, **_rating_json(rating)}
            for user, rating in self.store.rating_list(name)],
            "ai": {level: rating for level, rating in self.ai_ratings.items()}}

    def player(self, actor: Actor, name: str) -> JSON:
        """``GET /api/users/{name}``: a player's ratings and games with results."""
        policy.require_account(actor, "see a player")
        user = self.store.user(name[:100])
        if user is None:
            raise NotFoundError(f"there is no account {name[:40]!r}")
        ratings = {}
        for game in GAME_NAMES:
            rating = self.store.rating(user.id, game)
            if rating.games:
                ratings[game] = _rating_json(rating)
        games = [summary(stored, self.manager.account_names(stored))
                 for stored in self.store.games_of(user.id, limit=100)]
        return {"name": user.name, "created": user.created, "admin": user.admin,
                "ratings": ratings, "games": games,
                "results": self.store.score_counts(user.id)}

    def finished(self, session: GameSession) -> None:
        """A game has ended: rate it, once, if it is rated (the lock is held): its
        result and the new ratings are stored in one transaction."""
        stored = session.stored
        if not stored.rated or stored.seats is None:
            return
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(stored.result)
        if score is None:
            return
        first, second = stored.seats
        ai = ai_rating = None
        if first is None or second is None:
            ai = stored.players[0 if first is None else 1]
            ai_rating = self.ai_ratings.get(ai)
            if ai_rating is None or (first is None and second is None):
                return
        result = GameResult(stored.id, stored.game, first, second, ai, ai_rating, score)
        changes: dict[int, int] = {}

        def rate(before: dict[int, Rating]) -> dict[int, Rating]:
            after = self._rate(result, before)
            changes.update({user: round(after[user].rating - before[user].rating)
                            for user in after})
            return after

        if self.store.record_result(result, rate):
            log.info("game %s rated", stored.id)
            # the change of each account's rating, shown on the game's page (+12 / -12)
            stored.extra["rating_change"] = [None if seat is None else changes.get(seat)
                                             for seat in stored.seats]
            session.save_or_restore("rating change",
                                    lambda: stored.extra.pop("rating_change", None))

    def _rate(self, result: GameResult, ratings: dict[int, Rating]) -> dict[int, Rating]:
        """The new ratings of the accounts of ``result`` from theirs before it."""
        first, second = result.first, result.second
        if first is not None and second is not None:
            new_first, new_second = rate_game(_glicko(ratings[first]),
                                              _glicko(ratings[second]), result.score)
            return {first: _rating(new_first, ratings[first].games + 1),
                    second: _rating(new_second, ratings[second].games + 1)}
        person = first if first is not None else second
        ai_rating = result.ai_rating if result.ai_rating is not None else \
            self.ai_ratings.get(result.ai or "")
        if person is None or ai_rating is None:
            return {}
        own = result.score if first is not None else 1 - result.score
        mine = ratings[person]
        new = update(_glicko(mine), [(Glicko(ai_rating, FIXED_RD), own)])
        return {person: _rating(new, mine.games + 1)}

    def rerate(self, results: list[GameResult]) -> dict[int, Rating]:
        """The ratings that ``results`` (of one game, in the order they were rated) make
        from the starting rating: what the ratings of a game are after an administrator
        deleted one of its rated games."""
        ratings: dict[int, Rating] = {}
        for result in results:
            ids = [seat for seat in (result.first, result.second) if seat is not None]
            ratings.update(self._rate(result, {i: ratings.get(i, Rating()) for i in ids}))
        return ratings


def rules_from_json_words(module: Any, words: list[str]) -> JSON:
    """The rules options of stored words as the protocol's JSON object."""
    from hexgames.web.views import rules_json

    return rules_json(module.Rules.from_options(words))


def _check_rated(module: Any, rules: Any, position: str | None,
                 control: TimeControl | None) -> None:
    """Refuse a rated game that could move a rating without a real game: one from a
    set-up position (a win in one can be set up), under rules that shorten the game
    (fewer tiles than the standard 25 in Andantino, lower stacks than the standard 3 in
    Abande: drawn or decided in a few plies), or without a clock (a losing player could
    leave it unfinished for ever).

    Raises:
        AppError: saying which.
    """
    if position is not None:
        raise AppError("a rated game starts from the standard start, not a set-up position")
    if control is None:
        raise AppError("a rated game has a clock (live or correspondence): without one a "
                       "player could leave it unfinished for ever")
    standard = module.Rules()
    for option in ("tiles_per_player", "max_height"):
        if not hasattr(standard, option):
            continue
        value, usual = getattr(rules, option), getattr(standard, option)
        if value is not None and (usual is None or value < usual):
            raise AppError(f"a rated game is played with {option}={usual} or more, not "
                           f"{value}: fewer make a game decided (or drawn) in a few moves")


def _invite_expiry(challenge: Challenge) -> str | None:
    """When an unused invitation expires (ISO-8601 UTC), ``None`` for any other
    challenge (one taken by an account that signed up with it no longer expires)."""
    if challenge.invite is None or challenge.opponent is not None:
        return None
    try:
        made = datetime.datetime.fromisoformat(challenge.created)
    except ValueError:
        return None
    return (made + datetime.timedelta(seconds=limits.INVITE_SECONDS)).isoformat(
        timespec="seconds")


def _time_control(value: object) -> TimeControl | None:
    try:
        return TimeControl.from_json(value)
    except TimeControlError as error:
        raise AppError(str(error)) from None


def _clock_now(stored: StoredGame, now: float) -> JSON | None:
    if stored.clock is None:
        return None
    try:
        clock = GameClock.from_json(stored.clock)
    except (ValueError, TypeError):
        return None
    shown = clock.to_json(now)
    shown.pop("since")
    return shown


def _glicko(rating: Rating) -> Glicko:
    return Glicko(rating.rating, rating.rd, rating.volatility)


def _rating(glicko: Glicko, games: int) -> Rating:
    return Rating(glicko.rating, glicko.rd, glicko.volatility, games)


def _rating_json(rating: Rating) -> JSON:
    return {"rating": round(rating.rating), "rd": round(rating.rd),
            "games": rating.games, "provisional": rating.rd > 110}
