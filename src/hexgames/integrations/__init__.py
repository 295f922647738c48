"""Research integrations: the games as OpenSpiel games, PettingZoo environments and
vector environments for reinforcement learning.

Each submodule is imported only when used, and needs an extra:

- :mod:`hexgames.integrations.encoding`: fixed action spaces and observation tensors,
  the readable Python reference (numpy; any of the extras installs it);
- :mod:`hexgames.integrations.openspiel`: ``python_andantino`` and ``python_abande``
  for ``pyspiel.load_game`` (``pip install hexgames[openspiel]``);
- :mod:`hexgames.integrations.pettingzoo`: the AEC environments ``andantino_v0`` and
  ``abande_v0`` (``pip install hexgames[pettingzoo]``);
- :mod:`hexgames.integrations.vector`: ``AndantinoVectorEnv`` and ``AbandeVectorEnv``,
  N games stepped in one native call, gymnasium's vector API with same-step autoreset
  (``pip install hexgames[rl]``);
- :mod:`hexgames.integrations.batched`: the same N games in the manner of Pgx,
  ``init(keys)`` and ``step(state, actions)`` on NumPy arrays, with auto-reset
  (``pip install hexgames[rl]``);
- :mod:`hexgames.integrations.symmetry`: the 12 symmetries of the hex grid as
  augmentation of observations, actions and policy targets (numpy).

The environments step the native core's states (:mod:`hexgames.native`), whose encoders
(``hexgames._native.AndantinoEncoder`` / ``AbandeEncoder``) give exactly the actions and
planes of :mod:`hexgames.integrations.encoding` and write masks and observations
straight into numpy arrays.

This package itself imports nothing, so ``import hexgames.integrations`` never fails.
"""
