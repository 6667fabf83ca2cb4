"""The JAX side's trained agents, read from a finished run's checkpoints into a policy file."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from alignment.catalog import code_hash
from alignment.learning import checkpoints as ckpts
from alignment.learning import policy
from alignment.learning.config import PPOConfig


def export_policy(game: str, config: PPOConfig, seeds: int, out_dir: Path, dest: Path,
                  mods: Sequence[str] = ()) -> Path:
    """Write seeds ``0..seeds-1`` of the finished JAX-side run in ``out_dir`` to ``dest``."""
    from alignment.robustness.agents import load

    root = ckpts.checkpoint_root(Path(out_dir), game, config, mods)
    agents = load(root, game, config.obs)
    import jax

    walls = [ckpts.latest(root, "jax", s)[0].wall_seconds for s in range(seeds)]
    meta = {"steps": config.total_timesteps, "trained_on": "jax", "mods": list(mods),
            "code_hash": code_hash(game), "config": config.to_dict(),
            "training": {"where": f"{jax.default_backend()}: {jax.devices()[0].device_kind}",
                         "wall_seconds_per_seed": max(walls), "seeds_together": seeds}}
    if agents.seeds != list(range(seeds)):
        raise policy.PolicyError(f"{root}: seeds {agents.seeds} finished, not 0..{seeds - 1}")
    pol = policy.make(game, config.obs, agents.num_actions, config.mlp_sizes, agents.seeds,
                      agents.params, meta)
    return policy.save(dest, pol)
