"""Shared by the Breakout tests: the real emulator (bare ale_py, one frame per act, sticky actions
off), the players that choose actions on it, and the frame-by-frame comparison with the JAX game.

A comparison replays the same action indices (the minimal set NOOP, FIRE, RIGHT, LEFT) on ALE and,
as one compiled scan, on the JAX game, and compares on every frame every RAM byte the JAX state
mirrors, the reward, ALE's lives() and game_over(), and (on sampled frames) the 210x160 screen.
"""

from __future__ import annotations

import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np

import jaxtari
from jaxtari import render
from jaxtari.games.breakout import constants as k
from jaxtari.games.breakout.state import state_from_ram
from jaxtari.mods import InternalMod

ALE_IDS = k.MINIMAL_ACTIONS  # index -> ALE action id
NOOP, FIRE, RIGHT, LEFT = range(4)


def make_ale(mode=0, difficulty=0):
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)
    ale = ale_py.ALEInterface()
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", 1)
    ale.loadROM(roms.get_rom_path("breakout"))
    if mode:
        ale.setMode(mode)
    if difficulty:
        ale.setDifficulty(difficulty)
    ale.reset_game()
    return ale


def act(ale, index):
    import ale_py

    return int(ale.act(ale_py.Action(ALE_IDS[index])))


@functools.lru_cache(maxsize=None)
def make_game(mode=0, difficulty=0, mods=()):
    """The JAX game in an ALE mode and difficulty (set the way the backends set a mode: as an
    InternalMod of the constants), with ``mods``."""
    extra = []
    if mode or difficulty:
        extra.append(InternalMod("ale-mode", "ALE mode and difficulty",
                                 constants={"mode": mode, "difficulty": difficulty}))
    return jaxtari.make("breakout", mods=list(mods) + extra)  # cached: compiled once per test run


def next_pot(pot, index):
    """ALE's paddle resistance after one frame of an action index (what the tests track)."""
    d = {RIGHT: -k.POT_DELTA, LEFT: k.POT_DELTA}.get(index, 0)
    return min(max(pot + d, k.POT_MIN), k.POT_MAX)


def ram_view(ram) -> dict:
    """The RAM bytes the JAX state mirrors, as the state holds them."""
    r = [int(v) for v in ram]
    return dict(
        paddle_x=r[72], ball_x=r[99] << 8 | r[100], ball_y=r[101] << 8 | r[102],
        ball_dx=r[105] << 8 | r[106], ball_dy=r[103] << 8 | r[104], hits=r[107], angle=r[109],
        shrunk=bool(r[97] & 0x80), bricks=tuple(r[:36]), wall=r[94], lives=r[57],
        score=int(f"{r[76]:x}{r[77]:02x}"), pot_reading=r[70], clock=r[91] << 8 | r[90],
        active=bool(r[52] & 0x80), sound=r[95],
    )


def state_view(s) -> dict:
    v = {f: np.asarray(getattr(s, f)) for f in (
        "paddle_x", "ball_x", "ball_y", "ball_dx", "ball_dy", "hits", "angle", "shrunk", "wall",
        "lives", "score", "pot_reading", "clock", "active", "sound")}
    out = {f: (bool(x) if x.dtype == bool else int(x)) for f, x in v.items()}
    out["bricks"] = tuple(int(b) for b in np.asarray(s.bricks))
    return out


_RUNNERS: dict = {}


def rollout(game, state, actions):
    """(states, rewards) of the JAX game over ``actions`` (one compiled scan per game and length
    bucket: the actions are padded with NOOP to a power of two, at least 64, and cut back)."""
    n = len(actions)
    size = max(64, 1 << (n - 1).bit_length())
    key = id(game)
    if key not in _RUNNERS:
        def body(st, a):
            _, st2, reward, _, _ = game.step(st, a)
            return st2, (st2, reward)

        _RUNNERS[key] = (game, jax.jit(lambda st, acts: jax.lax.scan(body, st, acts)[1]))
    padded = np.zeros(size, np.int32)
    padded[:n] = actions
    states, rewards = _RUNNERS[key][1](state, jnp.asarray(padded))
    return jax.tree_util.tree_map(lambda v: v[:n], (states, rewards))


_RENDER: dict = {}
_CHUNK = 32


def render_frames(game, states, frames):
    """210x160 pictures of the given frames of a rollout (rendered in compiled chunks of 32)."""
    key = id(game)
    if key not in _RENDER:
        _RENDER[key] = (game, jax.jit(jax.vmap(game.render)))
    frames = np.asarray(frames)
    out = []
    for i in range(0, len(frames), _CHUNK):
        idx = frames[i:i + _CHUNK]
        padded = np.concatenate([idx, np.full(_CHUNK - len(idx), idx[-1])])
        picked = jax.tree_util.tree_map(lambda v: v[padded], states)
        out.append(np.asarray(_RENDER[key][1](picked))[:len(idx)])
    return np.concatenate(out)


def gray84_frames(game, states, frames):
    """The 84x84 grey observations of the given frames of a rollout."""
    picked = jax.tree_util.tree_map(lambda v: v[np.asarray(frames)], states)
    return np.asarray(jax.jit(jax.vmap(game.render_gray84))(picked))


def ale_screens(ale, actions, frames, *, gray84=False):
    """Play ``actions`` on ``ale``; its screen after each of ``frames`` (indices into the actions):
    210x160 RGB, or ALE's grey screen at the 84x84 raster's pixels."""
    raster = render.SMALL_GRAY
    wanted, out = set(frames), {}
    for t, a in enumerate(actions):
        act(ale, a)
        if t in wanted:
            out[t] = (ale.getScreenGrayscale()[raster.ys[:, 0]][:, raster.xs[0]] if gray84
                      else ale.getScreenRGB().copy())
    return [out[f] for f in frames]


@dataclasses.dataclass
class Comparison:
    frames: int
    mismatches: list  # (frame, {field: (ale, jax)})
    pixel_frames: int
    pixel_mismatches: list  # (frame, number of pixels that differ)
    score: int
    terminated: bool


def compare(actions, *, mode=0, difficulty=0, mods=(), ale=None, state=None, pixel_every=0,
            stop_at_end=True, written_points=0) -> Comparison:
    """Replay ``actions`` on ALE (fresh, or ``ale`` as given with the JAX ``state`` mirroring it)
    and on the JAX game; every mismatch, frame by frame. ``written_points``: a score written into
    ALE's RAM for a scripted start, which ALE pays out as reward on the first frame."""
    game = make_game(mode, difficulty, tuple(mods))
    if ale is None:
        ale = make_ale(mode, difficulty)
        _, state = game.reset(jax.random.key(0))
        first = {f: (a, b) for f, (a, b) in _diff(ram_view(ale.getRAM()), state_view(state)).items()}
        assert not first, f"reset states differ: {first}"
    states, rewards = rollout(game, state, actions)
    rewards = np.asarray(rewards)
    views = states.replace(key=jnp.zeros(len(actions)))
    views = jax.tree_util.tree_map(np.asarray, views)
    mismatches, screens, n = [], {}, 0
    for t, a in enumerate(actions):
        reward = act(ale, a) - (written_points if t == 0 else 0)
        n = t + 1
        sj = jax.tree_util.tree_map(lambda v: v[t], views)
        bad = _diff(ram_view(ale.getRAM()), state_view(sj))
        if reward != int(rewards[t]):
            bad["reward"] = (reward, int(rewards[t]))
        if ale.lives() != int(sj.lives):
            bad["lives()"] = (ale.lives(), int(sj.lives))
        if ale.game_over() != bool(game.is_terminal(sj)):
            bad["game_over()"] = (ale.game_over(), bool(game.is_terminal(sj)))
        if bad:
            mismatches.append((t, bad))
        if pixel_every and t % pixel_every == 0:
            screens[t] = ale.getScreenRGB().copy()
        if stop_at_end and ale.game_over():
            break
    pixel_mismatches = []
    if screens:
        frames = sorted(screens)
        ours = render_frames(game, states, frames)
        for f, img in zip(frames, ours):
            d = int((img != screens[f]).any(-1).sum())
            if d:
                pixel_mismatches.append((f, d))
    score = int(ram_view(ale.getRAM())["score"])
    return Comparison(n, mismatches, len(screens), pixel_mismatches, score, ale.game_over())


def _diff(a: dict, b: dict) -> dict:
    return {f: (a[f], b[f]) for f in a if a[f] != b[f]}


# ---- players (they choose on ALE; the JAX game replays the recorded actions) -----------------------
def random_actions(seed, n, hold=1):
    """Uniform random actions, each held for 1..hold frames."""
    rng = np.random.default_rng(seed)
    out: list[int] = []
    while len(out) < n:
        out += [int(rng.integers(4))] * int(rng.integers(1, hold + 1))
    return out[:n]


def tracker_actions(seed, n, *, mode=0, difficulty=0):
    """A human-like player on ALE: serves after a pause, steers the paddle towards where the ball
    will come down (from RAM, with a drifting aim error), holds each choice 1..3 frames, and now
    and then presses something at random. Returns the actions it chose."""
    rng = np.random.default_rng(seed)
    ale = make_ale(mode, difficulty)
    actions: list[int] = []
    hold, a, aim = 0, NOOP, 0
    while len(actions) < n and not ale.game_over():
        r = [int(v) for v in ale.getRAM()]
        if hold == 0:
            if r[101] == 0:
                a = FIRE if rng.random() < 0.3 else NOOP
            else:
                if rng.random() < 0.05:
                    aim = int(rng.integers(-10, 10))
                x = (r[99] << 8 | r[100]) / 256
                dx = _signed16(r[105] << 8 | r[106]) / 256
                dy = _signed16(r[103] << 8 | r[104]) / 256
                if dy > 0:
                    x = _bounce_walls(x - dx * max(0.0, (180 - r[101]) / dy))
                paddle_target = min(max(235 - r[70], k.PADDLE_MIN), k.PADDLE_MAX)
                d = (x - 49) - (paddle_target - 47 + 6) + aim
                a = RIGHT if d > 3 else LEFT if d < -3 else NOOP
                if rng.random() < 0.02:
                    a = int(rng.integers(4))
            hold = int(rng.integers(1, 4))
        hold -= 1
        actions.append(a)
        act(ale, a)
    return actions


def _signed16(v):
    return v - 65536 if v >= 32768 else v


def _bounce_walls(x, lo=57, hi=199):
    for _ in range(4):
        x = 2 * lo - x if x < lo else x
        x = 2 * hi - x if x > hi else x
    return x


# ---- deep states: RAM writes on ALE, the same state on the JAX side --------------------------------
def scripted_start(writes, *, warmup=(), mode=0, difficulty=0):
    """ALE after ``warmup`` actions from reset and then the RAM ``writes`` ({index: byte}); the JAX
    state that mirrors it. Returns (ale, state, pot)."""
    game = make_game(mode, difficulty)
    ale = make_ale(mode, difficulty)
    pot = k.POT_START
    for a in warmup:
        act(ale, a)
        pot = next_pot(pot, a)
    prev = ale.getRAM().copy()
    for i, v in writes.items():
        ale.setRAM(int(i), int(v))
    state = state_from_ram(game, ale.getRAM(), pot=pot, frame=len(warmup), previous_ram=prev)
    return ale, state, pot
