"""The enemies of the four rows: they move (crabs and clams rest from level 6), leave the screen and
respawn from the random byte, push Bailey along, and sway and flap for the picture."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.games.frostbite.logic.cartridge import lfsr_step
from jaxtari.games.frostbite.constants import (
    ENEMY_BOB, ENEMY_GONE, ENEMY_GONE_MASK, FISH_LIMIT, KIND_CLAM, KIND_CRAB, KIND_FISH, ROW_DIRECTIONS,
    ROW_ENEMY_LEFT, ROW_KIND, SCREEN_W, SPAWN_X_LEFT, SPAWN_X_RIGHT, TIMED_ENEMY_LEVEL_INDEX,
)
from jaxtari.games.frostbite.state import copies_for

REST_PERIOD = 0x40           # from level 6 clams rest one half of every 128 frames, crabs the other


# rule: spawning.fish, physics.hazards-push
def spawn(consts, s, lfsr):
    """Row bytes, start x and copies of new enemies (cartridge rule), one random byte per row (4,)."""
    li = s.level_index
    kind = jnp.minimum(lfsr & 7, jnp.minimum(li, 7))
    kind = jnp.where((s.fish_eaten >= FISH_LIMIT) & ((kind & ROW_KIND) == KIND_FISH), kind + 1, kind)
    b = ((kind | (s.row_byte & ROW_DIRECTIONS)) ^ (lfsr & ROW_ENEMY_LEFT)) & 0xFF
    ex = jnp.where(b & ROW_ENEMY_LEFT, SPAWN_X_LEFT, SPAWN_X_RIGHT)
    return b, ex, jnp.broadcast_to(copies_for(consts, li), (4,))


def move(game, s, go):
    """Enemies move at the enemy speed; one that leaves the screen respawns (game.spawn_enemy); an
    enemy pushing Bailey carries him with it (lost when pushed past the screen edge)."""
    kind = s.row_byte & ROW_KIND
    rest = (s.level_index >= TIMED_ENEMY_LEVEL_INDEX) & jnp.where(
        (s.fc & REST_PERIOD) == 0, kind == KIND_CLAM, kind == KIND_CRAB)
    moving = go & ~rest
    left = (s.row_byte & ROW_ENEMY_LEFT) != 0
    sp = s.speed[1]
    ex = jnp.where(moving, jnp.where(left, s.enemy_x - sp, s.enemy_x + sp) & 0xFF, s.enemy_x)
    gone = moving & ((ex & ENEMY_GONE_MASK) == ENEMY_GONE)
    # the cartridge handles rows 3..0 in turn, each respawn advancing the random byte:
    # row r draws the byte after (respawns in rows r..3) steps
    chain = [s.lfsr]
    for _ in range(4):
        chain.append(lfsr_step(chain[-1]))
    chain = jnp.stack(chain)
    n_upto = jnp.cumsum(gone[::-1].astype(jnp.int32))[::-1]       # respawns in rows r..3
    b, start_x, copies = game.spawn_enemy(s, chain[n_upto])
    row_byte = jnp.where(gone, b, s.row_byte)
    s = s.replace(enemy_x=jnp.where(gone, start_x, ex), lfsr=chain[n_upto[0]], row_byte=row_byte,
                  enemy_copies=jnp.where(gone, copies, s.enemy_copies))
    pr = jnp.clip(s.pushed_row, 0, 3)
    pushing = moving[pr] & (s.pushed_row >= 0)
    px = jnp.where((row_byte[pr] & ROW_ENEMY_LEFT) != 0, s.x - sp, s.x + sp) & 0xFF
    return s.replace(x=jnp.where(pushing, jnp.where(px >= SCREEN_W, 0, px), s.x))


def animate(s, go):
    """The sprite of each row for the picture: 2 frames (clams flap at half the rate); fish, crabs
    and clams sway down 0..4 lines."""
    kind = s.row_byte & ROW_KIND
    flap = jnp.where(kind == KIND_CLAM, 16, 8)
    glyph = kind * 2 + ((s.fc & flap) == 0).astype(jnp.int32)
    phase = (s.fc >> 3) & 31
    phase = jnp.where(phase >= 16, phase ^ 31, phase)
    bob = jnp.where(kind >= KIND_FISH, jnp.asarray(ENEMY_BOB, jnp.int32)[phase], 0)
    return s.replace(enemy_glyph=jnp.where(go, glyph, s.enemy_glyph),
                     enemy_bob=jnp.where(go, bob, s.enemy_bob))
