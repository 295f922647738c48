"""The lobby of the server mode: challenges (open to anyone or for one account),
invitation links, standing challenges against the AI levels, the games waiting for an
account ("your turn"), the rating lists and the players' pages; and the rating of a
game that has ended (:mod:`hexgames.web.ratings`).

A game made from a challenge has its seats filled (the creator's colour ``first``,
``second`` or ``random``), its clock started for the first player, and is rated when
the challenge says so.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from hexgames import limits
from hexgames.engine.players import LEVELS
from hexgames.games import GAME_NAMES, game_module
from hexgames.web import policy
from hexgames.web.clock import GameClock, TimeControl, TimeControlError
from hexgames.web.policy import Actor, ForbiddenError
from hexgames.web.ratings import FIXED_RD, Glicko, rate_game, update
from hexgames.web.session import GameManager, GameSession, summary
from hexgames.web.store import GameStore, StoredGame
from hexgames.web.tables import Challenge, Rating
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
                "invite": challenge.invite}

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
        control = _time_control(body.get("time_control"))
        color = body.get("color", "random")
        if color not in COLORS:
            raise AppError(f"color must be one of {', '.join(COLORS)}")
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise AppError("rated must be true or false")
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
        mine = [c for c in self.store.challenges(actor.user_id) if c.creator == actor.user_id]
        if len(mine) >= limits.MAX_CHALLENGES_PER_USER:
            raise ConflictError(f"you have {len(mine)} open challenges: at most "
                                f"{limits.MAX_CHALLENGES_PER_USER} (cancel one first)")
        challenge = self.store.add_challenge(Challenge(
            "", actor.user_id, module.GAME_NAME.lower(), rules.options(),
            None if control is None else control.to_json(), color, opponent_id, rated,
            invite))
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
        return {"challenges": shown, "ai": ai}

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
        if not self.store.take_challenge(challenge.id):
            raise NotFoundError("that challenge was taken or cancelled meanwhile")
        color = challenge.color
        if color == "random":
            color = secrets.choice(("first", "second"))
        seats: list[int | None] = [challenge.creator, actor.user_id]
        if color == "second":
            seats.reverse()
        control = TimeControl.from_json(challenge.time_control)
        stored = self._new_game(challenge.game, challenge.rules, [HUMAN, HUMAN], seats,
                                control, challenge.rated, challenge.creator)
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

    def invitation(self, token: str) -> JSON:
        """``GET /api/invites/{token}``: the invitation (no login needed, so that a
        friend without an account sees what it is before signing up)."""
        challenge = self.store.challenge(invite=token[:100])
        if challenge is None:
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
        rated = body.get("rated", False) is True
        ai = players[1 - humans[0]]
        if rated and ai not in self.ai_ratings:
            raise AppError(f"a game against {ai} is unrated: the operator gave it no rating")
        seats: list[int | None] = [None, None]
        seats[humans[0]] = actor.user_id
        stored = self._new_game(module.GAME_NAME.lower(), rules.options(), players, seats,
                                control, rated, actor.user_id, position)
        return summary(stored, self.manager.account_names(stored))

    def _new_game(self, game: str, rules: list[str], players: list[str],
                  seats: list[int | None], control: TimeControl | None, rated: bool,
                  creator: int | None, position: str | None = None) -> StoredGame:
        clock = None
        first = 0 if position is None else _first_side(game, position)
        if control is not None:
            clock = GameClock.start(control, first, self.manager.now()).to_json()
        stored = self.store.create(game, rules, players, seats=seats, clock=clock,
                                   rated=rated, extra={"creator": creator},
                                   position=position)
        if clock is not None or players[first] != HUMAN:
            session = self.manager.session(stored.id)
            with session.lock:
                self.manager.changed(session)  # its flag is watched from now on
                session._after_change()  # an AI that moves first starts thinking
        return stored

    # --- games of an account, ratings ------------------------------------------------

    def my_turn(self, actor: Actor) -> JSON:
        """``GET /api/turn``: the running games where it is ``actor``'s move."""
        policy.require_account(actor, "see the games waiting for you")
        assert actor.user_id is not None
        waiting = []
        for game_id in self.store.game_ids_of(actor.user_id, running=True):
            stored = self.store.get(game_id)
            if stored is None or stored.error is not None or stored.seats is None:
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
        games = []
        for game_id in self.store.game_ids_of(user.id, limit=100):
            stored = self.store.get(game_id)
            if stored is not None:
                games.append(summary(stored, self.manager.account_names(stored)))
        won = sum(1 for g in games if _score_of(g, user.name) == 1)
        lost = sum(1 for g in games if _score_of(g, user.name) == 0)
        drawn = sum(1 for g in games if _score_of(g, user.name) == 0.5)
        return {"name": user.name, "created": user.created, "admin": user.admin,
                "ratings": ratings, "games": games,
                "results": {"won": won, "lost": lost, "drawn": drawn}}

    def finished(self, session: GameSession) -> None:
        """A game has ended: rate it, once, if it is rated (the lock is held)."""
        stored = session.stored
        if not stored.rated or stored.seats is None or stored.extra.get("rated_done"):
            return
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(stored.result)
        if score is None:
            return
        seats = stored.seats
        game = stored.game
        changes: dict[int, Rating] = {}
        if seats[0] is not None and seats[1] is not None:
            first, second = (self.store.rating(seat, game) for seat in (seats[0], seats[1]))
            new_first, new_second = rate_game(_glicko(first), _glicko(second), score)
            changes[seats[0]] = _rating(new_first, first.games + 1)
            changes[seats[1]] = _rating(new_second, second.games + 1)
        else:
            side = 0 if seats[0] is not None else 1
            person = seats[side]
            ai_rating = self.ai_ratings.get(stored.players[1 - side])
            if person is None or ai_rating is None:
                return
            mine = self.store.rating(person, game)
            own_score = score if side == 0 else 1 - score
            new = update(_glicko(mine), [(Glicko(ai_rating, FIXED_RD), own_score)])
            changes[person] = _rating(new, mine.games + 1)
        self.store.set_ratings(game, changes)
        stored.extra["rated_done"] = True
        self.store.save(stored)
        log.info("game %s rated", stored.id)


def _first_side(game: str, position: str) -> int:
    """The side to move in a position string (1 for ``turn=r`` in Andantino, ``turn=w``
    in Abande)."""
    second = "turn=r" if game == "andantino" else "turn=w"
    return int(second in position.split())


def rules_from_json_words(module: Any, words: list[str]) -> JSON:
    """The rules options of stored words as the protocol's JSON object."""
    from hexgames.web.views import rules_json

    return rules_json(module.Rules.from_options(words))


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


def _score_of(game: JSON, name: str) -> float | None:
    accounts = game.get("accounts") or []
    if name not in accounts or game.get("result") == "*":
        return None
    side = accounts.index(name)
    first = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(str(game.get("result")))
    if first is None:
        return None
    return first if side == 0 else 1 - first
