"""Breakout's frame, as the cartridge runs it (README.md says how it was read and checked)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.env import Game, joystick
from jaxtari.games.breakout import constants as k
from jaxtari.games.breakout import objects
from jaxtari.games.breakout.draw import draw
from jaxtari.games.breakout.logic import geometry as g
from jaxtari.games.breakout.state import BreakoutState

U16 = 0xFFFF
BYTE, BYTE_SIGN = 0xFF, 0x80  # the cartridge's 8-bit arithmetic
WORD_SIGN = 0x8000  # the sign of an 8.8 velocity
# pot_reading sums the rises of the steps reached: they must come in rising resistance
assert all(a < b for (a, _), (b, _) in zip(k.POT_STEPS, k.POT_STEPS[1:]))


def _s8(v):
    """A byte as a signed value."""
    return jnp.where(v >= 128, v - 256, v)


def _neg16(v):
    return (-v) & U16


def _pick(table, index, keys=None):
    """``table[index]`` for a short static table (or the entry whose key is ``index``; the first
    entry where none is), as a chain of selects.

    Why: under ``vmap`` on the CPU a gather is a loop of its own over the batch, and a frame has
    many such lookups; selects are elementwise and fuse with the frame's other arithmetic."""
    table = np.asarray(table)
    keys = range(len(table)) if keys is None else keys
    out = jnp.full(jnp.shape(index), table[0], jnp.int32)
    for key, value in list(zip(keys, table))[1:]:
        out = jnp.where(index == key, jnp.int32(value), out)
    return out


def _lookup_speed(table, index):
    keys = [i for i, _ in table]
    return (_pick([s[0] for _, s in table], index, keys),
            _pick([s[1] for _, s in table], index, keys))


class Breakout(Game):
    name = "breakout"
    minimal_actions = k.MINIMAL_ACTIONS  # rule: action.minimal-set
    Constants = k.BreakoutConstants
    mechanics = ("paddle_bounce", "brick_hit", "paddle_size", "speed")

    # ---- reset ---------------------------------------------------------------------------------
    def _reset(self, key):
        c = self.consts
        if c.mode not in k.MODES:
            raise ValueError(f"breakout: mode {c.mode} not available; modes: {list(k.MODES)}")
        if c.difficulty not in (0, 1):
            raise ValueError(f"breakout: difficulty {c.difficulty} not available; difficulties: [0, 1]")
        i32 = jnp.int32
        return BreakoutState(
            frame=i32(0), key=key, pot=i32(k.POT_START), pot_reading=i32(k.START_POT_READING),
            paddle_x=i32(k.START_PADDLE), ball_x=i32(0), ball_y=i32(0), ball_dx=i32(0),
            ball_dy=i32(0), hits=i32(0), angle=i32(0), shrunk=jnp.bool_(False),
            bricks=jnp.asarray(k.FULL_WALL, jnp.int32), wall=i32(k.START_WALL_STATE),
            lives=i32(c.start_lives), score=i32(0), clock=i32(0), active=jnp.bool_(True),
            sound=i32(0), last_paddle_x=i32(0), shown_score=i32(0),
            shown_lives=i32(c.start_lives), latched_score=i32(0), latched_lives=i32(c.start_lives),
            shown_select=jnp.bool_(False), wall_lit=jnp.bool_(False), moved_y=i32(0),
        )

    # ---- swappable mechanics ---------------------------------------------------------------------
    # rule: physics.ball-speed-after-twelfth (the table's rows step with the hit count)
    def speed(self, hits, angle):  # measured: the ROM's speed table, each entry checked on ALE
        """(dx, dy) magnitudes (8.8) for a hit count and angle (ROM table)."""
        return _lookup_speed(self.consts.speed_table, (hits & k.SPEED_ROW) + angle)

    def held_lift(self, s):
        """Lines a ball held on the paddle (catch games) is drawn higher (geometry.held_lift)."""
        if self.consts.flags & k.CATCH:
            return g.held_lift(s.ball_y >> 8, s.moved_y)
        return jnp.zeros_like(s.moved_y)  # the ball moves every frame: moved_y is its y

    def paddle_size(self, shrunk):  # measured: 16 px, 12 px after the top wall (ALE's screen)
        """Index into the paddle sizes: difficulty A, plus one once the ball reached the top."""
        return jnp.int32(self.consts.difficulty) + shrunk.astype(jnp.int32)

    # rule: physics.after-twelfth-hit-angle
    def paddle_bounce(self, s, size):  # measured: angle, side and speed checked on ALE
        """The ball met the paddle (ROM): dx sign from the side it met, angle from how far from the
        middle, one more hit, then the speed for the new hit count."""
        c = self.consts
        bx = s.ball_x >> 8
        half = _pick(c.paddle_half, size)
        y = (s.paddle_x + half - bx) & BYTE
        dead_centre = y == 0  # rule: physics.ball-makes-contact-center
        nudge = jnp.where(s.ball_dx & WORD_SIGN, -k.EDGE_NUDGE, k.EDGE_NUDGE)
        ball_x = jnp.where(dead_centre, (s.ball_x + (nudge << 8)) & U16, s.ball_x)
        y = jnp.where(dead_centre, 1, y)
        flip = ((y ^ (s.ball_dx >> 8)) & BYTE_SIGN) != 0
        ball_dx = jnp.where(flip, _neg16(s.ball_dx), s.ball_dx)
        d = jnp.where(y >= 128, 256 - y, y)
        d = jnp.where(((d - 9) & BYTE_SIGN) == 0, 8, d)
        d = jnp.where(half == 4, d << 1, d)
        angle = ((d + 3) & 4) >> 1
        count = s.hits & k.HIT_COUNT
        count = jnp.where(count < c.max_hit_count, count + 1, count)
        hits = count | k.PADDLE_WAS_LAST
        s = s.replace(ball_x=ball_x, ball_dx=ball_dx, angle=angle, hits=hits)
        s = self._set_speed(s)
        second_wall = ((c.flags & k.TIMED) == 0) & (s.score == k.SECOND_WALL_SCORE)
        return s.replace(wall=jnp.where(second_wall, k.SECOND_WALL_STATE, s.wall),
                         sound=k.SOUND_BOUNCE)

    def brick_hit(self, s, row, byte, mask):  # rule: scoring.time-ball-hits-brick
        """A brick was knocked out (ROM): points, a top-row speed-up, the bounce."""
        c = self.consts
        points = _pick(c.row_points, jnp.clip(row, 0, 5))
        timed = (c.flags & k.TIMED) != 0  # rule: timing.timer-counts-seconds-try (no points)
        score = s.score + jnp.where(timed, 0, points)
        fast = row < c.fast_rows
        hits = jnp.where(fast, (s.hits & (k.PADDLE_WAS_LAST | k.BRICK_WAS_LAST)) | c.fast_hit_count, s.hits)
        angle = jnp.where(fast, 0, s.angle)
        s = self._set_speed(s.replace(hits=hits, angle=angle))
        if c.flags & k.BREAKTHRU:  # rule: scoring.ball-hits-brick-continues
            s = s.replace(ball_dy=_neg16(s.ball_dy), hits=s.hits & k.HIT_COUNT)
        else:
            s = s.replace(hits=(s.hits & k.HIT_COUNT) | k.BRICK_WAS_LAST)
        # a select over the 36 bytes, not a scatter (a loop of its own per env on the CPU)
        bricks = jnp.where(jnp.arange(s.bricks.shape[-1]) == byte, s.bricks & mask, s.bricks)
        return s.replace(score=score, bricks=bricks, sound=k.SOUND_BRICK)

    def _set_speed(self, s):
        """New speed from the table; dy turns round, dx keeps its direction (ROM)."""
        dx, dy = self.speed(s.hits & k.HIT_COUNT, s.angle)
        dy = jnp.where(s.ball_dy & WORD_SIGN, dy, _neg16(dy))
        dx = jnp.where(s.ball_dx & WORD_SIGN, _neg16(dx), dx)
        return s.replace(ball_dx=dx, ball_dy=dy)

    # ---- the picture the cartridge reads back (last frame's collisions) --------------------------
    def _collisions(self, s, size):
        """The TIA's collision latches of the picture of state ``s``: (ball-paddle, ball-side
        wall, ball-playfield). Only the ball's pixels are tested: at most 6 lines from ram[101] + 7
        (g.ball_mask's rules) by its 2 columns.

        Written as per-line and per-column tests combined by hand, not as (6, 2) arrays: under
        ``vmap`` small arrays and their reductions were loops of their own over the batch, most of
        a frame's time (measured); these few scalar tests fuse into the frame's arithmetic. Only the
        side walls reach the last line, where the kernel cuts the ball short; the bricks' lines
        meet at most two brick rows (the first line's and the last's).
        """
        c = self.consts
        by, bx = s.ball_y >> 8, s.ball_x >> 8
        first = by + g.BALL_SECTIONS[0][1]
        cols = (bx - g.BALL_X_OFFSET, bx - g.BALL_X_OFFSET + 1)
        cut = jnp.where((by & 1) == 0, g.LAST_LINE_CUT_EVEN, g.LAST_LINE_CUT_ODD)
        def brick_row(line):
            return jnp.clip((line - g.BRICK_TOP) // k.ROW_LINES, 0, k.NUM_ROWS - 1)

        rows = (brick_row(first), brick_row(first + g.BALL_H + 1))
        false = jnp.zeros(jnp.shape(by), bool)
        pad_line = top_line = first_row = second_row = false
        left_line, right_line = [false, false], [false, false]
        for i in range(g.BALL_H + 2):
            line = first + i
            offset = g.BALL_SECTIONS[0][1]
            for start, off in g.BALL_SECTIONS[1:]:
                offset = jnp.where(line >= start, off, offset)
            on = ((line >= by + offset) & (line < by + offset + g.BALL_H)
                  & (line >= g.BALL_FIRST_LINE) & (line <= g.BALL_LAST_LINE))
            in_line = lambda lo, hi: on & (line >= lo) & (line < hi)  # noqa: E731
            pad_line = pad_line | in_line(g.PADDLE_TOP, g.PADDLE_TOP + g.PADDLE_H)
            top_line = top_line | in_line(*g.TOP_WALL)
            wall = in_line(g.BRICK_TOP, g.BRICK_TOP + k.NUM_ROWS * k.ROW_LINES)
            second = brick_row(line) != rows[0]
            first_row, second_row = first_row | (wall & ~second), second_row | (wall & second)
            for j, col in enumerate(cols):
                shown = (line != g.BALL_LAST_LINE) | (col < cut)
                left_line[j] = left_line[j] | (in_line(g.TOP_WALL[0], g.LEFT_WALL_END) & shown)
                right_line[j] = right_line[j] | (in_line(g.TOP_WALL[0], g.RIGHT_WALL_END) & shown)
        px = s.paddle_x - g.PADDLE_X_OFFSET
        pw = _pick(c.paddle_widths, size)
        pad = side = bricks = false
        for j, col in enumerate(cols):
            # paddle (player 0)
            pad = pad | (pad_line & (col >= px) & (col < px + pw))
            # side walls (missiles)
            side = (side | (left_line[j] & (col < g.WALL_W))
                    | (right_line[j] & (col >= g.SCREEN_W - g.WALL_W)))
            # the bricks lit under the ball
            pf = jnp.clip(col // g.PF_PIXEL, 0, 39)
            lit = (first_row & self._brick_lit(s.bricks, rows[0], pf)) | (
                second_row & self._brick_lit(s.bricks, rows[1], pf))
            bricks = bricks | (lit & (col >= 0) & (col < g.SCREEN_W))
        # playfield: the top wall, and the bricks
        return pad, side, top_line | bricks

    @staticmethod
    def _brick_lit(bricks, row, pf):
        """Whether playfield pixel ``pf`` (0..39) of brick row ``row`` (0..5) is lit."""
        byte, bit = g.brick_byte_bit(row, pf)
        return ((bricks[byte] >> bit) & 1) == 1

    # ---- the frame's phases -----------------------------------------------------------------------
    # rule: spawning.serve-ball-press-red, lives.player-team-receives-balls
    def _serve_or_miss(self, s, fire):
        """Game logic while the game is on: the timer, the serve on FIRE, the lost ball (ROM)."""
        c = self.consts
        on = s.active
        timed = (c.flags & k.TIMED) != 0
        # rule: timing.timer-counts-seconds-try
        tick = on & timed & ((s.clock & (k.TIMER_PERIOD - 1)) == 0)
        s = s.replace(score=s.score + tick.astype(jnp.int32))
        y = s.ball_y >> 8
        serve = on & (y == 0) & fire
        i = s.clock & 3
        sx = _pick(k.SERVE_X, i)
        served = s.replace(
            ball_x=(sx << 8) | (s.ball_x & BYTE), ball_y=(k.SERVE_Y << 8) | (s.ball_y & BYTE),
            ball_dx=_pick(k.SERVE_DX, i), ball_dy=jnp.int32(k.SERVE_DY), sound=k.SOUND_SERVE)
        miss = on & (y >= k.MISS_Y)
        lives = s.lives - 1
        # the last ball: the game stops and the frame counter restarts (ROM)
        missed = self._out_of_play(s).replace(lives=lives, active=lives != 0,
                                              clock=jnp.where(lives == 0, 0, s.clock))
        s = jax.tree_util.tree_map(lambda a, b: jnp.where(serve, a, b), served, s)
        return jax.tree_util.tree_map(lambda a, b: jnp.where(miss, a, b), missed, s)

    def _rebuild(self, s):
        """While ram[94] bit 7 is set: count down, then (bit 6) refill the wall (ROM)."""
        count = s.wall & k.WALL_FRAMES
        done = count == 0
        refill = done & ((s.wall & k.REFILL) != 0)
        wall = jnp.where(done, 0, (s.wall & (k.REBUILD | k.REFILL)) | (count - 1))
        bricks = jnp.where(refill, jnp.asarray(k.FULL_WALL, jnp.int32), s.bricks)
        return s.replace(wall=wall, bricks=bricks)

    def _bounces(self, s, latches, size):
        """Paddle, playfield (top wall or a brick) and side walls, from last frame's picture
        (``latches``: the collisions of the frame drawn last, ``size``: its paddle's size)."""
        pad, side, pf = latches
        # the paddle
        bounce = pad & ((s.hits & k.PADDLE_WAS_LAST) == 0)
        s = jax.tree_util.tree_map(lambda a, b: jnp.where(bounce, a, b),
                                   self.paddle_bounce(s, size), s)
        # the playfield: the top wall when (y - 0x28) is negative as a byte, else a brick
        y = s.ball_y >> 8
        top = pf & (((y - k.TOP_WALL_Y) & BYTE_SIGN) != 0)
        s = jax.tree_util.tree_map(
            lambda a, b: jnp.where(top, a, b),
            s.replace(shrunk=self.consts.shrink_on_top_wall, sound=k.SOUND_BOUNCE,
                      ball_dy=_neg16(s.ball_dy), hits=s.hits & k.HIT_COUNT), s)
        brick = pf & ~top & ((s.hits & k.BRICK_WAS_LAST) == 0)
        q = jnp.where(y - k.BRICK_TOP_Y < 0, 0, y - k.BRICK_TOP_Y) // k.ROW_LINES
        # the column's carry: the ROM subtracts one more in row 0 (the carry of 5 - row)
        bx = (s.ball_x >> 8) - k.BRICK_LEFT_X - ((q == 0) | (q > 5)).astype(jnp.int32)
        col = jnp.minimum(jnp.maximum(bx, 0) >> 3, k.NUM_COLUMNS - 1)
        byte = ((5 - q) & BYTE) + _pick(k.COLUMN_BASE, col)
        mask = _pick(k.COLUMN_MASKS, col)
        byte_ok = byte < 36
        old = s.bricks[jnp.clip(byte, 0, 35)]
        knocked = brick & byte_ok & ((old & mask) != old)
        s = jax.tree_util.tree_map(lambda a, b: jnp.where(knocked, a, b),
                                   self.brick_hit(s, q, jnp.clip(byte, 0, 35), mask), s)
        # side walls: turn round when heading into the nearer wall
        x = s.ball_x >> 8
        into = ((x ^ (s.ball_dx >> 8)) & BYTE_SIGN) == 0
        turn = side & into
        s = s.replace(ball_dx=jnp.where(turn, _neg16(s.ball_dx), s.ball_dx),
                      sound=jnp.where(turn & ((s.sound & k.SOUND_FRAMES) == 0), k.SOUND_SIDE_WALL,
                                      s.sound))
        return s, side

    def _move_paddle(self, s, side):
        """Last frame's pot reading eases the paddle towards it (ROM); steering in steerable games."""
        c = self.consts
        target = k.PADDLE_TARGET - s.pot_reading
        x = jnp.clip((target + s.paddle_x) >> 1, k.PADDLE_MIN, k.PADDLE_MAX)
        if c.flags & k.STEERABLE:  # rule: action.games-control-direction-knob
            up = (s.ball_dy & WORD_SIGN) != 0
            steer = up & ~side
            # the ROM compares the bytes: (last - new) as a byte, "positive" below its sign bit
            d = (s.last_paddle_x - x) & BYTE
            bx = s.ball_x >> 8
            step = jnp.where(d == 0, 0, jnp.where(d < BYTE_SIGN, -k.STEER_STEP, k.STEER_STEP))
            bx = jnp.where(steer, bx + step, bx) & BYTE
            s = s.replace(ball_x=(bx << 8) | (s.ball_x & BYTE),
                          last_paddle_x=jnp.where(steer, x, s.last_paddle_x))
        return s.replace(paddle_x=x)

    def _move_ball(self, s, fire, caught_now):
        y = (s.ball_y + s.ball_dy) & U16
        x = (s.ball_x - s.ball_dx) & U16
        moved = s.replace(ball_x=x, ball_y=y, moved_y=y >> 8)
        if self.consts.flags & k.CATCH:  # rule: action.continue-press-button-ball
            held = s.replace(ball_y=(k.CATCH_Y << 8) | (s.ball_y & BYTE),
                             ball_x=(((s.paddle_x + k.CATCH_X_OFFSET) & BYTE) << 8) | (s.ball_x & BYTE))
            return jax.tree_util.tree_map(lambda a, b: jnp.where(caught_now & fire, a, b),
                                          held, moved)
        return moved

    def _step(self, state, ale_action):
        c = self.consts
        joy = joystick(ale_action)
        pot = jnp.clip(state.pot - c.pot_delta * joy.dx, k.POT_MIN, k.POT_MAX)
        s = state.replace(pot=pot)
        clock = (s.clock + 1) & U16
        # the frame counter's wrap ends a game still being played (measured on ALE)
        timed_out = s.active & (clock == 0)
        s = s.replace(clock=clock, active=s.active & (clock != 0))
        # the collision latches and paddle size of the picture drawn last frame
        drawn_size = self.paddle_size(state.shrunk)
        latches = self._collisions(state, drawn_size)
        s = self._serve_or_miss(s, joy.fire)
        building = (s.wall & k.REBUILD) != 0
        bounced, side = self._bounces(s, latches, drawn_size)
        s = jax.tree_util.tree_map(lambda a, b: jnp.where(building, a, b), self._rebuild(s),
                                   bounced)
        side = side & ~building
        s = self._move_paddle(s, side)
        s = jax.tree_util.tree_map(lambda a, b: jnp.where(timed_out, a, b),
                                   self._out_of_play(s), s)
        s = self._move_ball(s, joy.fire, latches[0])
        # overscan: the sound timer runs down; the digits and the invisible wall are set up for
        # the next frame's picture
        sound = jnp.where((s.sound & k.SOUND_FRAMES) != 0, s.sound - 1, s.sound)
        # (the invisible wall shows on this frame's picture if the last frame's overscan lit it)
        lit = (state.sound != 0) & ((state.sound & k.SOUND_KIND) == 0)
        reward = s.score - state.score
        s = s.replace(
            frame=state.frame + 1, pot_reading=self.pot_reading(pot), sound=sound,
            shown_score=state.latched_score, shown_lives=state.latched_lives,
            latched_score=s.score, latched_lives=s.lives, shown_select=self.selecting(state),
            wall_lit=lit,
        )
        return s, reward

    @staticmethod
    def _out_of_play(s):
        """The ball taken out of play where it stands, as a lost ball and the frame counter's stop
        do (measured on ALE: ram[101] and the velocity, the hit count and the shrink flag cleared;
        the ball's x and the fractions of its position kept)."""
        return s.replace(ball_y=s.ball_y & BYTE, ball_dx=0, ball_dy=0, hits=0, shrunk=False)

    @staticmethod
    def selecting(state):
        """Whether the cartridge shows its select display: a game stopped by the frame counter
        (balls still left; a game lost with the last ball keeps the score shown)."""
        return ~state.active & (state.lives > 0)

    def pot_reading(self, pot):
        """ram[70] for a resistance: the step table measured on ALE (constants.POT_STEPS)."""
        # the value of the last step reached, as the sum of the rises of the steps reached (the
        # steps rise with the resistance): elementwise, no gather
        reading = jnp.zeros(jnp.shape(pot), jnp.int32)
        previous = 0
        for at, value in k.POT_STEPS:
            reading = reading + jnp.where(pot >= at, value - previous, 0)
            previous = value
        return reading

    # ---- episode -----------------------------------------------------------------------------------
    def is_terminal(self, state):  # rule: termination.first-player-team-completely
        return state.lives == 0

    def score(self, state):
        return state.score

    def lives(self, state):
        return state.lives

    # ---- what is on screen -----------------------------------------------------------------------------
    def bricks_grid(self, state):
        """(6, 18) bool: which bricks stand, top row first."""
        cols = np.arange(k.NUM_COLUMNS)
        rows = np.arange(k.NUM_ROWS)
        byte = np.asarray(k.COLUMN_BASE)[None, :] + 5 - rows[:, None]
        mask = np.asarray(k.COLUMN_MASKS)[cols]
        b = state.bricks[..., jnp.asarray(byte)]
        return (b & (BYTE ^ jnp.asarray(mask))) != 0

    def objects(self, state):
        return objects.objects(self, state)

    def signals(self, state):
        return objects.signals(self, state)

    def render(self, state):
        return draw(self, render.FULL, state)

    def render_gray84(self, state):
        return draw(self, render.SMALL_GRAY, state)
