"""Pong in JAX against the real emulator (ale-py 0.12.1), plus the Game API, rendering and mods.

The ALE comparisons replay the same actions on ``alignment.reference.AleGame`` (one frame per act,
repeat_action_probability=0) and on the JAX game from reset, and compare the catalog's signals on
every frame.
"""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
from alignment.catalog import entry
from alignment.reference import AleGame
from jaxtari import render
from jaxtari.atari.palette import PALETTE
from jaxtari.games.pong import Pong, PongState
from jaxtari.mods import ModError

CATALOG = entry("pong")
SIGNALS = [k for k in CATALOG.signals if k not in ("frame",)]
MINIMAL = ("NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE")


# ---- helpers -------------------------------------------------------------------------------------
def make_rollout(game):
    """jit(scan) of game.step over a fixed action sequence: (final, states, rewards, dones)."""

    def body(state, action):
        _, new, reward, done, _ = game.step(state, action)
        return new, (new, reward, done)

    @jax.jit
    def run(state, actions):
        final, (states, rewards, dones) = jax.lax.scan(body, state, actions)
        return final, states, rewards, dones

    return run


def at(states, t):
    return jax.tree_util.tree_map(lambda v: v[t], states)


def jax_signals(game, states, rewards):
    """Per-frame catalog signals of a stacked rollout, as numpy arrays."""
    sig = jax.vmap(game.signals)(states)
    out = {k: np.asarray(v) for k, v in sig.items()}
    out["score"] = np.asarray(jax.vmap(game.score)(states))
    out["lives"] = np.asarray(jax.vmap(game.lives)(states))
    out["terminated"] = np.asarray(jax.vmap(game.is_terminal)(states))
    out["reward"] = np.asarray(rewards)
    return out


def ale_run(actions, *, policy=None, setup=None, frames=None, rgb=False):
    """Run AleGame; ``actions`` indices, or ``policy(ram, t) -> index`` recording what it chose."""
    ale = AleGame("pong")
    if setup is not None:
        setup(ale)
    rows, chosen, rewards, screens = [], [], [], []
    n = len(actions) if policy is None else frames
    for t in range(n):
        a = int(actions[t]) if policy is None else policy(ale.ram, t)
        chosen.append(a)
        rewards.append(ale.step(a))
        s = ale.signals()
        rows.append(s)
        if rgb:
            screens.append(ale.rgb())
    sig = {k: np.array([r[k] for r in rows]) for k in rows[0]}
    sig["reward"] = np.array(rewards)
    return sig, np.array(chosen, np.int32), (np.array(screens) if rgb else None)


def tracker(seed, fire_p=0.3):
    """A scripted player following the ball's height (RAM 54) with noise, pressing FIRE at times."""
    rng = np.random.default_rng(seed)
    offset = [0]

    def policy(ram, t):
        if t % 50 == 0:
            offset[0] = int(rng.integers(-12, 12))
        target = int(ram[54]) + offset[0]
        if rng.random() < 0.15:
            move = int(rng.choice([0, 2, 3]))
        elif ram[51] > target + 3:
            move = 2  # RIGHT: up
        elif ram[51] < target - 3:
            move = 3  # LEFT: down
        else:
            move = 0
        fire = rng.random() < fire_p
        return {0: 1, 2: 4, 3: 5}[move] if fire else move

    return policy


def assert_signals_equal(ale_sig, jax_sig, names, frames):
    for k in names:
        a, j = ale_sig[k][:frames], jax_sig[k][:frames]
        bad = np.nonzero(a != j)[0]
        assert bad.size == 0, (
            f"{k}: first disagreement at frame {bad[0]}: ALE {a[bad[0]]}, JAX {j[bad[0]]}")


@pytest.fixture(scope="module")
def game():
    return jaxtari.make("pong")


@pytest.fixture(scope="module")
def rollout(game):
    return make_rollout(game)


@pytest.fixture(scope="module")
def start(game):
    return game.reset(jax.random.key(0))[1]


@pytest.fixture(scope="module")
def tracked(game, rollout, start):
    """1,500 frames of the tracking script on ALE (with screens for the first 300) and on JAX."""
    policy = tracker(seed=4)  # a seed whose 1,500 frames include points won by both sides
    ale_sig, actions, screens = ale_run(None, policy=policy, frames=1500, rgb=True)
    _, states, rewards, dones = rollout(start, jnp.asarray(actions))
    return ale_sig, actions, screens, states, jax_signals(game, states, rewards), dones


# ---- the API -------------------------------------------------------------------------------------
def test_actions_are_ales_minimal_set(game):
    assert game.action_names == MINIMAL == CATALOG.minimal_actions
    assert game.action_ids == AleGame("pong").action_ids
    with pytest.raises(ValueError, match="unknown action 'UP'.*NOOP, FIRE, RIGHT, LEFT"):
        game.action_index("UP")


def test_reset_and_step_shapes_and_dtypes(game, start):
    obs, state = game.reset(jax.random.key(1))
    assert obs.dtype == jnp.float32 and obs.ndim == 1 and obs.shape == game.observation_space.shape
    for f in dataclasses.fields(PongState):
        v = getattr(state, f.name)
        if f.name == "key":
            continue
        assert v.shape == (), f.name
        assert v.dtype == (jnp.bool_ if f.name in ("fire_held", "stopped") else jnp.int32), f.name
    obs2, state2, reward, done, info = game.step(state, 2)
    assert obs2.shape == obs.shape and obs2.dtype == jnp.float32
    assert reward.shape == () and reward.dtype == jnp.float32
    assert done.shape == () and done.dtype == jnp.bool_
    assert set(info) == {"lives", "score", "frame"} and int(info["frame"]) == 1
    assert int(game.lives(state2)) == 0 == AleGame("pong").lives


def test_jit_and_vmap_match_the_plain_step(game, rollout, start):
    actions = np.random.default_rng(0).integers(0, 6, size=12)
    s = start
    plain = []
    for a in actions:
        obs, s, r, d, _ = game.step(s, int(a))
        plain.append((np.asarray(obs), float(r), bool(d)))
    final, states, rewards, dones = rollout(start, jnp.asarray(actions, jnp.int32))
    obs_jit = jax.vmap(game.observation)(states)
    for t, (obs, r, d) in enumerate(plain):
        np.testing.assert_array_equal(obs, np.asarray(obs_jit[t]))
        assert r == float(rewards[t]) and d == bool(dones[t])
    # vmap over 3 envs, each with its own action sequence, equals each run alone
    batch = jnp.asarray(np.random.default_rng(1).integers(0, 6, size=(3, 12)), jnp.int32)
    starts = jax.vmap(lambda k: game.reset(k)[1])(jax.random.split(jax.random.key(0), 3))
    vfinal, _, vrewards, _ = jax.jit(jax.vmap(rollout))(starts, batch)
    for i in range(3):
        f_i, _, r_i, _ = rollout(at(starts, i), batch[i])
        for name in ("player_y", "pot", "ball_x", "ball_y", "enemy_y", "clock"):
            assert int(getattr(vfinal, name)[i]) == int(getattr(f_i, name)), name
        np.testing.assert_array_equal(np.asarray(vrewards[i]), np.asarray(r_i))


def test_deterministic_per_key(game, rollout):
    actions = jnp.asarray(np.random.default_rng(3).integers(0, 6, size=200), jnp.int32)
    runs = [rollout(game.reset(jax.random.key(k))[1], actions) for k in (5, 5, 6)]
    same = jax.tree_util.tree_map(lambda a, b: bool(jnp.array_equal(a, b)),
                                  runs[0][1].replace(key=0), runs[1][1].replace(key=0))
    assert all(jax.tree_util.tree_leaves(same))
    # Pong has no randomness: another key plays the same game
    np.testing.assert_array_equal(np.asarray(runs[0][1].ball_x), np.asarray(runs[2][1].ball_x))


def test_objects_have_fixed_shapes(game, start, tracked):
    states = tracked[3]
    shapes = {k: jax.tree_util.tree_map(jnp.shape, g) for k, g in game.objects(start).items()}
    for t in (0, 100, 700):
        objs = game.objects(at(states, t))
        now = {k: jax.tree_util.tree_map(jnp.shape, g) for k, g in objs.items()}
        assert now == shapes
    assert set(shapes) == {"player", "enemy", "ball"}


# ---- against the emulator ------------------------------------------------------------------------
def test_matches_ale_frame_for_frame_with_a_tracking_player(tracked):
    """1,500 frames (about 10 rallies, paddle hits, FIRE speed-ups, points both ways): every
    catalog signal is EXACT on every frame (tolerance 0 px, 0 points), because the model follows
    the ROM byte for byte: ALE's paddle resistance, the pot timing, the averaging, the collision
    order. (Pixel-level differences of the ball sprite are tested separately below.)"""
    ale_sig, actions, _, states, jax_sig, dones = tracked
    assert_signals_equal(ale_sig, jax_sig, SIGNALS + ["reward"], 1500)
    # the run really exercised the mechanics it claims to check
    dx = np.asarray(states.ball_dx)
    assert (np.diff(np.sign(dx)) != 0).sum() >= 10, "too few paddle hits"
    assert np.abs(dx).max() >= 2, "no FIRE speed-up happened"
    assert (ale_sig["reward"] == 1).any() and (ale_sig["reward"] == -1).any()


def test_matches_ale_with_random_held_actions(game, rollout, start):
    """600 frames of random actions held 5 frames each: all signals exact (tolerance 0)."""
    rng = np.random.default_rng(11)
    actions = np.repeat(rng.integers(0, 6, size=120), 5).astype(np.int32)
    ale_sig, _, _ = ale_run(actions)
    _, states, rewards, _ = rollout(start, jnp.asarray(actions))
    assert_signals_equal(ale_sig, jax_signals(game, states, rewards), SIGNALS + ["reward"], 600)


def test_frames_match_ale_pixels(game, tracked):
    """render() equals ALE's screen on each of 300 frames of the tracking player (paddle lines
    shift where the ball's edges are drawn, see Pong._ball_columns)."""
    _, _, screens, states, _, _ = tracked
    ours = np.asarray(jax.jit(jax.vmap(game.render))(at_range(states, 300)))
    diff = (ours != screens[:300]).any(-1).sum(axis=(1, 2))
    assert diff.max() == 0, f"frame {diff.argmax()} differs in {diff.max()} pixels"
    # the 84x84 grey frame samples ALE's own grey screen at the same positions
    small = np.asarray(jax.jit(jax.vmap(game.render_gray84))(at_range(states, 300)))
    grey = render.gray(screens[:300])[:, render.SMALL_GRAY.ys[:, 0]][:, :, render.SMALL_GRAY.xs[0]]
    assert (small == grey).all()


def test_reset_frame_matches_ale_pixels(game):
    """The reset observation equals ALE's reset screen, the stray ball at x=2 included."""
    obs, state = game.reset(jax.random.key(3))
    screen = AleGame("pong").rgb()
    assert (screen[45:49, 2:4] == screen[30, 80]).all()  # the stray ball, in the walls' colour
    assert (np.asarray(game.render(state)) == screen).all()
    grey = render.gray(screen)[render.SMALL_GRAY.ys[:, 0]][:, render.SMALL_GRAY.xs[0]]
    assert (np.asarray(game.render_gray84(state)) == grey).all()


def at_range(states, n):
    return jax.tree_util.tree_map(lambda v: v[:n], states)


def test_enemy_scores_when_the_player_does_nothing(game, rollout, start):
    """NOOP only: the computer wins a point on frame 255 and then every 140 frames, on both."""
    actions = np.zeros(700, np.int32)
    ale_sig, _, _ = ale_run(actions)
    _, states, rewards, _ = rollout(start, jnp.asarray(actions))
    jax_sig = jax_signals(game, states, rewards)
    assert_signals_equal(ale_sig, jax_sig, SIGNALS + ["reward"], 700)
    assert list(np.nonzero(jax_sig["reward"])[0]) == [255, 395, 535, 675]
    assert (jax_sig["reward"][jax_sig["reward"] != 0] == -1).all()


def _scripted_start(ale_bytes):
    """Play 70 NOOP frames (past the first serve) on both, then write the same bytes into both."""

    def setup(ale):
        for _ in range(70):
            ale.step(0)
        for i, v in ale_bytes.items():
            ale.set_ram(i, v)

    return setup


FIELD_OF_RAM = {49: "ball_x", 54: "ball_y", 58: "ball_dx", 56: "ball_dy", 50: "enemy_y",
                13: "enemy_score", 14: "player_score"}


def _jax_scripted(game, rollout, start, ale_bytes):
    s, _, _, _ = rollout(start, jnp.zeros(70, jnp.int32))
    fields = {}
    for i, v in ale_bytes.items():
        if i in FIELD_OF_RAM:
            name = FIELD_OF_RAM[i]
            fields[name] = v - 256 if name in ("ball_dx", "ball_dy") and v > 127 else v
    return s.replace(**{k: jnp.int32(v) for k, v in fields.items()})


def test_player_scores_from_a_scripted_start(game, rollout, start):
    """Ball heading left at 2 px/frame, the computer's paddle far below it: the agent scores when
    the ball passes x=52 (RAM 49), on the same frame on both; all signals exact for 150 frames."""
    ale_bytes = {49: 80, 54: 100, 58: 2, 56: 0, 50: 200, 21: 200}  # RAM 21: the computer's target
    ale_sig, _, _ = ale_run(np.zeros(150, np.int32), setup=_scripted_start(ale_bytes))
    s0 = _jax_scripted(game, rollout, start, ale_bytes)
    _, states, rewards, _ = rollout(s0, jnp.zeros(150, jnp.int32))
    jax_sig = jax_signals(game, states, rewards)
    for k in ("player_score", "enemy_score", "ball_x", "ball_y", "enemy_y", "player_y", "reward"):
        np.testing.assert_array_equal(ale_sig[k], jax_sig[k], err_msg=k)
    assert np.nonzero(jax_sig["reward"])[0].tolist() == [14] and jax_sig["reward"][14] == 1
    # 63 frames later the ball is served from the centre towards the computer (x decreasing)
    assert jax_sig["ball_x"][14 + 63] == 128 - 1 - 49


def test_wall_bounce_from_a_scripted_start(game, rollout, start):
    """Ball rising at 3 px/frame into the top wall, then falling back: exact on both."""
    ale_bytes = {49: 120, 54: 70, 58: 1, 56: 253, 50: 60, 21: 60}
    ale_sig, _, _ = ale_run(np.zeros(40, np.int32), setup=_scripted_start(ale_bytes))
    s0 = _jax_scripted(game, rollout, start, ale_bytes)
    _, states, rewards, _ = rollout(s0, jnp.zeros(40, jnp.int32))
    jax_sig = jax_signals(game, states, rewards)
    np.testing.assert_array_equal(ale_sig["ball_y"], jax_sig["ball_y"])
    y = jax_sig["ball_y"]
    assert y.min() <= 45 - 14 and y[-1] > y.min() + 20  # it went up to the wall and came back


def test_game_over_at_21(game, rollout, start):
    """From 20-0 for the computer, NOOP: the 21st point ends the game on the same frame as ALE."""
    ale_bytes = {13: 20}
    ale_sig, _, _ = ale_run(np.zeros(200, np.int32), setup=_scripted_start(ale_bytes))
    s0 = _jax_scripted(game, rollout, start, ale_bytes)
    s0 = s0.replace(shown_enemy=jnp.int32(20))
    _, states, rewards, dones = rollout(s0, jnp.zeros(200, jnp.int32))
    jax_sig = jax_signals(game, states, rewards)
    end = int(np.argmax(ale_sig["terminated"]))
    assert ale_sig["terminated"][end] and not ale_sig["terminated"][:end].any()
    assert int(np.argmax(np.asarray(dones))) == end and bool(dones[end])
    assert jax_sig["enemy_score"][end] == 21 and jax_sig["reward"][end] == -1
    assert not np.asarray(dones)[:end].any()


def test_pot_reading_integer_form_equals_stellas_double_formula(game):
    """Every resistance ALE can produce: the int32 form equals the floating-point timing formula."""
    c = game.consts
    r = np.arange(c.pot_min, c.pot_max + 1, dtype=np.int64)
    cycles = np.floor(1.216e-6 * r * 261 * 60)
    steps = np.floor((cycles - c.pot_first_cycle) / c.pot_cycles_per_step)
    want = np.where(cycles >= c.pot_first_cycle, np.minimum(40 + 2 * steps, 220), 38)
    got = np.asarray(jax.jit(game.pot_reading)(jnp.asarray(r, jnp.int32)))
    np.testing.assert_array_equal(got, want)


# ---- rendering -----------------------------------------------------------------------------------
def _inside(raster, group, court=(34, 194)):
    ys, xs = raster.ys, raster.xs
    top = max(int(group.y[0]), court[0])
    bottom = min(int(group.y[0] + group.h[0]), court[1])
    left, right = int(group.x[0]), int(group.x[0] + group.w[0])
    return (ys >= top) & (ys < bottom) & (xs >= left) & (xs < right)


@pytest.mark.parametrize("which", ["render", "render_gray84"])
def test_render_draws_objects_where_objects_says(game, tracked, which):
    states = tracked[3]
    raster = render.FULL if which == "render" else render.SMALL_GRAY
    draw = jax.jit(getattr(game, which))
    c = game.consts
    colour = {"player": PALETTE[c.player_colour >> 1], "enemy": PALETTE[c.enemy_colour >> 1],
              "ball": PALETTE[c.wall_colour >> 1]}
    checked = 0
    for t in range(5, 1500, 37):
        s = at(states, t)
        img = np.asarray(draw(s))
        objs = game.objects(s)
        ball = _inside(raster, objs["ball"]) if bool(objs["ball"].active[0]) else None
        for name in ("player", "enemy"):
            m = _inside(raster, objs[name])
            if ball is not None:
                m = m & ~ball
            want = np.asarray(render.colour_for(raster, np.asarray(colour[name], np.uint8)))
            pix = img[m]
            assert (pix == want).all(), (t, name)
            # and nowhere else in the court
            court = (raster.ys >= 34) & (raster.ys < 194) & np.ones_like(raster.xs, bool)
            half = raster.xs < 80 if name == "enemy" else raster.xs >= 80
            outside = court & ~_inside(raster, objs[name]) & half
            other = img[outside]
            hits = (other == want).all(-1) if other.ndim == 2 else (other == want)
            assert not hits.any(), (t, name)
            checked += 1
        if ball is not None and ball.any():
            want = np.asarray(render.colour_for(raster, np.asarray(colour["ball"], np.uint8)))
            lit = img == want if img.ndim == 2 else (img == want).all(-1)
            court = (raster.ys >= 34) & (raster.ys < 194) & np.ones_like(raster.xs, bool)
            assert (lit & court & ~ball).sum() == 0, t  # no ball pixel outside its box
            assert (lit & ball).any(), t
    assert checked >= 60


def test_score_digits_match_ale(game, tracked):
    """The score row (rows 0..23) is pixel-exact on every one of the 300 compared frames."""
    _, _, screens, states, _, _ = tracked
    ours = np.asarray(jax.jit(jax.vmap(game.render))(at_range(states, 300)))
    np.testing.assert_array_equal(ours[:, :24], screens[:300, :24])


# ---- mods ----------------------------------------------------------------------------------------
NOOPS = jnp.zeros(600, jnp.int32)


@pytest.fixture(scope="module")
def base_noop(rollout, start):
    return rollout(start, NOOPS)


def test_lazy_enemy_moves_only_when_the_ball_comes(base_noop):
    lazy = jaxtari.make("pong", mods=["lazy_enemy"])
    _, states, rewards, _ = make_rollout(lazy)(lazy.reset(jax.random.key(0))[1], NOOPS)
    e = np.asarray(states.enemy_y)
    dx = np.asarray(states.ball_dx)
    step = np.diff(e)
    moved = (step != 0) & (np.abs(step) <= lazy.consts.enemy_speed)  # not the serve's re-centring
    assert moved.any()
    assert (dx[1:][moved] > 0).all(), "the paddle moved while the ball went away from it"
    # the base game moves it while the ball goes away (during the first countdown, for one)
    base = base_noop[1]
    assert (np.diff(np.asarray(base.enemy_y))[dx[1:] <= 0] != 0).any()
    # nothing else changes until the ball first reaches the computer's side
    first = int(np.argmax(np.asarray(base.ball_x) < 90))
    for name in ("ball_x", "ball_y", "ball_dx", "player_y", "pot", "player_score", "enemy_score"):
        np.testing.assert_array_equal(np.asarray(getattr(states, name))[:first],
                                      np.asarray(getattr(base, name))[:first], err_msg=name)


def test_no_enemy_points_drops_only_the_computers_points(base_noop):
    mod = jaxtari.make("pong", mods=["no_enemy_points"])
    _, states, rewards, dones = make_rollout(mod)(mod.reset(jax.random.key(0))[1], NOOPS)
    _, base, base_rewards, _ = base_noop
    assert int(base.enemy_score[-1]) == 3 and (np.asarray(base_rewards) == -1).sum() == 3
    assert (np.asarray(states.enemy_score) == 0).all() and (np.asarray(rewards) == 0).all()
    for f in dataclasses.fields(PongState):
        # the digits built from the point and drawn for a frame, as ALE draws its counterpart's
        if f.name in ("enemy_score", "shown_enemy", "built_enemy", "key"):
            continue
        np.testing.assert_array_equal(np.asarray(getattr(states, f.name)),
                                      np.asarray(getattr(base, f.name)), err_msg=f.name)


def test_slow_enemy_halves_the_computers_speed(base_noop):
    mod = jaxtari.make("pong", mods=["slow_enemy"])
    _, states, _, _ = make_rollout(mod)(mod.reset(jax.random.key(0))[1], NOOPS[:200])
    steps = np.abs(np.diff(np.asarray(states.enemy_y)))
    # (a serve puts the paddle back at the centre: skip that jump)
    assert set(steps[steps < 50].tolist()) <= {0, 1} and (steps == 1).any()
    assert 2 in set(np.abs(np.diff(np.asarray(base_noop[1].enemy_y[:200]))).tolist())


def test_unknown_mod_names_the_known_ones():
    with pytest.raises(ModError, match="unknown mod 'nope'.*lazy_enemy.*no_enemy_points"):
        jaxtari.make("pong", mods=["nope"])
    assert isinstance(jaxtari.make("Pong"), Pong)


def test_full_action_space_matches_ale():
    """All 18 actions (UP/DOWN do nothing to a paddle; any RIGHT/LEFT/FIRE part counts): exact."""
    full = jaxtari.make("pong", full_action_space=True)
    rng = np.random.default_rng(5)
    actions = np.repeat(rng.integers(0, 18, size=80), 5).astype(np.int32)
    ale = AleGame("pong", full_action_space=True)
    rows = []
    for a in actions:
        ale.step(int(a))
        rows.append(ale.signals())
    start = full.reset(jax.random.key(0))[1]
    _, states, rewards, _ = make_rollout(full)(start, jnp.asarray(actions))
    jax_sig = jax_signals(full, states, rewards)
    for k in ("player_y", "ball_x", "ball_y", "enemy_y", "score"):
        np.testing.assert_array_equal(np.array([r[k] for r in rows]), jax_sig[k], err_msg=k)


@pytest.mark.parametrize("enemy,player", [(12, 7), (3, 19)])
def test_score_digits_match_ale_pixels(game, rollout, start, enemy, player):
    """Scores written into RAM 13/14 (one and two digits): the score band (screen lines 0-23) of
    both renders is ALE's, pixel for pixel, once the new scores are shown (a frame later)."""
    ale_bytes = {13: enemy, 14: player}
    _, _, screens = ale_run(np.zeros(3, np.int32), setup=_scripted_start(ale_bytes), rgb=True)
    s0 = _jax_scripted(game, rollout, start, ale_bytes)
    _, states, _, _ = rollout(s0, jnp.zeros(3, jnp.int32))
    s = at(states, 2)
    assert (int(s.shown_enemy), int(s.shown_player)) == (enemy, player)
    band = 24  # the top wall starts at line 24
    np.testing.assert_array_equal(np.asarray(jax.jit(game.render)(s))[:band], screens[2][:band])
    small = np.asarray(jax.jit(game.render_gray84)(s))
    rows = render.SMALL_GRAY.ys[:, 0] < band
    grey = render.gray(screens[2])[render.SMALL_GRAY.ys[:, 0]][:, render.SMALL_GRAY.xs[0]]
    np.testing.assert_array_equal(small[rows], grey[rows])


def _random_held_actions(seed, frames):
    """Random minimal-set actions, each held for 1-12 frames (so the paddle sweeps the pot range)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < frames:
        out += [int(rng.integers(len(MINIMAL)))] * int(rng.integers(1, 13))
    return np.array(out[:frames], np.int32)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_frame_of_random_play_is_pixel_exact(game, rollout, start, seed):
    """render() equals ALE's getScreenRGB on every one of 3,000 frames of random play, and the 84x84
    grey frame equals ALE's grey screen sampled at the same pixels (the ball's early line included)."""
    frames, chunk = 3000, 500
    actions = _random_held_actions(seed, frames)
    _, states, _, _ = rollout(start, jnp.asarray(actions))
    full, small = jax.jit(jax.vmap(game.render)), jax.jit(jax.vmap(game.render_gray84))
    ale = AleGame("pong")
    for lo in range(0, frames, chunk):
        screens = []
        for a in actions[lo:lo + chunk]:
            ale.step(int(a))
            screens.append(ale.rgb())
        screens = np.array(screens)
        part = jax.tree_util.tree_map(lambda v: v[lo:lo + chunk], states)
        diff = (np.asarray(full(part)) != screens).any(-1).sum(axis=(1, 2))
        bad = np.nonzero(diff)[0]
        assert bad.size == 0, f"seed {seed}: frame {lo + bad[0]} differs in {diff[bad[0]]} pixels"
        grey = render.gray(screens)[:, render.SMALL_GRAY.ys[:, 0]][:, :, render.SMALL_GRAY.xs[0]]
        assert (np.asarray(small(part)) == grey).all(), f"seed {seed}: 84x84 differs near {lo}"
