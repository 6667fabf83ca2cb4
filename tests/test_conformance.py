"""What every game of ``jaxtari.list_games()`` promises, checked without naming one (a new game
passes these or is not done): spaces hold what the game returns, reset/step/render shapes and dtypes,
fixed object groups, eager equals jit, a vmapped lane equals the same env alone, determinism, and
every registered mod builds. The games' own tests compare them with ALE; these check the contract.
The default run keeps what needs one compile of the step per game; eager, vmap and the compiled
picture are slow-marked."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
from jaxtari import mod_registry
from jaxtari.atari import SCREEN_H, SCREEN_W

GAMES = jaxtari.list_games()
LANES = 3
STEPS = 16  # frames per lane (the step compiles once; what it does is the games' own tests')


def _leaves(tree) -> list[np.ndarray]:
    return [np.asarray(jax.random.key_data(x) if jnp.issubdtype(x.dtype, jax.dtypes.prng_key) else x)
            for x in jax.tree_util.tree_leaves(tree)]


def _assert_same(a, b, what: str) -> None:
    la, lb = _leaves(a), _leaves(b)
    assert jax.tree_util.tree_structure(a) == jax.tree_util.tree_structure(b), what
    for i, (x, y) in enumerate(zip(la, lb)):
        assert x.dtype == y.dtype and x.shape == y.shape, (what, i, x.dtype, y.dtype, x.shape, y.shape)
        np.testing.assert_array_equal(x, y, err_msg=f"{what}: leaf {i}")


class Run:
    """One game played on LANES lanes for STEPS random actions: alone (jit) and as a vmapped batch."""

    def __init__(self, name: str):
        self.game = game = jaxtari.make(name)
        self.keys = jax.random.split(jax.random.key(7), LANES)
        rng = np.random.default_rng(len(name))
        self.actions = rng.integers(0, game.num_actions, (LANES, STEPS)).astype(np.int32)
        self.reset, self.step = jax.jit(game.reset), jax.jit(game.step)
        self.lanes = [self.play(lane) for lane in range(LANES)]

    def play(self, lane: int) -> dict:
        obs, state = self.reset(self.keys[lane])
        out = {"obs": [obs], "reward": [], "done": [], "states": [state]}
        for a in self.actions[lane]:
            obs, state, reward, done, info = self.step(state, jnp.int32(a))
            out["obs"].append(obs)
            out["reward"].append(reward)
            out["done"].append(done)
            out["states"].append(state)
        out["info"] = info
        return out


@pytest.fixture(scope="module", params=GAMES)
def run(request) -> Run:
    return Run(request.param)


def test_reset_and_step_shapes_dtypes_and_spaces(run):
    game = run.game
    assert game.action_space.n == game.num_actions == len(game.action_names) > 0
    assert jaxtari.make(game.name, full_action_space=True).action_space.n == len(jaxtari.ACTION_NAMES)
    check_lanes(run)
    for a in jax.vmap(game.action_space.sample)(jax.random.split(jax.random.key(1), 50)):
        assert game.action_space.contains(a)


def check_lanes(run):
    """Every lane's observations inside the observation space, its rewards float32 scalars, its
    done flags bool scalars, its info a dict (also run on games still being ported)."""
    space = run.game.observation_space
    for lane in run.lanes:
        for obs in lane["obs"]:
            assert obs.dtype == jnp.float32 and obs.shape == tuple(space.shape)
            assert space.contains(obs)
        for reward, done in zip(lane["reward"], lane["done"]):
            assert reward.dtype == jnp.float32 and reward.shape == ()
            assert done.dtype == jnp.bool_ and done.shape == ()
        assert isinstance(lane["info"], dict)


def test_render_shapes_and_dtypes(run):
    # traced, not compiled (the games' own tests compare the pictures with ALE's, pixel by pixel)
    state = run.lanes[0]["states"][-1]
    rgb = jax.eval_shape(run.game.render, state)
    grey = jax.eval_shape(run.game.render_gray84, state)
    assert rgb.dtype == jnp.uint8 and rgb.shape == (SCREEN_H, SCREEN_W, 3)
    assert grey.dtype == jnp.uint8 and grey.shape == (84, 84)


@pytest.mark.slow
def test_the_rendered_picture_is_a_picture(run):
    rgb = np.asarray(jax.jit(run.game.render)(run.lanes[0]["states"][-1]))
    assert rgb.std() > 0 and len(np.unique(rgb.reshape(-1, 3), axis=0)) > 1


def test_object_groups_keep_their_shapes_and_make_the_observation(run):
    game = run.game
    objects, observe = jax.jit(game.objects), jax.jit(game.observation)
    first = objects(run.lanes[0]["states"][0])
    assert first, "a game shows at least one object group"
    for lane in run.lanes:
        for state in (lane["states"][0], lane["states"][-1]):
            groups = objects(state)
            assert sorted(groups) == sorted(first)
            for name, g in groups.items():
                n = first[name].size
                for col in (g.x, g.y, g.w, g.h):
                    assert col.dtype == jnp.int32 and col.shape == (n,), name
                assert g.active.dtype == jnp.bool_ and g.active.shape == (n,), name
                assert sorted(g.attrs) == sorted(first[name].attrs), name
                assert all(v.shape == (n,) for v in g.attrs.values()), name
            np.testing.assert_array_equal(
                observe(state),
                np.concatenate([np.asarray(groups[k].features()) for k in sorted(groups)]))


@pytest.mark.slow
def test_eager_equals_jit(run):
    game = run.game
    obs, state = game.reset(run.keys[0])
    _assert_same((obs, state), (run.lanes[0]["obs"][0], run.lanes[0]["states"][0]), "reset")
    for t in range(2):
        obs, state, reward, done, _ = game.step(state, jnp.int32(run.actions[0, t]))
        _assert_same((obs, state, reward, done),
                     (run.lanes[0]["obs"][t + 1], run.lanes[0]["states"][t + 1],
                      run.lanes[0]["reward"][t], run.lanes[0]["done"][t]), f"step {t}")


@pytest.mark.slow
def test_a_vmapped_lane_equals_the_env_alone(run):
    vreset, vstep = jax.jit(jax.vmap(run.game.reset)), jax.jit(jax.vmap(run.game.step))
    obs, state = vreset(run.keys)
    for t in range(STEPS):
        obs, state, reward, done, _ = vstep(state, jnp.asarray(run.actions[:, t]))
    for lane in range(LANES):
        alone = run.lanes[lane]
        _assert_same(jax.tree_util.tree_map(lambda x: x[lane], (obs, state, reward, done)),
                     (alone["obs"][-1], alone["states"][-1], alone["reward"][-1], alone["done"][-1]),
                     f"lane {lane}")


def test_the_same_key_and_actions_give_the_same_game(run):
    again = run.play(0)
    for k in ("obs", "reward", "done", "states"):
        _assert_same(again[k], run.lanes[0][k], k)


@pytest.mark.parametrize("name", GAMES)
def test_every_registered_mod_builds_and_keeps_the_step_signature(name):
    plain = jaxtari.make(name)
    _, state = plain.reset(jax.random.key(0))
    want = jax.eval_shape(plain.step, state, jnp.int32(0))
    registered = mod_registry.registered_mods(name)
    assert registered, f"{name} registers no mods (jaxtari/games/{name}/mods.py)"
    for mod in registered:
        game = jaxtari.make(name, mods=[mod])
        assert list(game.mod_names) == [mod]
        got = jax.eval_shape(game.step, state, jnp.int32(0))
        assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(want), mod
        assert [(x.shape, x.dtype) for x in jax.tree_util.tree_leaves(got)] == \
            [(x.shape, x.dtype) for x in jax.tree_util.tree_leaves(want)], mod
