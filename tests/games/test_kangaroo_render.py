"""Kangaroo's picture (jaxtari/games/kangaroo/draw.py) against ALE's screen, frame by frame.

The JAX game replays the actions ALE played (sticky actions off) and its render must equal
``getScreenRGB()`` pixel for pixel. Measured (ale-py 0.12.1): exact on every frame of whole random
games on each layout (seeds 1, 11, 12: layouts 0, 1, 2, to the game over, the title included),
of the plain route through the three layouts (tests/games/test_kangaroo_route.py), and of the
stored planner game through layouts 0 and 1 sampled every 16th frame (slow).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment.porting import ramtrace as rt
from alignment.signals import RamWrite
from jaxtari.games.kangaroo import Kangaroo, art, draw
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo.mods import MODS
from jaxtari.games.kangaroo.game import KangarooConstants
from alignment.reference.games.kangaroo import ram as gt

GAME = Kangaroo()
LAYOUT1 = Path(__file__).resolve().parents[1] / "data" / "kangaroo" / "planner-layout1-s0.json"
ROM_BANK = 0x1000


def _rom() -> bytes:
    from ale_py import roms

    return Path(roms.get_rom_path("kangaroo")).read_bytes()


def _bank0(rom, address, n):
    return tuple(rom[(address & 0xFFF) + i] for i in range(n))


def _bank1(rom, address, n):
    return tuple(rom[ROM_BANK + (address & 0xFFF) + i] for i in range(n))


def test_the_graphics_and_tables_are_the_cartridges_bytes():
    rom = _rom()
    assert art.GRAPHICS == bytes(_bank0(rom, art.GRAPHICS_BASE, len(art.GRAPHICS)))
    for table, address in ((art.PF1_LEFT, 0xDF00), (art.PF2_LEFT, 0xDF42),
                           (art.PF2_RIGHT, 0xDF84), (art.PF1_RIGHT, 0xDD52)):
        assert table == _bank0(rom, address, len(table))
    for table, address in ((art.MOTHER_LOW, 0xFDF1), (art.MOTHER_HIGH, 0xFE01),
                           (art.BABY_X, 0xFD8F), (art.BABY_LOW, 0xFD97), (art.BELL_LOW, 0xFF97),
                           (art.FRUIT_LOW, 0xFF9B), (art.FRUIT_COLOUR, 0xFF9F),
                           (art.BELL_ROW, 0xFFA3), (art.FLICKER, 0xFD9F)):
        assert table == _bank1(rom, address, len(table))
    assert art.LIVES_PF1 == _bank0(rom, 0xDDD6, len(art.LIVES_PF1))
    assert art.LIVES_PF2 == _bank0(rom, 0xDB96, len(art.LIVES_PF2))


def _replay(game, actions, start=None):
    s0 = game._reset(jax.random.key(0)) if start is None else start

    def body(s, a):
        s, _ = game._step(s, a)
        return s, s

    _, states = jax.jit(lambda s, a: jax.lax.scan(body, s, a))(s0, jnp.asarray(actions, jnp.int32))
    return states


_RENDER = jax.jit(jax.vmap(functools.partial(draw.render, KangarooConstants())))


def _differing_frames(states, screens, frames) -> dict[int, int]:
    """{frame: differing pixels} for the frames (1-based, after that many steps) given."""
    out = {}
    frames = list(frames)
    for i in range(0, len(frames), 256):
        chunk = np.asarray(frames[i:i + 256])
        picked = jax.tree_util.tree_map(lambda x: x[chunk - 1], states)
        images = np.asarray(_RENDER(picked))
        for j, f in enumerate(chunk):
            n = int((images[j] != screens[j + i]).any(-1).sum())
            if n:
                out[int(f)] = n
    return out


def test_a_random_game_is_drawn_exactly_while_the_monkeys_come():
    """Random held actions from reset, 1,200 frames: the start tune, the mother walking, jumping,
    ducking and punching, the ape and its coconut, the first monkeys climbing down (taking turns
    on the screen where two come close) and their apples, the bell, fruit, score, timer and
    lives; objects() against the reference's boxes, and those against the screen. Frames
    1,165-1,171: the coconut's first line at columns 19-20 in a row where the kernel draws the
    baby and a monkey (it enables the ball on cycle 29 there, 30 beside the baby alone)."""
    trace = rt.record("kangaroo", frames=1200, seed=1, hold=(4, 30), screens=True)
    states = _replay(GAME, trace.actions)
    n = len(trace.actions)
    assert _differing_frames(states, trace.screens[1:], range(1, n + 1)) == {}
    _small_is_the_full_ones_samples(states, range(1, n + 1))
    _objects_are_the_references_boxes(states, trace)
    _the_references_boxes_are_on_the_screen(trace)
    _the_observation_decodes_from_ale_ram(states, trace)


def _the_observation_decodes_from_ale_ram(states, trace):
    """The object-centric observation of a state carrying the reference's
    ``observation_fields`` of ALE's RAM (as alignment.reference.features evaluates it) equals the
    observation of the JAX game's own state, on every frame."""
    template = GAME._reset(jax.random.key(0))
    fields = gt.observation_fields(trace.rams[1:])

    def one(values):
        return GAME.observation(template.replace(
            **{name: jnp.asarray(v, getattr(template, name).dtype) for name, v in values.items()}))

    decoded = np.asarray(jax.jit(jax.vmap(one))(fields))
    own = np.asarray(jax.jit(jax.vmap(GAME.observation))(states))
    assert decoded.shape == own.shape and (decoded == own).all()


def _box(group, t, i):
    return [int(group.x[t, i]), int(group.y[t, i]), int(group.w[t, i]), int(group.h[t, i])]


def _objects_are_the_references_boxes(states, trace):
    """objects() of every state equals the reference's decoding of ALE's RAM of that frame, for
    the apples, the coconut, the fruit and the bell (the mother and monkeys: test_kangaroo_logic)."""
    groups = jax.device_get(jax.jit(jax.vmap(GAME.objects))(states))
    seen = set()
    for t in range(len(trace.actions)):
        ram = trace.rams[t + 1]
        for name, boxes in (("apples", gt.apple_boxes(ram)), ("fruit", gt.fruit_boxes(ram)),
                            ("coconut", gt.coconut_box(ram)[None]), ("bell", gt.bell_box(ram)[None])):
            group = groups[name]
            for i, box in enumerate(boxes):
                on = bool(box.any())
                assert bool(group.active[t, i]) == on, (t, name, i)
                if on:
                    seen.add(name)
                    assert _box(group, t, i) == list(box), (t, name, i)
    assert seen == {"apples", "fruit", "coconut", "bell"}


def _pixels(screen, box, rgb):
    x, y, w, h = (int(v) for v in box)
    return (screen[y:y + h, x:x + w] == np.asarray(rgb)).all(-1)


def _the_references_boxes_are_on_the_screen(trace):
    """The reference's boxes hold their objects' pixels on ALE's screen: every apple in flight
    fills its box in the monkeys' colour on the next frame's picture (the kernel draws it from
    the previous frame's RAM) unless that frame starts a new life, the coconut its box's last two lines in the walls' colour on the
    frame's own picture (the ape moves it before the kernel; the first line may start mid-line),
    and on the first frame every fruit and the bell show in their boxes."""
    monkey_rgb, wall_rgb = gt.MONKEY_RGB, gt.WALL_RGB
    apples = coconuts = 0
    for t in range(1, len(trace.actions)):
        ram = trace.rams[t]
        # a new life's vertical blank clears the apples before the kernel draws
        new_life = trace.lives[t + 1] != trace.lives[t]
        for box in gt.apple_boxes(ram):
            if box.any() and box[1] >= gt.PLAY_LINES.start and not new_life:
                apples += 1
                assert _pixels(trace.screens[t + 1], box, monkey_rgb).all(), (t, box)
        box = gt.coconut_box(ram)
        if box.any():
            coconuts += 1
            assert _pixels(trace.screens[t], box, wall_rgb)[1:].all(), (t, box)
    assert apples and coconuts
    first, ram = trace.screens[1], trace.rams[1]
    for box, rgb in [(b, (214, 92, 92)) for b in gt.fruit_boxes(ram)] + [(gt.bell_box(ram), (210, 164, 74))]:
        assert _pixels(first, box, rgb).any(), box


@pytest.mark.slow
def test_a_whole_random_game_on_layout_1_is_drawn_exactly_to_the_game_over():
    """Seed 11 on layout 1 (written right after reset), to the game over's title picture. Frame 1
    is left out: the cartridge drew it from the list it built before the layout was written."""
    writes = [RamWrite(a, v, "reset") for a, v in gt.POKES[0].ram(1).items()]
    trace = rt.record("kangaroo", frames=4000, seed=11, hold=(4, 30), screens=True, writes=writes)
    assert trace.game_over[-1]
    start = GAME._reset(jax.random.key(0)).replace(level=jnp.int32(1))
    states = _replay(GAME, trace.actions, start)
    n = len(trace.actions)
    assert _differing_frames(states, trace.screens[2:], range(2, n + 1)) == {}


@pytest.mark.slow
@pytest.mark.parametrize("seed,layout", [(1, 0), (12, 2)])
def test_whole_random_games_on_layouts_0_and_2_are_drawn_exactly(seed, layout):
    """Layouts 0 and 2: whole random games, every frame (they held 7 and 32 frames where the
    coconut's first line started at column 19 beside a monkey and the baby, before the kernel's
    path was modelled)."""
    writes = [RamWrite(a, v, "reset") for a, v in gt.POKES[0].ram(layout).items()]
    trace = rt.record("kangaroo", frames=4000, seed=seed, hold=(4, 30), screens=True,
                      writes=writes)
    start = GAME._reset(jax.random.key(0)).replace(level=jnp.int32(layout))
    states = _replay(GAME, trace.actions, start)
    n = len(trace.actions)
    first = 1 if layout == 0 else 2
    assert _differing_frames(states, trace.screens[first:], range(first, n + 1)) == {}
    _small_is_the_full_ones_samples(states, range(1, n + 1))


def _modded(*names):
    by_name = {m.name: m for m in MODS}
    consts = {}
    for name in names:
        consts.update(by_name[name].constants)
    return Kangaroo(KangarooConstants(**consts))


@pytest.mark.slow
def test_the_planned_game_through_layout_1_is_drawn_exactly_every_16th_frame():
    """The stored 30,002-frame planner game (layout 0 climbed to the baby, the round won, layout
    1's upper floors) with its mods on both sides, every 16th frame's picture."""
    import ale_py

    doc = json.loads(LAYOUT1.read_text())
    actions = [a for a, n in doc["runs"] for _ in range(n)]
    writes = [w for m in doc["mods"] for w in gt.ALE_MODS[m].writes]
    ale = rt.open_rom("kangaroo")
    from alignment.signals import apply_ram_writes

    apply_ram_writes(writes, "reset", ale.getRAM(), ale.setRAM)
    every = 16
    screens, frames = [], []
    for f, a in enumerate(actions, start=1):
        ale.act(ale_py.Action(a))
        apply_ram_writes(writes, "frame", ale.getRAM(), ale.setRAM)
        if f % every == 0:
            screens.append(ale.getScreenRGB().copy())
            frames.append(f)
    states = _replay(_modded(*doc["mods"]), actions)
    assert _differing_frames(states, np.stack(screens), frames) == {}


_SMALL = jax.jit(jax.vmap(functools.partial(draw.render_gray84, KangarooConstants())))


def _small_is_the_full_ones_samples(states, frames):
    """The 84x84 grey picture, drawn directly at that size, equals the full picture's grey at the
    pixels SMALL_GRAY samples, on each frame given (1-based)."""
    from jaxtari import render as r

    frames = list(frames)
    for i in range(0, len(frames), 256):
        chunk = np.asarray(frames[i:i + 256])
        picked = jax.tree_util.tree_map(lambda x: x[chunk - 1], states)
        small, full = np.asarray(_SMALL(picked)), np.asarray(_RENDER(picked))
        # sampled, then grey (per pixel: the same values at a sixth of the work)
        want = r.gray(full[:, r.SMALL_GRAY.ys, r.SMALL_GRAY.xs])
        assert small.shape == want.shape and (small == want).all(), \
            [int(f) for f, ok in zip(chunk, (small == want).all((1, 2))) if not ok][:10]


def test_the_84x84_picture_samples_the_full_one():
    """The reset state and a game-over state (the title)."""
    s = GAME._reset(jax.random.key(0))
    states = jax.tree_util.tree_map(lambda a, b: jnp.stack([a, b]), s,
                                    s.replace(attract=jnp.int32(k.SIGN)))
    _small_is_the_full_ones_samples(states, [1, 2])


def test_the_game_over_frame_is_the_title():
    s = GAME._reset(jax.random.key(0)).replace(attract=jnp.int32(k.SIGN))
    picture = np.asarray(jax.jit(functools.partial(draw.colour_indices, KangarooConstants()))(s))
    assert (picture[:art.TITLE_TOP] == 0).all() and (picture[art.TITLE_TOP] != 0).any()
    assert set(np.unique(picture)) == {0, art.TITLE_COLOUR, art.TITLE_KANGAROO_COLOUR}


@pytest.mark.parametrize("mode", [0, 1])
def test_the_game_over_frame_equals_ales_in_each_mode(mode):
    """The NOOP game to its end (the coconuts take every life): the game-over frame is the title,
    which in mode 1 (game 2) carries one more figure; equal to ALE's screen pixel for pixel."""
    from alignment.backends import make_backend

    sides = [make_backend(kind, "kangaroo", mode=mode) for kind in ("ale", "jax")]
    for b in sides:
        b.reset(0)
        b.act("NOOP", 1200)
        assert b.terminated, b.kind
    np.testing.assert_array_equal(sides[0].rgb(), sides[1].rgb())
    drawn = (sides[0].rgb()[art.TITLE_GAME_2_TOP:art.TITLE_GAME_2_TOP + len(art.TITLE_GAME_2),
                            art.TITLE_GAME_2_LEFT:art.TITLE_GAME_2_LEFT + 8] != 0).any(-1).sum()
    assert drawn == (61 if mode else 0)
