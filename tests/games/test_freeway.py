"""Freeway in JAX against the real emulator (ale-py) and against its own rules.

The emulator checks play the same frames on ALE and on the JAX game from reset and compare every
catalog signal (chicken y, the ten car x, score, timer), the reward and the end of the game with
zero tolerance, and the screens pixel for pixel: the port reproduces the cartridge's frame timing
(measured on ALE 0.12.1), so anything short of exact is a bug.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
from jaxtari import render
from jaxtari.games import freeway as fw
from jaxtari.games.freeway import art
from jaxtari.games.freeway.logic import sprites
from jaxtari.mods import ModError

from alignment.catalog import entry
from alignment.reference import AleGame

NOOP, UP, DOWN = 0, 1, 2  # indices into the minimal action set


@pytest.fixture(scope="module")
def game():
    return jaxtari.make("freeway")


@pytest.fixture(scope="module")
def step(game):
    return jax.jit(game.step)


@pytest.fixture(scope="module")
def draw(game):
    return jax.jit(lambda s: (game.render(s), game.render_gray84(s)))


def start(game):
    return game.reset(jax.random.key(0))[1]


def script(seed, n, p=(0.2, 0.6, 0.2)):
    """Held actions of random lengths (UP most of the time, so the chicken meets the traffic)."""
    rng = np.random.default_rng(seed)
    acts = []
    while len(acts) < n:
        acts += [int(rng.choice(3, p=p))] * int(rng.integers(1, 30))
    return acts[:n]


_SCANS = {}


def rollout(game, actions, s=None):
    """(states, rewards, dones) of the given action indices, as one scanned program."""
    s = start(game) if s is None else s
    if id(game) not in _SCANS:
        def body(st, a):
            _, st, r, d, _ = game.step(st, a)
            return st, (st, r, d)

        _SCANS[id(game)] = (game, jax.jit(lambda st, a: jax.lax.scan(body, st, a)))
    _, (states, rewards, dones) = _SCANS[id(game)][1](s, jnp.asarray(actions, jnp.int32))
    return jax.device_get(states), np.asarray(rewards), np.asarray(dones)


def at(states, t):
    return jax.tree_util.tree_map(lambda a: a[t], states)


# ---- the API ------------------------------------------------------------------------------------
def test_actions_and_lives_match_ale(game):
    ale = AleGame("freeway")
    assert game.action_ids == ale.action_ids == (0, 2, 5)
    assert game.action_names == ("NOOP", "UP", "DOWN")
    assert int(game.lives(start(game))) == ale.lives == 0
    assert tuple(entry("freeway").minimal_actions) == game.action_names


def test_shapes_and_dtypes(game, step):
    obs, s = game.reset(jax.random.key(3))
    assert obs.dtype == jnp.float32 and obs.shape == game.observation_space.shape
    assert s.car_x.shape == (10,) and s.car_x.dtype == jnp.int32
    for name in ("frame", "climb", "hit_count", "cross_count", "score", "shown_score"):
        assert getattr(s, name).shape == () and getattr(s, name).dtype == jnp.int32, name
    obs2, s2, r, d, info = step(s, UP)
    assert obs2.shape == obs.shape and r.dtype == jnp.float32 and d.dtype == jnp.bool_
    assert set(info) == {"lives", "score", "frame"} and int(info["frame"]) == 1
    sig = game.signals(s2)
    assert set(sig) == set(entry("freeway").signals) - {"score", "lives", "terminated", "frame"}
    assert sig["car_x"].shape == (10,)
    assert int(sig["timer"]) == 8191 and int(game.signals(s)["timer"]) == 8192


def test_jit_and_vmap_equal_plain_calls(game, step):
    acts = script(5, 12, p=(0.1, 0.8, 0.1))
    s_plain = s_jit = start(game)
    for a in acts:
        o1, s_plain, r1, d1, _ = game.step(s_plain, a)
        o2, s_jit, r2, d2, _ = step(s_jit, a)
        np.testing.assert_array_equal(o1, o2)
        assert float(r1) == float(r2) and bool(d1) == bool(d2)
    for f in ("climb", "car_x", "hit_count", "score", "frame"):
        np.testing.assert_array_equal(getattr(s_plain, f), getattr(s_jit, f))
    # vmap: 3 environments with different action streams equal 3 single runs
    streams = np.array([script(k, 200) for k in (1, 2, 3)], np.int32)
    _, batch = jax.vmap(game.reset)(jax.random.split(jax.random.key(0), 3))
    vstep = jax.jit(jax.vmap(game.step))
    for t in range(streams.shape[1]):
        _, batch, _, _, _ = vstep(batch, jnp.asarray(streams[:, t]))
    for k in range(3):
        states, _, _ = rollout(game, streams[k])
        np.testing.assert_array_equal(batch.climb[k], states.climb[-1])
        np.testing.assert_array_equal(batch.car_x[k], states.car_x[-1])
        np.testing.assert_array_equal(batch.hit_count[k], states.hit_count[-1])


def test_deterministic_per_key(game):
    acts = script(9, 300)
    a, ra, _ = rollout(game, acts, game.reset(jax.random.key(11))[1])
    b, rb, _ = rollout(game, acts, game.reset(jax.random.key(11))[1])
    for f in ("climb", "car_x", "hit_count", "cross_count", "score"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    np.testing.assert_array_equal(ra, rb)


def test_objects_have_fixed_shapes(game, step):
    s = start(game)
    shapes = jax.tree_util.tree_map(jnp.shape, game.objects(s))
    for a in script(4, 60):
        _, s, *_ = step(s, a)
        assert jax.tree_util.tree_map(jnp.shape, game.objects(s)) == shapes
    assert game.objects(s)["cars"].size == 10 and game.objects(s)["chicken"].size == 1


def test_bad_constants_and_mods_say_what_to_fix():
    with pytest.raises(ValueError, match="one entry per lane"):
        fw.Freeway(fw.FreewayConstants(lane_periods=(1, 2)))
    with pytest.raises(ValueError, match="lane_dirs = 0"):
        fw.Freeway(fw.FreewayConstants(lane_periods=(0,) * 10))
    with pytest.raises(ValueError, match="lane_dirs must be -1"):
        fw.Freeway(fw.FreewayConstants(lane_dirs=(2,) * 10))
    with pytest.raises(ModError, match="mods for this game: all_black_cars"):
        jaxtari.make("freeway", mods=["fast_cars"])


# ---- the emulator ----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed, p_up, crosses", [(2, 0.8, True), (1, 0.6, False)])
def test_signals_reward_and_screens_match_ale_frame_for_frame(game, draw, seed, p_up, crosses):
    """600 frames of scripted play from reset: every signal exact, screens pixel-exact."""
    p_other = (1 - p_up) / 2
    acts = script(seed, 600, p=(p_other, p_up, p_other))
    states, rewards, _ = rollout(game, acts)
    ale = AleGame("freeway")
    small = render.SMALL_GRAY
    for t, a in enumerate(acts):
        r = ale.step(a)
        s = at(states, t)
        ref = ale.signals()
        mine = game.signals(s)
        assert int(mine["chicken_y"]) == ref["chicken_y"], f"frame {t + 1}"
        np.testing.assert_array_equal(np.asarray(mine["car_x"]), ref["car_x"], f"frame {t + 1}")
        assert int(mine["player_score"]) == ref["player_score"], f"frame {t + 1}"
        assert int(mine["timer"]) == ref["timer"], f"frame {t + 1}"
        assert float(rewards[t]) == r and int(game.score(s)) == ref["score"], f"frame {t + 1}"
        stun = int(ale.ram[106])  # 0x40 | count after a hit, 0x80 | count after a crossing
        assert int(s.hit_count) == (stun & 0x3F if stun & 0x40 else 0), f"frame {t + 1}"
        assert int(s.cross_count) == (stun & 0x3F if stun & 0x80 else 0), f"frame {t + 1}"
        if t % 6 == 0:
            rgb, gray84 = draw(s)
            np.testing.assert_array_equal(np.asarray(rgb), ale.rgb(), f"frame {t + 1}")
            np.testing.assert_array_equal(
                np.asarray(gray84), ale.gray()[small.ys, small.xs], f"frame {t + 1}")
    assert (states.hit_count > 0).any()  # the script meets the traffic
    assert (ale.score > 0) == crosses


def test_full_action_set_matches_ale():
    """All 18 joystick actions (diagonals and FIRE included) move the chicken as ALE does."""
    full = jaxtari.make("freeway", full_action_space=True)
    rng = np.random.default_rng(0)
    acts = []
    while len(acts) < 400:
        acts += [int(rng.integers(0, 18))] * int(rng.integers(1, 20))
    acts = acts[:400]
    states, rewards, _ = rollout(full, acts)
    ale = AleGame("freeway", full_action_space=True)
    for t, a in enumerate(acts):
        assert float(rewards[t]) == ale.step(a)
        ref = ale.signals()
        assert int(193 - states.climb[t]) == ref["chicken_y"], f"frame {t + 1}, action {a}"
        np.testing.assert_array_equal(states.car_x[t] - 3, ref["car_x"])


def test_reset_frame_matches_ale(game, draw):
    ale = AleGame("freeway")
    s = start(game)
    rgb, _ = draw(s)
    np.testing.assert_array_equal(np.asarray(rgb), ale.rgb())
    assert int(game.signals(s)["chicken_y"]) == ale.signals()["chicken_y"]


def test_whole_game_of_up_matches_ale(game, draw):
    """Holding UP for the whole game: the same 21 crossings, the end on frame 8192, and the
    score digits cycling through the palette over the last 512 frames."""
    n = 8200
    states, rewards, dones = rollout(game, [UP] * n)
    ale = AleGame("freeway")
    ale_rewards, ale_end = [], None
    for t in range(n):
        ale_rewards.append(ale.step(UP))
        if ale.terminated and ale_end is None:
            ale_end = t + 1
        if t + 1 in (7679, 7680, 7703, 7958, 8191, 8192):
            np.testing.assert_array_equal(np.asarray(draw(at(states, t))[0]), ale.rgb(),
                                          f"frame {t + 1}")
    assert ale_end == 8192
    assert int(np.argmax(dones)) + 1 == ale_end and not dones[ale_end - 2]
    np.testing.assert_array_equal(rewards, np.asarray(ale_rewards, np.float32))
    assert int(rewards.sum()) == ale.score == 21
    last = at(states, n - 1)
    assert int(last.frame) == 8192 and int(game.signals(last)["timer"]) == 0
    assert int(game.signals(last)["chicken_y"]) == ale.signals()["chicken_y"]
    np.testing.assert_array_equal(np.asarray(game.signals(last)["car_x"]), ale.signals()["car_x"])


# ---- mechanics from scripted starts -------------------------------------------------------------------
def test_crossing_scores_one_and_puts_the_chicken_back(game, step):
    s = start(game).replace(climb=jnp.int32(177), frame=jnp.int32(100))
    _, s1, r, _, _ = step(s, NOOP)
    assert int(s1.climb) == 177 and float(r) == 0  # standing at the top does not score
    _, s2, r, _, info = step(s1, UP)
    assert float(r) == 1 and int(info["score"]) == 1
    assert int(game.signals(s2)["chicken_y"]) == 193 - 6  # back on the bottom kerb
    # ... and waits before UP moves it again: a crossing on an even frame holds it 28 frames,
    # it moves on the 29th (measured on ALE: crossing on frame 172, moving again on frame 201)
    waited = 0
    while int(s2.climb) == 6 and waited < 100:
        _, s2, *_ = step(s2, UP)
        waited += 1
    assert waited == 29


def test_up_and_down_move_one_pixel_per_frame(game, step):
    s = start(game)
    ys = []
    for a in [UP] * 5 + [DOWN] * 8 + [NOOP] * 2:
        _, s, *_ = step(s, a)
        ys.append(int(game.signals(s)["chicken_y"]))
    assert ys == [186, 185, 184, 183, 182, 183, 184, 185, 186, 187, 187, 187, 187, 187, 187]


def test_a_hit_pushes_the_chicken_back_and_takes_control(game):
    """Holding UP from reset, the first car hits on frame 211 (measured on ALE)."""
    states, _, _ = rollout(game, [UP] * 400)
    hit = [t for t in range(1, 400) if states.hit_count[t] > states.hit_count[t - 1]]
    assert hit, "no hit while walking into the traffic"
    t0 = hit[0]
    assert t0 + 1 == 211  # states[t] is the state after frame t+1
    climbs = states.climb[t0:t0 + 60]
    # pushed down 1 px per frame for the first frames despite UP, then held with no control
    assert all(np.diff(climbs[:11]) == -1)
    free_again = t0 + int(np.argmax(states.hit_count[t0:] == 0))
    assert 54 <= free_again - t0 <= 56
    assert states.climb[free_again + 1] == states.climb[free_again] + 1  # UP works again


def test_bottom_lane_hits_late_as_on_ale(game):
    """The bottom lane's car also hits from two frames back (ALE frame 7419 of this script: the
    car left the chicken on frame 7418, as the chicken's immunity ran out)."""
    acts = script(10, 7420, p=(0.1, 0.8, 0.1))
    states, _, _ = rollout(game, acts)
    ale = AleGame("freeway")
    for a in acts[:7400]:
        ale.step(a)
    seen = []
    for t in range(7400, 7420):
        ale.step(acts[t])
        stun = int(ale.ram[106])
        seen.append((stun & 0x3F if stun & 0x40 else 0, int(states.hit_count[t])))
    assert seen[18] == (28, 28) and not game.collide(at(states, 7417)).any()
    assert [a for a, _ in seen] == [b for _, b in seen]


def test_timer_ends_the_episode(game, step):
    s = start(game).replace(frame=jnp.int32(8190))
    _, s, _, done, _ = step(s, UP)
    assert not bool(done) and int(game.signals(s)["timer"]) == 1
    _, s, _, done, _ = step(s, UP)
    assert bool(done) and int(game.signals(s)["timer"]) == 0
    climb = int(s.climb)
    _, s, r, done, _ = step(s, UP)  # nothing moves after the end
    assert bool(done) and int(s.climb) == climb and float(r) == 0 and int(s.frame) == 8192


# ---- rendering -------------------------------------------------------------------------------------------
def test_render_draws_each_object_where_objects_says(game, draw):
    states, _, _ = rollout(game, [UP] * 90)
    s = at(states, 89)
    rgb, gray84 = (np.asarray(a) for a in draw(s))
    objs = game.objects(s)
    cars = objs["cars"]
    small = render.SMALL_GRAY
    for i in range(10):
        x, y, w, h = (int(v[i]) for v in (cars.x, cars.y, cars.w, cars.h))
        colour = np.array(art.CAR_RGB[i], np.uint8)
        lit = (rgb == colour).all(-1)
        lit[:24] = lit[185:] = False  # the score digits and the logo share lane 3's colour
        ys, xs = np.nonzero(lit)
        xs = np.where(xs >= x + w, xs - 160, xs)  # a car across the right edge wraps to the left
        assert lit.any() and ys.min() >= y and ys.max() < y + h and xs.min() >= x and xs.max() < x + w
    ch = objs["chicken"]
    x, y = int(ch.x[0]), int(ch.y[0])
    yellow = (rgb[24:185, 8:] == np.array(art.CHICKEN_RGB, np.uint8)).all(-1)
    yellow[[102 - 24, 104 - 24]] = False  # the yellow median line
    ys, xs = np.nonzero(yellow)
    assert ys.min() + 24 >= y and ys.max() + 24 < y + 8 and xs.min() + 8 >= x and xs.max() + 8 < x + 7
    # the 84x84 frame samples the same drawing: each pixel is the grey of its ALE pixel
    np.testing.assert_array_equal(gray84, render.gray(rgb[small.ys, small.xs]))


# ---- mods ----------------------------------------------------------------------------------------------------
def test_stop_cars_parks_every_car_and_changes_nothing_else(game):
    mod = jaxtari.make("freeway", mods=["stop_cars"])
    acts = [NOOP] * 50 + [UP] * 200
    orig, _, _ = rollout(game, acts)
    parked, rewards, _ = rollout(mod, acts)
    assert (parked.car_x == 0).all() and (orig.car_x != 0).any()
    assert (parked.hit_count == 0).all()  # parked cars sit left of the chicken's column
    # the chicken walks straight up: 171 UP frames to the top, the crossing on the 172nd
    assert int(np.argmax(rewards)) == 50 + 171
    np.testing.assert_array_equal(parked.frame, orig.frame)
    # on frame 1 no car has visibly moved yet in the original: the two pictures are the same
    np.testing.assert_array_equal(np.asarray(jax.jit(mod.render)(at(parked, 0))),
                                  np.asarray(jax.jit(game.render)(at(orig, 0))))


def test_all_black_cars_changes_only_car_body_pixels(game):
    mod = jaxtari.make("freeway", mods=["all_black_cars"])
    acts = script(2, 250)
    a, ra, _ = rollout(game, acts)
    b, rb, _ = rollout(mod, acts)
    for f in ("climb", "car_x", "hit_count", "cross_count", "score"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    np.testing.assert_array_equal(ra, rb)
    s = at(a, 249)
    im_a, im_b = np.asarray(jax.jit(game.render)(s)), np.asarray(jax.jit(mod.render)(s))
    changed = (im_a != im_b).any(-1)
    assert changed.any()
    assert (im_b[changed] == 0).all()  # changed pixels are now black ...
    body = np.zeros_like(changed)
    for c in art.CAR_RGB:
        body |= (im_a == np.array(c, np.uint8)).all(-1)
    body[:24] = body[185:] = False  # the score digits and the logo share lane 3's colour
    np.testing.assert_array_equal(changed, body)  # ... and were exactly the car bodies


def _boxes_by_hand(objs, h=210, w=160):
    """(210, 160) bool from the chicken's and the cars' boxes, in numpy (columns wrap at 160)."""
    inside = np.zeros((h, w), bool)
    for name in ("chicken", "cars"):
        g = objs[name]
        for x, y, bw, bh, on in zip(*(np.asarray(v) for v in (g.x, g.y, g.w, g.h, g.active))):
            if on:
                inside[y:y + bh, np.arange(x, x + bw) % w] = True
    return inside


@pytest.mark.parametrize("frames", [1500, pytest.param(None, marks=pytest.mark.slow)])
def test_rectangles_changes_only_the_moving_objects_pictures(game, frames):
    """The paper's sprite-to-rectangle mod, over a whole game (8,192 frames; the default run its
    first 1,500): every state field, signal and reward equal on every frame; in the pictures (every
    16th frame) the pixels inside the chicken's and cars' boxes are the mod's white (the HMOVE bar
    aside), every other pixel is the original's, and no car or chicken pixel is left outside them;
    the 84x84 is the same picture sampled."""
    mod = jaxtari.make("freeway", mods=["rectangles"])
    acts = script(5, frames or game.consts.game_frames, p=(0.15, 0.7, 0.15))
    a, ra, da = rollout(game, acts)
    b, rb, db = rollout(mod, acts)
    for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)):
        if jnp.issubdtype(x.dtype, jax.dtypes.prng_key):
            x, y = jax.random.key_data(x), jax.random.key_data(y)
        np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(ra, rb)
    np.testing.assert_array_equal(da, db)
    sig = jax.jit(jax.vmap(game.signals))(a), jax.jit(jax.vmap(mod.signals))(b)
    for k in sig[0]:
        np.testing.assert_array_equal(sig[0][k], sig[1][k])
    assert ra.sum() > 0 and (a.hit_count > 0).any()  # crossings and hits were played
    if frames is None:
        assert bool(da[-1])  # the whole game, to its timer's end

    shown = jax.tree_util.tree_map(lambda x: x[::16], a)
    pics = jax.jit(jax.vmap(lambda s: (game.render(s), mod.render(s), mod.render_gray84(s))))
    orig, rect, small = (np.asarray(p) for p in pics(shown))
    white = np.array(art.BOX_RGB, np.uint8)
    sprite_colours = np.array(list(art.CAR_RGB) + [art.CHICKEN_RGB], np.uint8)
    road = np.zeros((210, 160), bool)
    road[art.ROAD[0]:art.ROAD[0] + art.ROAD[1], art.HMOVE_BAR_W:] = True
    road[list(art.MEDIAN_YS)] = False  # the median lines share the chickens' yellow
    objs = jax.device_get(jax.jit(jax.vmap(mod.objects))(shown))
    for t in range(len(orig)):
        inside = _boxes_by_hand(at(objs, t))
        inside[:, :art.HMOVE_BAR_W] = False  # the bar is black over every object
        assert (rect[t][inside] == white).all(), t
        np.testing.assert_array_equal(rect[t][~inside], orig[t][~inside], f"picture {t}")
        left = (rect[t][:, :, None, :] == sprite_colours).all(-1).any(-1) & road
        assert not left.any(), t  # no sprite pixel outside its box
        np.testing.assert_array_equal(small[t], render.gray(rect[t][render.SMALL_GRAY.ys,
                                                                     render.SMALL_GRAY.xs]))
    assert (orig != rect).any()
    assert not (orig == white).all(-1)[:, road].any()  # white is no colour the road shows


def test_invincible_chicken_is_never_hit(game):
    mod = jaxtari.make("freeway", mods=["invincible"])
    orig, r_orig, _ = rollout(game, [UP] * 800)
    inv, r_inv, _ = rollout(mod, [UP] * 800)
    assert (orig.hit_count > 0).any() and (inv.hit_count == 0).all()
    np.testing.assert_array_equal(inv.car_x, orig.car_x)
    # 171 UP frames per crossing, then the 28-frame wait on the kerb: 4 crossings against 3
    assert list(np.nonzero(r_inv)[0]) == [171, 371, 571, 771] and r_orig.sum() == 3


def test_hit_penalty_costs_one_per_hit_and_leaves_the_game_alone(game):
    mod = jaxtari.make("freeway", mods=["hit_penalty"])
    acts = script(1, 600)
    a, ra, _ = rollout(game, acts)
    b, rb, _ = rollout(mod, acts)
    for f in ("climb", "car_x", "hit_count", "cross_count", "score"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    prev = np.concatenate([[0], a.hit_count[:-1]])
    new_hits = a.hit_count > prev
    assert new_hits.sum() > 0
    np.testing.assert_array_equal(rb, ra - new_hits.astype(np.float32))


def _collide_every_lane(game, state):
    """Reference: the overlap table looked up for all ten lanes."""
    pose = game._pose(state)
    dy = jnp.asarray(sprites.LANE_TOP) - (art.CHICKEN_SCREEN_Y0 - state.climb)
    dx = game._car_screen_x(state) - art.CHICKEN_X
    inside = (dy > -sprites.CAR_H) & (dy < sprites.CH_H) & (dx > -sprites.CAR_W) & (dx < sprites.CH_W)
    iy = jnp.clip(dy + sprites.CAR_H - 1, 0, sprites.OVERLAP.shape[2] - 1)
    ix = jnp.clip(dx + sprites.CAR_W - 1, 0, sprites.OVERLAP.shape[3] - 1)
    faces = jnp.asarray(np.asarray(game.consts.lane_faces_right, np.int32))
    return jnp.asarray(sprites.OVERLAP)[pose, faces, iy, ix] & inside


def test_collide_looking_at_two_lanes_equals_looking_at_all(game):
    """Every climb the chicken can have, each with cars at random x and every pose: same hits."""
    s0 = game._reset(jax.random.key(0))
    climbs = np.arange(-20, game.consts.climb_top + 20)
    rng = np.random.default_rng(4)
    n = len(climbs) * 24
    states = jax.vmap(lambda c, x, h, f: s0.replace(climb=c, car_x=x, hurt_pose=h, frame=f))(
        jnp.asarray(np.repeat(climbs, 24), jnp.int32),
        jnp.asarray(rng.integers(0, 160, (n, fw.NUM_LANES)), jnp.int32),
        jnp.asarray(rng.integers(0, 2, n), bool), jnp.asarray(rng.integers(0, 1000, n), jnp.int32))
    got = np.asarray(jax.jit(jax.vmap(game.collide))(states))
    want = np.asarray(jax.jit(jax.vmap(lambda s: _collide_every_lane(game, s)))(states))
    np.testing.assert_array_equal(got, want)
    assert want.any(axis=0).all() and want.sum() > 100  # every lane is hit somewhere in the sample


def test_the_vmapped_frame_and_objects_read_no_table_by_a_gather(game):
    """Issue 45: under vmap (an index per env) the frame and what the objects agent sees lower with
    no scatter and no gather but the joystick's own reading of the action (jaxtari/env.py): the
    collision's lane x and overlap word are read by one-hot masks."""
    import re

    from jaxtari.env import joystick

    def lowered(fn, *args):
        return jax.jit(jax.vmap(fn)).lower(*args).as_text(dialect="hlo")

    def count(hlo, op):
        return len(re.findall(rf"\s{op}\(", hlo))

    envs = 4
    states = jax.vmap(game._reset)(jax.random.split(jax.random.key(0), envs))
    states = states.replace(climb=jnp.arange(envs, dtype=jnp.int32) * 40 + 6)
    actions = jnp.asarray([0, 2, 5, 2], jnp.int32)
    frame = lowered(game._step, states, actions)
    joystick_gathers = count(lowered(lambda a: (joystick(a).up, joystick(a).down), actions), "gather")
    assert joystick_gathers > 0  # the count below would pass vacuously on a program without them
    assert count(frame, "gather") == joystick_gathers and count(frame, "scatter") == 0
    for fn in (game.collide, game.observation, game.signals):
        seen = lowered(fn, states)
        assert count(seen, "gather") == 0 and count(seen, "scatter") == 0


@pytest.mark.parametrize("mods", [(), ("stop_cars",), ("invincible",)])
def test_observation_equals_the_generic_features_bit_for_bit(mods):
    """Freeway's own observation (constants as a table) against Game.observation's stacked columns,
    under jit and vmap and in plain calls, on random states and on a played rollout."""
    from jaxtari.env import Game

    game = jaxtari.make("freeway", mods=list(mods))
    s0 = start(game)
    rng = np.random.default_rng(7)
    n = 3000
    states = jax.vmap(lambda c, x, h, f, sc: s0.replace(climb=c, car_x=x, hurt_pose=h, frame=f,
                                                         shown_score=sc))(
        jnp.asarray(rng.integers(-10, 200, n), jnp.int32),
        jnp.asarray(rng.integers(0, 160, (n, fw.NUM_LANES)), jnp.int32),
        jnp.asarray(rng.integers(0, 2, n), bool), jnp.asarray(rng.integers(-2, 9000, n), jnp.int32),
        jnp.asarray(rng.integers(0, 40, n), jnp.int32))
    played, _, _ = rollout(game, script(3, 400))
    for batch in (states, played):
        got = np.asarray(jax.jit(jax.vmap(game.observation))(batch))
        want = np.asarray(jax.jit(jax.vmap(lambda s: Game.observation(game, s)))(batch))
        assert got.dtype == want.dtype == np.float32
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    one = jax.tree_util.tree_map(lambda x: x[5], played)
    np.testing.assert_array_equal(np.asarray(game.observation(one)).view(np.uint32),
                                  np.asarray(Game.observation(game, one)).view(np.uint32))
