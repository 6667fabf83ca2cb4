"""Pong (ALE's ``pong.bin``, Atari's "Video Olympics" in its one-player Pong game) in pure JAX.

One ``step`` is one emulator frame. Every number below was measured on ale-py 0.12.1 (RAM and
``getScreenRGB`` frames, repeat_action_probability=0, frame by frame) unless it says otherwise;
"ROM" means the fact was read off a disassembly of the 2 KB cartridge (facts only: which byte is
compared with what, in which order) and then checked against the emulator.

How the real game works, and how this file follows it (state fields keep the ROM's own byte
conventions, so each one compares 1:1 with a RAM byte; :meth:`Pong.signals` converts to screen px):

- **Your paddle is a paddle controller.** ALE drives Pong's paddle controller, not a joystick:
  RIGHT lowers the paddle's resistance by 23,000 ohm per frame, LEFT raises it, clamped to
  [27,450, 790,196], starting at their midpoint (ALE's paddle emulation). The ROM times how long
  the pot takes to charge (a two-scanline loop in the kernel) and averages that reading with its
  previous value: ``avg = (avg + reading) >> 1``, once every other frame; the paddle position
  (RAM 51) is that average, copied one frame later. So RIGHT moves the paddle *up*, and the paddle
  eases in and out of motion. ``reading`` follows Stella's pot timing (charge cycles =
  1.216e-6 * R * 261 lines * 60 Hz) and the kernel's loop: 40 + 2 per 152 cycles past cycle 2451
  (fitted on 3,500 readings: zero mismatches).
- **The ball** moves ``x -= dx``, ``y += dy`` once per frame (RAM 49/54, velocities RAM 58/56).
  Top/bottom walls: when ``y <= 45`` or ``y >= 206`` (ROM's coarse grid, checked on 150 bounces)
  dy flips and y is nudged one pixel back into the court.
- **Paddle hits** are the TIA's pixel collisions of the frame just drawn, answered on the next
  frame (ROM): the new dy comes from where the ball met the paddle,
  ``dy = -(signed5(((paddle - ball_y + 6) & 63) >> 1)) >> 1`` (every hit in 40,000 frames matched),
  dx turns to point away from the paddle; a frame that bounces off a wall skips this check.
  Holding FIRE on a frame the ball touches your paddle adds 1 to the ball's horizontal speed
  (max 4), once per touching frame - the only way the ball speeds up.
- **The computer's paddle** (RAM 50) moves 2 px towards the ball's y every frame except every 8th
  frame (ROM frame counter RAM 8), comparing unsigned bytes; its only weakness is that speed limit.
- **Scoring**: when the ball's x passes 52 (you score) or 205 (the computer scores) the point is
  counted, the ball hides, and 63 frames later it is served from the centre (128, 128) towards the
  side that lost the point, keeping the vertical direction it had (ROM + RAM 11 countdown). The
  first serve comes 59 frames after reset, towards the computer. The game ends at 21.
- The score shown on screen lags the score by one frame (the ROM builds the digits after the
  kernel), and the frame just after reset uses the attract-mode palette.

How close it is: on 8 whole games against ALE (tracking and random players, 4,000-17,500 frames
each) every one of RAM 8, 11, 13, 14, 49, 50, 51, 54, 56, 58, 60 and the reward agreed on every
frame. Pixels: the ball's top row can differ by one line at a few x positions (see
``_ball_columns``), and the reset frame's stray ball pixel at x=2 (RAM 49 is 0 before the first
serve) is not drawn; everything else on screen is pixel-exact.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.env import Game, ObjectGroup, joystick, pytree_dataclass


@dataclasses.dataclass(frozen=True)
class PongConstants:
    # ---- the agent's paddle controller  measured: ALE's paddle emulation, RAM 60 frame by frame
    pot_delta: int = 23_000  # resistance change per frame of RIGHT (-) / LEFT (+)
    pot_min: int = 27_450
    pot_max: int = 790_196
    pot_start: int = 408_823  # (max - min) // 2 + min, ALE's reset value
    # charge cycles = R * 0.01904256 (Stella: 1.216e-6 * R * 261 scanlines * 60 Hz), computed in int32
    pot_cycles_per_kohm_e5: int = 1_904_256  # cycles per 1000 ohm, in units of 1e-5 cycles
    pot_first_cycle: int = 2_451  # cycle of the kernel's first pot check (fitted, exact)
    pot_cycles_per_step: int = 152  # one check per two scanlines
    pot_reading_floor: int = 38  # the reading when the pot never charged in time (RAM 60 floor)
    pot_reading_cap: int = 220  # last loop value of the kernel (ROM)
    start_pot_average: int = 109  # RAM 60 and RAM 51 after reset
    # ---- court (ROM coordinates: RAM 49 = screen x + 49, RAM 54 = screen y + 14)  measured: RAM 49/54/11/8 on 8 whole games
    wall_top_zone: int = 45  # ball y <= this bounces off the top wall
    wall_bottom_zone: int = 206  # ball y >= this bounces off the bottom wall
    player_scores_at: int = 52  # ball x <= this: the agent wins the point  rule: scoring.point-for
    enemy_scores_at: int = 205  # ball x >= this: the computer wins the point  rule: scoring.point-against
    serve_x: int = 128
    serve_y: int = 128
    serve_delay: int = 63  # frames from a point to the next serve (RAM 11)  rule: physics.auto-serve
    start_delay: int = 59  # RAM 11 after reset: first serve on frame 59
    win_score: int = 21  # rule: termination.first-to-21
    max_ball_speed: int = 4  # |dx| cap of the FIRE speed-up (ROM)
    hit_offset: int = 6  # dy = f(paddle - ball_y + hit_offset) (ROM, see module docstring)
    # ---- the computer's paddle  measured: RAM 50 and the ROM's frame counter RAM 8
    enemy_speed: int = 2
    enemy_rest_mask: int = 7  # it rests on frames where the ROM frame counter & mask == 0
    start_enemy_y: int = 22  # RAM 50 / RAM 21 after reset
    start_clock: int = 71  # RAM 8 (the ROM's frame counter) after reset
    start_ball_y: int = 60  # RAM 54 after reset (hidden: the ball is off screen until the serve)
    # ---- geometry on screen  measured: getScreenRGB frames
    player_x: int = 140
    enemy_x: int = 16
    paddle_w: int = 4
    paddle_h: int = 16
    ball_w: int = 2
    ball_h: int = 4
    ball_x_offset: int = 49  # screen x = RAM 49 - 49
    ball_y_offset: int = 14  # screen y = RAM 54 - 14 (one more right of these x, see _ball_top)
    ball_late_x_odd: int = 130
    ball_late_x_even: int = 152
    player_y_offset: int = 13  # catalog: player_y = RAM 51 - 13 (drawn at even rows, see _drawn_y)
    enemy_y_offset: int = 15  # catalog: enemy_y = RAM 50 - 15
    kernel_top: int = 24  # first and one-past-last screen rows the kernel draws objects on
    kernel_bottom: int = 206
    top_wall: tuple = (24, 34)  # [first, last) rows of the top wall
    bottom_wall: tuple = (194, 210)
    digit_rows: tuple = (1, 21)
    enemy_digits_x: tuple = (20, 36)  # tens, ones
    player_digits_x: tuple = (100, 116)
    # ---- colours  measured: getScreenRGB
    background: tuple = (144, 72, 17)
    wall_colour: tuple = (236, 236, 236)  # walls and ball
    player_colour: tuple = (92, 186, 92)
    enemy_colour: tuple = (213, 130, 74)
    hmove_bar: tuple = (0, 0, 0)  # row 0, x 0..7 (HMOVE blanking)
    # the reset frame and the first frame are drawn in the attract-mode palette
    attract_frames: int = 1
    attract_background: tuple = (109, 118, 43)
    attract_wall: tuple = (53, 95, 24)
    attract_player: tuple = (101, 111, 228)
    attract_enemy: tuple = (210, 182, 86)


@pytree_dataclass
class PongState:
    frame: jax.Array  # frames since reset
    key: jax.Array  # unused by the game (it has no randomness) but carried, as every state does
    pot: jax.Array  # the agent's paddle resistance (ohm), ALE's paddle emulation
    pot_average: jax.Array  # RAM 60: the ROM's averaged pot reading
    player_y: jax.Array  # RAM 51
    enemy_y: jax.Array  # RAM 50 (= RAM 21, the computer's target)
    ball_x: jax.Array  # RAM 49
    ball_y: jax.Array  # RAM 54 (0 while the ball is hidden)
    ball_dx: jax.Array  # RAM 58, signed: x -= dx every frame
    ball_dy: jax.Array  # RAM 56, signed: y += dy every frame
    player_score: jax.Array  # RAM 14
    enemy_score: jax.Array  # RAM 13
    shown_player: jax.Array  # the scores drawn this frame (one frame behind)
    shown_enemy: jax.Array
    countdown: jax.Array  # RAM 11: frames until the serve (0 while the ball is in play)
    clock: jax.Array  # RAM 8: the ROM's frame counter, mod 256
    fire_held: jax.Array  # the agent's button as the ROM latched it on the last frame
    serve_dx: jax.Array  # dx of the next serve: +1 towards the computer (RAM 18's last scorer)


# 3x5 digit glyphs, each cell 4x4 screen pixels (read off getScreenRGB with the score RAM set)
_GLYPHS = (
    ("###", "#.#", "#.#", "#.#", "###"),
    (".#.", ".#.", ".#.", ".#.", ".#."),
    ("###", "..#", "###", "#..", "###"),
    ("###", "..#", ".##", "..#", "###"),
    ("#.#", "#.#", "###", "..#", "..#"),
    ("###", "#..", "###", "..#", "###"),
    ("#..", "#..", "###", "#.#", "###"),
    ("###", "..#", "..#", "..#", "..#"),
    ("###", "#.#", "###", "#.#", "###"),
    ("###", "#.#", "###", "..#", "..#"),
)


def _digit_masks() -> np.ndarray:
    cells = render.art_mask(_GLYPHS)
    return cells.repeat(4, axis=1).repeat(4, axis=2)  # (10, 20, 12)


class Pong(Game):
    name = "pong"
    # rule: action.minimal-set
    minimal_actions = (0, 1, 3, 4, 11, 12)  # ALEInterface.getMinimalActionSet() for pong.bin
    Constants = PongConstants
    mechanics = ("player_paddle", "enemy_tracking", "wall_bounce", "paddle_bounce")

    # ---- reset ---------------------------------------------------------------------------------
    def _reset(self, key):
        c = self.consts
        i32 = lambda v: jnp.int32(v)  # noqa: E731
        return PongState(
            frame=i32(0), key=key, pot=i32(c.pot_start), pot_average=i32(c.start_pot_average),
            player_y=i32(c.start_pot_average), enemy_y=i32(c.start_enemy_y), ball_x=i32(0),
            ball_y=i32(c.start_ball_y), ball_dx=i32(0), ball_dy=i32(0), player_score=i32(0),
            enemy_score=i32(0),
            shown_player=i32(0), shown_enemy=i32(0), countdown=i32(c.start_delay),
            clock=i32(c.start_clock), fire_held=jnp.bool_(False), serve_dx=i32(1),
        )

    # ---- mechanics (each swappable by an InternalMod) -----------------------------------------
    def pot_reading(self, pot):
        """The kernel's charge-time count of the paddle pot (integer form of Stella's timing)."""
        c = self.consts
        hi, lo = pot // 1000, pot % 1000
        cycles_e5 = hi * c.pot_cycles_per_kohm_e5 + (lo * c.pot_cycles_per_kohm_e5) // 1000
        cycles = cycles_e5 // 100_000
        steps = (cycles - c.pot_first_cycle) // c.pot_cycles_per_step
        reading = jnp.minimum(40 + 2 * steps, c.pot_reading_cap)
        return jnp.where(cycles >= c.pot_first_cycle, reading, c.pot_reading_floor)

    # rule: action.right-paddle, action.paddle-directions
    def player_paddle(self, state, joy):
        """ALE's resistance update for this frame's action -> new pot (the ROM reads it later)."""
        c = self.consts
        return jnp.clip(state.pot - c.pot_delta * joy.dx, c.pot_min, c.pot_max)

    # rule: action.right-paddle (the computer moves the left paddle)
    def enemy_tracking(self, state, enemy_y, ball_x, ball_y, ball_dx):
        """The computer's paddle: 2 px towards the ball's y, resting every 8th frame (ROM)."""
        c = self.consts
        moves = (state.clock & c.enemy_rest_mask) != 0
        up = enemy_y - c.enemy_speed
        # the ROM adds 5 then subtracts 2 with the carry of that add: +2, or +3 past 255
        down = jnp.where(enemy_y + 5 > 255, enemy_y + 3, enemy_y + c.enemy_speed)
        new = jnp.where(enemy_y > ball_y, up, jnp.where(enemy_y < ball_y, down, enemy_y))
        return jnp.where(moves, new & 255, enemy_y)

    # measured: ball y and dy (RAM 54/56) on 150 wall bounces; no document states the walls
    def wall_bounce(self, ball_y, ball_dy):
        """Top/bottom wall: dy flips and y steps one pixel back towards the court."""
        c = self.consts
        hit = (ball_y <= c.wall_top_zone) | (ball_y >= c.wall_bottom_zone)
        nudged = jnp.where(ball_y < 128, ball_y + 1, ball_y - 1)
        return jnp.where(hit, nudged, ball_y), jnp.where(hit, -ball_dy, ball_dy)

    # rule: physics.deflect
    def paddle_bounce(self, paddle_y, ball_y):
        """New dy from where the ball met a paddle (ROM's formula, see the module docstring)."""
        c = self.consts
        d = ((paddle_y - ball_y + c.hit_offset) & 63) >> 1
        d = jnp.where(d >= 16, d - 32, d)
        return (-d) >> 1

    # ---- geometry ------------------------------------------------------------------------------
    def _player_top(self, player_y):
        # the kernel draws paddles on two-line steps: an odd byte draws like the next even one
        return ((player_y + 1) & ~1) - (self.consts.player_y_offset + 1)

    def _enemy_top(self, enemy_y):
        return ((enemy_y + 1) & ~1) - self.consts.enemy_y_offset

    def _ball_columns(self, ball_x, ball_y):
        """Screen x and top row of each of the ball's two pixel columns, shape (2,) each.

        The kernel enables the ball mid-scanline, so a column right of the beam's position at that
        write shows the ball one line later: columns from x=130 on odd ROM rows, from x=152 on even
        ones (measured on 6,000 frames; a pixel or two either side of those shifts with the
        kernel's branch timing on paddle lines, which this does not model).
        """
        c = self.consts
        cols = ball_x - c.ball_x_offset + jnp.arange(c.ball_w)
        late = jnp.where((ball_y & 1) == 1, cols >= c.ball_late_x_odd, cols >= c.ball_late_x_even)
        return cols, ball_y - c.ball_y_offset - late.astype(jnp.int32)

    def _touches(self, state, paddle_x, paddle_top):
        """TIA collision of the ball with a paddle in the frame the state was drawn in."""
        c = self.consts
        cols, tops = self._ball_columns(state.ball_x, state.ball_y)
        in_cols = (cols >= paddle_x) & (cols < paddle_x + c.paddle_w)
        top = jnp.maximum(jnp.maximum(tops, paddle_top), c.kernel_top)
        bottom = jnp.minimum(jnp.minimum(tops + c.ball_h, paddle_top + c.paddle_h), c.kernel_bottom)
        return jnp.any(in_cols & (top < bottom))

    # ---- the frame -----------------------------------------------------------------------------
    def _step(self, state, ale_action):
        c = self.consts
        joy = joystick(ale_action)
        pot = self.player_paddle(state, joy)

        over = (state.player_score >= c.win_score) | (state.enemy_score >= c.win_score)
        waiting = ~over & (state.countdown > 0)
        serve = waiting & (state.countdown == 1)
        playing = ~over & ~waiting

        # in play: points, walls, then the paddle collisions of the frame just drawn (ROM order)
        player_point = playing & (state.ball_x <= c.player_scores_at)
        enemy_point = playing & (state.ball_x >= c.enemy_scores_at)
        point = player_point | enemy_point
        live = playing & ~point

        y, dy = self.wall_bounce(state.ball_y, state.ball_dy)
        # a frame that bounces off a wall skips the paddle collisions (ROM: it jumps past them)
        walled = (dy != state.ball_dy) | (y != state.ball_y)
        hit_player = ~walled & self._touches(state, c.player_x, self._player_top(state.player_y))
        hit_enemy = (~walled & ~hit_player
                     & self._touches(state, c.enemy_x, self._enemy_top(state.enemy_y)))
        hit = hit_player | hit_enemy  # rule: physics.deflect
        dx = state.ball_dx
        faster = jnp.where(dx >= 0, jnp.minimum(dx + 1, c.max_ball_speed),
                           jnp.maximum(dx - 1, -c.max_ball_speed))
        dx = jnp.where(hit_player & state.fire_held, faster, dx)
        paddle = jnp.where(hit_player, state.player_y, state.enemy_y)
        dy = jnp.where(hit, self.paddle_bounce(paddle, state.ball_y), dy)
        away = jnp.where(hit_player, dx < 0, dx >= 0)  # still heading into the paddle: turn it
        dx = jnp.where(hit & away, -dx, dx)

        # the serve: from the centre, towards the side that lost the point, dy keeps its sign
        # rule: physics.auto-serve
        serve_dy = jnp.where(state.ball_dy >= 0, 1, -1)
        dx = jnp.where(serve, state.serve_dx, jnp.where(live, dx, state.ball_dx))
        dy = jnp.where(serve, serve_dy, jnp.where(live, dy, state.ball_dy))
        x0 = jnp.where(serve, c.serve_x, state.ball_x)
        y0 = jnp.where(serve, c.serve_y, jnp.where(live, y, state.ball_y))
        moves = serve | live
        ball_x = jnp.where(moves, x0 - dx, x0)
        ball_y = jnp.where(moves, y0 + dy, jnp.where(waiting, 0, y0))  # hidden while waiting

        countdown = jnp.where(point, c.serve_delay,
                              jnp.where(waiting, state.countdown - 1, state.countdown))
        serve_dx = jnp.where(player_point, 1, jnp.where(enemy_point, -1, state.serve_dx))

        # paddles: the computer tracks the ball's new y; the agent's paddle takes last frame's
        # averaged reading, and the kernel averages in a new reading every other frame
        enemy_y = jnp.where(serve, c.serve_y, state.enemy_y)
        enemy_y = self.enemy_tracking(state, enemy_y, ball_x, ball_y, dx)
        reads = (state.clock & 1) == 1
        pot_average = jnp.where(reads, (state.pot_average + self.pot_reading(pot)) >> 1,
                                state.pot_average)

        # rule: scoring.point-for, scoring.point-against
        reward = player_point.astype(jnp.int32) - enemy_point.astype(jnp.int32)
        new = state.replace(
            frame=state.frame + 1, pot=pot, pot_average=pot_average, player_y=state.pot_average,
            enemy_y=enemy_y, ball_x=ball_x, ball_y=ball_y, ball_dx=dx, ball_dy=dy,
            player_score=state.player_score + player_point.astype(jnp.int32),
            enemy_score=state.enemy_score + enemy_point.astype(jnp.int32),
            shown_player=state.player_score, shown_enemy=state.enemy_score,
            countdown=countdown, clock=(state.clock + 1) & 255, fire_held=joy.fire,
            serve_dx=serve_dx,
        )
        return new, reward

    # ---- episode -------------------------------------------------------------------------------
    def is_terminal(self, state):  # rule: termination.first-to-21
        w = self.consts.win_score
        return (state.player_score >= w) | (state.enemy_score >= w)

    def score(self, state):
        return state.player_score - state.enemy_score

    def lives(self, state):
        return jnp.int32(0)  # ALEInterface.lives() is 0 for Pong  rule: lives.none

    # ---- what is on screen ---------------------------------------------------------------------
    def objects(self, state):
        """Drawn bounding boxes (screen px; paddles unclipped, the walls hide what overlaps them)."""
        c = self.consts
        cols, tops = self._ball_columns(state.ball_x, state.ball_y)
        bx, by = cols[0], jnp.min(tops)
        ball_h = jnp.max(tops) + c.ball_h - by  # 5 when the columns are a line apart
        ball_visible = ((bx + c.ball_w > 0) & (bx < render.SCREEN_W)
                        & (by + ball_h > c.top_wall[1]) & (by < c.bottom_wall[0]))
        return {
            "player": ObjectGroup.make(c.player_x, self._player_top(state.player_y), c.paddle_w,
                                       c.paddle_h),
            "enemy": ObjectGroup.make(c.enemy_x, self._enemy_top(state.enemy_y), c.paddle_w,
                                      c.paddle_h),
            "ball": ObjectGroup.make(bx, by, c.ball_w, ball_h, ball_visible),
        }

    def signals(self, state):
        c = self.consts
        return {
            "player_y": state.player_y - c.player_y_offset,
            "enemy_y": state.enemy_y - c.enemy_y_offset,
            "ball_x": state.ball_x - c.ball_x_offset,
            "ball_y": state.ball_y - c.ball_y_offset,
            "player_score": state.player_score,
            "enemy_score": state.enemy_score,
        }

    def _draw(self, raster, state):
        c = self.consts
        attract = state.frame <= c.attract_frames
        def pick(attract_colour, colour):
            return jnp.where(attract, jnp.asarray(attract_colour, jnp.int32),
                             jnp.asarray(colour, jnp.int32))

        bg = pick(c.attract_background, c.background).astype(jnp.uint8)
        wall = pick(c.attract_wall, c.wall_colour)

        def fill(colour):
            return lambda sub: jnp.broadcast_to(render.colour_for(sub, colour.astype(jnp.uint8)),
                                                sub.blank((0, 0, 0)).shape).astype(jnp.uint8)

        def scores(sub):
            def digits(value, x):  # two digits, the tens hidden below 10
                return render.digits_mask(sub, _digit_masks(), value, x[0], c.digit_rows[0], 2,
                                          x[1] - x[0])
            canvas = fill(bg)(sub)
            canvas = render.paint(canvas, digits(state.shown_player, c.player_digits_x),
                                  pick(c.attract_player, c.player_colour))
            canvas = render.paint(canvas, digits(state.shown_enemy, c.enemy_digits_x),
                                  pick(c.attract_enemy, c.enemy_colour))
            return render.draw_rect(canvas, sub, 0, 0, 8, 1, c.hmove_bar)

        def court(sub):
            o = self.objects(state)
            cols, tops = self._ball_columns(state.ball_x, state.ball_y)
            xs = jnp.concatenate([o["enemy"].x, o["player"].x, cols])
            ys = jnp.concatenate([o["enemy"].y, o["player"].y, tops])
            ws = jnp.array([c.paddle_w, c.paddle_w, 1, 1])
            hs = jnp.array([c.paddle_h, c.paddle_h, c.ball_h, c.ball_h])
            act = jnp.concatenate([o["enemy"].active, o["player"].active,
                                   jnp.broadcast_to(o["ball"].active, (2,))])
            # objects are only visible inside the court (the walls hide them)
            top = jnp.maximum(ys, c.top_wall[1])
            bottom = jnp.minimum(ys + hs, c.bottom_wall[0])
            colours = jnp.stack([pick(c.attract_enemy, c.enemy_colour),
                                 pick(c.attract_player, c.player_colour), wall, wall])
            return render.draw_rects(fill(bg)(sub), sub, xs, top, ws, bottom - top, colours,
                                     act & (bottom > top))

        # The screen from top to bottom: scores (and the HMOVE bar), top wall, court, bottom wall.
        return render.draw_bands(raster, [
            (c.top_wall[0], scores), (c.top_wall[1], fill(wall)),
            (c.bottom_wall[0], court), (c.bottom_wall[1], fill(wall)),
        ])

    def render(self, state):
        return self._draw(render.FULL, state)

    def render_gray84(self, state):
        return self._draw(render.SMALL_GRAY, state)
