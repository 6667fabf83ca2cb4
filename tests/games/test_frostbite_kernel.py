"""Frostbite's picture where the kernel writes Bailey's graphic or colour mid-line (kernel.py),
against ALE's frames.

Bailey is poked (ALE RAM and the JAX state alike) onto the lines around every band edge during the
opening pause, one frame is played on both, and the screens are compared pixel for pixel; the
configurations that put his picture across each write are also checked to show the write on ALE
(so the comparison cannot pass by missing it). The two planner walks of the full audit that found
the early colour writes wrong (issue 25) are replayed from reset.
"""

from __future__ import annotations

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtari
from jaxtari.games import frostbite as fb
from jaxtari.games.frostbite import art
from jaxtari.games.frostbite.logic import kernel

from alignment.reference import AleGame

WALKS = Path(__file__).parent.parent / "data" / "frostbite-kernel-walks.json"
TOP = fb.PLAYER_SPRITE_TOP
STAND, WALK = 0, 1
BACKGROUND_X = 159   # a column of these lines with nothing but the background
# standing Bailey (anim 0): the rows (from his top) where his colour changes to the next row's, and a
# row lit in columns 1..6 on either side of it
COLOUR_CHANGE_ROW = 15
LAST_ROW = len(art.PLAYER_ART[STAND]) - 1


@pytest.fixture(scope="module")
def game():
    return jaxtari.make("frostbite")


@pytest.fixture(scope="module")
def step(game):
    return jax.jit(game._step)


@pytest.fixture(scope="module")
def draw(game):
    return jax.jit(game.render)


@pytest.fixture(scope="module")
def poked(game, step, draw):
    """Play one frame from Bailey poked at (level, y, x, anim, sink, frozen, facing) during the
    opening pause on ALE and here: (ALE's screen, JAX's screen), or None where the frame's logic left
    the two RAMs apart (a poke the game would not reach; not a picture question)."""
    ale = AleGame("frostbite")
    start_ale = ale.clone()
    start = game._reset(jax.random.key(0))
    ram_of = jax.jit(fb.mirrored_ram)

    def run(level, y, x, anim=STAND, sink=0, frozen=0, facing=0):
        ale.restore(start_ale)
        pokes = {75: level, 100: y, 102: x, 110: anim, 107: sink, 112: frozen, 108: facing,
                 103: fb.HOLD_NEW_SCREEN}
        for address, value in pokes.items():
            ale.set_ram(address, value)
        s = start.replace(level_index=jnp.int32(level), y=jnp.int32(y), x=jnp.int32(x),
                          anim=jnp.int32(anim), sink=jnp.int32(sink), frozen=jnp.int32(frozen),
                          facing=jnp.int32(facing), hold=jnp.int32(fb.HOLD_NEW_SCREEN))
        ale.act(0)
        s, _ = step(s, jnp.int32(0))
        ram = ale.ram
        if any(int(ram[k]) != int(v) for k, v in ram_of(s).items()):
            return None
        return ale.rgb(), np.asarray(draw(s))

    return run


def differing_lines(ale_screen, jax_screen):
    return sorted(set(np.nonzero((ale_screen != jax_screen).any(-1))[0].tolist()))


def edge_cases():
    """(what, line, poke, ALE check) putting Bailey's picture across each mid-line write."""
    cases = []
    for line, x in sorted(kernel.EARLY_COLOUR_X.items()):
        # his colour changes between this line and the next; his row is lit at x - 1 and x
        y = line - COLOUR_CHANGE_ROW - TOP
        cases.append(("early colour", line, dict(y=y, x=x - 3), ("differ", line, x - 1, x)))
    for line in sorted(kernel.STALE_LINES):
        # his last row just above: the kernel repeats it (he stands on nothing: poked)
        y = line - 1 - LAST_ROW - TOP
        cases.append(("stale", line, dict(y=y, x=60), ("lit", line, 61, 61)))
    for line, x in kernel.LATE_COLOUR_X.items():
        # his top row here (walking: lit in columns 1..3), the line above not his: black to the left
        cases.append(("late colour", line, dict(y=line - TOP, x=x - 2, anim=WALK), ("black", line, x - 1, x)))
    for line, x in sorted(kernel.LATE_GRAPHIC_X.items()):
        # his second row here (walking: lit in 0..3), his first above it (lit in 1..3)
        y = line - 1 - TOP
        cases.append(("late graphic", line, dict(y=y, x=x - 4, anim=WALK), ("differ", line, x - 4, x)))
    for line, x in sorted(kernel.CLEAR_GRAPHIC_X.items()):
        if line - 1 in kernel.CLEAR_GRAPHIC_X:
            # his last row (all lit) on the line above: repeated left of the clearing
            y = line - 1 - LAST_ROW - TOP
            cases.append(("cleared graphic", line, dict(y=y, x=x - 4), ("lit", line, x - 1, x - 1)))
    return cases


@pytest.mark.parametrize("level", [0, 7])
def test_bailey_across_every_mid_line_write_matches_ale(poked, level):
    checked = []
    for what, line, poke, (kind, row, a, b) in edge_cases():
        got = poked(level, **poke)
        assert got is not None, f"{what} on line {line}: the poke {poke} left ALE's and JAX's RAM apart"
        ale, mine = got
        bad = differing_lines(ale, mine)
        assert bad == [], f"{what} on line {line}, poke {poke}: lines {bad} differ from ALE's"
        left, right = tuple(ale[row, a]), tuple(ale[row, b])
        if kind == "differ":     # the write shows: two colours (or lit and unlit) either side of it
            assert left != right, f"{what} on line {line}: ALE shows no write at x {b} ({left})"
        elif kind == "lit":      # a row where no new one is drawn
            background = tuple(ale[row, BACKGROUND_X])
            assert left != background, f"{what} on line {line}: nothing at x {a}"
        else:                    # black left of the write
            assert left == art.BLACK_RGB and right != art.BLACK_RGB, (what, line, left, right)
        checked.append((what, line))
    assert len(checked) == len(edge_cases())


def random_pokes(seed, n, levels):
    """Realistic random Bailey pokes: standing, walking or jumping anywhere from the igloo's lines
    to the bottom row, or sinking (in the water) or freezing, at any x, facing either way."""
    rng = np.random.default_rng(seed)
    for i in range(n):
        poke = dict(level=levels[i % len(levels)], y=int(rng.integers(8, fb.ROW_Y[0] + 1)),
                    x=int(rng.integers(0, 160)), anim=int(rng.integers(0, 4)),
                    facing=int(rng.choice([0, fb.FACE_LEFT])))
        mode = rng.random()
        if mode < 0.2:
            poke.update(anim=int(rng.integers(4, 6)), sink=int(rng.integers(0, fb.SINK_LINES + 1)),
                        y=max(poke["y"], fb.SHORE_Y))
        elif mode < 0.4:
            poke.update(anim=int(rng.integers(4, 6)), frozen=int(rng.integers(0, fb.SINK_LINES + 1)))
        yield poke


def sweep(poked, seed, n, levels):
    compared, bad = 0, []
    for poke in random_pokes(seed, n, levels):
        got = poked(**poke)
        if got is None:
            continue
        compared += 1
        lines = differing_lines(*got)
        if lines:
            bad.append((poke, lines))
    return compared, bad


def test_random_bailey_pokes_match_ale(poked):
    compared, bad = sweep(poked, 0, 300, [0, 5])
    assert compared > 250 and bad == []


@pytest.mark.slow
def test_many_random_bailey_pokes_on_every_kind_of_level_match_ale(poked):
    """4,000 pokes over levels 1 to 11 (day and night, every enemy set, whole and broken floes)."""
    compared, bad = sweep(poked, 1, 4000, list(range(11)))
    assert compared > 3500 and bad[:5] == []


def _holds(name):
    walk = json.loads(WALKS.read_text())["walks"][name]
    return walk["first_bad_frame"], walk["holds"]


@pytest.mark.parametrize("name", ["four-rows", "frostbite-s0-at-5616"])
def test_planner_walks_that_found_the_early_colour_writes_match_ale(game, step, draw, name):
    """Replayed from reset; every screen of the last 50 frames (around the frame where the audit's
    exploration saw Bailey's colour differ: line 156 at x 109-111, line 78 at x 144-147) compared."""
    first_bad, holds = _holds(name)
    ale = AleGame("frostbite")
    actions = np.concatenate([np.full(frames, ale.action_index(action), np.int32) for action, frames in holds])
    assert actions.size >= first_bad + 10
    window = first_bad - 30
    for a in actions[:window]:
        ale.act(int(a))
    run = jax.jit(lambda s, acts: jax.lax.scan(lambda s, a: (game._step(s, a)[0], None), s, acts)[0])
    s = run(game._reset(jax.random.key(0)), jnp.asarray(actions[:window]))
    bad = []
    for t in range(window, actions.size):
        ale.act(int(actions[t]))
        s, _ = step(s, jnp.int32(actions[t]))
        lines = differing_lines(ale.rgb(), np.asarray(draw(s)))
        if lines:
            bad.append((t + 1, lines))
    assert bad == []
