"""The game registry, mods machinery, spaces and rasteriser (on a toy game and plain arrays)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
from jaxtari import mod_registry
from jaxtari import mods as mods_lib
from jaxtari import render, spaces
from jaxtari.env import ACTION_NAMES, ObjectGroup, action_position, joystick
from jaxtari.mods import InternalMod, ModError, PostStepMod
from tests.toy_game import ToyGame


def build(mods):
    consts, mechanics = mods_lib.apply_internal(ToyGame, mods)
    post = [m for m in mods if isinstance(m, PostStepMod)]
    return ToyGame(consts, mechanic_overrides=mechanics, post_step_mods=post)


def test_list_and_canonical_names():
    assert {"pong", "freeway", "frostbite"} <= set(jaxtari.list_games())
    for spelling in ("Frostbite", "frostbite", "ALE/Frostbite-v5", " FROSTBITE "):
        assert jaxtari.canonical_name(spelling) == "frostbite"


def test_one_name_rule_for_jaxtari_the_catalog_and_ale_games():
    from alignment import catalog, gamenames
    from jaxtari import names

    assert gamenames.key is names.key
    for spelling in ("ALE/Pong-v5", "PongNoFrameskip-v4", "PONG-V5", "pong-ram", " Pong "):
        assert names.key(spelling) == "pong"
        assert jaxtari.canonical_name(spelling) == catalog.canonical(spelling) == "pong"
    assert names.key("ALE/MsPacman-v5") == names.key("ms_pacman") == "mspacman"
    assert gamenames.resolve("MsPacmanNoFrameskip-v4") == "ms_pacman"  # an ALE game not ported


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(jaxtari.UnknownGameError) as err:
        jaxtari.make("tetris")
    msg = str(err.value)
    assert "tetris" in msg and "pong" in msg and "frostbite" in msg
    with pytest.raises(jaxtari.UnknownGameError, match="ALE, but jaxtari has not ported it yet"):
        jaxtari.make("ms_pacman")
    with pytest.raises(jaxtari.UnknownGameError) as err:
        jaxtari.make("zork")
    assert "ALE" not in str(err.value) and "pong" in str(err.value)


def test_action_names_follow_ale_order():
    from ale_py import Action

    members = sorted(Action.__members__.items(), key=lambda kv: kv[1].value)
    assert ACTION_NAMES == tuple(name for name, _ in members)
    j = joystick(jnp.int32(ACTION_NAMES.index("DOWNLEFTFIRE")))
    assert bool(j.down) and bool(j.left) and bool(j.fire) and not bool(j.up)
    assert int(j.dx) == -1 and int(j.dy) == 1


def test_action_index_and_full_action_space():
    g = ToyGame()
    assert g.action_names == ACTION_NAMES[:6]
    assert g.action_index("left") == 4
    with pytest.raises(ValueError, match="unknown action 'HYPERSPACE'.*NOOP, FIRE, UP, RIGHT, LEFT, DOWN"):
        g.action_index("HYPERSPACE")
    full = ToyGame(full_action_space=True)
    assert full.num_actions == 18 and int(full.to_ale_action(17)) == 17


def test_one_action_name_rule_for_jaxtari_and_ale():
    # jaxtari's Game, ALE's reference game and the spec read a written name by the same rule
    from alignment.reference.ale import AleGame
    from alignment.spec import schema

    assert action_position(ACTION_NAMES, " upFire ") == ACTION_NAMES.index("UPFIRE")
    assert action_position(ACTION_NAMES, "UP FIRE") is None and action_position(ACTION_NAMES, 2) is None
    assert schema.position is action_position
    jax_game, ale_game = jaxtari.make("pong"), AleGame("pong")
    assert jax_game.action_names == ale_game.action_names
    for written in ("fire", " RightFire", "noop"):
        assert jax_game.action_index(written) == ale_game.action_index(written) \
            == action_position(jax_game.action_names, written)
    with pytest.raises(ValueError, match="unknown action 3"):
        jax_game.action_index(3)


def test_internal_mod_overrides_constants_and_swaps_mechanics():
    lives5 = InternalMod("lives5", "five lives", constants={"start_lives": 5})
    double = InternalMod("double", "double pay", mechanics={"payout": lambda self, a: 2.0 * a})
    g = build([lives5, double])
    _, s = g.reset(jax.random.key(0))
    assert int(g.lives(s)) == 5
    _, s, r, _, _ = g.step(s, 3)
    assert float(r) == 6.0
    # the unmodded game is untouched
    base = ToyGame()
    _, s0 = base.reset(jax.random.key(0))
    _, _, r0, _, _ = base.step(s0, 3)
    assert float(r0) == 3.0 and int(base.lives(s0)) == 3


def test_post_step_mod_rewrites_reward_after_each_step():
    neg = PostStepMod("neg", "negate", fn=lambda game, prev, s, r: (s, -r))
    g = build([neg])
    _, s = g.reset(jax.random.key(0))
    _, s, r, _, _ = g.step(s, 2)
    assert float(r) == -2.0 and float(s.total) == 2.0


def test_mod_errors_name_the_problem():
    with pytest.raises(ModError, match="unknown constant 'speed'"):
        build([InternalMod("x", "", constants={"speed": 1})])
    with pytest.raises(ModError, match="unknown mechanic 'fly'"):
        build([InternalMod("x", "", mechanics={"fly": lambda s: 0})])
    a = InternalMod("a", "", constants={"start_lives": 1})
    b = InternalMod("b", "", constants={"start_lives": 2})
    with pytest.raises(ModError, match="both set constant 'start_lives'"):
        build([a, b])
    with pytest.raises(ModError, match="unknown mod 'nope'"):
        mod_registry.resolve("pong", ["nope"])
    with pytest.raises(ModError, match="given twice"):
        mod_registry.resolve("pong", [a, a])


def test_object_group_features_are_fixed_size():
    g = ObjectGroup.make([10, 20, 30], 5, 4, 2, active=[True, False, True], colour=[1, 2, 3])
    f = g.features()
    assert f.shape == (3 * 6,) and f.dtype == jnp.float32
    assert list(np.asarray(f[:6])) == [10, 5, 4, 2, 1, 1]


def test_spaces_sample_within_bounds_and_convert_to_gymnasium():
    d = spaces.Discrete(6)
    xs = jax.vmap(d.sample)(jax.random.split(jax.random.key(0), 200))
    assert int(xs.min()) >= 0 and int(xs.max()) <= 5
    assert d.to_gymnasium().n == 6
    b = spaces.Box(0, 255, (84, 84), np.uint8)
    x = b.sample(jax.random.key(1))
    assert x.dtype == jnp.uint8 and b.contains(np.asarray(x))
    assert b.to_gymnasium().shape == (84, 84)


def test_gray_matches_ale_grayscale_on_a_real_frame():
    from ale_py import ALEInterface, roms

    ale = ALEInterface()
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("random_seed", 0)
    ale.loadROM(roms.get_rom_path("freeway"))
    ale.reset_game()
    for _ in range(60):
        ale.act(0)
    assert np.array_equal(render.gray(ale.getScreenRGB()), ale.getScreenGrayscale())


def test_rasters_draw_the_same_rectangle_at_both_sizes():
    full = render.draw_rect(render.FULL.blank((0, 0, 0)), render.FULL, 40, 105, 20, 21, (255, 255, 255))
    ys, xs = np.nonzero(np.asarray(full[..., 0]))
    assert (ys.min(), ys.max(), xs.min(), xs.max()) == (105, 125, 40, 59)
    small = render.draw_rect(render.SMALL_GRAY.blank((0, 0, 0)), render.SMALL_GRAY, 40, 105, 20, 21, (255, 255, 255))
    # nearest sampling: the small image equals the full one sampled at the small raster's points
    sampled = np.asarray(render.gray(np.asarray(full)))[render.SMALL_GRAY.ys[:, 0]][:, render.SMALL_GRAY.xs[0]]
    assert np.array_equal(np.asarray(small), sampled)


def test_sprites_draw_with_mask_flip_and_priority():
    art = [["#..", "##.", "###"], ["###", "###", "###"]]
    sheet = render.SpriteSheet.from_art(art, [(255, 0, 0), (0, 0, 255)])
    c = render.FULL.blank((0, 0, 0))
    c = render.draw_sprites(c, render.FULL, sheet, [0, 1], [10, 11], [20, 20], [True, True], flip=[True, False])
    c = np.asarray(c)
    # sprite 1 (blue, drawn later) covers x 11..13; sprite 0 flipped lights x=12 at row 20 -> covered
    assert tuple(c[20, 11]) == (0, 0, 255)
    assert tuple(c[22, 10]) == (255, 0, 0)  # bottom row of sprite 0 is full
    assert tuple(c[20, 10]) == (0, 0, 0)  # flipped: top row lit only at the right end
    assert tuple(c[19, 11]) == (0, 0, 0)


def test_digits_hide_leading_zeros():
    digits = render.SpriteSheet.from_masks(np.eye(10, 10, dtype=bool)[:, None, :].repeat(1, 1), [(255, 255, 255)] * 10)
    c = np.asarray(render.draw_digits(render.FULL.blank((0, 0, 0)), render.FULL, digits, 7, 100, 5, 3, 12))
    lit = np.nonzero(c[5, :, 0])[0]
    assert list(lit) == [124 + 7]
