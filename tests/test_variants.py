"""Constants as data (jaxtari.variants): a batch of variants under one compile plays exactly as each
variant built the usual way, with its constants baked in."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
from jaxtari.variants import Variants, VariantError, traceable_fields
from jaxtari.wrappers import AtariWrapper

FRAMES = 240


def _baked(name, overrides=None, mods=()):
    """The game built the usual way: its constants (or a mod's) baked into the program."""
    if overrides:
        cls = jaxtari.game_class(name)
        return cls(dataclasses.replace(cls.Constants(), **overrides))
    return jaxtari.make(name, mods=mods)


def _roll(reset, step, key, actions):
    """Reset with ``key``, then every action: (obs, reward, done) per step and the last state."""
    obs, state = reset(key)

    def body(s, a):
        o, s, r, d, _ = step(s, a)
        return s, (o, r, d)

    state, out = jax.lax.scan(body, state, actions)
    return out, state


def _leaves(tree):
    return [jax.random.key_data(x) if jnp.issubdtype(x.dtype, jax.dtypes.prng_key) else x
            for x in jax.tree.leaves(tree)]


def _assert_lane_equal(batched, lane, single):
    got, want = _leaves(batched), _leaves(single)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g)[lane], np.asarray(w))


def _actions(game, seed, frames=FRAMES):
    return jax.random.randint(jax.random.key(seed), (frames,), 0, game.num_actions)


def test_a_batch_of_pong_variants_plays_as_each_baked_game():
    v = Variants("pong", ("enemy_speed", "win_score", "serve_delay", "paddle_h"))
    rows = [{}, v.mod_values(["slow_enemy"]), {"win_score": 3, "serve_delay": 20, "paddle_h": 8}]
    values = v.stack(rows)
    assert values["enemy_speed"].tolist() == [2, 1, 2]
    games = [_baked("pong"), _baked("pong", mods=["slow_enemy"]),
             _baked("pong", {"win_score": 3, "serve_delay": 20, "paddle_h": 8})]
    actions = _actions(games[0], 1)
    keys = jax.random.split(jax.random.key(7), 3)

    batched = jax.jit(jax.vmap(lambda vals, key: _roll(
        lambda k: v.reset(vals, k), lambda s, a: v.step(vals, s, a), key, actions)))(values, keys)
    outs = []
    for lane, game in enumerate(games):
        single = jax.jit(lambda key, g=game: _roll(g.reset, g.step, key, actions))(keys[lane])
        _assert_lane_equal(batched, lane, single)
        outs.append(single)
    # the variants really differ: the slower computer paddle and the smaller paddle move otherwise
    states = [o[1] for o in outs]
    assert any(not np.array_equal(a, b) for a, b in zip(_leaves(states[0]), _leaves(states[1])))
    assert any(not np.array_equal(a, b) for a, b in zip(_leaves(states[0]), _leaves(states[2])))


def test_a_switch_mod_as_data_under_the_v5_wrapper():
    v = Variants("breakout", ("shrink_on_top_wall",), wrap=AtariWrapper)
    values = v.stack([{}, v.mod_values(["no_shrink"])])
    assert values["shrink_on_top_wall"].tolist() == [True, False]
    games = [AtariWrapper(_baked("breakout")), AtariWrapper(_baked("breakout", mods=["no_shrink"]))]
    actions = _actions(_baked("breakout"), 3, 48)
    keys = jax.random.split(jax.random.key(11), 2)
    batched = jax.jit(jax.vmap(lambda vals, key: _roll(
        lambda k: v.reset(vals, k), lambda s, a: v.step(vals, s, a), key, actions)))(values, keys)
    for lane, env in enumerate(games):
        single = jax.jit(lambda key, e=env: _roll(e.reset, e.step, key, actions))(keys[lane])
        _assert_lane_equal(batched, lane, single)


def test_render_of_a_variant_is_the_baked_games():
    v = Variants("pong", ("paddle_h", "player_colour"))
    vals = v.values(paddle_h=8, player_colour=70)
    game = _baked("pong", {"paddle_h": 8, "player_colour": 70})
    _, state = game.reset(jax.random.key(0))
    np.testing.assert_array_equal(jax.jit(v.render)(vals, state), jax.jit(game.render)(state))


@pytest.mark.parametrize("name", ["freeway", "seaquest"])
def test_the_rectangles_switch_as_data_draws_the_baked_mods_picture(name):
    # a picture-only switch read by the draw code: as data it draws each lane's own picture
    v = Variants(name, ("sprites_as_boxes",))  # refused if the game needs it as a Python value
    plain, boxes = _baked(name), _baked(name, mods=["rectangles"])
    state = jax.jit(lambda k: _roll(plain.reset, plain.step, k, _actions(plain, 4, 200)))(
        jax.random.key(3))[1]
    values = v.stack([{}, v.mod_values(["rectangles"])])
    got = jax.jit(jax.vmap(v.render, in_axes=(0, None)))(values, state)
    want = [jax.jit(g.render)(state) for g in (plain, boxes)]
    assert not np.array_equal(want[0], want[1])
    for lane in range(2):
        np.testing.assert_array_equal(np.asarray(got[lane]), np.asarray(want[lane]))


def test_traceable_fields_are_the_audits_batched_mutant_fields():
    # one rule for both: the audit's mutant runner traces the same Constants fields (numbers only)
    from alignment.audit.mutant_runs import traceable_fields as audit_fields

    ours = traceable_fields("pong")
    numbers = [f for f in ours if not isinstance(getattr(jaxtari.game_class("pong").Constants(), f),
                                                 bool)]
    assert numbers == audit_fields("pong", jaxtari.game_class("pong"))
    assert "enemy_speed" in ours and "mode" not in ours


@pytest.mark.parametrize("name, fields, words", [
    ("pong", ("no_such_field",), ["no Constants field 'no_such_field'", "its fields"]),
    ("breakout", ("mode",), ["'mode' cannot be data", "jaxtari.make"]),
])
def test_fields_that_cannot_be_data_are_refused_by_name(name, fields, words):
    with pytest.raises(VariantError) as e:
        Variants(name, fields)
    for w in words:
        assert w in str(e.value)


def test_bad_values_and_program_mods_are_refused_by_name():
    v = Variants("pong", ("enemy_speed", "early_player_rows_odd"))
    with pytest.raises(VariantError, match="enemy_speed: expected a whole number"):
        v.values(enemy_speed=1.5)
    with pytest.raises(VariantError, match="enemy_speed: expected a whole number"):
        v.values(enemy_speed=True)
    with pytest.raises(VariantError, match="does not fit"):
        v.values(enemy_speed=2**40)
    with pytest.raises(VariantError, match=r"expected 2 numbers"):
        v.values(early_player_rows_odd=(1, 2, 3))
    with pytest.raises(VariantError, match="'win_score' not among the data fields"):
        v.values(win_score=3)
    with pytest.raises(VariantError, match="'lazy_enemy' changes the program"):
        v.mod_values(["lazy_enemy"])
    with pytest.raises(VariantError, match="at least one"):
        v.stack([])
    # a tuple field is data element by element
    assert [int(x) for x in v.values(early_player_rows_odd=(2, 16))["early_player_rows_odd"]] == [2, 16]


def test_a_field_the_game_needs_as_a_python_value_is_refused():
    # Frostbite reads its `enemies` switch (the no_enemies mod) as a Python value: it stays baked
    with pytest.raises(VariantError, match=r"cannot take \('enemies',\) as data.*traceable_fields"):
        Variants("frostbite", ("enemies",))
    with pytest.raises(VariantError, match=r"'no_enemies' sets enemies, not among the data fields"):
        Variants("frostbite", ("bear",)).mod_values(["no_enemies"])


@pytest.mark.slow
@pytest.mark.parametrize("name", jaxtari.list_games())
def test_every_game_runs_its_default_values_as_data_exactly(name):
    v = Variants(name)  # every field that can be data
    game = _baked(name)
    values = v.stack([{}, {}])
    actions = _actions(game, 5, 96)
    keys = jax.random.split(jax.random.key(2), 2)
    batched = jax.jit(jax.vmap(lambda vals, key: _roll(
        lambda k: v.reset(vals, k), lambda s, a: v.step(vals, s, a), key, actions)))(values, keys)
    for lane in range(2):
        single = jax.jit(lambda key: _roll(game.reset, game.step, key, actions))(keys[lane])
        _assert_lane_equal(batched, lane, single)
