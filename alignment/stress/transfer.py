"""Stage 4 on the real game: agents trained on the JAX game play ALE and the JAX game under the same
protocol, and the two return distributions are compared.

Both sides play the ALE v5 protocol with whole games (no life-loss resets): frameskip 4, sticky
actions 0.25, the 108,000-frame cap, no no-op starts. Episode ``k`` of a run is fully named by the
run's ``seed``: the emulator's seed (ALE ``random_seed``, the JAX env's reset key) is
``seed + k`` and the policy's sampling key at agent step ``t`` is ``fold_in(fold_in(key(seed), k),
t)``, so any episode can be played again alone (the gate's replays) with the same actions.

On ALE the agent sees the screen through :func:`observe_screen`: ALE's grey screen sampled at the
screen pixels the JAX game's 84x84 raster is drawn from (``jaxtari.render.SMALL_GRAY``), which is
what the JAX side's direct render shows on matched states (tests/stress/test_transfer.py checks it
on both). Object agents see the JAX game's features decoded from ALE's RAM
(:mod:`alignment.reference.features`), as the ALE learner does.

:func:`evaluate` returns data (a :class:`TransferResult`); :mod:`alignment.stress.transfer_report`
writes it.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from alignment.learning import statistics as st
from alignment.learning.config import FRAME_STACK
from alignment.learning.policy import Policy
from alignment.stress.anchors import ANCHOR_EPISODES, ANCHOR_SDS
from alignment.stress.obsmatch import observe_screen  # noqa: F401  (its users import it from here)
from jaxtari.protocol import V5

MARGIN_FRACTION = 0.1  # of the trained agents' gain over the random policy on ALE
BOOTSTRAP = 10_000
REPLAY_EPISODES = 2  # per committed policy: what the gate plays again on the CPU


@dataclasses.dataclass
class Episodes:
    """One side's games: returns, agent steps and emulator frames per episode (in episode order),
    and, on ALE, the agent's actions of the first ``keep_actions`` episodes (the matched games)."""

    returns: list[float]
    steps: list[int]
    truncated: list[bool]
    actions: list[list[int]]


def _action_fn(policy: Policy, seed_index: int) -> Callable:
    """``act(obs_batch, episode_ids, t) -> actions`` for one seed's agent, jitted."""
    apply = policy.apply_fn()
    params = policy.seed_params(seed_index)

    @jax.jit
    def act(obs, keys):
        logits, _ = apply(params, obs)
        return jax.vmap(jax.random.categorical)(keys, logits)

    return act


def _keys(base, episode_ids, t: int):
    ep = jax.vmap(lambda k: jax.random.fold_in(base, k))(jnp.asarray(episode_ids, jnp.uint32))
    return jax.vmap(lambda k: jax.random.fold_in(k, t))(ep)


def ale_episodes(policy: Policy, seed_index: int, episode_ids: Sequence[int], *, seed: int,
                 sticky: float = V5.repeat_action_probability,
                 max_frames: int = V5.max_num_frames_per_episode,
                 keep_actions: int = 0, on_step: Callable | None = None) -> Episodes:
    """Play one whole game per id in ``episode_ids`` on ALE with one seed's agent, all at once."""
    from alignment.catalog import entry
    from alignment.stress.ale_rollout import _ale_interface

    cat = entry(policy.game)
    ids = [int(k) for k in episode_ids]
    envs = [_ale_interface(cat.rom, seed + k, sticky, V5.frameskip) for k in ids]
    for ale in envs:
        if max_frames != V5.max_num_frames_per_episode:
            ale.setInt("max_num_frames_per_episode", int(max_frames))
            ale.loadROM(_rom_path(cat.rom))  # the setting takes effect on load
        ale.reset_game()  # as gymnasium's ALE v5 and the ALE learner (ale_rollout) start a game
    actions_set = envs[0].getMinimalActionSet()
    decoder = None
    if policy.obs == "objects":
        from alignment.reference.features import FeatureDecoder

        decoder = FeatureDecoder(cat.name)

    def frame(ale):
        if decoder is None:
            return observe_screen(ale.getScreenGrayscale())
        return decoder(ale.getRAM()[None])[0]

    firsts = [frame(ale) for ale in envs]
    stacks = (np.stack([np.broadcast_to(f, (FRAME_STACK,) + f.shape) for f in firsts])
              if decoder is None else np.stack(firsts))
    act = _action_fn(policy, seed_index)
    base = jax.random.key(seed)
    n = len(envs)
    live = np.ones(n, bool)
    returns, steps = np.zeros(n), np.zeros(n, np.int64)
    truncated = np.zeros(n, bool)
    kept = [[] for _ in range(min(keep_actions, n))]
    t = 0
    while live.any():
        chosen = np.asarray(act(jnp.asarray(stacks), _keys(base, ids, t)))
        for i in np.flatnonzero(live):
            ale = envs[i]
            a = int(chosen[i])
            if i < len(kept):
                kept[i].append(a)
            returns[i] += ale.act(actions_set[a])
            steps[i] += 1
            f = frame(ale)
            if decoder is None:
                stacks[i] = np.concatenate([stacks[i, 1:], f[None]])
            else:
                stacks[i] = f
            if ale.game_over(with_truncation=False):
                live[i] = False
            elif ale.game_truncated():
                live[i], truncated[i] = False, True
        t += 1
        if on_step is not None:
            on_step(int(live.sum()))
    return Episodes(returns.tolist(), steps.tolist(), truncated.tolist(), kept)


def _rom_path(rom: str) -> str:
    from ale_py import roms

    return roms.get_rom_path(rom)


def jax_episodes(policy: Policy, seed_index: int, episode_ids: Sequence[int], *, seed: int,
                 sticky: float = V5.repeat_action_probability,
                 max_frames: int = V5.max_num_frames_per_episode,
                 mods: Sequence = ()) -> Episodes:
    """The same games on the JAX game (``mods``: modified by these mods, e.g. a seeded fault); no
    actions kept (the matched games are ALE's own)."""
    from jaxtari.wrappers import make_env

    stack = FRAME_STACK if policy.obs == "pixels" else 1
    env = make_env(policy.game, obs=policy.obs, frame_stack=stack, sticky_prob=sticky,
                   episodic_life=False, max_episode_frames=max_frames, mods=tuple(mods))
    apply = policy.apply_fn()
    params = policy.seed_params(seed_index)
    ids = jnp.asarray([int(k) for k in episode_ids], jnp.uint32)
    base = jax.random.key(seed)
    max_steps = -(-max_frames // V5.frameskip) + 1
    n = ids.shape[0]

    def run():
        obs, state = jax.vmap(env.reset)(jax.vmap(jax.random.key)(seed + ids))

        def cond(c):
            return c[3].any() & (c[6] < max_steps)

        def body(c):
            obs, state, ret, live, steps, trunc, t = c
            logits, _ = apply(params, obs)
            a = jax.vmap(jax.random.categorical)(_keys(base, ids, t), logits)
            obs, state, r, done, info = jax.vmap(env.step)(state, a)
            ret = ret + jnp.where(live, r, 0.0)
            steps = steps + live
            trunc = trunc | (live & done & info["truncated"])
            return obs, state, ret, live & ~done, steps, trunc, t + 1

        init = (obs, state, jnp.zeros(n), jnp.ones(n, bool), jnp.zeros(n, jnp.int32),
                jnp.zeros(n, bool), jnp.int32(0))
        return jax.lax.while_loop(cond, body, init)

    _, _, ret, _, steps, trunc, _ = jax.jit(run)()
    return Episodes(np.asarray(ret, np.float64).tolist(), np.asarray(steps).tolist(),
                    np.asarray(trunc).tolist(), [])


def bootstrap_difference(x, y, *, resamples: int = BOOTSTRAP, seed: int = 0,
                         level: float = 0.95, blocked: bool = False) -> dict:
    """Mean of ``x`` minus mean of ``y`` with a percentile bootstrap interval (each sample
    resampled with replacement, independently). ``blocked``: ``x`` and ``y`` are lists of the same
    agents' games, each agent's resampled within itself (the agents fixed, as both sides played
    them; the difference is the mean over agents of their differences)."""
    xs = [np.asarray(v, np.float64) for v in (x if blocked else [x])]
    ys = [np.asarray(v, np.float64) for v in (y if blocked else [y])]
    rng = np.random.default_rng(seed)
    draws = [rng.choice(a, (resamples, a.size)).mean(1) - rng.choice(b, (resamples, b.size)).mean(1)
             for a, b in zip(xs, ys)]
    lo, hi = np.percentile(np.mean(draws, axis=0), [50 * (1 - level), 50 * (1 + level)])
    diff = float(np.mean([a.mean() - b.mean() for a, b in zip(xs, ys)]))
    out = {"diff": diff, "ci": [float(lo), float(hi)], "level": level, "resamples": resamples,
           "seed": seed}
    return {**out, "agents": len(xs)} if blocked else out


def matched_episode(game: str, agent_actions: Sequence[int], *, seed: int,
                    obs: str | None = None, decoder=None) -> dict:
    """The same agent actions, each held for the frameskip, replayed on both backends with sticky
    actions off, every signal and the reward compared on every frame: the first frame where they
    part (None: none in the whole replay). With ``obs`` (the agent's observation mode) the agent's
    observation is compared on every frame too (``observation``: see
    :func:`alignment.stress.obsmatch.compare_observations`; ``decoder`` replaces the objects
    decoder, in tests)."""
    from alignment.deepplay import compare

    frames = np.repeat(np.asarray(agent_actions, np.int32), V5.frameskip)
    c = compare(game, frames, seed=seed, render=False)
    row = {"episode_seed": seed, "frames": int(len(frames)), "first_divergence": c.first_mismatch,
           "signals": sorted(c.signal_mismatches)}
    if obs is not None:
        from alignment.stress.obsmatch import compare_observations

        row["observation"] = compare_observations(game, obs, frames, seed=seed, decoder=decoder)
    return row


MATCHED_STICKY = 0.0  # the matched games are played so that their actions alone reproduce them


def matched_games(policy: Policy, seed_index: int, episodes: int, *, seed: int,
                  max_frames: int = V5.max_num_frames_per_episode) -> list[dict]:
    """The agent's own whole games on ALE with sticky actions off, each replayed on both backends
    by :func:`matched_episode`. Off, because the replay holds each recorded action for the
    frameskip with sticky actions off: a game played under sticky actions is not what its actions
    alone replay, and the replay soon plays another game than the agent did."""
    e = ale_episodes(policy, seed_index, range(episodes), seed=seed, sticky=MATCHED_STICKY,
                     max_frames=max_frames, keep_actions=episodes)
    return [{"agent_seed": policy.seeds[seed_index], "episode": k, "sticky": MATCHED_STICKY,
             "agent_return": e.returns[k], "agent_steps": e.steps[k],
             "actions": [int(a) for a in acts],
             **matched_episode(policy.game, acts, seed=seed + k, obs=policy.obs)}
            for k, acts in enumerate(e.actions)]


def _matched_row(result: "TransferResult", row: dict) -> dict:
    """The matched episode ``row`` of ``result`` made again from the actions it records; a row of
    a report made before the matched games were their own (no ``actions``): from ALE's recorded
    game ``row["episode"]`` of its agent, played under sticky actions."""
    seed = result.eval_seed + row["episode"]
    if "actions" in row:
        kept = {k: row[k] for k in ("agent_seed", "episode", "sticky", "agent_return",
                                    "agent_steps", "actions")}
        return {**kept, **matched_episode(result.game, row["actions"], seed=seed, obs=result.obs)}
    agent = result.seeds.index(row["agent_seed"])
    acts = result.sides["ale"][agent]["actions"][row["episode"]]
    return {"agent_seed": row["agent_seed"], "episode": row["episode"],
            **matched_episode(result.game, acts, seed=seed, obs=result.obs)}


def rematch(result: "TransferResult") -> list[dict]:
    """A report's matched episodes made again from the ALE actions it recorded (the same agents
    and episodes): what adds the agent's observation to a report made before it was compared,
    without playing its games again."""
    missing = [m for m in result.matched if "actions" not in m and (
               m["agent_seed"] not in result.seeds
               or len(result.sides["ale"][result.seeds.index(m["agent_seed"])]["actions"])
               <= m["episode"])]
    if missing:
        raise ValueError(f"{result.game}-{result.obs}: the report holds no ALE actions of agent "
                         f"{missing[0]['agent_seed']}'s episode {missing[0]['episode']}; make it "
                         f"again with `jaxtari-align transfer {result.game} --obs {result.obs}`")
    return [_matched_row(result, m) for m in result.matched]


def parts(row: dict) -> bool:
    """Whether a matched episode parts anywhere: in a signal, or in the agent's observation where
    the report compared it (reports made before that carry no ``observation``)."""
    seen = row.get("observation") or {}
    return row["first_divergence"] is not None or seen.get("first_divergence") is not None


def divergence(row: dict) -> str:
    """A matched episode in words: where its signals first part, and where the agent's
    observation does (or that the report predates that comparison)."""
    from alignment.stress.obsmatch import describe

    sig = ("no signal or reward parts" if row["first_divergence"] is None else
           f"signals first part at frame {row['first_divergence']} ({', '.join(row['signals'])})")
    seen = row.get("observation")
    if seen is None:
        return f"{sig}; the agent's observation not compared (a report made before that check)"
    return f"{sig}; {describe(seen)}"


@dataclasses.dataclass
class TransferResult:
    game: str
    obs: str
    policy_meta: dict
    seeds: list[int]  # the agents' training seeds
    episodes: int  # per agent and side
    eval_seed: int
    sides: dict  # "ale"/"jax" -> per agent: Episodes as a dict
    random_policy: dict
    statistics: dict
    verdict: dict
    matched: list[dict]
    replays: list[dict]  # the gate's: agent, episode id, return on each side
    notes: list[str]
    code_hash: str
    versions: dict
    command: str = ""
    anchor: dict | None = None
    wall_seconds: dict = dataclasses.field(default_factory=dict)
    policy_file: str | None = None  # the committed policy, from the repository root
    policy_sha256: str | None = None
    max_frames: int = V5.max_num_frames_per_episode
    anchor_eval: dict | None = None  # the agents on ALE under the anchor's protocol (anchor_summary)


def anchor_summary(returns: Sequence[Sequence[float]], anchor: dict) -> dict:
    """The figures of an anchor-protocol evaluation from its per-agent returns: each agent's mean,
    their mean, and whether it reaches the published mean less ``ANCHOR_SDS`` published sds."""
    means = [float(np.mean(r)) for r in returns]
    mean = float(np.mean(means))
    bar = float(anchor["mean"]) - ANCHOR_SDS * float(anchor["sd"])
    return {"agent_means": means, "mean": mean, "bar": bar, "meets": mean >= bar}


def anchor_protocol(policy: Policy, *, episodes: int = ANCHOR_EPISODES, seed: int = 0,
                    agents: Sequence[int] | None = None,
                    max_frames: int = V5.max_num_frames_per_episode,
                    on_progress: Callable | None = None) -> dict | None:
    """Every agent (or the indices ``agents``) plays ``episodes`` whole games on ALE with the
    anchor's sticky setting (the protocol the published figure was measured under, as far as ALE
    can play it: see the anchor's protocol text for what still differs); None when the game has
    no anchor."""
    a = anchor_for(policy.game, policy.obs)
    if a is None:
        return None
    if episodes < 1:
        raise ValueError(f"episodes must be at least 1, got {episodes}")
    idx = list(range(len(policy.seeds))) if agents is None else list(agents)
    returns = []
    for i in idx:
        e = ale_episodes(policy, i, range(episodes), seed=seed, sticky=a["sticky"],
                         max_frames=max_frames)
        returns.append(e.returns)
        if on_progress is not None:
            on_progress("ale (anchor protocol)", policy.seeds[i], e)
    return {"sticky": a["sticky"], "episodes": episodes, "eval_seed": seed,
            "agent_seeds": [policy.seeds[i] for i in idx], "anchor_mean": a["mean"],
            "anchor_sd": a["sd"], "sds": ANCHOR_SDS, "returns": returns,
            **anchor_summary(returns, a)}


def _pooled(sides: dict, side: str) -> np.ndarray:
    return np.concatenate([np.asarray(e["returns"], np.float64) for e in sides[side]])


def compare_sides(sides: dict, random_mean: float) -> tuple[dict, dict]:
    """Statistics and the verdict over every agent's episodes, JAX against ALE (the reference).
    Both sides play the same agents, the same number of games each: the agents are blocks, so the
    difference's interval and the TOST take the spread within each agent's games only (the spread
    between agents, which stands on both sides alike, is no part of a difference between them)."""
    x, y = _pooled(sides, "jax"), _pooled(sides, "ale")
    blocks = ([e["returns"] for e in sides["jax"]], [e["returns"] for e in sides["ale"]])
    gain = float(y.mean()) - float(random_mean)
    margin = max(gain, 0.0) * MARGIN_FRACTION
    stats = {"jax": _describe(x), "ale": _describe(y),
             "difference": bootstrap_difference(*blocks, blocked=True),
             "per_agent": [{"jax": _describe(j["returns"]), "ale": _describe(a["returns"])}
                           for j, a in zip(sides["jax"], sides["ale"])]}
    if margin <= 0:
        v = {"label": "inconclusive", "margin": 0.0, "gain": gain, "test": None,
             "detail": f"the agents gained nothing over the random policy on ALE "
                       f"({y.mean():.2f} vs {random_mean:.2f}): train them longer"}
    else:
        v = st.verdict(x, y, random_mean, fraction=MARGIN_FRACTION, unit="episodes",
                       blocks=blocks)
        v["margin_fraction"] = MARGIN_FRACTION
    return stats, v


def _describe(values) -> dict:
    v = np.asarray(values, np.float64)
    return {"n": int(v.size), "mean": float(v.mean()), "sd": float(v.std(ddof=1)) if v.size > 1
            else 0.0, "median": float(np.median(v)), "min": float(v.min()), "max": float(v.max())}


def replay(policy: Policy, agent: int, episode: int, *, seed: int, side: str,
           max_frames: int = V5.max_num_frames_per_episode, mods: Sequence = ()) -> float:
    """One committed evaluation episode played again alone: its return (``mods``: on the JAX
    game modified by them)."""
    if side == "ale":
        return ale_episodes(policy, agent, [episode], seed=seed, max_frames=max_frames).returns[0]
    return jax_episodes(policy, agent, [episode], seed=seed, max_frames=max_frames,
                        mods=mods).returns[0]


def evaluate(policy: Policy, *, episodes: int = 100, seed: int = 0, agents: Sequence[int] | None
             = None, random_episodes: int = 30, max_frames: int = V5.max_num_frames_per_episode,
             replays: int = REPLAY_EPISODES, matched: int = 1, on_progress: Callable | None = None,
             command: str = "", jax_mods: Sequence = (),
             anchor_episodes: int = 0) -> TransferResult:
    """Every agent of ``policy`` (or the indices ``agents``) plays ``episodes`` whole games on each
    side. ``jax_mods``: the JAX side plays the game modified by these (a seeded fault, in tests).
    ``anchor_episodes`` (0: none; the command's default is ``ANCHOR_EPISODES``): games per agent
    on ALE under the anchor's protocol."""
    import time

    from alignment.catalog import code_hash
    from alignment.provenance import LEARNING_STACK, versions
    from alignment.stress.random_policy import random_policy

    if episodes < 2:
        raise ValueError(f"episodes must be at least 2 per side (a variance is needed), got {episodes}")
    idx = list(range(len(policy.seeds))) if agents is None else list(agents)
    ids = list(range(episodes))
    sides: dict = {"ale": [], "jax": []}
    walls = {"ale": 0.0, "jax": 0.0}
    keep = max(matched, 0)
    for i in idx:
        for side in ("jax", "ale"):
            t0 = time.perf_counter()
            if side == "ale":
                e = ale_episodes(policy, i, ids, seed=seed, max_frames=max_frames)
            else:
                e = jax_episodes(policy, i, ids, seed=seed, max_frames=max_frames, mods=jax_mods)
            walls[side] += time.perf_counter() - t0
            sides[side].append(dataclasses.asdict(e))
            if on_progress is not None:
                on_progress(side, policy.seeds[i], e)
    rand = random_policy(policy.game, episodes=random_episodes)
    stats, verdict = compare_sides(sides, rand["mean"])
    # the matched episodes and the gate's replays come from the agent that plays best on ALE: a
    # seed that learned nothing meets little of the game
    best = int(np.argmax([np.mean(e["returns"]) for e in sides["ale"]]))
    matched_rows = matched_games(policy, idx[best], min(keep, episodes), seed=seed,
                                 max_frames=max_frames) if keep else []
    first = next((m for m in matched_rows if parts(m)), None)
    if verdict["label"] == "different" and first is not None:
        verdict["detail"] += (f"; a matched episode (agent {first['agent_seed']}, episode "
                              f"{first['episode']}, sticky off) parts: {divergence(first)}")
    replay_rows = [{"agent": idx[best], "agent_seed": policy.seeds[idx[best]], "episode": k,
                    "ale": sides["ale"][best]["returns"][k], "jax": sides["jax"][best]["returns"][k]}
                   for k in range(min(replays, episodes))]
    for row in replay_rows:  # the gate replays these alone: they must come out the same alone
        for side in ("ale", "jax"):
            alone = replay(policy, row["agent"], row["episode"], seed=seed, side=side,
                           max_frames=max_frames, mods=jax_mods)
            row[f"{side}_alone"] = alone
    notes = []
    bad = [r for r in replay_rows if r["ale"] != r["ale_alone"] or r["jax"] != r["jax_alone"]]
    if bad:
        notes.append(f"{len(bad)} replay episode(s) return otherwise when played alone than in "
                     f"the batch (floating-point differences of batched inference change a "
                     f"sampled action): the gate replays the alone values")
    return TransferResult(
        policy.game, policy.obs, dict(policy.meta), [policy.seeds[i] for i in idx], episodes, seed,
        sides, rand, stats, verdict, matched_rows, replay_rows, notes, code_hash(policy.game),
        versions(LEARNING_STACK), command, anchor_for(policy.game, policy.obs), walls, max_frames=max_frames,
        anchor_eval=(anchor_protocol(policy, episodes=anchor_episodes, seed=seed, agents=idx,
                                     max_frames=max_frames, on_progress=on_progress)
                     if anchor_episodes > 0 else None))


def anchor_for(game: str, obs: str = "pixels") -> dict | None:
    from alignment.stress.anchors import anchor

    return anchor(game, obs=obs)
