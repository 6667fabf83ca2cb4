"""Frostbite (Activision, 1983) in pure JAX, frame for frame with ALE's emulation of the cartridge.

The state mirrors the game's own variables (their RAM byte is named next to each field), and one
``_step`` runs the cartridge's frame in its order: the game logic of the vertical blank (which reads
the joystick), then the collisions the picture produces (Bailey's sprite against the floe and
enemy bands, pixel by pixel, and against the bear), then the overscan (score trickle of a fish,
speed accumulators, fire-button edge, the random generator). Every rule below was measured on
ALE 0.12.1 (frames and RAM, repeat_action_probability=0), with setRAM/cloneState scripted starts
for the later levels; the order of the logic and its constants were read from the public
Omegamatrix disassembly of the cartridge and each one checked against the emulator's RAM (the
tests in tests/games/test_frostbite.py replay the same inputs on ALE and here). The manual
(AtariAge) gives the scoring table (10 x level per block, the degree bonus, 200 per fish), 45
degrees at the start, 4 Baileys, a bonus one every 5,000 points up to 9, the bear from level 4.

Where it knowingly differs from ALE (everything else is byte-exact in the tests):
- the episode ends when the last Bailey is lost to the cold; ALE only ends it when the last Bailey
  sinks (ram[76] == 0 and ram[113] bit 7: drowned, or chased off the shore by the bear). Frozen,
  the last Bailey leaves the cartridge in its attract mode: ram[70] counts 255 ticks of 8 frames
  (about 2,030 frames), then the demo plays for ever with ram[76] = 3, and ALE never signals the
  end: a v5 episode runs on to the 108,000-frame cap (measured: reward 0 throughout, score kept,
  lives() 1 and, once the demo starts, 4). Consequence: on ALE such an episode spends up to
  27,000 agent steps of a training budget on nothing. Here it ends at the freeze, unless the
  constant ``ale_endless_game_over`` is set (mod ``ale_endless_game_over``), which reproduces
  ALE's signals (no end, reward 0, score, lives) for like-for-like comparisons; the demo's
  picture itself is not drawn (the screen stays on the game over);
- two-player games are not modelled (ALE's modes 0 and 2 are one-player);
- the enemy band's last line counts for collisions only left of x = LAST_ENEMY_LINE_X (from the
  cycle the cartridge reads the latch; matches ALE on every frame tested);
- the picture matches ALE's frames pixel for pixel on the frames tested, including the lines where
  the kernel changes Bailey's graphic or colour mid-line (frostbite_art.LATE_GRAPHIC_X and its
  neighbours); a few single pixels of Bailey in mid-air between a floe band and an enemy band may
  still differ (seen once in 20,000 frames of random play on levels 1 to 8).

Units: x, y are ALE screen pixels; ``y`` is ram[100] (Bailey's top row on screen is y + 29);
rows are numbered 0 (bottom) .. 3 (top) as in ram[57]; ``level_index`` is ram[75] (0 = level 1).
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.env import Game, ObjectGroup, joystick, pytree_dataclass
from jaxtari.games import frostbite_art as art
from jaxtari.games.frostbite_draw import draw_frame
from jaxtari.games.frostbite_geometry import (  # noqa: F401  (re-exported for the draw code)
    BEAR_BITS, FLOE_PIECE_START, FLOE_PIECE_W, SCREEN_WINDOW, bear_left, enemy_lit, enemy_screen_x,
    PLAYER_LINES, floe_lit, player_pixels, window_mask,
)

# ---- numbers of the cartridge (each checked against ALE RAM) ------------------------------------
# measured: each number read off the disassembly and checked against ALE RAM (see the docstring)
SHORE_Y = 27                 # ram[100] standing on the shore; rows are 26 px apart below it  rule: physics.shore-hideout
ROW_Y = (131, 105, 79, 53)   # ram[100] standing on row 0..3
LOWEST_JUMP_Y = 112          # no downward jump from y >= 112 (the bottom row)
IGLOO_ENTER_Y = 6            # a jump that takes y below 6 enters the igloo
DOOR_X = (120, 127)          # UP on the shore starts the igloo jump only for x in this range  rule: progression.igloo-door
IGLOO_JUMP_X = 123           # x is held here during the igloo jump
PLAYER_MIN_X_SHORE, PLAYER_MIN_X_ROW, PLAYER_MAX_X = 17, 10, 150  # joystick limits
CARRY_MIN_X, CARRY_MAX_X = 9, 151  # a floe carries Bailey at most to these x
SINK_LINES = 18              # sinking and freezing advance one line per 5 frames, 18 lines
WHITE_HOLD = 16              # frames after a landing before all-blue rows can turn white again
BEAR_MIN_X, BEAR_MAX_X = 16, 140
BEAR_LEVEL_INDEX = 3         # level 4 (manual: "Polar Grizzlies come out ... at level 4")  rule: spawning.grizzly-from-level-4
TIMED_ENEMY_LEVEL_INDEX = 5  # from level 6 clams and crabs rest every other 64 frames
NO_BLOCKS = -1               # ram[77] = 255
FULL_IGLOO = 15              # ram[77] = 15: 16 blocks, the door is open  rule: progression.igloo-door
MAX_LIVES = 9                # ram[76] never grows past 9 (bonus Baileys)  rule: lives.bonus-every-5000
FISH_LIMIT = 12              # after 12 fish in a level, would-be fish spawn as crabs

# Jump: one step on every even frame; up from 31 to 16 (15 steps), down from 15 to 0 (15 steps);
# the y change of each step (step index = jump counter - 1).
JUMP_DY = (6, 5, 5, 5, 4, 3, 2, 1, 0, 0, 0, 0, -1, -2, -2,
           3, 2, 2, 1, 0, 0, 0, 0, -1, -2, -3, -4, -5, -5, -5, -6)
JUMP_UP_START, JUMP_DOWN_START, JUMP_UP_END = 31, 15, 16

# Enemies: x of the first copy is a byte (ram[96+i]) that wraps at 256; copies 16 px apart; which of
# the 3 copies exist (ram[92+i] bits 2,1,0 = copy at +0,+16,+32) by level, and which are on screen.
COPIES_BY_LEVEL = (1, 5, 5, 7)   # level_index & 3 (level_index 3 uses entry 0)
ENEMY_GONE = 0xC8            # (x & 0xF8) == 0xC8: off screen, a new enemy spawns
SPAWN_X_LEFT, SPAWN_X_RIGHT = 0xA8, 0xD8
START_ENEMY_X = (0xA0, 0xC0, 0xB0, 0xD0)
START_ROW_BYTE = (0x10, 0x50, 0x10, 0x50)  # bit 6: floes move left; bit 7: enemy moves left
START_FLOE_X = (16, 80, 16, 80)
FISH_EATEN_MASK = (3, 5, 6, 3, 3, 1, 5, 4, 6, 6, 4, 0xB0, 0x07, 0xA5, 0xF8, 0x65)
ENEMY_BOB = (4, 3, 2, 1, 0, 0, 0, 1, 2, 3, 4, 3, 2, 1, 0, 0)  # fish/crab/clam sway down, by (fc>>3)
KIND_GOOSE, KIND_FISH, KIND_CRAB, KIND_CLAM = 0, 1, 2, 3  # rule: spawning.fish, physics.hazards-push
LAST_ENEMY_LINE_X = 24       # collision read at CPU cycle ~31 of the line: screen x ~ 3*31 - 68

# Sound timer ram[116] doubles as the fish score trickle: 0x5B counts down, +10 on 20 of its 26 frames.
FISH_TRICKLE = 0x5B
SOUND_CHIRP = 0x8F
F_SINK, F_TALLY, F_DEAD, F_FREEZE, F_LEVEL = 0x80, 0x40, 0x20, 0x10, 0x08  # ram[113] flags

# Freeze timers ram[103] (frames during which the game logic is paused).
HOLD_NEW_SCREEN, HOLD_SINK_STEP, HOLD_AFTER_SINK = 64, 4, 0x70
HOLD_BLOCK, HOLD_DEGREE, HOLD_LEVEL_END, HOLD_FISH = 6, 2, 0x30, 16
HOLD_IGLOO = 0x40
TEMPERATURE_PERIOD = 64      # one degree every 64 frames (framecounter & 63 == 0)  rule: timing.temperature-falls
ATTRACT_DELAY = 255          # ram[70] at game over; the demo starts when it has counted down
DEMO_LIVES = 3               # ram[76] while the demo runs


@dataclasses.dataclass(frozen=True)
class FrostbiteConstants:
    mode: int = 0                       # ALE mode 0 (level 1) or 2 (advanced: level 5)  rule: progression.start-level
    start_lives: int = 3                # ram[76] (ALE lives() = ram[76] + 1)  rule: lives.reserves-at-start
    start_temperature: int = 45  # rule: timing.temperature-start
    bonus_life_every: int = 5000        # checked as the hundreds byte becoming 00 or 50  rule: lives.bonus-every-5000
    max_lives: int = MAX_LIVES  # rule: lives.bonus-every-5000
    floe_speed_scale: int = 16          # floe speeds are in 1/16 px per frame; a mod may slow them  rule: physics.floes-drift
    enemies: bool = True                # False: enemies never spawn (mod no_enemies)  rule: spawning.fish, physics.hazards-push
    bear: bool = True  # rule: spawning.grizzly-from-level-4
    # measured: ALE RAM after reset_game
    # ALE's reset leaves the framecounter (ram[1]), random byte (ram[2]) and speed fractions
    # (ram[25..27]) at these values (measured after reset_game, modes 0 and 2).
    reset_fc: tuple = ((0, 70), (2, 74))
    reset_lfsr: tuple = ((0, 204), (2, 101))  # measured: ALE RAM after reset_game
    reset_frac: tuple = ((0, (14, 5, 12)), (2, (6, 1, 12)))  # measured: ALE RAM after reset_game
    reset_speed: tuple = ((0, (0, 0, 0)), (2, (0, 1, 0)))  # measured: ALE RAM after reset_game
    randomize_start: bool = False       # True: random byte from the key (ALE is deterministic)  measured: ALE's start is deterministic; True is an option of this port
    # True: ALE's end of game (mod ale_endless_game_over). A last Bailey lost to the cold does not
    # end the episode: the console runs on into its demo, rewards 0, lives() 1 and then, once the
    # demo starts, 4 (see the module docstring).
    ale_endless_game_over: bool = False  # measured: ALE runs on after a frozen last Bailey; False is this port's default end
    monochrome: bool = False            # draw sprites as solid boxes (mod monochrome)  measured: drawing option of the mod monochrome, off as on ALE


@pytree_dataclass
class FrostbiteState:
    frame: jax.Array
    key: jax.Array
    fc: jax.Array            # ram[1] frame counter
    lfsr: jax.Array          # ram[2] random byte (also the aurora colours)
    sky_lfsr: jax.Array      # ram[2] as the picture of this frame used it (before the overscan)
    shown_score: jax.Array   # the score the picture shows (before the overscan's fish points)
    shown_blocks: jax.Array  # the igloo the picture shows (built from ram[77] in the last overscan)
    igloo_built: jax.Array   # ram[77] as the overscan built the igloo picture from it
    shown_shape: jax.Array   # the floe shape the picture shows
    speed: jax.Array         # ram[22..24] px this frame: floes, enemies/bear, Bailey in the air
    speed_frac: jax.Array    # ram[25..27]
    floe_shape: jax.Array    # ram[30] (drawn/collided with last frame's value: floe_shape_drawn)
    floe_shape_drawn: jax.Array
    floe_x: jax.Array        # ram[31..34]
    floe_white: jax.Array    # ram[43..46] == 12
    row_byte: jax.Array      # ram[17..20]: bits 0-1 enemy kind, 6 floe dir (left), 7 enemy dir (left)
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
    facing: jax.Array        # ram[108]: bit 3 Bailey faces left, bit 4 bear walks right
    bear_hit: jax.Array      # ram[109] bit 7
    anim: jax.Array          # ram[110]
    bear_frame: jax.Array    # ram[111]
    frozen: jax.Array        # ram[112]
    flags: jax.Array         # ram[113]
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


def _lookup(pairs, mode):
    table = dict(pairs)
    if mode not in table:
        raise ValueError(f"frostbite: mode {mode!r} is not an ALE mode of Frostbite; use 0 or 2")
    return table[mode]


def _w(mask, new, old):
    return jnp.where(mask, new, old)


def lfsr_step(v, times: int = 3):
    """The cartridge's random generator: shift left, new bit = bit7 xor bit4 (3 shifts per call)."""
    for _ in range(times):
        bit = ((v >> 7) ^ (v >> 4)) & 1
        v = ((v << 1) | bit) & 0xFF
    return v


def speed_bases(level_index):
    """Per-frame speed numerators (1/16 px) of floes, enemies and Bailey in the air, by level."""
    v = level_index + 4
    # above level 11 the speeds fall back by 3 per 7 levels (cartridge loop, checked on RAM)
    over = v - 15
    n_sub = jnp.where(over >= 0, over // 7 + 1, 0)
    b = v - 3 * n_sub
    return jnp.stack([b >> 1, b - 1, b]) & 0xFF


# rule: lives.bonus-every-5000
def add_points(score, lives, points, max_lives):
    """Add points the cartridge's way: a bonus Bailey when a carry out of the tens byte leaves the
    hundreds byte at 00 or 50 (every 5,000 points), up to max_lives."""
    low = score % 100
    new = (score + points) % 1_000_000
    carry = (low + points % 100) >= 100
    hundreds = (new // 100) % 100
    bonus = carry & ((hundreds == 0) | (hundreds == 50)) & (lives < max_lives)
    return new, lives + bonus.astype(jnp.int32)


class Frostbite(Game):
    name = "frostbite"
    minimal_actions = tuple(range(18))   # ALE: getMinimalActionSet() is all 18 actions  rule: action.minimal-set
    Constants = FrostbiteConstants
    mechanics = ("spawn_enemy", "floe_speed")

    # ---- reset / new screen ---------------------------------------------------------------------
    def _reset(self, key):
        c = self.consts
        mode = c.mode
        level_index = (mode >> 1) << 2
        lfsr = _lookup(c.reset_lfsr, mode)
        key, sub = jax.random.split(key)
        lfsr = jnp.int32(lfsr)
        if c.randomize_start:
            lfsr = jax.random.randint(sub, (), 1, 256, jnp.int32)
        i32 = lambda v: jnp.asarray(v, jnp.int32)
        s = FrostbiteState(
            frame=i32(0), key=key, fc=i32(_lookup(c.reset_fc, mode)), lfsr=lfsr, sky_lfsr=lfsr, shown_score=i32(0), shown_blocks=i32(NO_BLOCKS),
            igloo_built=i32(NO_BLOCKS), shown_shape=i32(8),
            speed=i32(_lookup(c.reset_speed, mode)), speed_frac=i32(_lookup(c.reset_frac, mode)),
            floe_shape=i32(0), floe_shape_drawn=i32(0), floe_x=i32(START_FLOE_X),
            floe_white=jnp.ones(4, bool), row_byte=i32(START_ROW_BYTE), enemy_x=i32(START_ENEMY_X),
            enemy_copies=jnp.zeros(4, jnp.int32), enemy_glyph=jnp.zeros(4, jnp.int32),
            enemy_bob=jnp.zeros(4, jnp.int32), fire_prev=jnp.bool_(False), reverse=jnp.bool_(False),
            score=i32(0), lives=i32(c.start_lives), blocks=i32(NO_BLOCKS), level_index=i32(level_index),
            y=i32(SHORE_Y), temperature=i32(c.start_temperature), x=i32(64), hold=i32(HOLD_NEW_SCREEN),
            bear_x=i32(BEAR_MAX_X), igloo_jump=jnp.bool_(False), jump=i32(0), sink=i32(0), facing=i32(0),
            bear_hit=jnp.bool_(False), anim=i32(0), bear_frame=i32(0), frozen=i32(0), flags=i32(0),
            pushed_row=i32(-1), sound=i32(0), white_hold=i32(0), landed=jnp.bool_(False),
            fish_eaten=i32(0), floe_row=i32(-1), enemy_row=i32(-1), game_over=jnp.bool_(False),
            attract_delay=i32(0), demo=jnp.bool_(False),
        )
        s = self.new_screen(s, jnp.bool_(True))
        return s.replace(floe_shape_drawn=s.floe_shape)

    def new_screen(self, s, m):
        """The cartridge's new-screen routine (after a lost life or a finished level), where m."""
        c = self.consts
        li = s.level_index
        copies = jnp.asarray(COPIES_BY_LEVEL, jnp.int32)[jnp.where(li == 3, 0, li & 3)]
        copies = copies if c.enemies else jnp.int32(0)
        i32 = lambda v: jnp.asarray(v, jnp.int32)
        return s.replace(
            floe_white=_w(m, jnp.ones(4, bool), s.floe_white),
            floe_shape=_w(m, jnp.where(li % 2 == 0, 8, 0), s.floe_shape),
            floe_x=_w(m, i32(START_FLOE_X), s.floe_x),
            row_byte=_w(m, i32(START_ROW_BYTE), s.row_byte),
            enemy_x=_w(m, i32(START_ENEMY_X), s.enemy_x),
            enemy_copies=_w(m, jnp.broadcast_to(copies, (4,)), s.enemy_copies),
            y=_w(m, SHORE_Y, s.y), temperature=_w(m, c.start_temperature, s.temperature),
            x=_w(m, 64, s.x), hold=_w(m, HOLD_NEW_SCREEN, s.hold), bear_x=_w(m, BEAR_MAX_X, s.bear_x),
            igloo_jump=s.igloo_jump & ~m, jump=_w(m, 0, s.jump), sink=_w(m, 0, s.sink),
            facing=_w(m, 0, s.facing), bear_hit=s.bear_hit & ~m, anim=_w(m, 0, s.anim),
            bear_frame=_w(m, 0, s.bear_frame), frozen=_w(m, 0, s.frozen), flags=_w(m, 0, s.flags),
            pushed_row=_w(m, -1, s.pushed_row),
        )

    # ---- swappable mechanics ------------------------------------------------------------------------
    # rule: physics.floes-drift, physics.steer-in-air
    def floe_speed(self, numerators):
        """Speed numerators (1/16 px per frame: floes, enemies, Bailey in the air) -> what the
        accumulators add each frame; the floe entry scaled by floe_speed_scale/16."""
        return numerators.at[0].set(numerators[0] * self.consts.floe_speed_scale // 16)

    # rule: spawning.fish, physics.hazards-push
    def spawn_enemy(self, s, lfsr):
        """Row bytes and start x of new enemies (cartridge rule), one random byte per row (4,)."""
        li = s.level_index
        t = jnp.minimum(lfsr & 7, jnp.minimum(li, 7))
        t = jnp.where((s.fish_eaten >= FISH_LIMIT) & ((t & 3) == KIND_FISH), t + 1, t)
        b = ((t | (s.row_byte & 0xC0)) ^ (lfsr & 0x80)) & 0xFF
        ex = jnp.where(b & 0x80, SPAWN_X_LEFT, SPAWN_X_RIGHT)
        copies = jnp.asarray(COPIES_BY_LEVEL, jnp.int32)[jnp.where(li == 3, 0, li & 3)]
        copies = copies if self.consts.enemies else jnp.int32(0)
        return b, ex, jnp.broadcast_to(copies, (4,))

    # ---- one frame ------------------------------------------------------------------------------------
    def _step(self, state, ale_action):
        s = state
        c = self.consts
        joy = joystick(ale_action)
        score0 = s.score
        fc = (s.fc + 1) & 0xFF
        s = s.replace(fc=fc)
        li = s.level_index
        pts = jnp.minimum(li + 1, 9) * 10            # points per block / degree, level 1..9  rule: scoring.ice-block, scoring.degree-bonus, scoring.constant-after-9, scoring.igloo-entry

        # --- logic pause (ram[103]) and the game-over state --------------------------------------
        s = self._attract_countdown(s)
        paused = s.hold != 0
        s = s.replace(hold=_w(paused, s.hold - 1, s.hold))
        go = ~paused & ~s.game_over

        s = s.replace(flags=_w(go & (s.flags == 0) & (s.x == 0), F_SINK, s.flags))
        s = s.replace(white_hold=_w(go & (s.white_hold > 0), s.white_hold - 1, s.white_hold))

        # --- flag states: sinking, igloo tally, lost life, freezing, level done --------------------
        f = s.flags
        sinking = go & ((f & F_SINK) != 0)
        tally = go & ~sinking & ((f & F_TALLY) != 0)
        dead = go & ~sinking & ~tally & ((f & F_DEAD) != 0)
        freezing = go & ~sinking & ~tally & ~dead & ((f & F_FREEZE) != 0)
        done = go & ~sinking & ~tally & ~dead & ~freezing & ((f & F_LEVEL) != 0)
        sink_anim = 4 + ((fc & 8) == 0).astype(jnp.int32)

        sink_more = sinking & (s.sink < SINK_LINES)
        sink_end = sinking & ~sink_more
        t_block = tally & (s.blocks >= 0)  # rule: scoring.igloo-entry
        t_end = tally & ~t_block & (s.temperature == 0)
        t_degree = tally & ~t_block & ~t_end  # rule: scoring.degree-bonus
        frz_end = freezing & (s.frozen + 1 == SINK_LINES)
        score, lives = add_points(s.score, s.lives, pts, c.max_lives)
        add_tally = t_block | t_degree
        over = dead & (s.lives == 0)
        s = s.replace(
            anim=_w(sink_more | freezing, sink_anim, s.anim),
            sink=_w(sink_more, s.sink + 1, s.sink),
            frozen=_w(freezing, s.frozen + 1, s.frozen),
            blocks=_w(t_block, s.blocks - 1, s.blocks),
            temperature=_w(t_degree, s.temperature - 1, s.temperature),
            fish_eaten=_w(t_end, 0, s.fish_eaten),
            score=_w(add_tally, score, s.score), lives=_w(add_tally, lives, s.lives),
            hold=jnp.select([sink_more | (freezing & ~frz_end), sink_end | frz_end, t_block, t_degree, t_end],
                            [HOLD_SINK_STEP, HOLD_AFTER_SINK, HOLD_BLOCK, HOLD_DEGREE, HOLD_LEVEL_END], s.hold),
            flags=jnp.select([sink_end | frz_end, t_end, over], [F_DEAD, F_LEVEL, 0], s.flags),
            game_over=s.game_over | over,
            attract_delay=jnp.where(over, ATTRACT_DELAY, s.attract_delay),
        )
        s = s.replace(lives=_w(dead & ~over, s.lives - 1, s.lives),  # rule: lives.ways-to-lose
                      level_index=_w(done, s.level_index + 1, s.level_index))  # rule: progression.shifts
        s = self.new_screen(s, (dead & ~over) | done)
        go = go & ~(sinking | tally | dead | freezing | done)

        # --- the bear drives Bailey off the shore (level 4 on) ---------------------------------------  rule: spawning.grizzly-from-level-4, lives.ways-to-lose
        chase = go & s.bear_hit & (s.jump == 0) & (li >= BEAR_LEVEL_INDEX)
        bf = fc & 3
        s = s.replace(
            facing=_w(chase, 8, s.facing), bear_frame=_w(chase, bf, s.bear_frame),
            bear_x=_w(chase & (bf != 0) & (s.bear_x >= BEAR_MIN_X), s.bear_x - 1, s.bear_x),
            anim=_w(chase, (fc >> 1) & 3, s.anim), x=_w(chase, (s.x - 1) & 0xFF, s.x))
        go = go & ~chase

        # --- floes break up and rejoin every 16 frames on levels 6, 8, ... ------------------------------
        breathe = go & (li % 2 == 1) & (li >= 5) & ((fc & 15) == 0)
        s = s.replace(floe_shape=_w(breathe, (s.floe_shape - 1) % 16, s.floe_shape))

        # --- enemies move, leave and respawn; an enemy pushing Bailey carries him ----------------------
        s = self._enemies(s, go)

        # --- Bailey: landing, fire, enemies, floe carry, jumps -----------------------------------------
        s = self._bailey(s, go, joy, pts)

        # --- what the picture shows: collisions of this frame (used by the next logic pass) -----------
        s = self._collisions(s)

        # --- overscan ------------------------------------------------------------------------------------
        s = self._overscan(s, joy)
        reward = s.score - score0
        return s.replace(frame=s.frame + 1), reward

    def _attract_countdown(self, s):
        """After game over the cartridge counts ram[70] down every 8 frames and then starts its
        demo (it never ends the game for ALE: the demo's Baileys are ram[76] = 3)."""
        tick = s.game_over & ~s.demo & ((s.fc & 7) == 0) & (s.attract_delay > 0)
        delay = jnp.where(tick, s.attract_delay - 1, s.attract_delay)
        return s.replace(attract_delay=delay, demo=s.demo | (tick & (delay == 0)))

    def _enemies(self, s, go):
        li = s.level_index
        fc = s.fc
        kind = s.row_byte & 3
        rest = (li >= TIMED_ENEMY_LEVEL_INDEX) & jnp.where(
            (fc & 0x40) == 0, kind == KIND_CLAM, kind == KIND_CRAB)
        move = go & ~rest
        left = (s.row_byte & 0x80) != 0
        sp = s.speed[1]
        ex = _w(move, jnp.where(left, s.enemy_x - sp, s.enemy_x + sp) & 0xFF, s.enemy_x)
        gone = move & ((ex & 0xF8) == ENEMY_GONE)
        # the cartridge handles rows 3..0 in turn, each respawn advancing the random byte:
        # row r draws the byte after (respawns in rows r..3) steps
        chain = [s.lfsr]
        for _ in range(4):
            chain.append(lfsr_step(chain[-1]))
        chain = jnp.stack(chain)
        n_upto = jnp.cumsum(gone[::-1].astype(jnp.int32))[::-1]       # respawns in rows r..3
        b, start_x, cp = self.spawn_enemy(s, chain[n_upto])
        lfsr = chain[n_upto[0]]
        row_byte = jnp.where(gone, b, s.row_byte)
        ex = jnp.where(gone, start_x, ex)
        copies = jnp.where(gone, cp, s.enemy_copies)
        # a pushing enemy moves Bailey with it (lost when pushed past the screen edge)
        pr = jnp.clip(s.pushed_row, 0, 3)
        push = move[pr] & (s.pushed_row >= 0)
        pleft = (row_byte[pr] & 0x80) != 0
        px = jnp.where(pleft, s.x - sp, s.x + sp) & 0xFF
        px = jnp.where(px >= 160, 0, px)
        # sprite of each row for the picture (2 frames; fish, crabs and clams sway down 0..4 lines)
        kind = row_byte & 3
        anim_mask = jnp.where(kind == KIND_CLAM, 16, 8)
        glyph = kind * 2 + ((fc & anim_mask) == 0).astype(jnp.int32)
        bi = (fc >> 3) & 31
        bi = jnp.where(bi >= 16, bi ^ 31, bi)
        bob = jnp.where(kind >= KIND_FISH, jnp.asarray(ENEMY_BOB, jnp.int32)[bi], 0)
        return s.replace(enemy_x=ex, lfsr=lfsr, row_byte=row_byte, enemy_copies=copies,
                         x=_w(push, px, s.x), enemy_glyph=_w(go, glyph, s.enemy_glyph),
                         enemy_bob=_w(go, bob, s.enemy_bob))

    def _bailey(self, s, go, joy, pts):
        c = self.consts
        fc = s.fc
        jumping = go & (s.jump != 0)
        standing = go & (s.jump == 0)
        on_shore = s.y == SHORE_Y
        no_floe = s.floe_row < 0
        drown = standing & no_floe & ~on_shore  # rule: lives.ways-to-lose
        s = s.replace(flags=_w(drown, F_SINK, s.flags))
        on_floe = standing & ~no_floe
        X = jnp.clip(s.floe_row, 0, 3)
        rows = jnp.arange(4)

        # landing on a white floe: it turns blue, 10 x level points, one more igloo block  rule: progression.block-per-white-row, scoring.ice-block, scoring.blue-row-nothing
        touch = on_floe & s.landed & s.floe_white[X]
        score, lives = add_points(s.score, s.lives, pts, c.max_lives)
        add_block = touch & (s.blocks != FULL_IGLOO)
        s = s.replace(
            sound=_w(touch & (s.sound == 0), SOUND_CHIRP, s.sound),
            floe_white=s.floe_white & ~(touch & (rows == X)),
            white_hold=_w(touch, WHITE_HOLD, s.white_hold), landed=s.landed & ~touch,
            score=_w(touch, score, s.score), lives=_w(touch, lives, s.lives),
            blocks=_w(add_block, s.blocks + 1, s.blocks))
        # FIRE (pressed last frame) reverses the floe row, costing a block unless the igloo is done  rule: action.fire-reverses-floe, action.fire-keeps-complete-igloo
        rev = (on_floe & ~add_block & (s.blocks >= 0) & (s.pushed_row < 0) & s.reverse)
        s = s.replace(
            row_byte=jnp.where(rev & (rows == X), s.row_byte ^ 0x40, s.row_byte),
            blocks=_w(rev & (s.blocks != FULL_IGLOO), s.blocks - 1, s.blocks),
            sound=_w(rev, SOUND_CHIRP, s.sound))
        # touching an enemy: a fish is eaten (200 points trickle in), anything else pushes  rule: scoring.fish, physics.hazards-push
        hit = on_floe & (s.enemy_row >= 0)  # rule: physics.safe-in-air
        E = jnp.clip(s.enemy_row, 0, 3)
        fish = hit & ((s.row_byte[E] & 3) == KIND_FISH)
        push = hit & ~fish
        copy = ((s.x + 8 - s.enemy_x[E]) & 0xFF) >> 4
        eaten = jnp.asarray(FISH_EATEN_MASK, jnp.int32)[copy]
        rb = s.row_byte[E]
        pushed_byte = (rb & 0x8F) | ((~rb >> 1) & 0x40)
        s = s.replace(
            fish_eaten=_w(fish, s.fish_eaten + 1, s.fish_eaten),
            enemy_copies=jnp.where(fish & (rows == E), s.enemy_copies & eaten, s.enemy_copies),
            sound=_w(fish, FISH_TRICKLE, s.sound), hold=_w(fish, HOLD_FISH, s.hold),
            pushed_row=_w(push, E, s.pushed_row),
            row_byte=jnp.where(push & (rows == E), pushed_byte, s.row_byte))
        # the floe under Bailey carries him (not while an enemy pushes him)
        R = jnp.where(s.enemy_row >= 0, E, X)
        free = s.pushed_row < 0
        carry = on_floe & free
        fl = (s.row_byte[R] & 0x40) != 0
        cx = jnp.where(fl, s.x - s.speed[0], s.x + s.speed[0]) & 0xFF
        cx = jnp.where(cx >= 0xF0, cx - 0x60, cx)
        cx = jnp.where(cx >= 0xA0, cx - 0xA0, cx)
        s = s.replace(x=_w(carry, jnp.clip(cx, CARRY_MIN_X, CARRY_MAX_X), s.x))

        # joystick up/down starts a jump (shore: only UP at the door of a complete igloo)  rule: action.jump-up-down, progression.igloo-door
        may_jump = (standing & no_floe & on_shore) | carry
        door = (((127 - s.x) & 0xFF) < 8) & (s.blocks == FULL_IGLOO)
        up = may_jump & joy.up
        down = may_jump & ~joy.up & joy.down
        start_up = up & (~on_shore | door)
        start_down = down & (s.y < LOWEST_JUMP_Y)
        s = s.replace(igloo_jump=s.igloo_jump | (up & on_shore & door),
                      jump=jnp.select([start_up, start_down], [JUMP_UP_START, JUMP_DOWN_START], s.jump))
        step = (jumping | start_up | start_down) & ((fc & 1) == 0)
        idx = jnp.clip(s.jump - 1, 0, 30)
        nj = jnp.where(idx == JUMP_UP_END, 0, idx)
        s = s.replace(y=_w(step, (s.y + jnp.asarray(JUMP_DY, jnp.int32)[idx]) & 0xFF, s.y),
                      jump=_w(step, nj, s.jump))
        landed_now = step & (nj == 0)
        s = s.replace(bear_hit=s.bear_hit & ~landed_now, landed=s.landed | landed_now)

        live = go & ~drown   # the rest of the frame's logic (drowning skips it)
        enter = live & (s.y < IGLOO_ENTER_Y)  # rule: scoring.igloo-entry
        s = s.replace(y=_w(enter, 0, s.y), igloo_jump=s.igloo_jump & ~enter,
                      flags=_w(enter, F_TALLY, s.flags), hold=_w(enter, HOLD_IGLOO, s.hold))
        # all four rows blue (and the igloo unfinished): they turn white again  rule: rendering.rows-whiten
        rewhite = live & (s.white_hold == 0) & (s.blocks != FULL_IGLOO) & ~jnp.any(s.floe_white)
        s = s.replace(floe_white=s.floe_white | rewhite)
        # floes drift (wrap at 160)  rule: physics.floes-drift
        fleft = (s.row_byte & 0x40) != 0
        nfx = jnp.where(fleft, s.floe_x - s.speed[0], s.floe_x + s.speed[0]) & 0xFF
        nfx = jnp.where(nfx >= 0xF0, nfx - 0x60, nfx)
        nfx = jnp.where(nfx >= 0xA0, nfx - 0xA0, nfx)
        s = s.replace(floe_x=_w(live, nfx, s.floe_x))
        # left/right (1 px every other frame on foot, the air speed while jumping)  rule: action.walk-left-right, physics.steer-in-air
        steer = live & (s.pushed_row < 0)
        hold_x = steer & s.igloo_jump
        walk = steer & ~s.igloo_jump
        spd = jnp.where(s.jump != 0, s.speed[2], fc & 1)
        lim = jnp.where(s.y == SHORE_Y, PLAYER_MIN_X_SHORE, PLAYER_MIN_X_ROW)
        go_left = walk & joy.left
        go_right = walk & ~joy.left & joy.right
        nx = jnp.where(go_left & (s.x >= lim), s.x - spd, s.x)
        nx = jnp.where(go_right & (s.x < PLAYER_MAX_X), s.x + spd, nx)
        nf = jnp.where(go_left, (s.facing & 0x10) | 8, jnp.where(go_right, s.facing & 0x10, s.facing))
        s = s.replace(x=jnp.where(hold_x, IGLOO_JUMP_X, jnp.where(walk, nx, s.x)), facing=nf)
        # animation frame
        lr = joy.left | joy.right
        anim = jnp.where((s.jump & 15) >= 7, 2, jnp.where(lr, (fc & 4) >> 2, 0))
        s = s.replace(anim=_w(live, anim, s.anim))
        # temperature: one degree every 64 frames; at 0 Bailey freezes. The bear turns then too.  rule: timing.temperature-falls, timing.freeze-at-zero
        tick = live & ((fc & (TEMPERATURE_PERIOD - 1)) == 0)
        temp = _w(tick, s.temperature - 1, s.temperature)
        s = s.replace(temperature=temp, flags=_w(tick & (temp == 0), F_FREEZE, s.flags))
        bear_dir = jnp.where(s.x >= s.bear_x, 0x10, 0)
        bear_on = live & (s.level_index >= BEAR_LEVEL_INDEX) & c.bear  # rule: spawning.grizzly-from-level-4
        facing = _w(bear_on, (s.facing & 8) | jnp.where(tick, bear_dir, s.facing), s.facing)
        right = (facing & 0x10) != 0
        sp = s.speed[1]
        walk_r = bear_on & right & (s.bear_x < BEAR_MAX_X)
        walk_l = bear_on & ~right & (s.bear_x >= BEAR_MIN_X)
        bx = jnp.where(walk_r, s.bear_x + sp, jnp.where(walk_l, s.bear_x - sp, s.bear_x))
        step_frame = (walk_r | walk_l) & (sp != 0)
        s = s.replace(facing=facing, bear_x=bx,
                      bear_frame=_w(step_frame, (s.bear_frame - 1) % 8, s.bear_frame))
        return s

    def _collisions(self, s):
        """Pixel overlap of Bailey's sprite with each floe band, enemy band and the bear, as the
        picture of this frame produces them (the hardware collision latches the game reads)."""
        rows = jnp.arange(4)
        # Bailey's pixels lie on lines [y + 28, y + 47) (19 lines; sinking only hides the top). The
        # floe bands (7 lines) are 19 lines apart and the enemy bands (8 lines) 18, so that window
        # meets at most one band of each kind: only that band's pixels are tested.
        top, bottom = s.y + 28, s.y + 28 + PLAYER_LINES

        def band(tops, lines):
            tops = jnp.asarray(tops, jnp.int32)
            meets = (tops < bottom) & (tops + lines > top)
            return jnp.argmax(meets), jnp.any(meets), tops

        # floes: 7 lines per row
        r, any_floe, ftops = band(art.FLOE_TOP_Y, art.FLOE_LINES)
        fy = ftops[r] + jnp.arange(art.FLOE_LINES)                                          # (7,)
        bits, px = player_pixels(s.anim, s.sink, s.facing, s.x, s.y, fy)                  # (7, 8)
        fx = s.floe_x[r] + jnp.asarray(art.FLOE_LINE_SHIFT, jnp.int32)                     # (7,)
        lit = floe_lit(fx, s.floe_shape_drawn, jnp.broadcast_to(px, (art.FLOE_LINES, 8)))
        on_floe = (rows == r) & any_floe & jnp.any(bits & lit)
        # enemies: 8 lines per row
        e, any_enemy, etops = band(art.ENEMY_TOP_Y, art.ENEMY_LINES)
        ey = etops[e] + jnp.arange(art.ENEMY_LINES)
        ebits, _ = player_pixels(s.anim, s.sink, s.facing, s.x, s.y, ey)                  # (8, 8)
        line = jnp.arange(art.ENEMY_LINES)[None]                                            # (1, 8)
        one = lambda v: v[e][None]
        elit = enemy_lit(one(s.enemy_x), one(s.enemy_copies), one(s.enemy_glyph), one(s.enemy_bob),
                         one((s.row_byte & 0x80) != 0), line,
                         jnp.broadcast_to(px, (1, art.ENEMY_LINES, 8)))[0]
        # the cartridge reads the enemy collision early in the band's last line: of that line only
        # the pixels left of x = LAST_ENEMY_LINE_X have been drawn (measured: a crab's bottom row
        # under Bailey's sinking sprite at x = 125 does not count on ALE)
        counted = (line[0] < art.ENEMY_LINES - 1)[:, None] | (px < LAST_ENEMY_LINE_X)
        on_enemy = (rows == e) & any_enemy & jnp.any(ebits & elit & counted)
        first = lambda hit: jnp.where(jnp.any(hit), jnp.argmax(hit), -1).astype(jnp.int32)
        # the bear: 16 lines from y = 58 (drawn, and colliding, on every level; seen from level 4)
        by = art.BEAR_Y + jnp.arange(art.BEAR_H)
        bbits, _ = player_pixels(s.anim, s.sink, s.facing, s.x, s.y, by)                 # (16, 8)
        mirrored = (s.facing & 0x10) != 0
        rel = px - bear_left(s)
        col = jnp.where(mirrored, art.BEAR_W - 1 - rel, rel)
        inside = (rel >= 0) & (rel < art.BEAR_W)
        blit = jnp.asarray(BEAR_BITS)[s.bear_frame][:, jnp.clip(col, 0, art.BEAR_W - 1)] & inside
        bear_touch = jnp.any(bbits & blit)
        return s.replace(floe_row=first(on_floe), enemy_row=first(on_enemy), sky_lfsr=s.lfsr,
                         shown_score=s.score, shown_blocks=s.igloo_built,
                         shown_shape=s.floe_shape_drawn,
                         bear_hit=s.bear_hit | bear_touch)

    def _overscan(self, s, joy):
        c = self.consts
        s = s.replace(sound=_w((s.frozen | s.sink) == SINK_LINES, 0, s.sound))
        trickle = (s.sound & 0x40) != 0
        snd = _w(trickle, s.sound - 1, s.sound)
        low = snd & 31
        snd = _w(trickle & (low == 0), 0, snd)
        pay = trickle & ((low & 3) != 0)
        score, lives = add_points(s.score, s.lives, 10, c.max_lives)  # rule: scoring.fish
        s = s.replace(score=_w(pay, score, s.score), lives=_w(pay, lives, s.lives))
        decay = (snd & 0x80) != 0
        snd2 = _w(decay, snd - 1, snd)
        snd2 = _w(decay & ((snd2 & 31) == 0), 0, snd2)
        # speeds of the next frame: integer part and 1/16 fractions
        num = self.floe_speed(speed_bases(s.level_index))
        tot = s.speed_frac + (num & 15)
        speed = (num >> 4) + (tot >= 16)
        # fire: a new press (not while jumping) reverses the floe next frame
        edge = joy.fire & ~s.fire_prev
        lfsr = jnp.where((s.fc & 7) == 0, lfsr_step(s.lfsr), s.lfsr)
        return s.replace(sound=snd2, speed=speed.astype(jnp.int32), speed_frac=tot & 15,
                         fire_prev=joy.fire, reverse=edge & (s.jump == 0), lfsr=lfsr,
                         igloo_built=s.blocks,
                         floe_shape_drawn=s.floe_shape)

    # ---- queries --------------------------------------------------------------------------------
    def is_terminal(self, state):
        # ALE: ram[76] == 0 and ram[113] bit 7 (sinking). A last Bailey lost to the cold also ends
        # the game here, unless ale_endless_game_over (then, as on ALE, the episode runs on).
        sunk = (state.lives == 0) & ((state.flags & F_SINK) != 0)
        if self.consts.ale_endless_game_over:
            return sunk | (state.game_over & (state.sink > 0))   # sank (not frozen): over on ALE too
        return sunk | state.game_over

    def score(self, state):
        return state.score

    def lives(self, state):
        # ALE reports ram[76] + 1 while the game runs and 0 once it is over (measured: after a
        # random game ends ram[76] is 0 and ALEInterface.lives() is 0, not 1).
        lives = jnp.where(state.demo, DEMO_LIVES, state.lives)
        return jnp.where(self.is_terminal(state), 0, (lives & 15) + 1)

    def signals(self, state):
        return {
            "player_x": state.x,
            "player_y": state.y + 29,
            "row": jnp.where(state.floe_row < 0, 255, state.floe_row),
            "level": state.level_index + 1,
            "igloo_blocks": state.blocks + 1,
            "temperature": state.temperature,
            "floe_x": state.floe_x,
            "floe_white": state.floe_white,
            "enemy_x": enemy_screen_x(state),
            # catalog convention (alignment/catalog.py): -1 when ram[104] == 140
            "bear_x": jnp.where(state.bear_x == BEAR_MAX_X, -1, state.bear_x + 3),
        }

    def objects(self, state):
        s = state
        # floes: 4 rows x 3 floes (x of the leftmost piece of each floe, line 0)
        shape = s.shown_shape
        start = jnp.asarray(FLOE_PIECE_START)[shape]
        width = jnp.asarray(FLOE_PIECE_W)[shape]
        left_off = jnp.min(start)
        extent = jnp.max(start + width) - left_off
        fx = (s.floe_x[:, None] + left_off + art.FLOE_COPY_SPACING * jnp.arange(3)) % 160
        fy = jnp.broadcast_to(jnp.asarray(art.FLOE_TOP_Y, jnp.int32)[:, None], (4, 3))
        floes = ObjectGroup.make(fx.reshape(-1), fy.reshape(-1), extent, art.FLOE_LINES, True,
                                 row=jnp.repeat(jnp.arange(4), 3),
                                 white=jnp.repeat(s.floe_white, 3).astype(jnp.int32))
        eff = s.enemy_copies & window_mask(s.enemy_x)
        ex = (s.enemy_x[:, None] + 16 * jnp.arange(3)) & 0xFF
        vis = ((eff[:, None] >> (2 - jnp.arange(3))) & 1) == 1
        ey = jnp.broadcast_to(jnp.asarray(art.ENEMY_TOP_Y, jnp.int32)[:, None] + s.enemy_bob[:, None], (4, 3))
        enemies = ObjectGroup.make(jnp.where(vis, ex, 0).reshape(-1), ey.reshape(-1), 8,
                                   art.ENEMY_LINES, vis.reshape(-1),
                                   kind=jnp.repeat(s.row_byte & 3, 3), row=jnp.repeat(jnp.arange(4), 3))
        visible = s.y > 0
        player = ObjectGroup.make(s.x, s.y + 29 + s.sink, 8, 18 - jnp.minimum(s.sink, 18), visible,
                                  row=jnp.where(s.floe_row < 0, -1, s.floe_row),
                                  frozen=s.frozen)
        bear = ObjectGroup.make(bear_left(s), art.BEAR_Y, art.BEAR_W, art.BEAR_H,
                                (s.level_index >= BEAR_LEVEL_INDEX) & self.consts.bear)
        blocks = s.blocks + 1
        igloo = ObjectGroup.make(112, jnp.where(blocks > 0, 35, 51), 32, jnp.where(blocks > 0, 20, 4),
                                 blocks > 0, blocks=blocks)
        return {"player": player, "floes": floes, "enemies": enemies, "bear": bear, "igloo": igloo}

    def render(self, state):
        return draw_frame(self, state, render.FULL)

    def render_gray84(self, state):
        return draw_frame(self, state, render.SMALL_GRAY)


def _to_bcd(v):
    return ((v // 10) << 4) | (v % 10)


def mirrored_ram(state) -> dict:
    """The ALE RAM bytes this state mirrors, {ram index: value as the cartridge stores it}: what the
    emulator comparison checks byte for byte."""
    s = state
    out = {1: s.fc, 2: s.lfsr, 30: s.floe_shape, 70: jnp.where(s.game_over, -1, 0),
           72: _to_bcd(s.score // 10000), 73: _to_bcd((s.score // 100) % 100), 74: _to_bcd(s.score % 100),
           75: s.level_index, 76: s.lives, 77: s.blocks & 0xFF, 100: s.y, 101: _to_bcd(s.temperature),
           102: s.x, 103: s.hold, 104: s.bear_x, 106: s.jump, 107: s.sink, 108: s.facing,
           110: s.anim, 111: s.bear_frame, 112: s.frozen, 113: s.flags, 114: s.pushed_row & 0xFF,
           117: s.white_hold, 116: s.sound, 118: jnp.where(s.landed, 0xFF, 0),
           105: jnp.where(s.igloo_jump, 0x80, 0), 119: s.fish_eaten, 57: s.floe_row & 0xFF, 56: s.enemy_row & 0xFF}
    for i in range(3):
        out[22 + i] = s.speed[i]
        out[25 + i] = s.speed_frac[i]
    for i in range(4):
        out[31 + i] = s.floe_x[i]
        out[43 + i] = jnp.where(s.floe_white[i], 12, 0x98)
        out[17 + i] = s.row_byte[i]
        out[96 + i] = s.enemy_x[i]
        out[92 + i] = s.enemy_copies[i]
        out[84 + i] = enemy_screen_x(s)[i]
    del out[70]  # ram[70] also counts the attract-mode delay; not mirrored
    return out
