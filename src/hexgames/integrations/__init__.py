"""Research integrations: the games as OpenSpiel games and PettingZoo environments.

Each submodule is imported only when used, and needs an extra:

- :mod:`hexgames.integrations.encoding`: fixed action spaces and observation tensors
  (numpy; either extra installs it);
- :mod:`hexgames.integrations.openspiel`: ``python_andantino`` and ``python_abande``
  for ``pyspiel.load_game`` (``pip install hexgames[openspiel]``);
- :mod:`hexgames.integrations.pettingzoo`: the AEC environments ``andantino_v0`` and
  ``abande_v0`` (``pip install hexgames[pettingzoo]``).

This package itself imports nothing, so ``import hexgames.integrations`` never fails.
"""
