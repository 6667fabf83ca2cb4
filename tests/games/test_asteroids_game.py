"""The Asteroids port's ``Game`` subclass against what the general suites ask of every registered
game (tests/test_conformance.py, tests/test_game_layout.py), run here on the port's class because
the port is not in ``jaxtari.list_games()`` yet: the same checks, by the same code where it does not
go through ``jaxtari.make``; the ALE v5 protocol through the shared wrappers; a changed Constant
changes the game."""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxtari import ACTION_NAMES, mods as mods_lib
from jaxtari.wrappers import AtariWrapper
from jaxtari.games import asteroids as package
from jaxtari.games.asteroids import Asteroids, AsteroidsConstants, AsteroidsState
from jaxtari.games.asteroids import constants as c
from jaxtari.games.asteroids import game as g
from jaxtari.games.asteroids import mods as asteroid_mods
from tests import test_conformance as conformance
from tests import test_game_layout as layout

PACKAGE = package.__name__
ROOT = Path(package.__path__[0])


class PortRun(conformance.Run):
    """tests/test_conformance.py's Run on a game object (it makes its game by registered name)."""

    def __init__(self, game):
        self.game = game
        self.keys = jax.random.split(jax.random.key(7), conformance.LANES)
        rng = np.random.default_rng(len(game.name))
        self.actions = rng.integers(0, game.num_actions, (conformance.LANES, conformance.STEPS)).astype(np.int32)
        self.reset, self.step = jax.jit(game.reset), jax.jit(game.step)
        self.lanes = [self.play(lane) for lane in range(conformance.LANES)]


@pytest.fixture(scope="module")
def run():
    return PortRun(Asteroids())


# ---- tests/test_conformance.py -----------------------------------------------------------------

def test_reset_and_step_shapes_dtypes_and_spaces(run):
    game = run.game
    assert game.action_space.n == game.num_actions == len(game.action_names) == 14
    assert Asteroids(full_action_space=True).action_space.n == len(ACTION_NAMES)
    conformance.check_lanes(run)


def test_render_shapes_and_dtypes(run):
    conformance.test_render_shapes_and_dtypes(run)


@pytest.mark.slow
def test_the_rendered_picture_is_a_picture(run):
    conformance.test_the_rendered_picture_is_a_picture(run)


def test_object_groups_keep_their_shapes_and_make_the_observation(run):
    conformance.test_object_groups_keep_their_shapes_and_make_the_observation(run)


@pytest.mark.slow
def test_eager_equals_jit(run):
    conformance.test_eager_equals_jit(run)


@pytest.mark.slow
def test_a_vmapped_lane_equals_the_env_alone(run):
    conformance.test_a_vmapped_lane_equals_the_env_alone(run)


def test_the_same_key_and_actions_give_the_same_game(run):
    conformance.test_the_same_key_and_actions_give_the_same_game(run)


def test_every_mod_builds_and_keeps_the_step_signature():
    plain = Asteroids()
    _, state = plain.reset(jax.random.key(0))
    want = jax.eval_shape(plain.step, state, jnp.int32(0))
    assert len(asteroid_mods.MODS) >= 3
    assert "slow_asteroids" in {m.name for m in asteroid_mods.MODS}
    for mod in asteroid_mods.MODS:
        consts, mechanics = mods_lib.apply_internal(Asteroids, [mod])
        game = Asteroids(consts, mechanic_overrides=mechanics, mod_names=[mod.name])
        got = jax.eval_shape(game.step, state, jnp.int32(0))
        assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(want), mod.name
        assert [(x.shape, x.dtype) for x in jax.tree_util.tree_leaves(got)] == \
            [(x.shape, x.dtype) for x in jax.tree_util.tree_leaves(want)], mod.name


# ---- tests/test_game_layout.py ------------------------------------------------------------------

def test_the_package_has_the_skeletons_files_and_no_others():
    entries = {p.name for p in ROOT.iterdir() if p.name not in layout.IGNORED and not p.name.startswith(".")}
    missing, extra = layout.REQUIRED - entries, entries - layout.REQUIRED - layout.OPTIONAL
    assert not missing and not extra, (missing, extra)
    assert (ROOT / "logic" / "__init__.py").is_file()


def test_the_package_docstring_is_short_and_the_long_story_is_its_readme():
    doc = ast.get_docstring(ast.parse((ROOT / "__init__.py").read_text(encoding="utf-8")), clean=True)
    assert doc and len(doc.splitlines()) <= layout.MAX_DOCSTRING_LINES
    assert (ROOT / "README.md").read_text(encoding="utf-8").strip()


def test_the_game_and_its_constants_live_where_the_skeleton_says():
    assert Asteroids.__module__ == f"{PACKAGE}.game"
    consts = Asteroids.Constants
    assert consts is AsteroidsConstants
    assert dataclasses.is_dataclass(consts) and consts.__dataclass_params__.frozen
    assert consts.__module__ == f"{PACKAGE}.constants"
    state = jax.eval_shape(lambda k: Asteroids()._reset(k), jax.random.key(0))
    assert type(state) is AsteroidsState and type(state).__module__ == f"{PACKAGE}.state"


@pytest.mark.parametrize("method", ["objects", "signals"])
def test_objects_and_signals_are_computed_in_objects_py(method, monkeypatch):
    layout.check_computed_in(Asteroids, importlib.import_module(f"{PACKAGE}.objects"), method,
                             monkeypatch)


# ---- the Game's own promises -------------------------------------------------------------------

def test_the_game_steps_as_the_lockstep_tested_frame():
    """``Asteroids.step`` is the module's frame (the one the lockstep tests hold against ALE):
    the same states, and the reward is the score's change."""
    game = Asteroids()
    rng = np.random.default_rng(0)
    indices = rng.integers(0, game.num_actions, 300).astype(np.int32)
    ale_actions = np.asarray(game.action_ids, np.int32)[indices]
    _, state = game.reset(jax.random.key(3))
    step = jax.jit(game.step)
    rewards = []
    for a in indices:
        _, state, reward, _, _ = step(state, jnp.int32(a))
        rewards.append(float(reward))
    states = g.rollout(g.reset(), ale_actions)
    last = jax.tree.map(lambda x: x[-1], states)
    for name, value in g.signals(state).items():
        assert int(value) == int(g.signals(last)[name]), name
    scores = np.asarray(g.score(states))
    assert rewards == np.diff(np.concatenate([[0], scores])).astype(float).tolist()
    assert int(state.frame) == len(indices)


def test_the_v5_protocol_runs_through_the_shared_wrappers():
    """ALE v5 (frameskip 4, sticky 0.25, the episode cap) by jaxtari.wrappers, as every game."""
    env = AtariWrapper(Asteroids())
    obs, state = jax.jit(env.reset)(jax.random.key(0))
    step = jax.jit(env.step)
    total = 0.0
    for t in range(50):
        obs, state, reward, done, info = step(state, jnp.int32(t % 14))
        total += float(reward)
    assert obs.shape == Asteroids().observation_space.shape
    assert int(info["episode_frames"]) == 200 and int(info["lives"]) >= 1


def test_a_changed_constant_changes_the_game():
    """The step reads its numbers from the Constants: more lives at the start, another
    thrust table or no hyperspace time change what a plain run shows, and the default Constants
    give the module's own game."""
    plain = Asteroids()
    _, s0 = plain.reset(jax.random.key(0))
    assert int(plain.lives(s0)) == c.START_LIVES
    more = Asteroids(dataclasses.replace(c.DEFAULTS, start_lives=c.START_LIVES + 2))
    _, s1 = more.reset(jax.random.key(0))
    assert int(more.lives(s1)) == c.START_LIVES + 2

    thrust = [ACTION_NAMES.index("UP")] * 40
    ours = g.rollout(g.reset(), np.asarray(thrust, np.int32))
    weaker = dataclasses.replace(c.DEFAULTS, thrust=tuple(v // 2 for v in c.THRUST))
    theirs = g.rollout(g.reset(weaker), np.asarray(thrust, np.int32), weaker)
    assert int(ours.ship.velocity[-1, 1]) != int(theirs.ship.velocity[-1, 1])
    assert int(ours.ship.y[-1]) != int(theirs.ship.y[-1])
    # the asteroids and the counters, which thrust does not touch, are the same
    assert np.array_equal(np.asarray(ours.field.memory), np.asarray(theirs.field.memory))


def test_every_constants_field_is_read_by_the_game():
    """No dead field: each AsteroidsConstants field is read by the package's code (``k.<field>``),
    so changing any of them reaches the step."""
    import re

    source = "\n".join(p.read_text(encoding="utf-8") for p in ROOT.rglob("*.py"))
    read = set(re.findall(r"\bk\.([a-z_]+)\b", source))
    fields = {f.name for f in dataclasses.fields(AsteroidsConstants)}
    assert fields - read == set()
