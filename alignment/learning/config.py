"""PPO hyperparameters and training budgets: one home for both, read by every stage that trains
or loads an agent (stress, robustness).

The defaults are CleanRL's EnvPool Atari PPO (``ppo_atari_envpool.py``; also upstream JAXAtari's PPO
configs): both backends train with exactly these values, only the environment differs.
"""

from __future__ import annotations

import dataclasses

from jaxtari.protocol import V5

OBS_MODES = ("objects", "pixels")
# The env the JAX side trains in: ALE v5 (jaxtari.wrappers: sticky actions 0.25, no no-op starts,
# the agent presses FIRE itself), or EnvPool's Atari env as CleanRL's EnvPool scripts make it
# (the EnvPool drop-in's Functional env: sticky actions off, 0..30 no-op starts, fire reset,
# EnvPool's auto-reset), the protocol of the published returns stage 4 anchors to.
PROTOCOLS = ("v5", "envpool")


def protocol_suffix(protocol: str) -> str:
    """What a run's file and folder names add for its protocol: nothing for v5 (every name made
    before protocols stays), ``-<protocol>`` otherwise."""
    return "" if protocol == "v5" else f"-{protocol}"
FRAME_STACK = 4  # pixels: the Nature CNN's 84x84x4 input


class LearnerInputError(ValueError):
    """A configuration the learner cannot train with (an unknown budget or observation mode, a
    budget too small for one update or past the bound). The stages' own input errors derive from
    it, so a command catching this one reports both alike."""


@dataclasses.dataclass(frozen=True)
class PPOConfig:
    obs: str = "objects"
    num_envs: int = 8
    num_steps: int = 128
    total_timesteps: int = 10_000_000
    learning_rate: float = 2.5e-4
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_eps: float = 0.1
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    adam_eps: float = 1e-5
    clip_rewards: bool = True  # the sign of the reward for training; returns are logged unclipped
    episodic_life: bool = True  # a lost life ends the training episode (not the logged one)
    sticky_prob: float = V5.repeat_action_probability  # ALE v5
    mlp_sizes: tuple = (461, 512)  # object-centric torso (JAXtari paper / upstream scripts)
    updates_per_eval: int = 16  # one evaluation point (and checkpoint) every this many updates
    protocol: str = "v5"  # PROTOCOLS; recorded only when not v5, so v5 runs' records are as before

    @property
    def batch_size(self) -> int:
        return self.num_envs * self.num_steps

    @property
    def minibatch_size(self) -> int:
        return self.batch_size // self.num_minibatches

    @property
    def num_updates(self) -> int:
        return self.total_timesteps // self.batch_size

    @property
    def num_evals(self) -> int:
        """Evaluation points (the last one may cover fewer updates)."""
        return -(-self.num_updates // self.updates_per_eval)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        if d["protocol"] == "v5":
            del d["protocol"]
        return d


# name -> (total agent steps per seed, updates per evaluation point). An interval of 16 updates is
# 2,048 steps per env, one whole Freeway game, so every interval has finished games to average.
# cpu: what 5 seeds on ALE train in ~30 min on the shared 2-core machine (measured 1,809 s), where
# PPO learned Freeway on 3 of 5 seeds on both backends. paper: the JAXtari paper's 10M steps.
BUDGETS: dict[str, tuple[int, int]] = {
    "smoke": (2 * 1024, 1),
    "cpu": (245_760, 16),
    "paper": (10_000_000, 40),
}
DEFAULT_UPDATES_PER_EVAL = 16
# Checked before anything is allocated: step counts are int32 on the JAX side, and 100x the paper's
# budget is far past a useful run.
MAX_BUDGET_STEPS = 1_000_000_000


_SUFFIX = {"k": 1_000, "m": 1_000_000}


def parse_steps(text: str) -> int | None:
    """``"10M"`` -> 10_000_000, ``"500k"`` -> 500_000, ``"2048"`` -> 2048; None if not a count."""
    t = text.strip().lower().replace("_", "").replace(",", "")
    mult = _SUFFIX.get(t[-1:], 1)
    digits = t[:-1] if t[-1:] in _SUFFIX else t
    try:
        value = float(digits) if mult > 1 else int(digits)
    except ValueError:
        return None
    steps = value * mult
    return int(steps) if steps == int(steps) and steps >= 0 else None


def budget_config(budget: str | int, obs: str = "objects", protocol: str = "v5") -> PPOConfig:
    """The PPO config of a named budget (``smoke``, ``cpu``, ``paper``) or a step count (``2048``,
    ``500k``, ``10M``), training under ``protocol`` (:data:`PROTOCOLS`; envpool: sticky actions
    off, pixels only)."""
    if obs not in OBS_MODES:
        raise LearnerInputError(f"unknown observation mode {obs!r}; choices: {', '.join(OBS_MODES)}")
    if protocol not in PROTOCOLS:
        raise LearnerInputError(f"unknown protocol {protocol!r}; choices: {', '.join(PROTOCOLS)}")
    if protocol == "envpool" and obs != "pixels":
        raise LearnerInputError("the envpool protocol trains on EnvPool's observations, 84x84 grey "
                                "frames: use obs pixels (or the v5 protocol for objects)")
    base = PPOConfig(obs=obs, protocol=protocol,
                     sticky_prob=0.0 if protocol == "envpool" else PPOConfig.sticky_prob)
    if isinstance(budget, str) and budget.strip().lower() not in BUDGETS:
        steps = parse_steps(budget)
        if steps is not None:
            budget = steps
    if isinstance(budget, str):
        if budget not in BUDGETS:
            raise LearnerInputError(
                f"unknown budget {budget!r}; choices: {', '.join(BUDGETS)} or a number of agent "
                f"steps per seed (at least {base.batch_size}; 500k and 10M are understood)")
        steps, per_eval = BUDGETS[budget]
    else:
        steps = int(budget)
        # one curve point per ~40k steps at 10M (as the paper budget), 16 updates below that
        per_eval = BUDGETS["paper"][1] if steps >= BUDGETS["paper"][0] else DEFAULT_UPDATES_PER_EVAL
    if steps > MAX_BUDGET_STEPS:
        raise LearnerInputError(
            f"a budget of {steps:,} agent steps per seed is past the bound of "
            f"{MAX_BUDGET_STEPS:,}; choose a smaller --budget (paper is {BUDGETS['paper'][0]:,})")
    if steps < base.batch_size:
        raise LearnerInputError(
            f"a budget of {steps} agent steps is too small for one PPO update; the minimum is "
            f"{base.batch_size} ({base.num_envs} envs x {base.num_steps} steps)")
    updates = steps // base.batch_size
    return dataclasses.replace(base, total_timesteps=steps, updates_per_eval=min(per_eval, updates))
