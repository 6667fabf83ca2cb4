"""Pong's mechanics and frame: :class:`Pong` (README.md says how the real
game works and how close this is)."""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

from jaxtari import render
from jaxtari.env import Game, joystick
from jaxtari.games.pong import draw, objects
from jaxtari.games.pong.constants import PongConstants
from jaxtari.games.pong.state import PongState


class _Phase(NamedTuple):
    """Which of the cartridge's branches a frame takes (each a bool array)."""

    stop: jax.Array           # the counter wrapped: the game stops on this frame
    stopped: jax.Array        # stopped for good (this frame or before)
    waiting: jax.Array        # the ball is hidden, the serve counting down
    serve: jax.Array          # the serve comes on this frame
    player_point: jax.Array
    enemy_point: jax.Array
    point: jax.Array
    live: jax.Array           # the ball is in play and no point was scored


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
            shown_player=i32(0), shown_enemy=i32(0), built_player=i32(0), built_enemy=i32(0),
            countdown=i32(c.start_delay),
            clock=i32(c.start_clock), fire_held=jnp.bool_(False), serve_dx=i32(1),
            timer=i32(c.start_timer), attract=i32(c.start_attract), stopped=jnp.bool_(False),
            shown_attract=i32(0),
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

    def _early_from(self, state, y):
        """First screen x at which the kernel's ball-enable write for ball row ``y`` (RAM 54 units)
        has already happened on the line above: right of it the change shows one line early.

        Where the write lands depends on the cycles that line spent before it: the row's parity
        (the kernel draws two lines per loop), whether the paddle pot has charged by then (the
        pot-timing branch) and which paddles are drawn on that line (``ball_early_*``, on ALE).
        """
        c = self.consts
        odd = (y & 1) == 1
        reads_pot = (state.clock & 1) == 0
        charged = jnp.where(reads_pot,
                            y >= self.pot_reading(state.pot) + c.charge_rows_after_reading,
                            y >= c.charge_row_other_frames)

        def within(paddle_y, rows):
            rel = y - ((paddle_y + 1) & ~1)
            return (rel >= rows[0]) & (rel <= rows[1])

        enemy_on = odd & within(state.enemy_y, c.early_enemy_rows_odd)
        player_on = jnp.where(odd, within(state.player_y, c.early_player_rows_odd),
                              within(state.player_y, c.early_player_rows_even))
        return (jnp.where(odd, c.ball_early_x_odd, c.ball_early_x_even)
                - c.ball_early_charged * charged.astype(jnp.int32)
                - c.ball_early_paddle * (enemy_on.astype(jnp.int32) + player_on.astype(jnp.int32)))

    def _ball_columns(self, state):
        """Screen x, top row and one-past-bottom row of the ball's two pixel columns, (2,) each.

        The kernel turns the ball on (on the line above its top row) and off (on its last row)
        part-way along the line, so each edge is a line early right of where that write lands,
        which the two lines' own timings decide (:meth:`_early_from`): a column can be 3-5 tall.
        """
        c = self.consts
        y = state.ball_y
        cols = state.ball_x - c.ball_x_offset + jnp.arange(c.ball_w)
        top_early = cols >= self._early_from(state, y)
        bottom_early = cols >= self._early_from(state, y + c.ball_h)
        tops = y - c.ball_y_offset - top_early.astype(jnp.int32)
        return cols, tops, tops + top_early.astype(jnp.int32) + c.ball_h - bottom_early.astype(
            jnp.int32)

    def _touches(self, state, paddle_x, paddle_top):
        """TIA collision of the ball with a paddle in the frame the state was drawn in."""
        c = self.consts
        cols, tops, bottoms = self._ball_columns(state)
        in_cols = (cols >= paddle_x) & (cols < paddle_x + c.paddle_w)
        top = jnp.maximum(jnp.maximum(tops, paddle_top), c.kernel_top)
        bottom = jnp.minimum(jnp.minimum(bottoms, paddle_top + c.paddle_h), c.kernel_bottom)
        return jnp.any(in_cols & (top < bottom))

    # ---- the frame -----------------------------------------------------------------------------
    def _step(self, state, ale_action):
        joy = joystick(ale_action)
        pot = self.player_paddle(state, joy)
        phase = self._phase(state)
        y, dx, dy = self._rally(state)
        ball_x, ball_y, dx, dy, countdown, serve_dx = self._serve_and_move(state, phase, y, dx, dy)
        enemy_y, pot_average = self._move_paddles(state, phase, pot, ball_x, ball_y, dx)
        player_score, enemy_score, reward = self._score(state, phase)
        wraps = state.clock == 255
        new = state.replace(
            frame=state.frame + 1, pot=pot, pot_average=pot_average, player_y=state.pot_average,
            enemy_y=enemy_y, ball_x=ball_x, ball_y=ball_y, ball_dx=dx, ball_dy=dy,
            player_score=player_score, enemy_score=enemy_score,
            shown_player=state.built_player, shown_enemy=state.built_enemy,
            # a stopped game builds no digits: the select display's stay
            built_player=jnp.where(state.stopped, state.built_player, player_score),
            built_enemy=jnp.where(state.stopped, state.built_enemy, enemy_score),
            countdown=countdown, clock=(state.clock + 1) & 255, fire_held=joy.fire,
            serve_dx=serve_dx, timer=(state.timer + wraps) & 255,
            # in play the cartridge clears RAM 10 on every frame but a wrap's
            attract=jnp.where(phase.stopped | wraps, (state.attract + wraps) & 255, 0),
            stopped=phase.stopped,
            # the colours are written before that frame's wrap counts in RAM 10
            shown_attract=jnp.where(state.stopped, (state.attract - (state.clock == 0)) & 255, 0),
        )
        return new, reward

    def _phase(self, state) -> _Phase:
        """Which of the cartridge's branches this frame takes (stopped, over, waiting to serve,
        serving, a point scored, the ball in play)."""
        c = self.consts
        # the frame after the counter (RAM 9:8) wraps to 0 the cartridge stops the game for good:
        # the ball stays where it is (hidden from the next frame on), no serve, the computer's
        # score byte shows the game number (the select display); ALE's episode runs on to its
        # cap (measured, see constants)
        stop = ~state.stopped & (state.clock == 0) & (state.timer == 0)
        stopped = state.stopped | stop
        over = ((state.player_score >= c.win_score) | (state.enemy_score >= c.win_score)
                | stopped)
        waiting = ~over & (state.countdown > 0)
        serve = waiting & (state.countdown == 1)
        playing = ~over & ~waiting

        # in play: points, walls, then the paddle collisions of the frame just drawn (ROM order)
        player_point = playing & (state.ball_x <= c.player_scores_at)
        enemy_point = playing & (state.ball_x >= c.enemy_scores_at)
        point = player_point | enemy_point
        live = playing & ~point
        return _Phase(stop, stopped, waiting, serve, player_point, enemy_point, point, live)

    def _rally(self, state):
        """The ball's y, dx and dy after the walls and the paddles, as if it is in play."""
        c = self.consts
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
        return y, dx, dy

    def _serve_and_move(self, state, p: _Phase, y, dx, dy):
        """The ball served, moved or held; the serve's countdown and side."""
        c = self.consts
        # the serve: from the centre, towards the side that lost the point, dy keeps its sign
        # rule: physics.auto-serve
        serve_dy = jnp.where(state.ball_dy >= 0, 1, -1)
        dx = jnp.where(p.serve, state.serve_dx, jnp.where(p.live, dx, state.ball_dx))
        dy = jnp.where(p.serve, serve_dy, jnp.where(p.live, dy, state.ball_dy))
        x0 = jnp.where(p.serve, c.serve_x, state.ball_x)
        y0 = jnp.where(p.serve, c.serve_y, jnp.where(p.live, y, state.ball_y))
        moves = p.serve | p.live
        ball_x = jnp.where(moves, x0 - dx, x0)
        ball_y = jnp.where(moves, y0 + dy, jnp.where(p.waiting | state.stopped, 0, y0))  # hidden

        countdown = jnp.where(p.point, c.serve_delay,
                              jnp.where(p.waiting, state.countdown - 1, state.countdown))
        serve_dx = jnp.where(p.player_point, 1, jnp.where(p.enemy_point, -1, state.serve_dx))
        return ball_x, ball_y, dx, dy, countdown, serve_dx

    def _move_paddles(self, state, p: _Phase, pot, ball_x, ball_y, dx):
        """The computer's paddle and the agent's averaged pot reading."""
        c = self.consts
        # paddles: the computer tracks the ball's new y; the agent's paddle takes last frame's
        # averaged reading, and the kernel averages in a new reading every other frame
        enemy_y = jnp.where(p.serve, c.serve_y, state.enemy_y)
        enemy_y = self.enemy_tracking(state, enemy_y, ball_x, ball_y, dx)
        reads = (state.clock & 1) == 1
        pot_average = jnp.where(reads, (state.pot_average + self.pot_reading(pot)) >> 1,
                                state.pot_average)
        return enemy_y, pot_average

    def _score(self, state, p: _Phase):
        """The two score bytes and ALE's reward."""
        c = self.consts
        # rule: scoring.point-for, scoring.point-against
        player_score = state.player_score + p.player_point.astype(jnp.int32)
        enemy_score = jnp.where(p.stop, c.select_game,
                                state.enemy_score + p.enemy_point.astype(jnp.int32))
        # ALE's reward is the change of the two score bytes, the select display's too
        reward = (player_score - state.player_score) - (enemy_score - state.enemy_score)
        return player_score, enemy_score, reward

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
        return objects.objects(self, state)

    def signals(self, state):
        return objects.signals(self, state)

    def render(self, state):
        return draw.draw(self, render.FULL, state)

    def render_gray84(self, state):
        return draw.draw(self, render.SMALL_GRAY, state)
