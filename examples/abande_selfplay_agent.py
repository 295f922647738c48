"""Train an Abande agent by self-play through the batched API, on CPU, then play it.

A value network learns by self-play in the manner of TD-Gammon (Tesauro, "Temporal
Difference Learning and TD-Gammon", Communications of the ACM 38(3), 1995): the agent
plays the move whose position after it the network likes best (a one-ply search), and
the network learns the TD(lambda) returns of the games it plays (Sutton, "Learning to
predict by the methods of temporal differences", Machine Learning 3, 1988), on all 12
images of each position under the hex grid's symmetries
(:mod:`hexgames.integrations.symmetry`; AlphaZero's augmentation, Silver et al.,
Science 362, 2018)::

    python examples/abande_selfplay_agent.py --minutes 10 --seed 1 --out /tmp/abande-agent.npz
    python examples/abande_selfplay_agent.py --iterations 40 --seed 3
    python examples/abande_selfplay_agent.py --load /tmp/abande-agent.npz --games 200

**Self-play through the batched API.** ``--envs`` games of
:func:`hexgames.integrations.batched.make` ``("abande")`` are stepped together; the
environment gives each game's observation (the side to move's planes,
:mod:`hexgames.integrations.encoding`), legal-action mask, rewards and auto-reset. To
look one ply ahead the agent needs a model of the rules: each game is mirrored by a
native state (:func:`hexgames.native.state_class`), on which the native encoder plays
every legal action and writes the observation of the position after it (from the
opponent's side, so the mover's value of a move is minus the network's value of it; a
move that ends the game is worth its exact result). Exploration: with probability
``EPSILON`` a uniformly random legal move instead of the best.

**Targets.** For the position before ply t, ``q_t`` is the one-ply value of the move
played (the mover's point of view); the target is ``G_t = (1 - lambda) q_t - lambda
G_{t+1}``, and at the game's last ply the result for the mover (the sign flips because
the players alternate: a pass is a move). A finished game's positions go into a
replay buffer of the last ``BUFFER`` positions, from which minibatches are drawn
uniformly, each position under a random one of the 12 symmetries.

**Why not MCTS.** Abande has at most 37 legal moves and most positions far fewer, so a
full one-ply expansion costs a few dozen network evaluations and needs no policy head
and no tree. AlphaZero's search (or Gumbel AlphaZero's, Danihelka et al., "Policy
improvement by planning with Gumbel", ICLR 2022) was not tried: each of its simulations
would copy a native state too (the batched API's games cannot be copied), and the
one-ply learner reached its target first.

**Network** (NumPy, no framework): the 12 x 7 x 7 observation flattened, two hidden
layers of ``HIDDEN`` ReLU units, one tanh output (the side to move's expected result,
-1 to +1), trained on the squared error by Adam (Kingma and Ba, 2015): 92,033
parameters, 360 KiB as float32 in the ``.npz`` weights file (``--out``, ``--load``).

**Playing.** The agent plays the best move of its one-ply search (one network
evaluation per legal move, no other search), ties broken by its seeded generator; it is
a :class:`hexgames.engine.base.Player`, so it plays ``easy`` and ``random`` through the
library's boards and players, colours alternated (the agent first in even games).
After 10 CPU minutes (``--minutes 10 --seed 1``) it won 192 of 200 games against
``easy``, after 5 minutes 183 (docs/evaluation.md has the figures).

**Budget.** ``--minutes`` is CPU time of this process (``time.process_time``; numpy's
BLAS is held to one thread, so it is time of one core), checked after each iteration;
``--iterations`` fixes the number of iterations instead, and with the same ``--seed``
gives the same network and games (a ``--minutes`` run prints the iterations it did, to
repeat it so). One iteration is ``STEPS`` steps of the ``--envs`` games followed by
``UPDATES`` minibatches of ``BATCH`` positions.

Bad options or a bad weights file exit with status 2 and a message naming what is wrong.
Needs numpy (``pip install hexgames[rl]``).
"""

from __future__ import annotations

# ruff: noqa: E402
import os

# One core: the network's matrices are small, and OpenBLAS's threads would only wait
# for one another (their spinning counted as CPU time). Set before numpy is imported.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse
import functools
import math
import random
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hexgames import abande, native
from hexgames.engine.base import GameState, Info, InfoCallback, Limit, Player, PlayResult
from hexgames.engine.players import make_player
from hexgames.integrations.batched import make
from hexgames.integrations.encoding import AbandeEncoding
from hexgames.integrations.symmetry import NUM_SYMMETRIES, Symmetries

FloatArray = npt.NDArray[np.float32]

HIDDEN = 128
EPSILON = 0.1
LAMBDA = 0.7
STEPS = 16
UPDATES = 32
BATCH = 256
BUFFER = 100_000
LEARNING_RATE = 1e-3
FORMAT = "hexgames-abande-value-1"


class WeightsError(ValueError):
    """A weights file that is missing, unreadable or of another shape or format."""


class ValueNet:
    """A multilayer perceptron from observations to the side to move's value.

    ``inputs -> ReLU(hidden) -> ReLU(hidden) -> tanh``: ``value(x)`` takes ``(B,
    inputs)`` ``float32`` and gives ``(B,)`` in -1..1; :meth:`train` takes one Adam step
    (Kingma and Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015) on the mean
    squared error against ``(B,)`` targets.
    """

    NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")

    def __init__(self, inputs: int, hidden: int, rng: np.random.Generator) -> None:
        def he(fan_in: int, fan_out: int) -> FloatArray:
            scale = math.sqrt(2.0 / fan_in)
            weights: FloatArray = (rng.standard_normal((fan_in, fan_out)) * scale).astype(
                np.float32)
            return weights

        self.params: dict[str, FloatArray] = {
            "w1": he(inputs, hidden), "b1": np.zeros(hidden, np.float32),
            "w2": he(hidden, hidden), "b2": np.zeros(hidden, np.float32),
            "w3": (he(hidden, 1) * 0.1).astype(np.float32), "b3": np.zeros(1, np.float32)}
        self._m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self._v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self._t = 0

    @property
    def size(self) -> int:
        """The number of parameters."""
        return sum(int(p.size) for p in self.params.values())

    def value(self, x: FloatArray) -> FloatArray:
        p = self.params
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        out: FloatArray = np.tanh(h2 @ p["w3"] + p["b3"])[:, 0]
        return out

    def train(self, x: FloatArray, target: FloatArray, lr: float) -> float:
        """One Adam step on ``mean((value(x) - target)^2)``; returns that loss."""
        p = self.params
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        y = np.tanh(h2 @ p["w3"] + p["b3"])[:, 0]
        err = y - target
        n = len(x)
        dz3 = (2.0 / n) * err * (1.0 - y * y)
        grads = {"w3": h2.T @ dz3[:, None], "b3": np.array([dz3.sum()], np.float32)}
        dh2 = dz3[:, None] @ p["w3"].T
        dh2[h2 <= 0.0] = 0.0
        grads["w2"] = h1.T @ dh2
        grads["b2"] = dh2.sum(axis=0)
        dh1 = dh2 @ p["w2"].T
        dh1[h1 <= 0.0] = 0.0
        grads["w1"] = x.T @ dh1
        grads["b1"] = dh1.sum(axis=0)
        self._t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k, g in grads.items():
            self._m[k] = b1 * self._m[k] + (1 - b1) * g
            self._v[k] = b2 * self._v[k] + (1 - b2) * g * g
            m_hat = self._m[k] / (1 - b1 ** self._t)
            v_hat = self._v[k] / (1 - b2 ** self._t)
            p[k] -= (lr * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)
        return float(np.mean(err * err))

    def save(self, path: Path) -> None:
        with path.open("wb") as f:
            arrays: dict[str, Any] = {"format": np.array(FORMAT), **self.params}
            np.savez(f, **arrays)

    @classmethod
    def load(cls, path: Path, inputs: int) -> ValueNet:
        """The network of a weights file written by :meth:`save`.

        Raises:
            WeightsError: for a missing or unreadable file, another format, or arrays
                of the wrong names, shapes or dtype.
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
            raise WeightsError(f"cannot read weights file {path}: {e}") from None
        if str(arrays.pop("format", "")) != FORMAT:
            raise WeightsError(f"{path} is not a weights file of this example "
                               f"(format {FORMAT!r} expected)")
        if sorted(arrays) != sorted(cls.NAMES):
            raise WeightsError(f"{path} has arrays {sorted(arrays)}, expected "
                               f"{sorted(cls.NAMES)}")
        hidden = arrays["b1"].shape[0] if arrays["b1"].ndim == 1 else -1
        shapes = {"w1": (inputs, hidden), "b1": (hidden,), "w2": (hidden, hidden),
                  "b2": (hidden,), "w3": (hidden, 1), "b3": (1,)}
        for k, shape in shapes.items():
            if arrays[k].shape != shape or arrays[k].dtype != np.float32:
                raise WeightsError(f"{path}: {k} has shape {arrays[k].shape} and dtype "
                                   f"{arrays[k].dtype}, expected {shape} float32")
            if not np.isfinite(arrays[k]).all():
                raise WeightsError(f"{path}: {k} holds a value that is not finite")
        net = cls(inputs, hidden, np.random.default_rng(0))
        net.params = {k: arrays[k] for k in cls.NAMES}
        return net


class OnePly:
    """The one-ply search: the mover's value of every legal move of native states.

    ``values(states, movers, masks)`` returns, for each state, the legal actions
    and their values: ``+1``/``-1``/``0`` for a move that ends the game in a win, loss
    or draw of the mover, else minus the network's value of the position after it.
    """

    def __init__(self, net: ValueNet) -> None:
        self.net = net
        self.encoder = native.encoder("abande")
        self.shape = self.encoder.observation_shape(True)
        self.inputs = int(np.prod(self.shape))
        self._buffer = np.zeros((4096, self.inputs), np.float32)

    def values(self, states: list[Any], movers: Any,
               masks: Any) -> list[tuple[npt.NDArray[np.int64], FloatArray]]:
        enc = self.encoder
        total = int(masks.sum())
        if len(self._buffer) < total:
            self._buffer = np.zeros((total, self.inputs), np.float32)
        buffer = self._buffer
        rows = 0
        out: list[tuple[npt.NDArray[np.int64], FloatArray]] = []
        pending: list[tuple[FloatArray, npt.NDArray[np.int64]]] = []
        for i, state in enumerate(states):
            actions = np.flatnonzero(masks[i])
            q = np.empty(len(actions), np.float32)
            mover = int(movers[i])
            index = np.full(len(actions), -1, np.int64)
            for j, action in enumerate(actions):
                child = state.copy()
                enc.push_action(child, int(action))
                if enc.is_over(child):
                    q[j] = enc.returns(child)[mover]
                else:
                    enc.observe(child, buffer[rows])
                    index[j] = rows
                    rows += 1
            out.append((actions, q))
            pending.append((q, index))
        if rows:
            v = self.net.value(buffer[:rows])
            for q, index in pending:
                inner = index >= 0
                q[inner] = -v[index[inner]]
        return out


def choose(q: FloatArray, rng: np.random.Generator) -> int:
    """The index of a best value, ties broken at random."""
    best = np.flatnonzero(q >= q.max() - 1e-6)
    return int(best[rng.integers(len(best))]) if len(best) > 1 else int(best[0])


class Trainer:
    """Self-play through the batched API and TD(lambda) training (module docstring)."""

    def __init__(self, seed: int, envs: int, hidden: int = HIDDEN) -> None:
        self.rng = np.random.default_rng(seed)
        self.env = make("abande")
        self.state = self.env.init(np.arange(envs) + seed * envs)
        self.inputs = int(np.prod(self.env.observation_shape))
        self.net = ValueNet(self.inputs, hidden, self.rng)
        self.search = OnePly(self.net)
        state_class = native.state_class("abande")
        self._new_state = state_class
        self.mirrors: list[Any] = [state_class() for _ in range(envs)]
        self.symmetries = Symmetries(AbandeEncoding())
        self.obs = np.zeros((BUFFER, self.inputs), np.float16)
        self.targets = np.zeros(BUFFER, np.float32)
        self.filled = 0
        self.cursor = 0
        self.trajectories: list[list[tuple[npt.NDArray[np.float32], float]]] = [
            [] for _ in range(envs)]
        self.games = 0
        self.positions = 0
        self.first_player_wins = 0
        self.draws = 0

    def _store(self, trajectory: list[tuple[FloatArray, float]]) -> None:
        g = 0.0
        for t in range(len(trajectory) - 1, -1, -1):
            obs, q = trajectory[t]
            g = q if t == len(trajectory) - 1 else (1 - LAMBDA) * q - LAMBDA * g
            self.obs[self.cursor] = obs
            self.targets[self.cursor] = g
            self.cursor = (self.cursor + 1) % BUFFER
            self.filled = min(self.filled + 1, BUFFER)
        self.positions += len(trajectory)

    def step(self) -> None:
        state = self.state
        movers = state.current_player.copy()
        observations = state.observation.reshape(len(movers), -1).copy()
        results = self.search.values(self.mirrors, movers, state.legal_action_mask)
        actions = np.empty(len(movers), np.int64)
        for i, (legal, q) in enumerate(results):
            if self.rng.random() < EPSILON:
                j = int(self.rng.integers(len(legal)))
            else:
                j = choose(q, self.rng)
            actions[i] = legal[j]
            self.trajectories[i].append((observations[i], float(q[j])))
        enc = self.search.encoder
        for i, mirror in enumerate(self.mirrors):
            enc.push_action(mirror, int(actions[i]))
        self.state = state = self.env.step(state, actions)
        for i in map(int, np.flatnonzero(state.terminated)):
            reward = float(state.rewards[i, movers[i]])
            self.trajectories[i][-1] = (self.trajectories[i][-1][0], reward)
            self._store(self.trajectories[i])
            self.trajectories[i] = []
            self.mirrors[i] = self._new_state()
            self.games += 1
            first = float(state.rewards[i, 0])
            self.first_player_wins += int(first > 0)
            self.draws += int(first == 0)

    def update(self) -> float:
        if self.filled < BATCH:
            return float("nan")
        loss = 0.0
        for _ in range(UPDATES):
            pick = self.rng.integers(self.filled, size=BATCH)
            planes = self.obs[pick].astype(np.float32).reshape(BATCH, *self.env.observation_shape)
            k = self.rng.integers(NUM_SYMMETRIES, size=BATCH)
            x = self.symmetries.observation(planes, k).reshape(BATCH, -1)
            loss += self.net.train(x, self.targets[pick], LEARNING_RATE)
        return loss / UPDATES

    def iteration(self) -> float:
        for _ in range(STEPS):
            self.step()
        return self.update()


class ValueAgent(Player):
    """The trained network's one-ply search as a library player (module docstring).

    Args:
        net: the value network.
        seed: seeds the tie-breaks.
    """

    name = "value-agent"

    def __init__(self, net: ValueNet, seed: int | None = None) -> None:
        super().__init__()
        self.search = OnePly(net)
        self.rng = np.random.default_rng(seed)
        self._mask = np.zeros(self.search.encoder.num_actions, np.int8)

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        assert isinstance(board, abande.Board)
        state: Any = native.state_of(board)
        enc = self.search.encoder
        enc.legal_mask(state, self._mask)
        mover = int(state.turn)  # 0 the first player (Black), as the batched API's
        ((legal, q),) = self.search.values([state], [mover], self._mask[None])
        j = choose(q, self.rng)
        move = abande.Move.from_notation(enc.notation(int(legal[j])))
        info = Info(pv=[move], score=float((q[j] + 1) / 2))
        if on_info is not None:
            on_info(info)
        return PlayResult(move, info)


def match(agent: Player, opponent: Callable[[int], Player], games: int,
          seed: int) -> tuple[int, int, int]:
    """The agent's wins, draws and losses over ``games`` games against fresh
    opponents (``opponent(seed)``), the agent first in even-numbered games."""
    wins = draws = losses = 0
    for g in range(games):
        board = abande.Board()
        agent_first = g % 2 == 0
        other = opponent(seed * 100_003 + g)
        players = (agent, other) if agent_first else (other, agent)
        while not board.is_game_over():
            player = players[len(board.move_stack) % 2]
            board.push(player.play(board).move)
        result = board.result()
        if result == "1/2-1/2":
            draws += 1
        elif (result == "1-0") == agent_first:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def opponent(name: str, seed: int) -> Player:
    """The library's player ``name`` (a player or level spec), seeded."""
    return make_player(name, seed=seed)


def evaluate(net: ValueNet, games: int, seed: int) -> None:
    for name in ("easy", "random"):
        start = time.process_time()
        agent = ValueAgent(net, seed=seed)
        w, d, loss = match(agent, functools.partial(opponent, name), games, seed)
        score = (w + d / 2) / games if games else 0.0
        print(f"against {name}: {w} wins, {d} draws, {loss} losses of {games} "
              f"({100 * score:.1f}%), {time.process_time() - start:.1f} s CPU", flush=True)


def _number(kind: type, text: str, zero: bool) -> Any:
    value = kind(text)
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        least = "0 or more" if zero else "1 or more"
        what = "a finite number" if kind is float else "a whole number"
        raise argparse.ArgumentTypeError(f"must be {what}, {least}")
    return value


def minutes(text: str) -> float:
    """A number of minutes, 0 or more (argparse names the function on bad input)."""
    return float(_number(float, text, True))


def count(text: str) -> int:
    """A whole number, 0 or more."""
    return int(_number(int, text, True))


def positive_count(text: str) -> int:
    """A whole number, 1 or more."""
    return int(_number(int, text, False))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=minutes, default=10.0,
                        help="CPU minutes of training, of one core (default 10)")
    parser.add_argument("--iterations", type=count,
                        help="train exactly this many iterations instead of --minutes")
    parser.add_argument("--seed", type=count, default=0)
    parser.add_argument("--envs", type=positive_count, default=128,
                        help="games stepped together in self-play (default 128)")
    parser.add_argument("--games", type=count, default=200,
                        help="evaluation games against easy and against random each "
                             "(default 200)")
    parser.add_argument("--out", type=Path, help="write the trained weights (.npz) here")
    parser.add_argument("--load", type=Path,
                        help="play the network of this weights file (no training)")
    args = parser.parse_args(argv)
    start = time.process_time()
    if args.load is not None:
        if args.out is not None or args.iterations is not None:
            parser.error("--load plays a trained network: it takes no --out or --iterations")
        try:
            net = ValueNet.load(args.load, 12 * 7 * 7)
        except WeightsError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"loaded {args.load}: {net.size} parameters")
    else:
        if args.out is not None and not args.out.parent.is_dir():
            parser.error(f"--out: no directory {args.out.parent}")
        random.seed(args.seed)
        trainer = Trainer(args.seed, args.envs)
        net = trainer.net
        print(f"abande: {args.envs} games in self-play, network of {net.size} parameters")
        done = 0
        while (done < args.iterations if args.iterations is not None
               else time.process_time() - start < 60 * args.minutes):
            loss = trainer.iteration()
            done += 1
            if done % 10 == 0 or done == args.iterations:
                games = max(trainer.games, 1)
                print(f"iteration {done}: {trainer.games} games, {trainer.positions} "
                      f"positions, loss {loss:.4f}, first player won "
                      f"{100 * trainer.first_player_wins / games:.0f}% (draws "
                      f"{100 * trainer.draws / games:.0f}%), "
                      f"{(time.process_time() - start) / 60:.2f} CPU minutes", flush=True)
        print(f"trained {done} iterations ({trainer.games} games) in "
              f"{(time.process_time() - start) / 60:.2f} CPU minutes")
        if args.out is not None:
            net.save(args.out)
            print(f"weights written to {args.out}")
    evaluate(net, args.games, args.seed)
    print(f"total {(time.process_time() - start) / 60:.2f} CPU minutes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
