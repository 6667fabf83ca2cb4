"""Breakout's drawing (jaxtari/games/breakout/draw.py) part by part: the playfield bytes a line is
drawn from against the cartridge's register layout and the font, the raster's columns written as
arithmetic, and the 84x84 grey picture as the 210x160 one sampled and turned grey, for random
states of every mode, stopped games (cycled colours, the select display) included, and what the
compiled draw reads inside an agent's loop. The 210x160 picture itself is compared with ALE's
screen by tests/games/test_breakout*.py."""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxtari import render
from jaxtari.games.breakout import constants as k
from jaxtari.games.breakout import draw
from jaxtari.games.breakout.logic import geometry as g
from jaxtari.games.breakout.state import BreakoutState
from tests.games.breakout_helpers import make_game


def _lit(row_bytes) -> np.ndarray:
    """(..., 40) bool: the playfield pixels that (..., PF_BYTES) bytes light."""
    b = np.asarray(row_bytes, np.int64)
    return ((b[..., :, None] >> np.arange(8)) & 1).reshape(*b.shape[:-1], 40).astype(bool)


def test_brick_bytes_light_the_pixels_of_the_bricks_ram():
    rng = np.random.default_rng(0)
    bricks = np.concatenate([rng.integers(0, 256, (200, 36)), np.full((1, 36), 255),
                             np.asarray(k.FULL_WALL)[None], np.zeros((1, 36), np.int64)])
    want = (bricks[:, g.BRICK_BYTE] >> g.BRICK_BIT) & 1  # (n, 6, 40)
    got = _lit(jax.vmap(draw._brick_bytes)(jnp.asarray(bricks, jnp.int32)))
    np.testing.assert_array_equal(got, want.astype(bool))


@pytest.mark.parametrize("select", [False, True])
def test_glyph_bytes_light_the_fonts_cells_at_each_digits_place(select):
    cells = render.art_mask(draw.DIGIT_ART)  # (10, 5, 3)
    for score in (0, 7, 58, 123, 432, 999):
        for lives in (0, 3, 5):
            game_number = 10 if select else 1
            got = _lit(draw._glyph_bytes(jnp.int32(score), jnp.int32(lives), jnp.bool_(select),
                                         jnp.bool_(select), jnp.int32(game_number)))  # (5, 40)
            want = np.zeros((draw.GLYPH_ROWS, 40), bool)
            shown = [score // 100, score // 10 % 10, score % 10, lives, draw.PLAYER_NUMBER]
            if select:  # the game number in the tens and units, the hundreds and balls blank
                shown = [None, game_number // 10, game_number % 10, None, draw.PLAYER_NUMBER]
            for digit, pf in zip(shown, draw._DIGIT_PF):
                if digit is not None:
                    want[:, pf:pf + draw.GLYPH_W] = cells[digit]
            np.testing.assert_array_equal(got, want, err_msg=f"score {score}, balls {lives}")


@pytest.mark.parametrize("raster", [render.FULL, render.SMALL_GRAY, render.Raster.small_gray(64),
                                    render.Raster.small_gray(100)], ids=lambda r: f"{r.width}")
def test_each_byte_of_a_line_knows_its_screen_x_playfield_bit_and_channel(raster):
    t = draw._tables(raster, k.BreakoutConstants())
    n = raster.width * raster.channels
    column = np.repeat(np.arange(raster.width), raster.channels)  # a line's bytes, channels inner
    x = raster.xs[0][column]
    got = [np.asarray(a)[0] for a in draw._columns(t, n, 0)]
    want = [x, x // g.PF_PIXEL // 8, 1 << (x // g.PF_PIXEL % 8), np.arange(n) % raster.channels]
    for name, a, b in zip(("x", "playfield byte", "playfield bit", "channel"), got, want):
        np.testing.assert_array_equal(a, b, err_msg=name)
    if n <= draw._UNROLLED_LINE:  # computed in int32 from the byte's index
        assert all((np.arange(n) * m + b).max() < 2 ** 31
                   for m, b, _ in (t["x_map"], t["pf_map"], t["column_map"]))


def random_states(game, n, seed, stopped):
    """``n`` states with random ball, paddle, wall, digits and frame counter; about a share
    ``stopped`` of them in a game the frame counter stopped (the select display, cycled colours)."""
    rng = np.random.default_rng(seed)
    base = game._reset(jax.random.key(0))
    ints = lambda lo, hi: jnp.asarray(rng.integers(lo, hi, n), jnp.int32)  # noqa: E731
    flags = lambda p: jnp.asarray(rng.random(n) < p)  # noqa: E731
    fields = {f: jnp.broadcast_to(v, (n,) + jnp.shape(v)) for f, v in vars(base).items()
              if f != "key"}
    fields.update(
        paddle_x=ints(k.PADDLE_MIN, k.PADDLE_MAX + 1), ball_x=ints(0, 1 << 16),
        ball_y=ints(0, 1 << 16), moved_y=ints(0, 256), shrunk=flags(0.5),
        bricks=jnp.asarray(rng.integers(0, 256, (n, 36)), jnp.int32), shown_score=ints(0, 1000),
        shown_lives=ints(0, 10), clock=ints(0, 1 << 16), lives=ints(0, k.START_LIVES + 1),
        active=flags(1 - stopped), shown_select=flags(stopped), wall_lit=flags(0.5))
    fields["key"] = jax.vmap(jax.random.key)(jnp.arange(n))
    return BreakoutState(**fields)


def _grey_is_the_full_picture_sampled(mode, difficulty, n=384):
    game = make_game(mode, difficulty)
    states = jax.tree_util.tree_map(
        lambda *a: jnp.concatenate(a),
        *(random_states(game, n // 3, seed=100 * mode + 10 * difficulty + i, stopped=p)
          for i, p in enumerate((0.0, 0.5, 1.0))))
    full = np.asarray(jax.jit(jax.vmap(game.render))(states))
    grey = np.asarray(jax.jit(jax.vmap(game.render_gray84))(states))
    r = render.SMALL_GRAY
    want = render.gray(full[:, r.ys[:, 0]][:, :, r.xs[0]])
    bad = np.nonzero((grey != want).reshape(len(grey), -1).any(-1))[0]
    assert not len(bad), (f"mode {mode} difficulty {difficulty}: {len(bad)} of {len(grey)} states "
                          f"differ, first {bad[:5]}")


@pytest.mark.parametrize("mode", [0, 12, 36])
def test_the_84x84_grey_picture_is_the_full_picture_sampled_in_grey(mode):
    _grey_is_the_full_picture_sampled(mode, 0)


@pytest.mark.slow
@pytest.mark.parametrize("mode", k.MODES)
@pytest.mark.parametrize("difficulty", [0, 1])
def test_the_84x84_grey_picture_is_the_full_picture_sampled_in_grey_in_every_mode(mode, difficulty):
    _grey_is_the_full_picture_sampled(mode, difficulty)


def test_the_draw_inside_a_compiled_loop_reads_no_table_of_columns_or_pixels():
    """Inside a ``lax.scan`` (how an agent runs the env) the columns' values stay arithmetic in the
    picture's loop (jaxtari.xla.opaque_zero): XLA has not moved them out of the scan as tables of a
    line's columns (1, 84) or of the picture's pixels (84, 84), which the loop would then load per
    pixel.
    Read off the compiled HLO (jax.jit(...).lower(...).compile().as_text())."""
    game, n = make_game(0), 64
    states = random_states(game, n, seed=0, stopped=0.5)

    def body(s, _):
        s = s.replace(frame=s.frame + 1, ball_x=s.ball_x + 256)
        return s, jax.vmap(game.render_gray84)(s)

    hlo = jax.jit(lambda s: jax.lax.scan(body, s, None, length=8)).lower(states).compile().as_text()
    pictures = re.findall(r"= u8\[[0-9,]*84,84\]\S* fusion\(.*calls=%([\w.]+)", hlo)
    assert pictures, "no fusion writes the 84x84 picture"
    for name in pictures:
        header = hlo[hlo.index(f"%{name} ("):]
        shapes = re.findall(r": [a-z0-9]+\[([0-9,]*)\]", header[:header.index("{")])
        tables = [s for s in shapes if s in ("1,84", "84,84", f"{n},84,84")]
        assert not tables, f"{name} reads tables of shape {tables}"
