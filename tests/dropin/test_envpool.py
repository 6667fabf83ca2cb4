"""jaxtari.envpool: EnvPool's documented interface (make's options, numpy reset/step/send/recv,
xla() inside jit and scan), a PPO loop written against it, and the options refused by name."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
import jaxtari.envpool as envpool
from jaxtari import dropin
from jaxtari.dropin import DropInError, env_name
from jaxtari.gym import env_ids
from tests.reference_frame_stack import stack_writes


def test_xla_scan_replays_the_numpy_interface():
    """A handle taken before reset() (as CleanRL's scripts take it) steps, inside one jitted scan,
    exactly as the numpy step() does from reset(); episodic life and the step limit as documented."""
    limit, steps = 100, 120
    a = envpool.make("Breakout-v5", env_type="gymnasium", num_envs=2, episodic_life=True, reward_clip=True,
                     seed=3, max_episode_steps=limit, repeat_action_probability=0.25)
    handle, recv, send, step = a.xla()
    obs, info = a.reset()
    assert obs.shape == (2, 4, 84, 84) and obs.dtype == np.uint8
    assert set(info) == {"env_id", "players", "lives", "reward", "terminated", "elapsed_step"}
    assert (info["lives"] == 5).all() and (info["elapsed_step"] == 0).all()
    actions = np.random.default_rng(0).integers(0, a.action_space.n, (steps, 2)).astype(np.int32)

    @jax.jit
    def run(handle):
        def body(h, act):
            h, (o, r, te, tr, inf) = step(h, act)
            return h, (o, r, te, tr, inf)
        return jax.lax.scan(body, handle, jnp.asarray(actions))[1]

    scanned = jax.tree_util.tree_map(np.asarray, run(handle))
    for t, act in enumerate(actions):
        got = a.step(act)
        for x, want in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(scanned)):
            np.testing.assert_array_equal(x, want[t], err_msg=f"step {t}")
    _, reward, term, trunc, info = scanned
    lives, elapsed, game_over = info["lives"], info["elapsed_step"], info["terminated"] > 0
    lost = np.argwhere(term & ~game_over)
    assert len(lost) >= 2, "no life lost in the rollout"
    for t, i in lost:  # a lost life ends the episode; the next call goes on in the same game
        assert lives[t, i] == lives[t - 1, i] - 1
        assert reward[t + 1, i] == 0 and lives[t + 1, i] == lives[t, i] and elapsed[t + 1, i] == elapsed[t, i]
    for t, i in np.argwhere(trunc):  # the limit counts the game's steps over its lives
        assert elapsed[t, i] == limit and not term[t, i]
        assert elapsed[t + 1, i] == 0 and lives[t + 1, i] == 5 and reward[t + 1, i] == 0
    assert trunc.any() and (np.abs(reward) <= 1).all()
    # send/recv is step split in two
    _, out = recv(send(handle, jnp.asarray(actions[0])))
    np.testing.assert_array_equal(np.asarray(out[0]), scanned[0][0])


def test_numpy_send_recv_is_step_and_async_reset_starts_new_games():
    """The numpy interface: send() then recv() gives what step() gives on a twin pool, and
    async_reset() on a started pool begins a new game in every env, which the next recv() shows
    (its first frame in every slot of the stack, reward 0, no step counted, every life)."""
    kwargs = dict(num_envs=2, seed=5, noop_max=30, repeat_action_probability=0.25)
    a, b = envpool.make("Breakout-v5", **kwargs), envpool.make("Breakout-v5", **kwargs)
    a.reset(), b.reset()
    actions = np.random.default_rng(1).integers(0, a.action_space.n, (40, 2))
    for t, act in enumerate(actions):
        a.send(act)
        got, want = a.recv(), b.step(act)
        for x, y in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
            np.testing.assert_array_equal(x, y, err_msg=f"step {t}")
    assert (got[4]["elapsed_step"] == 40).all()
    a.async_reset()
    obs, reward, term, trunc, info = a.recv()
    assert (info["elapsed_step"] == 0).all() and (info["lives"] == 5).all()
    assert (reward == 0).all() and not term.any() and not trunc.any()
    assert (obs == obs[:, -1:]).all()  # one frame, in every slot
    _, _, _, _, info = a.step(actions[0])
    assert (info["elapsed_step"] == 1).all()


@pytest.mark.slow
def test_ppo_loop_runs_a_few_updates():
    from tests.dropin.ppo_envpool_xla import Config, train

    cfg = Config()
    params, history, stats = train(cfg)
    assert len(history) == cfg.num_updates
    for loss, pg, v, entropy in history:
        assert np.isfinite(loss).all() and loss.shape == (cfg.epochs, cfg.minibatches)
        assert (entropy > 0).all() and (entropy <= np.log(6) + 1e-5).all()  # Pong: 6 actions
    first = history[0][3]
    assert not np.allclose(history[-1][3], first)  # the policy moved


def test_refused_by_name():
    with pytest.raises(DropInError, match="env_type='dm'"):
        envpool.make("Pong-v5", env_type="dm")
    with pytest.raises(DropInError, match="batch_size=2: jaxtari.envpool steps all num_envs=4"):
        envpool.make("Pong-v5", num_envs=4, batch_size=2)
    with pytest.raises(DropInError, match="img_height=64, img_width=64: jaxtari draws its frames at 84x84"):
        envpool.make("Pong-v5", img_height=64, img_width=64)
    with pytest.raises(DropInError, match="gray_scale=False"):
        envpool.make("Pong-v5", gray_scale=False)
    with pytest.raises(DropInError, match="render_mode: EnvPool's option is not offered"):
        envpool.make("Pong-v5", render_mode="rgb_array")
    with pytest.raises(DropInError, match="unknown option 'stack_size'"):
        envpool.make("Pong-v5", stack_size=4)
    with pytest.raises(DropInError, match="unknown game 'Tennis'.*Ids: Asteroids-v5, Breakout-v5"):
        envpool.make("Tennis-v5")
    # the name rule reads these as Pong; the ids' observations and frameskip are what is refused
    with pytest.raises(DropInError, match="'Pong-ram-v5': RAM observations are not emulated"):
        envpool.make("Pong-ram-v5")
    with pytest.raises(DropInError, match="'PongDeterministic-v4': ALE's Deterministic ids"):
        envpool.make("PongDeterministic-v4")


@pytest.mark.parametrize("game", jaxtari.list_games())
def test_an_id_is_read_by_the_one_game_name_rule(game):
    """gymnasium's id grammar, then jaxtari.names.key: every id jaxtari registers and every id
    spelling ALE gives the game that these ids honour reads as the game; what the rule reduces
    away from -ram and Deterministic ids is refused by name, whatever the namespace or version."""
    name = env_name(game)
    registered = [i for i in env_ids() if i.split("/")[1].startswith(f"{name}NoFrameskip-") or
                  i.split("/")[1].startswith(f"{name}-")]
    assert len(registered) == 2, registered  # jaxtari/<Game>-v5 and jaxtari/<Game>NoFrameskip-v4
    for spelling in registered + [f"{name}-v5", f"ALE/{name}-v5", f"{name}NoFrameskip-v4", game,
                                  name.upper(), f"{name}-v0"]:
        assert dropin.game_from_id(spelling) == game, spelling
    for ram in (f"{name}-ram-v5", f"ALE/{name}-ram-v5", f"{name}-ramNoFrameskip-v4",
                f"jaxtari/{name}-ramDeterministic-v4", f"{name.lower()}-ram"):
        with pytest.raises(DropInError, match=f"'{re.escape(ram)}': RAM observations are not emulated"):
            dropin.game_from_id(ram)
    for det in (f"{name}Deterministic-v4", f"ALE/{name}Deterministic-v0"):
        with pytest.raises(DropInError, match=f"'{re.escape(det)}': ALE's Deterministic ids"):
            dropin.game_from_id(det)


@pytest.mark.parametrize("bad", ["Pong v5", "", "Pong-v5/", "/Pong-v5"])
def test_a_malformed_id_is_named_with_the_ids(bad):
    with pytest.raises(DropInError, match=f"'{re.escape(bad)}' is not an id: .*Pong-v5"):
        dropin.game_from_id(bad)


def test_xla_step_draws_the_frame_once_into_the_stack():
    """The pool keeps its frames in the FrameStack's one-array stack (wrappers.stack_push): in a
    compiled scan of xla()'s step every fusion that writes the stack reads the new frame from
    memory (drawn once: the renderer fused into the stack's selects would draw it in each slot),
    and the stack is copied at most once per step. XLA gives a rollout buffer's update a shifted
    stack of its own (the restart's select fused into the update), beside the state's."""
    n = 4
    pool = envpool.make("Pong-v5", num_envs=n, seed=0)
    handle, _, _, step = pool.xla()

    def rollout(h):
        def body(h, k):
            h, (obs, *_rest) = step(h, jax.random.randint(k, (n,), 0, pool.action_space.n))
            return h, obs  # a rollout buffer
        return jax.lax.scan(body, h, jax.random.split(jax.random.key(1), 4))

    text = jax.jit(rollout, donate_argnums=0).lower(handle).compile().as_text()
    fusions, reads_frame, copies = stack_writes(text, f"u8[{n},4,84,84]", f"u8[{n},84,84]")
    assert fusions and all(reads_frame), fusions
    assert sum(len(f) for f in fusions.values()) <= 2 and len(copies) <= 1, (fusions, copies)
