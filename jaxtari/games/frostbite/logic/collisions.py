"""What the picture of this frame shows, as the game reads it back: the hardware collision latches
of Bailey's sprite against the floe bands, the enemy bands and the bear (pixel by pixel), and the
values the kernel drew with."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.atari.screen import SCREEN_W
from jaxtari.games.frostbite import art
from jaxtari.games.frostbite.constants import LAST_ENEMY_LINE_X, PLAYER_SPRITE_TOP, PLAYER_W, ROW_ENEMY_LEFT
from jaxtari.games.frostbite.logic.geometry import bear_lit, enemy_lit, floe_lit, player_pixels
from jaxtari.games.frostbite.logic.kernel import FLOE_MISSILE_FIRST_LINE_X
from jaxtari.games.frostbite.logic.sprites import PLAYER_LINES

# per floe line, the screen x from which the floe's missile piece lights (late only on the first)
FLOE_MISSILE_FROM = tuple(FLOE_MISSILE_FIRST_LINE_X if k == 0 else 0 for k in range(art.FLOE_LINES))


def _first(hit):
    return jnp.where(jnp.any(hit), jnp.argmax(hit), -1).astype(jnp.int32)


def latch(s, parked_enemies=True):
    """``parked_enemies``: rows with no enemy on screen meet Bailey at x 0 (geometry.PARKED_X), as
    on ALE; off where enemies never come (the mod no_enemies)."""
    rows = jnp.arange(4)
    # Bailey's pixels lie on lines [y + 28, y + 47) (19 lines; sinking only hides the top). The
    # floe bands (7 lines) are 19 lines apart and the enemy bands (8 lines) 18, so that window
    # meets at most one band of each kind: only that band's pixels are tested.
    top = s.y + PLAYER_SPRITE_TOP
    bottom = top + PLAYER_LINES

    def band(tops, lines):
        tops = jnp.asarray(tops, jnp.int32)
        meets = (tops < bottom) & (tops + lines > top)
        return jnp.argmax(meets), jnp.any(meets), tops

    def bailey_on(lines_y):
        return player_pixels(s.anim, s.sink, s.facing, s.x, s.y, lines_y)

    # floes: 7 lines per row
    r, any_floe, ftops = band(art.FLOE_TOP_Y, art.FLOE_LINES)
    bits, px = bailey_on(ftops[r] + jnp.arange(art.FLOE_LINES))                       # (7, 8)
    fx = s.floe_x[r] + jnp.asarray(art.FLOE_LINE_SHIFT, jnp.int32)                     # (7,)
    lit = floe_lit(fx, s.floe_shape_drawn, jnp.broadcast_to(px, (art.FLOE_LINES, PLAYER_W)),
                   FLOE_MISSILE_FROM)
    on_floe = (rows == r) & any_floe & jnp.any(bits & lit)
    # enemies: 8 lines per row
    e, any_enemy, etops = band(art.ENEMY_TOP_Y, art.ENEMY_LINES)
    ebits, _ = bailey_on(etops[e] + jnp.arange(art.ENEMY_LINES))                      # (8, 8)
    line = jnp.arange(art.ENEMY_LINES)[None]                                            # (1, 8)
    one = lambda v: v[e][None]
    elit = enemy_lit(one(s.enemy_x), one(s.enemy_copies), one(s.enemy_glyph), one(s.enemy_bob),
                     one((s.row_byte & ROW_ENEMY_LEFT) != 0), line,
                     jnp.broadcast_to(px, (1, art.ENEMY_LINES, PLAYER_W)), parked_enemies)[0]
    # the cartridge reads the enemy collision early in the band's last line: of that line only
    # the pixels left of x = LAST_ENEMY_LINE_X have been drawn (measured: a crab's bottom row
    # under Bailey's sinking sprite at x = 125 does not count on ALE)
    counted = (line[0] < art.ENEMY_LINES - 1)[:, None] | ((px % SCREEN_W) < LAST_ENEMY_LINE_X)
    on_enemy = (rows == e) & any_enemy & jnp.any(ebits & elit & counted)
    # the bear: 16 lines from y = 58 (drawn, and colliding, on every level; seen from level 4)
    bbits, _ = bailey_on(art.BEAR_Y + jnp.arange(art.BEAR_H))                        # (16, 8)
    bear_touch = jnp.any(bbits & bear_lit(s, px))
    return s.replace(floe_row=_first(on_floe), enemy_row=_first(on_enemy), sky_lfsr=s.lfsr,
                     shown_score=s.score, shown_lives=s.lives, shown_blocks=s.igloo_built,
                     shown_shape=s.floe_shape_drawn, bear_hit=s.bear_hit | bear_touch)
