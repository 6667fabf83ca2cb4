"""The agents the robustness stage evaluates: the stress stage's per-seed final parameters.

The stress stage checkpoints every seed after every evaluation interval under
``<out>/.checkpoints/<game>-<obs>-<steps>/<backend>/seed<k>/`` (:mod:`alignment.learning.checkpoints`);
a seed's last interval holds its final parameters. :func:`load` reads them from such a folder (the
folder's name says which game, observation and budget they were trained on, and the arrays must
fit that game's network), and :func:`train` makes them with the stress stage itself, JAX side only.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import jax
import numpy as np

from alignment.learning import checkpoints as ckpts
from alignment.learning.config import PPOConfig, budget_config

# <game>[+<mod>...]-<obs>-<steps>: stress --mods trains into <game>+<mod>-... (agents of the
# modified game, evaluated like any others)
FOLDER = re.compile(r"^(?P<game>[a-z0-9_]+)(?P<mods>(?:\+[a-z0-9_]+)*)-(?P<obs>objects|pixels)"
                    r"-(?P<steps>\d+)$")
TRAINED_ON = "jax"  # the backend whose agents are evaluated (trained on the JAX game)


class AgentsError(ValueError):
    """Agents that cannot be used (missing, unfinished, another game or observation)."""


@dataclasses.dataclass
class Agents:
    game: str
    obs: str
    steps: int  # agent steps per seed
    seeds: list[int]
    params: Any  # network parameters stacked over seeds (leading axis K)
    num_actions: int
    mlp_sizes: tuple
    source: str  # the folder they were read from
    mods: tuple = ()  # the mods of the game they were trained on (none: the original)

    def first(self, n: int) -> "Agents":
        """The agents of the first ``n`` seeds (all of them where there are no more)."""
        if n >= len(self.seeds):
            return self
        return dataclasses.replace(self, seeds=self.seeds[:n],
                                   params=jax.tree_util.tree_map(lambda x: x[:n], self.params))

    def apply_fn(self):
        from alignment.learning.networks import make_network

        return make_network(self.obs, self.num_actions, self.mlp_sizes).apply


def _template(game: str, config: PPOConfig):
    """The shapes of one seed's JAX-side runner (nothing computed)."""
    from alignment.learning.ppo import init_runner, make_jax_env

    env = make_jax_env(game, config)
    return jax.eval_shape(lambda k: init_runner(config, env, k), jax.random.key(0)), env.num_actions


def load(folder: Path, game: str, obs: str = "objects") -> Agents:
    """The final parameters of every seed trained on the JAX side in a stress checkpoint folder.

    Refuses (AgentsError naming the folder) agents of another game or observation, a seed whose
    training did not finish, and arrays that do not fit ``game``'s network."""
    folder = Path(folder)
    m = FOLDER.match(folder.name)
    if not folder.is_dir() or m is None:
        raise AgentsError(
            f"{folder}: not a stress checkpoint folder; agents are read from "
            f"<stress out>/.checkpoints/<game>[+<mod>...]-<obs>-<steps> (e.g. "
            f"stress/.checkpoints/{game}-{obs}-245760), made by `jaxtari-align stress {game} "
            f"--backends jax`")
    if m["game"] != game:
        raise AgentsError(f"{folder}: these agents were trained on {m['game']}, not {game}; pass "
                          f"{game}'s agents or leave --agents out to train them")
    if m["obs"] != obs:
        raise AgentsError(f"{folder}: these agents see {m['obs']} observations; the robustness "
                          f"stage evaluates {obs} agents (train them with --obs {obs})")
    config = budget_config(int(m["steps"]), obs)
    side = folder / TRAINED_ON
    seed_dirs = sorted((p for p in side.glob("seed*") if p.name[4:].isdigit()),
                       key=lambda p: int(p.name[4:]))
    if not seed_dirs:
        raise AgentsError(f"{folder}: no seeds trained on the {TRAINED_ON} side in {side}")
    template, num_actions = _template(game, config)
    # A checkpoint holds the whole runner in flatten order: the train state (network, optimiser)
    # first, then the envs' game states, the last observations, the key and the update count.
    # Only the network is evaluated, so a game state that gained or lost fields since training
    # (a mechanic modelled later) leaves the agents readable; the observations' shape still
    # tells whether they were trained on this game's features.
    like, treedef = jax.tree_util.tree_flatten(template.train_state)
    obs_like = np.shape(template.obs)
    tail = len(jax.tree_util.tree_leaves((template.obs, template.key, template.update)))
    per_seed, seeds = [], []
    for d in seed_dirs:
        seed = int(d.name[4:])
        ck, corrupt = ckpts.latest(folder, TRAINED_ON, seed)
        if ck is None:
            raise AgentsError(f"{d}: no readable checkpoint" + (f" ({corrupt[0]})" if corrupt else ""))
        done = ck.history[-1]["steps"] if ck.history else 0
        if done != config.num_updates * config.batch_size:
            raise AgentsError(f"{d}: seed {seed} stopped at {done:,} of "
                              f"{config.num_updates * config.batch_size:,} agent steps; finish its "
                              f"training (re-run the stress command) before evaluating it")
        if len(ck.leaves) < len(like) + tail or tuple(ck.leaves[-tail].shape) != obs_like:
            raise AgentsError(f"{d}: its runner is not one of {game}'s {obs} runners (observations "
                              f"of another shape, or too few arrays): trained on another game or "
                              f"observation")
        for a, b in zip(ck.leaves, like):
            key_leaf = jax.dtypes.issubdtype(b.dtype, jax.dtypes.prng_key)
            if not key_leaf and tuple(a.shape) != tuple(b.shape):
                raise AgentsError(f"{d}: an array of shape {tuple(a.shape)} where {game}'s "
                                  f"{obs} network has {tuple(b.shape)}: trained on another game or "
                                  f"observation (or before the game's observation changed)")
        train_state = jax.tree_util.tree_unflatten(
            treedef, [np.asarray(a) if jax.dtypes.issubdtype(b.dtype, jax.dtypes.prng_key)
                      else np.asarray(a, b.dtype) for a, b in zip(ck.leaves, like)])
        per_seed.append(train_state.params)
        seeds.append(seed)
    params = jax.tree_util.tree_map(lambda *xs: np.stack(xs), *per_seed)
    mods = tuple(m["mods"].split("+")[1:])
    return Agents(game, obs, config.total_timesteps, seeds, params, num_actions,
                  tuple(config.mlp_sizes), str(folder), mods)


def from_policy(path: Path, game: str) -> Agents:
    """The agents of a stage-4 policy file (``jaxtari-align stress --export-policy``; committed
    ones under stress/policies/), trained on ``game``."""
    from alignment.learning import policy as pol

    try:
        p = pol.load(Path(path), game)
    except pol.PolicyError as exc:
        raise AgentsError(str(exc)) from None
    return Agents(game, p.obs, int(p.meta.get("steps", 0)), list(p.seeds), p.params,
                  p.num_actions, tuple(p.mlp_sizes), str(path), tuple(p.meta.get("mods") or ()))


def train(game: str, budget: str | int, seeds: int, out_dir: Path, obs: str = "objects",
          on_progress=None) -> Agents:
    """Train ``seeds`` agents on the JAX game with the stress stage (resuming its checkpoints in
    ``out_dir``; no stress report is written) and load their final parameters."""
    from alignment.stress.core import run_stress

    config = budget_config(budget, obs)
    run_stress(game, obs=obs, budget=budget, seeds=seeds, backends=(TRAINED_ON,), out_dir=out_dir,
               on_progress=on_progress)
    return load(ckpts.checkpoint_root(out_dir, game, config), game, obs)


def find_or_train(game: str, budget: str | int, seeds: int, out_dir: Path, obs: str = "objects",
                  on_progress=None) -> tuple[Agents, bool]:
    """Agents of this budget already in ``out_dir`` (all ``seeds`` finished) or newly trained;
    the flag says whether training ran."""
    config = budget_config(budget, obs)
    root = ckpts.checkpoint_root(out_dir, game, config)
    if root.is_dir():
        try:
            agents = load(root, game, obs)
            if len(agents.seeds) >= seeds:
                return agents.first(seeds), False
        except AgentsError:
            pass  # unfinished: training resumes it
    return train(game, budget, seeds, out_dir, obs, on_progress), True
