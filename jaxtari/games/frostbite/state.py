"""Frostbite's state (the cartridge's variables, their RAM byte beside each field), the game's
start and the cartridge's new-screen routine."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from jaxtari.env import pytree_dataclass
from jaxtari.games.frostbite.constants import (
    BEAR_MAX_X, COPIES_BY_LEVEL, HOLD_NEW_SCREEN, NO_BLOCKS, SHORE_Y, START_ENEMY_X, START_FLOE_X,
    START_ROW_BYTE, START_X, BROKEN_FLOES, WHOLE_FLOES, FrostbiteConstants, lookup,
)


@pytree_dataclass
class FrostbiteState:
    frame: jax.Array
    key: jax.Array
    fc: jax.Array            # ram[1] frame counter
    lfsr: jax.Array          # ram[2] random byte (also the aurora colours)
    sky_lfsr: jax.Array      # ram[2] as the picture of this frame used it (before the overscan)
    shown_score: jax.Array   # the score the picture shows (before the overscan's fish points)
    shown_lives: jax.Array   # the reserve count the picture shows (before a fish point's bonus Bailey)
    shown_blocks: jax.Array  # the igloo the picture shows (built from ram[77] in the last overscan)
    igloo_built: jax.Array   # ram[77] as the overscan built the igloo picture from it
    shown_shape: jax.Array   # the floe shape the picture shows
    speed: jax.Array         # ram[22..24] px this frame: floes, enemies/bear, Bailey in the air
    speed_frac: jax.Array    # ram[25..27]
    floe_shape: jax.Array    # ram[30] (drawn/collided with last frame's value: floe_shape_drawn)
    floe_shape_drawn: jax.Array
    floe_x: jax.Array        # ram[31..34]
    floe_white: jax.Array    # ram[43..46] == 12
    row_byte: jax.Array      # ram[17..20]: ROW_KIND, ROW_FLOES_LEFT, ROW_ENEMY_LEFT bits
    enemy_x: jax.Array       # ram[96..99] x of the first copy (byte)
    enemy_copies: jax.Array  # ram[92..95]
    enemy_glyph: jax.Array   # sprite (kind*2+anim) chosen by the last logic pass, per row
    enemy_bob: jax.Array
    fire_prev: jax.Array     # ram[47] bit 7 clear = button was down
    reverse: jax.Array       # ram[123] bit 7: fire pressed this frame (used next frame)
    score: jax.Array         # ram[72..74] BCD, here decimal
    lives: jax.Array         # ram[76]
    blocks: jax.Array        # ram[77], 255 stored as -1
    level_index: jax.Array   # ram[75]
    y: jax.Array             # ram[100]
    temperature: jax.Array   # ram[101] BCD, here decimal
    x: jax.Array             # ram[102]
    hold: jax.Array          # ram[103]
    bear_x: jax.Array        # ram[104]
    igloo_jump: jax.Array    # ram[105] bit 7
    jump: jax.Array          # ram[106]
    sink: jax.Array          # ram[107]
    facing: jax.Array        # ram[108]: FACE_LEFT (Bailey), BEAR_WALKS_RIGHT
    bear_hit: jax.Array      # ram[109] bit 7
    anim: jax.Array          # ram[110]
    bear_frame: jax.Array    # ram[111]
    frozen: jax.Array        # ram[112]
    flags: jax.Array         # ram[113]: F_SINK, F_TALLY, F_DEAD, F_FREEZE, F_LEVEL
    pushed_row: jax.Array    # ram[114], 255 stored as -1
    sound: jax.Array         # ram[116]
    white_hold: jax.Array    # ram[117]
    landed: jax.Array        # ram[118] bit 7
    fish_eaten: jax.Array    # ram[119]
    floe_row: jax.Array      # ram[57], 255 as -1
    enemy_row: jax.Array     # ram[56], 255 as -1
    game_over: jax.Array     # ram[70] != 0 after the last Bailey is lost
    attract_delay: jax.Array  # ram[70] after game over: ticks (every 8 frames) until the demo starts
    demo: jax.Array          # the cartridge's demo is running (only with ale_endless_game_over)


def copies_for(consts: FrostbiteConstants, level_index):
    """Which copies of each row's enemy a level brings (ram[92+i]), none without enemies."""
    copies = jnp.asarray(COPIES_BY_LEVEL, jnp.int32)[jnp.where(level_index == 3, 0, level_index & 3)]
    return copies if consts.enemies else jnp.int32(0)


def initial_state(consts: FrostbiteConstants, key) -> FrostbiteState:
    """The state ALE's reset_game leaves (framecounter, random byte, speeds measured per mode)."""
    mode = consts.mode
    key, sub = jax.random.split(key)
    lfsr = jnp.int32(lookup(consts.reset_lfsr, mode))
    if consts.randomize_start:
        lfsr = jax.random.randint(sub, (), 1, 256, jnp.int32)
    i32 = lambda v: jnp.asarray(v, jnp.int32)
    no, four = jnp.bool_(False), lambda: jnp.zeros(4, jnp.int32)
    s = FrostbiteState(
        frame=i32(0), key=key, fc=i32(lookup(consts.reset_fc, mode)), lfsr=lfsr, sky_lfsr=lfsr,
        shown_score=i32(0), shown_lives=i32(consts.start_lives), shown_blocks=i32(NO_BLOCKS), igloo_built=i32(NO_BLOCKS), shown_shape=i32(WHOLE_FLOES),
        speed=i32(lookup(consts.reset_speed, mode)), speed_frac=i32(lookup(consts.reset_frac, mode)),
        floe_shape=i32(0), floe_shape_drawn=i32(0), floe_x=i32(START_FLOE_X),
        floe_white=jnp.ones(4, bool), row_byte=i32(START_ROW_BYTE), enemy_x=i32(START_ENEMY_X),
        enemy_copies=four(), enemy_glyph=four(), enemy_bob=four(), fire_prev=no, reverse=no,
        score=i32(0), lives=i32(consts.start_lives), blocks=i32(NO_BLOCKS),
        level_index=i32((mode >> 1) << 2), y=i32(SHORE_Y), temperature=i32(consts.start_temperature),
        x=i32(START_X), hold=i32(HOLD_NEW_SCREEN), bear_x=i32(BEAR_MAX_X), igloo_jump=no, jump=i32(0),
        sink=i32(0), facing=i32(0), bear_hit=no, anim=i32(0), bear_frame=i32(0), frozen=i32(0),
        flags=i32(0), pushed_row=i32(-1), sound=i32(0), white_hold=i32(0), landed=no,
        fish_eaten=i32(0), floe_row=i32(-1), enemy_row=i32(-1), game_over=no,
        attract_delay=i32(0), demo=no,
    )
    s = new_screen(consts, s, jnp.bool_(True))
    return s.replace(floe_shape_drawn=s.floe_shape)


def new_screen(consts: FrostbiteConstants, s: FrostbiteState, m) -> FrostbiteState:
    """The cartridge's new-screen routine (after a lost life or a finished level), where ``m``."""
    li = s.level_index
    where = lambda new, old: jnp.where(m, new, old)
    return s.replace(
        floe_white=where(jnp.ones(4, bool), s.floe_white),
        floe_shape=where(jnp.where(li % 2 == 0, WHOLE_FLOES, BROKEN_FLOES), s.floe_shape),
        floe_x=where(jnp.asarray(START_FLOE_X, jnp.int32), s.floe_x),
        row_byte=where(jnp.asarray(START_ROW_BYTE, jnp.int32), s.row_byte),
        enemy_x=where(jnp.asarray(START_ENEMY_X, jnp.int32), s.enemy_x),
        enemy_copies=where(jnp.broadcast_to(copies_for(consts, li), (4,)), s.enemy_copies),
        y=where(SHORE_Y, s.y), temperature=where(consts.start_temperature, s.temperature),
        x=where(START_X, s.x), hold=where(HOLD_NEW_SCREEN, s.hold), bear_x=where(BEAR_MAX_X, s.bear_x),
        igloo_jump=s.igloo_jump & ~m, jump=where(0, s.jump), sink=where(0, s.sink),
        facing=where(0, s.facing), bear_hit=s.bear_hit & ~m, anim=where(0, s.anim),
        bear_frame=where(0, s.bear_frame), frozen=where(0, s.frozen), flags=where(0, s.flags),
        pushed_row=where(-1, s.pushed_row),
    )
