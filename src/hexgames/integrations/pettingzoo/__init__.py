"""Andantino and Abande as PettingZoo AEC environments (``pip install
hexgames[pettingzoo]``), in the manner of PettingZoo's classic board games::

    from hexgames.integrations.pettingzoo import abande_v0

    env = abande_v0.env(render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = env.action_space(agent).sample(mask)
        env.step(action)
    env.close()

See :mod:`hexgames.integrations.pettingzoo.base` for the agents, spaces, rewards and
render modes.
"""

from . import abande_v0, andantino_v0

__all__ = ["abande_v0", "andantino_v0"]
