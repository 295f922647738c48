"""Tournaments run by the club (issue 35): round robins (single and double), Swiss
tournaments and correspondence leagues with promotion and relegation, for accounts and
AI levels, on the pairings and standings of :mod:`hexgames.web.tournament` and the
tables of :mod:`hexgames.web.tournament_tables` (docs/server.md, "Tournaments";
docs/web-protocol.md).

An administrator creates one, or any account when the server allows it (``hexgames
serve --tournaments members``). Accounts join and leave until it starts (a league:
until it has finished; a newcomer plays from the next season, one who leaves goes
after this season); its creator (or an administrator) starts it. From then on the
rounds start by themselves: when the last game of a round ends, the next round's games
are made with their clocks (:meth:`Tournaments.advance`, run after every game of a
tournament ends and at every housekeeping round, so a server stopped in between goes
on when it starts again). A game against an AI level is played by the server's AI as
the lobby's games against the computer are. A Swiss tournament and a league's first
season seed the entrants by rating (:meth:`Tournaments._seeds`); a round robin numbers
them by the order of joining. A league's round is a season: every
division plays its round robin at once, as correspondence leagues do, and when the
season is over the top of each division go up and the bottom go down.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from hexgames import limits
from hexgames.engine.players import LEVELS
from hexgames.games import GAME_NAMES, game_module
from hexgames.web import policy, tournament
from hexgames.web.clock import GameClock, TimeControl
from hexgames.web.lobby import Lobby, _check_rated, _time_control, rules_from_json_words
from hexgames.web.policy import Actor
from hexgames.web.session import GameSession
from hexgames.web.store import StoredGame
from hexgames.web.tables import CapError
from hexgames.web.tournament import Pairing, PairingError, Played
from hexgames.web.tournament_tables import (
    Entrant,
    NewGame,
    Tournament,
    TournamentError,
    TournamentGame,
)
from hexgames.web.views import (
    HUMAN,
    JSON,
    AppError,
    ConflictError,
    NotFoundError,
    position_from_json,
    rules_from_json,
)

log = logging.getLogger("hexgames.web.tournaments")

#: The kinds of tournament.
KINDS = ("round_robin", "double_round_robin", "swiss", "league")
#: Who may create tournaments (``hexgames serve --tournaments``).
CREATORS = ("admins", "members")
#: How a tournament ranks its entrants first (``series``: Andantino only).
SCORINGS = ("points", "series")


class _Refused(AppError):
    """A refusal with the status a :class:`TournamentError` or cap names."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Tournaments:
    """The tournaments of one server.

    Args:
        lobby: the lobby (its store, manager and the AI levels' fixed ratings).
        creators: ``admins`` (only administrators create tournaments) or ``members``
            (any account).
    """

    def __init__(self, lobby: Lobby, creators: str = "admins") -> None:
        if creators not in CREATORS:
            raise ValueError(f"tournaments must be one of {', '.join(CREATORS)}, "
                             f"not {creators!r}")
        self.lobby = lobby
        self.store = lobby.store
        self.manager = lobby.manager
        self.creators = creators
        self._advancing = threading.Lock()

    # --- the routes ----------------------------------------------------------------------

    def may_create(self, actor: Actor) -> bool:
        """Whether ``actor`` may create a tournament."""
        return not actor.anonymous and (actor.admin or self.creators == "members")

    def listing(self, actor: Actor) -> JSON:
        """``GET /api/tournaments``."""
        policy.require_account(actor, "see the tournaments")
        rows = self.store.tournaments()
        names = self.store.user_names({t.creator for t in rows})
        return {"tournaments": [self._summary(t, names) for t in rows],
                "may_create": self.may_create(actor),
                "levels": list(LEVELS)}

    def create(self, actor: Actor, body: dict[str, Any]) -> JSON:
        """``POST /api/tournaments``: a new tournament, open for entries.

        Raises:
            ForbiddenError: for an account the server does not let create one.
            AppError: naming the field that is wrong.
            ConflictError: past a cap of tournaments.
        """
        policy.require_account(actor, "create a tournament")
        assert actor.user_id is not None
        if not self.may_create(actor):
            raise policy.refuse(actor, "create a tournament", None,
                                "only an administrator may create a tournament on this "
                                "server (hexgames serve --tournaments members lets every "
                                "account)")
        made = self._parse(actor.user_id, body)
        levels = made.settings.pop("_ai")
        try:
            stored = self.store.add_tournament(made, most_open=limits.MAX_OPEN_TOURNAMENTS,
                                               most_of_creator=limits.MAX_TOURNAMENTS_PER_USER)
        except CapError as error:
            raise ConflictError(str(error)) from None
        for level in levels:
            self._join(stored.id, ai=level)
        log.info("%s created tournament %s (%s)", actor.name, stored.id, stored.kind)
        return self.show(actor, stored.id)

    def show(self, actor: Actor, tournament_id: str) -> JSON:
        """``GET /api/tournaments/{id}``: the tournament with its entrants, rounds,
        standings and crosstable (a league: each season's divisions)."""
        policy.require_account(actor, "see a tournament")
        found = self._get(tournament_id)
        entrants = self.store.entrants(found.id)
        games = self.store.tournament_games(found.id)
        names = self.store.user_names({e.user_id for e in entrants if e.user_id is not None}
                                      | {found.creator})
        label = {e.number: _entrant_name(e, names) for e in entrants}
        shown = self._summary(found, names)
        shown["entrants"] = [{"number": e.number, "name": label[e.number],
                              "ai": e.ai is not None, "leaving": e.leaving}
                             for e in entrants]
        shown["joined"] = any(e.user_id == actor.user_id and not e.leaving
                              for e in entrants)
        shown["may_manage"] = actor.admin or actor.user_id == found.creator
        rounds: dict[int, list[JSON]] = {}
        for game in games:
            rounds.setdefault(game.round, []).append({
                "division": game.division, "board": game.board,
                "first": label.get(game.first), "second": None if game.second is None
                else label.get(game.second), "game_id": game.game_id,
                "result": "bye" if game.second is None else game.result})
        shown["rounds"] = [{"round": r, "games": g} for r, g in sorted(rounds.items())]
        if found.kind == "league":
            shown["seasons"] = self._league_tables(found, entrants, games, label)
        else:
            table = self._table(found, [e.number for e in entrants], games, label)
            shown.update(table)
        return shown

    def join(self, actor: Actor, tournament_id: str, body: dict[str, Any]) -> JSON:
        """``POST /api/tournaments/{id}/join``: ``actor`` enters, or (``{"ai": level}``,
        its creator or an administrator) an AI level is entered."""
        policy.require_account(actor, "join a tournament")
        assert actor.user_id is not None
        found = self._get(tournament_id)
        level = _only_ai(body)
        if level is not None:
            self._check_manager(actor, found, "enter an AI level in")
            self._join(found.id, ai=_level(level))
        else:
            self._join(found.id, user_id=actor.user_id)
        log.info("%s joined tournament %s%s", actor.name, found.id,
                 f" with {level}" if level else "")
        return self.show(actor, found.id)

    def leave(self, actor: Actor, tournament_id: str, body: dict[str, Any]) -> JSON:
        """``POST /api/tournaments/{id}/leave``: ``actor`` (or, ``{"ai": level}``, an AI
        level its creator entered) leaves."""
        policy.require_account(actor, "leave a tournament")
        assert actor.user_id is not None
        found = self._get(tournament_id)
        level = _only_ai(body)
        try:
            if level is not None:
                self._check_manager(actor, found, "take an AI level out of")
                self.store.leave_tournament(found.id, ai=_level(level))
            else:
                self.store.leave_tournament(found.id, user_id=actor.user_id)
        except TournamentError as error:
            raise _Refused(str(error), error.status) from None
        return self.show(actor, found.id)

    def cancel(self, actor: Actor, tournament_id: str) -> None:
        """``DELETE /api/tournaments/{id}``: its creator or an administrator deletes a
        tournament that has not started."""
        policy.require_account(actor, "delete a tournament")
        found = self._get(tournament_id)
        self._check_manager(actor, found, "delete")
        if not self.store.delete_tournament(found.id):
            raise ConflictError("the tournament has started: it is played to its end")

    def start(self, actor: Actor, tournament_id: str) -> JSON:
        """``POST /api/tournaments/{id}/start``: its creator or an administrator starts
        it; the first round's games are made."""
        policy.require_account(actor, "start a tournament")
        found = self._get(tournament_id)
        self._check_manager(actor, found, "start")
        if found.status != "open":
            raise ConflictError("the tournament has started already")
        entrants = self.store.entrants(found.id)
        if len(entrants) < 2:
            raise ConflictError(f"a tournament needs two entrants or more to start; it "
                                f"has {len(entrants)}")
        if found.kind == "swiss" and found.settings["rounds"] > len(entrants) - 1 + \
                len(entrants) % 2:
            raise ConflictError(f"a Swiss tournament of {len(entrants)} entrants has at "
                                f"most {len(entrants) - 1 + len(entrants) % 2} rounds "
                                f"without a repeat, not {found.settings['rounds']}")
        if not self._next_round(found, entrants, []):
            raise ConflictError("the tournament was started, or its entrants changed, "
                                "meanwhile: look again")
        log.info("%s started tournament %s", actor.name, found.id)
        return self.show(actor, found.id)

    # --- rounds ----------------------------------------------------------------------------

    def game_finished(self, session: GameSession) -> None:
        """A game has ended (the session's lock held): if it is a tournament's, look for
        its next round in a thread of its own (it locks other games' sessions)."""
        tournament_id = session.stored.extra.get("tournament")
        if isinstance(tournament_id, str):
            threading.Thread(target=self.advance, args=(tournament_id,),
                             name="hexgames-tournament", daemon=True).start()

    def advance_all(self) -> None:
        """Start the next round of every running tournament whose round is over (the
        housekeeping's, and at start)."""
        for tournament_id in self.store.running_tournament_ids():
            try:
                self.advance(tournament_id)
            except Exception:
                log.exception("tournament %s: the next round failed", tournament_id)

    def advance(self, tournament_id: str) -> bool:
        """Start the next round (or end the tournament) if every game of its round is
        over; whether something was done. One at a time in this process, and once in
        the database (:meth:`~hexgames.web.tournament_tables.TournamentTables.start_round`)."""
        with self._advancing:
            found = self.store.tournament(tournament_id)
            if found is None or found.status != "running":
                return False
            games = self.store.tournament_games(found.id)
            if any(g.round == found.round and g.second is not None and g.result == "*"
                   for g in games):
                return False
            return self._next_round(found, self.store.entrants(found.id), games)

    def _next_round(self, found: Tournament, entrants: list[Entrant],
                    games: list[TournamentGame]) -> bool:
        """Pair and store the round after ``found.round`` (or finish the tournament)."""
        numbers = [e.number for e in entrants]
        index = {number: i for i, number in enumerate(numbers)}
        played = [_played(found, g, index) for g in games]
        number = found.round + 1
        state = dict(found.state)
        pairs: list[tuple[int, Pairing]] = []  # (division, pairing) in entrant indexes
        try:
            if found.kind in ("round_robin", "double_round_robin"):
                cycles = 2 if found.kind == "double_round_robin" else 1
                schedule = tournament.round_robin(len(numbers), cycles)
                if number > len(schedule):
                    return self._finish(found, state)
                pairs = [(0, p) for p in schedule[number - 1]]
            elif found.kind == "swiss":
                if number > found.settings["rounds"]:
                    return self._finish(found, state)
                seeds = self._seeds(found, entrants)
                pairs = [(0, p) for p in tournament.swiss_pairings(len(numbers), played,
                                                                   seeds=seeds)]
            else:
                if number > found.settings["seasons"]:
                    return self._finish(found, state)
                pairs = self._season(found, entrants, index, played, state)
                if not pairs:
                    state["note"] = "fewer than two entrants are left for another season"
                    return self._finish(found, state)
        except PairingError as error:
            state["note"] = f"ended after round {found.round}: {error}"
            return self._finish(found, state)
        new = self._games(found, entrants, numbers, number, pairs)
        # the first round is made only with the entrants it was paired for (one who
        # joined or left meanwhile would upset a round robin's numbers)
        expected = len(entrants) if found.round == 0 else None
        if not self.store.start_round(found.id, found.round, number, new, state,
                                      entrants=expected):
            return False
        for *_, stored in new:
            if stored is not None:
                self._start_clock(stored)
        log.info("tournament %s: round %d started (%d games)", found.id, number,
                 sum(1 for g in new if g[4] is not None))
        return True

    def _season(self, found: Tournament, entrants: list[Entrant], index: dict[int, int],
                played: list[Played], state: dict[str, Any]) -> list[tuple[int, Pairing]]:
        """A league's next season: its divisions (the first from the order of
        joining; then the last season's standings, the top ``promote`` of each
        division up and the bottom down, the leavers out, the newcomers at the bottom)
        and the round robin of each, all its games at once."""
        size, promote = found.settings["division_size"], found.settings["promote"]
        last: list[list[int]] = state.get("divisions", [])
        if not last:
            divisions = tournament.split_divisions(
                [entrants[i].number for i in self._seeds(found, entrants)
                 if not entrants[i].leaving], size)
        else:
            finished = []
            season = [p for p in played if p.round == found.round]
            for members in last:
                mine = [p for p in season if _division_of(p, members, index)]
                local = {index[m]: i for i, m in enumerate(members)}
                table = tournament.standings(
                    len(members), [_localise(p, local) for p in mine], bye_points=0,
                    **self._order(found))
                finished.append([members[line.entrant] for line in table])
            placed = {m for members in last for m in members}
            divisions = tournament.next_divisions(
                finished, size, promote,
                leaving=[e.number for e in entrants if e.leaving],
                joining=[e.number for e in entrants if e.number not in placed
                         and not e.leaving])
        state["divisions"] = divisions
        pairs: list[tuple[int, Pairing]] = []
        for d, members in enumerate(divisions):
            for games in tournament.round_robin(len(members)):
                for first, second in games:
                    pairs.append((d, (index[members[first]], None if second is None
                                      else index[members[second]])))
        return pairs

    def _seeds(self, found: Tournament, entrants: list[Entrant]) -> list[int]:
        """The entrants' indexes by seed: by rating in the tournament's game, best
        first (an AI level's fixed rating, else the starting 1500), then by the order
        of joining."""

        def rating(entrant: Entrant) -> float:
            if entrant.user_id is not None:
                return self.store.rating(entrant.user_id, found.game).rating
            return self.lobby.ai_ratings.get(entrant.ai or "", 1500.0)

        ratings = [rating(e) for e in entrants]
        return sorted(range(len(entrants)), key=lambda i: (-ratings[i], i))

    def _games(self, found: Tournament, entrants: list[Entrant], numbers: list[int],
               number: int, pairs: list[tuple[int, Pairing]]) -> list[NewGame]:
        """The new games of a round (not stored yet), a bye without one."""
        control = TimeControl.from_json(found.time_control)
        new: list[NewGame] = []
        boards: dict[int, int] = {}
        for division, (first, second) in pairs:
            board = boards[division] = boards.get(division, 0) + 1
            if second is None:
                new.append((division, board, numbers[first], None, None))
                continue
            a, b = entrants[first], entrants[second]
            players = [a.ai or HUMAN, b.ai or HUMAN]
            seats: list[int | None] = [a.user_id, b.user_id]
            levels = [level for level in (a.ai, b.ai) if level is not None]
            rated = found.rated and len(levels) < 2 and all(
                level in self.lobby.ai_ratings for level in levels)
            clock = None if control is None else \
                GameClock.start(control, 0, self.manager.now()).to_json()
            stored = StoredGame(
                _game_id(), found.game, list(found.rules), None, players, seats=seats,
                clock=clock, rated=rated,
                extra={"creator": found.creator, "tournament": found.id, "round": number,
                       "event": found.name})
            new.append((division, board, numbers[first], numbers[second], stored))
        return new

    def _start_clock(self, stored: StoredGame) -> None:
        """Watch a new game's flag and let an AI that moves first think."""
        session = self.manager.session(stored.id)
        with session.lock:
            self.manager.changed(session)
            session.start_searches()

    def _finish(self, found: Tournament, state: dict[str, Any]) -> bool:
        done = self.store.finish_tournament(found.id, found.round, state)
        if done:
            log.info("tournament %s finished", found.id)
        return done

    # --- what is shown --------------------------------------------------------------------

    def _order(self, found: Tournament) -> dict[str, Any]:
        """The standings' order and tie-breaks of a tournament."""
        if found.settings.get("scoring") == "series":
            return {"order": "series", "tiebreaks": ("points", "sonneborn_berger")}
        if found.kind == "swiss":
            return {"tiebreaks": ("buchholz", "sonneborn_berger")}
        return {"tiebreaks": ("sonneborn_berger", "buchholz")}

    def _table(self, found: Tournament, numbers: list[int], games: list[TournamentGame],
               label: dict[int, str]) -> JSON:
        """Standings and crosstable of the entrants ``numbers`` in ``games``."""
        index = {number: i for i, number in enumerate(numbers)}
        played = [_played(found, g, index) for g in games
                  if g.first in index and (g.second is None or g.second in index)]
        bye = tournament.BYE_POINTS if found.kind == "swiss" else 0.0
        table = tournament.standings(len(numbers), played, bye_points=bye,
                                     **self._order(found))
        cross = tournament.crosstable(len(numbers), played)
        series = found.game == "andantino"
        return {
            "standings": [{
                "rank": line.rank, "name": label[numbers[line.entrant]],
                "points": line.points, "series": line.series if series else None,
                "sonneborn_berger": line.sonneborn_berger, "buchholz": line.buchholz,
                "played": line.played, "won": line.won, "drawn": line.drawn,
                "lost": line.lost, "byes": line.byes} for line in table],
            "crosstable": {"names": [label[n] for n in numbers],
                           "results": [[" ".join(cell) for cell in row] for row in cross]},
        }

    def _league_tables(self, found: Tournament, entrants: list[Entrant],
                       games: list[TournamentGame], label: dict[int, str]) -> list[JSON]:
        """Each season's divisions with their standings and crosstables, newest
        first."""
        seasons = []
        for season in range(found.round, 0, -1):
            mine = [g for g in games if g.round == season]
            divisions = sorted({g.division for g in mine})
            shown = []
            for d in divisions:
                inside = [g for g in mine if g.division == d]
                members = sorted({g.first for g in inside} |
                                 {g.second for g in inside if g.second is not None})
                shown.append({"division": d + 1,
                              **self._table(found, members, inside, label)})
            seasons.append({"season": season, "divisions": shown})
        return seasons

    def _summary(self, found: Tournament, names: dict[int, str]) -> JSON:
        module = game_module(found.game)
        control = TimeControl.from_json(found.time_control)
        settings = dict(found.settings)
        return {"id": found.id, "name": found.name, "kind": found.kind, "game": found.game,
                "rules": rules_from_json_words(module, found.rules),
                "time_control": found.time_control,
                "time_text": control.describe() if control else "no clock",
                "rated": found.rated, "settings": settings,
                "creator": names.get(found.creator), "status": found.status,
                "round": found.round, "entrant_count": found.entrants,
                "created": found.created, "started": found.started,
                "finished": found.finished, "note": found.state.get("note")}

    # --- helpers -----------------------------------------------------------------------------

    def _get(self, tournament_id: str) -> Tournament:
        found = self.store.tournament(tournament_id[:40])
        if found is None:
            raise NotFoundError(f"no tournament {tournament_id[:40]!r}")
        return found

    def _check_manager(self, actor: Actor, found: Tournament, action: str) -> None:
        if not actor.admin and actor.user_id != found.creator:
            raise policy.refuse(actor, f"{action} tournament {found.id}", None,
                                f"only its creator or an administrator may {action} "
                                "a tournament")

    def _join(self, tournament_id: str, *, user_id: int | None = None,
              ai: str | None = None) -> None:
        try:
            self.store.join_tournament(tournament_id, user_id=user_id, ai=ai,
                                       most_entries=limits.MAX_ENTRIES_PER_USER)
        except TournamentError as error:
            raise _Refused(str(error), error.status) from None

    def _parse(self, creator: int, body: dict[str, Any]) -> Tournament:
        """A new tournament from a request's body.

        Raises:
            AppError: naming the field that is wrong.
        """
        known = {"name", "kind", "game", "rules", "time_control", "rated", "max_entrants",
                 "rounds", "scoring", "division_size", "promote", "seasons", "ai"}
        unknown = sorted(set(body) - known)
        if unknown:
            raise AppError(f"unknown field {unknown[0][:40]!r}: a tournament has "
                           f"{', '.join(sorted(known))}")
        name = body.get("name")
        if not isinstance(name, str) or not name.strip() or \
                len(name) > limits.MAX_TOURNAMENT_NAME:
            raise AppError(f"name must be a text of 1 to {limits.MAX_TOURNAMENT_NAME} "
                           "characters")
        if not name.isprintable():
            raise AppError("name must be one line of printable characters (it is the "
                           "Event tag of its games' records)")
        kind = body.get("kind")
        if kind not in KINDS:
            raise AppError(f"kind must be one of {', '.join(KINDS)}")
        game = body.get("game")
        if not isinstance(game, str) or game.strip().lower() not in GAME_NAMES:
            raise AppError(f"game must be one of {', '.join(GAME_NAMES)}")
        module = game_module(game)
        rules = rules_from_json(module, body.get("rules"))
        position_from_json(module, rules, None)  # a game over at once is no game
        control = _time_control(body.get("time_control"))
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise AppError("rated must be true or false")
        if rated:
            _check_rated(module, rules, None, control)
        if control is None:
            raise AppError("a tournament's games have a clock (time_control live or "
                           "correspondence): without one a round could wait for ever")
        settings: dict[str, Any] = {
            "max_entrants": _whole(body, "max_entrants", 2, limits.MAX_TOURNAMENT_ENTRANTS,
                                   default=16)}
        scoring = body.get("scoring", "points")
        if scoring not in SCORINGS:
            raise AppError(f"scoring must be one of {', '.join(SCORINGS)}")
        if scoring == "series" and module.GAME_NAME.lower() != "andantino":
            raise AppError("scoring series is the Andantino series score: for Andantino "
                           "only")
        settings["scoring"] = scoring
        if kind == "swiss":
            settings["rounds"] = _whole(body, "rounds", 1, limits.MAX_SWISS_ROUNDS)
        elif "rounds" in body:
            raise AppError("rounds is for a Swiss tournament (a round robin has as many "
                           "as its entrants make)")
        if kind == "league":
            settings["division_size"] = _whole(body, "division_size", 2,
                                               limits.MAX_DIVISION_SIZE, default=6)
            settings["promote"] = _whole(body, "promote", 0,
                                         settings["division_size"] // 2, default=1)
            settings["seasons"] = _whole(body, "seasons", 1, limits.MAX_LEAGUE_SEASONS,
                                         default=1)
        else:
            for option in ("division_size", "promote", "seasons"):
                if option in body:
                    raise AppError(f"{option} is for a league")
        levels = body.get("ai", [])
        if not isinstance(levels, list) or len(levels) > len(LEVELS):
            raise AppError(f"ai must be a list of AI levels ({', '.join(LEVELS)})")
        chosen = [_level(level) for level in levels]
        if len(set(chosen)) != len(chosen):
            raise AppError("ai names a level twice: each level enters once")
        if len(chosen) > settings["max_entrants"]:
            raise AppError("ai names more levels than max_entrants allows")
        settings["_ai"] = chosen
        return Tournament("", name.strip(), str(kind), module.GAME_NAME.lower(),
                          rules.options(), control.to_json(), rated, settings, creator)


def _whole(body: dict[str, Any], name: str, low: int, high: int,
           default: int | None = None) -> int:
    value = body.get(name, default)
    if value is None:
        raise AppError(f"{name} is missing: a whole number from {low} to {high}")
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise AppError(f"{name} must be a whole number from {low} to {high}, "
                       f"not {str(value)[:40]}")
    return value


def _only_ai(body: dict[str, Any]) -> object:
    """The ``ai`` of a join or leave's body (``None``: the caller itself).

    Raises:
        AppError: for another field (``{"name": "bob"}`` would act on the caller).
    """
    unknown = sorted(set(body) - {"ai"})
    if unknown:
        raise AppError(f"unknown field {unknown[0][:40]!r}: a join or leave takes {{}} (you) "
                       "or {\"ai\": level}")
    return body.get("ai")


def _level(value: object) -> str:
    if not isinstance(value, str) or value not in LEVELS:
        raise AppError(f"an AI entrant is one of the levels {', '.join(LEVELS)}, not "
                       f"{str(value)[:40]!r}")
    return value


def _entrant_name(entrant: Entrant, names: dict[int, str]) -> str:
    if entrant.ai is not None:
        return f"AI {entrant.ai}"
    assert entrant.user_id is not None
    return names.get(entrant.user_id, "(removed)")


def _played(found: Tournament, game: TournamentGame, index: dict[int, int]) -> Played:
    """A stored game as the pure module's, in entrant indexes."""
    tiles = min(2 + game.plies, 50) if found.game == "andantino" else None
    return Played(game.round, index[game.first],
                  None if game.second is None else index[game.second], game.result, tiles)


def _division_of(played: Played, members: list[int], index: dict[int, int]) -> bool:
    inside = {index[m] for m in members}
    return played.first in inside


def _localise(played: Played, local: dict[int, int]) -> Played:
    return Played(played.round, local[played.first],
                  None if played.second is None else local[played.second], played.result,
                  played.tiles)


def _game_id() -> str:
    import secrets

    return secrets.token_hex(6)
