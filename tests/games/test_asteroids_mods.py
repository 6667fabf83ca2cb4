"""The Asteroids port's mods (jaxtari/games/asteroids/mods.py): each changes what it claims and nothing
else, and each ALE counterpart (alignment/reference/games/asteroids/ram.py ALE_MODS: RAM writes after reset
and every frame) gives the same game as the JAX mod on ALE (ale-py, sticky actions off, one frame
per act): every mirrored RAM byte equal on every frame of whole random games with the writes, the
210x160 screen too where the mod is the picture's."""

from __future__ import annotations


import jax
import numpy as np
import pytest

from alignment.porting import ramtrace
from jaxtari import mods as mods_lib
from jaxtari.games.asteroids import Asteroids
from jaxtari.games.asteroids import constants as c
from jaxtari.games.asteroids import draw
from jaxtari.games.asteroids import game as g
from jaxtari.games.asteroids import mods as asteroid_mods
from alignment.reference.games.asteroids import ram as k

ROM = "asteroids"
BLOCK = 4096
MODS = {m.name: m for m in asteroid_mods.MODS}


def consts_of(name: str):
    consts, mechanics = mods_lib.apply_internal(Asteroids, [MODS[name]])
    assert not mechanics
    return consts


def _padded(actions) -> np.ndarray:
    n = -(-max(len(actions), 1) // BLOCK) * BLOCK
    return np.concatenate([actions, np.zeros(n - len(actions), np.int64)]).astype(np.int32)


def _rollout(consts, actions):
    return g.rollout(g.reset(consts), _padded(np.asarray(actions)), consts)


def first_difference(trace, consts):
    """(frame, {name: (jax, ale)}) of the first frame whose mirrored bytes (after the writes) or
    ALE's ``lives()`` (read inside the frame, before them) differ, or None."""
    states = _rollout(consts, trace.actions)
    ours = {**g.signals(states), "ale_lives": np.asarray(g.lives(states))}
    for t in range(trace.frames):
        theirs = {**k.all_bytes(trace.rams[t + 1]), "ale_lives": int(trace.lives[t + 1])}
        diff = {n: (int(ours[n][t]), theirs[n]) for n in ours if int(ours[n][t]) != theirs[n]}
        if diff:
            return t, diff
    return None


def _with_writes(name: str, seed: int, frames: int, screens: bool = False):
    hold = (1, 12) if seed % 2 else (4, 30)
    return ramtrace.record(ROM, frames=frames, seed=seed, hold=hold,
                           writes=k.ALE_MODS[name].writes, screens=screens)


def test_every_mod_has_its_ale_half_or_says_why_not():
    assert "slow_asteroids" in MODS and len(MODS) >= 3
    for name in MODS:
        assert (name in k.ALE_MODS) != (name in k.JAX_ONLY_MODS), name
    for name, counterpart in k.ALE_MODS.items():
        assert counterpart.exact and counterpart.measured, name


# ---- slow_asteroids --------------------------------------------------------------------------------

def test_slow_asteroids_move_the_same_field_at_half_the_pace():
    """With the ship idle (no hit for the first 400 moves), the slow game's field after its m-th
    move is the plain game's after its m-th move (the moves depend on the field alone), taking
    twice the frames; the ship (its frame counter, which alternates the picture, included), the
    player and the random number are the plain game's on every frame before the plain ship's
    first hit."""
    moves = 400
    frames = 4 * moves
    plain = _rollout(c.DEFAULTS, np.zeros(frames, np.int64))
    slow = _rollout(consts_of("slow_asteroids"), np.zeros(frames, np.int64))
    plain_mem, slow_mem = np.asarray(plain.field.memory), np.asarray(slow.field.memory)
    plain_speed, slow_speed = np.asarray(plain.field.speed), np.asarray(slow.field.speed)
    for m in range(1, moves + 1):
        p, s = 2 * m - 2, 4 * m - 4  # the frame (0-based) of the m-th move in each game
        assert np.array_equal(plain_mem[p], slow_mem[s]), m
        assert plain_speed[p] == slow_speed[s], m
    # between two moves the slow field stands still
    assert all(np.array_equal(slow_mem[4 * m - 4], slow_mem[4 * m - 1]) for m in range(1, moves + 1))
    # the plain game's ship is hit after 1,472 frames: compare the first 2 * moves, before it
    calm = 2 * moves
    assert not np.asarray(plain.player.feature_timer[:calm]).any()
    ours, theirs = g.signals(slow), g.signals(plain)
    for name in {**g.ship_signals(plain.ship), **g.player_signals(plain)}:
        assert np.array_equal(ours[name][:calm], theirs[name][:calm]), name
    for name in ("random_low", "random_high"):
        assert np.array_equal(ours[name][:calm], theirs[name][:calm]), name


def test_slow_asteroids_have_no_ale_counterpart_and_say_why():
    assert "slow_asteroids" not in k.ALE_MODS
    assert "no RAM byte" in k.JAX_ONLY_MODS["slow_asteroids"]


# ---- the mods with an ALE counterpart ------------------------------------------------------------

@pytest.mark.parametrize("name", ["endless_lives", "no_hyperspace", "one_colour_asteroids"])
def test_the_ale_counterpart_is_the_same_game(name):
    trace = _with_writes(name, seed=0, frames=6000)
    assert first_difference(trace, consts_of(name)) is None


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", ["endless_lives", "no_hyperspace", "one_colour_asteroids"])
def test_the_ale_counterpart_is_the_same_game_on_more_games(name, seed):
    trace = _with_writes(name, seed=seed, frames=8000)
    assert first_difference(trace, consts_of(name)) is None


def test_endless_lives_lose_no_life_and_never_end():
    """Deaths still explode the ship and the game goes on with 4 lives; up to the first death
    the game is the plain one."""
    trace = _with_writes("endless_lives", seed=0, frames=6000)
    rams = trace.rams.astype(int)
    assert not trace.game_over.any() and trace.frames == 6000
    assert ((rams[:, k.PLAYER_ATTRIBUTES] >> k.LIVES_SHIFT) == c.START_LIVES).all()
    exploding = (rams[:, k.FEATURE_TIMER] & 0x80) != 0
    assert exploding.any(), "the random game has a death"
    plain = g.signals(_rollout(c.DEFAULTS, trace.actions))
    held = g.signals(_rollout(consts_of("endless_lives"), trace.actions))
    first_death = int(np.argmax(np.asarray(plain["lives"]) < c.START_LIVES))
    assert first_death > 0
    for name in plain:
        assert np.array_equal(plain[name][:first_death], held[name][:first_death]), name


def test_no_hyperspace_keeps_the_ship_on_the_screen():
    """Held DOWN arms nothing: the ship never leaves the screen (no death in these frames), and
    every other byte is the plain game's while the plain ship has not warped."""
    actions = np.asarray([ramtrace.ACTION_NAMES.index("DOWN")] * 400, np.int64)
    plain = _rollout(c.DEFAULTS, actions)
    mod = _rollout(consts_of("no_hyperspace"), actions)
    assert (np.asarray(plain.ship.y[:400]) == c.OFF_SCREEN_Y).any()
    assert not (np.asarray(mod.ship.y[:400]) == c.OFF_SCREEN_Y).any()
    assert not (np.asarray(mod.player.flags[:400]) & c.HYPERSPACE).any()
    warp = int(np.argmax(np.asarray(plain.ship.y[:400]) == c.OFF_SCREEN_Y))
    ours, theirs = g.signals(mod), g.signals(plain)
    for name in ours:
        if name != "player_flags":
            assert np.array_equal(ours[name][:warp], theirs[name][:warp]), name


def test_one_colour_asteroids_change_the_colours_only():
    """Every byte but the asteroids' colour bits is the plain game's on every frame of a whole
    random game, every catalog signal too; the picture on ALE with the writes is the JAX mod's on
    every frame, and it differs from the plain picture."""
    trace = _with_writes("one_colour_asteroids", seed=0, frames=3000, screens=True)
    consts = consts_of("one_colour_asteroids")
    mod = _rollout(consts, trace.actions)
    plain = _rollout(c.DEFAULTS, trace.actions)
    n = trace.frames
    attrs = np.arange(2 * c.FIELD_SLOTS, 3 * c.FIELD_SLOTS)
    a, b = np.asarray(mod.field.memory[:n]), np.asarray(plain.field.memory[:n])
    assert np.array_equal(a[:, attrs], b[:, attrs] & ~c.ATTR_COLOUR_MASK & 0xFF)
    assert np.array_equal(np.delete(a, attrs, axis=1), np.delete(b, attrs, axis=1))
    for name, value in g.signals(plain).items():
        # ram[66] keeps a hit asteroid's attributes (its colour bits too) until the split
        if not name.startswith("ram") and name != "asteroid_collision":
            assert np.array_equal(value[:n], g.signals(mod)[name][:n]), name
    game, plain_game = Asteroids(consts), Asteroids()
    ours = jax.device_get(jax.vmap(game.signals)(mod))
    theirs = jax.device_get(jax.vmap(plain_game.signals)(plain))
    for name in ours:
        assert np.array_equal(np.asarray(ours[name])[:n], np.asarray(theirs[name])[:n]), name
    pictures = []
    for i in range(0, n, 512):
        part = jax.tree.map(lambda x: x[i:min(i + 512, n)], mod)
        pictures.append(np.asarray(jax.vmap(draw.render_rgb)(part)))
    pictures = np.concatenate(pictures)
    wrong = np.where((pictures != trace.screens[1:n + 1]).any((1, 2, 3)))[0]
    assert not len(wrong), f"the screen differs first after frame {wrong[0] + 1}"
    first = jax.tree.map(lambda x: x[:64], plain)
    assert (np.asarray(jax.vmap(draw.render_rgb)(first)) != pictures[:64]).any()
