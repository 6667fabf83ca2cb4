"""Freeway (Activision, 1981) in pure JAX, frame for frame like ALE's game 0, difficulty 0.

Every number below was measured on ALE 0.12.1 (ale-py, repeat_action_probability=0, one frame per
``act``) by stepping the emulator frame by frame and diffing RAM and screens, unless it says
otherwise. RAM addresses for the chicken (ram[14]), score (ram[103]) and cars (ram[108..117]) come
from OCAtari's Freeway extractor and were re-checked here; the rest were found here:

- cars: ram[117 - i] is the x of lane i (top to bottom), 0..159 wrapping. The top five lanes drive
  left, the bottom five right. Lane speeds are 1 px every k frames, k = 5, 4, 3, 2, 1, 1, 2, 3, 4, 5
  top to bottom, never changing in game 0 (as the first row of the CarPatterns table in Bill
  Heineman's public Freeway disassembly says). Counting frames t from reset (t = 0 right after
  ``reset_game``), a left-driving car moves on frames t >= 1 with (t - 1) % k == 0, a right-driving
  one on frames t >= 2 with (t - 2) % k == 0 (exact for all 8192 frames of a game). The screen shows
  a car at x = ram - 3, except that a left-driving car is drawn where it was before this frame's
  move (so it lags by 1 px on the frames it moves). On the last frame of the game the left-driving
  cars do not move.
- chicken: ram[14] ("climb": 6 on the kerb, 177 at the top) grows by 1 on each frame UP is held and
  shrinks by 1 under DOWN (not below 6). From 177, UP scores a point: climb back to 6, ram[103] + 1
  (BCD) and a reward of 1 on that frame.
- stun (ram[106]): after a crossing 0x80 | 15, after a hit 0x40 | 28; the low bits count down by one
  on every even frame t, and the byte is cleared when they reach 0. The chicken only obeys the
  joystick on a frame whose previous ram[106] is 0. While the previous hit count is >= 16 the chicken
  is pushed down 1 px a frame (so a hit costs 24 or 25 px over as many frames, and 54 or 55
  frames without control).
- a hit is registered on frame t when, on the screen drawn on frame t - 1, a lit pixel of the
  chicken overlaps a lit pixel of a car (tyres included) -- the TIA's collision latch, read one frame
  late. The bottom lane's car also counts from the screen of frame t - 2 (seen 4 times in 12 random
  games, when a hit's immunity ended just after the car left the chicken; never for lanes 0..8, 29
  cases). A hit is ignored after a crossing (0x80) and while the hit count is still >= 23, so a car
  can hit the chicken again late in its push. Checked on 12 whole games of random play: every hit
  and every non-hit agrees.
- the chicken's pose: WALK_A when bit 2 of climb is set; when it is clear, HURT while a hit is
  counting down (including the frame its count reaches 0) and WALK_B otherwise.
- the player's score digits latch the score on every odd frame (so they show it one or two frames
  late); in the last 512 frames both scores cycle through the palette (see freeway_art).
- the game ends after 8192 frames (32 x 256; ram[105] counts the 256-frame periods, ram[1] the
  frames within one); ALE's ``game_over()`` is true from frame 8192 on. Not 8160 (2:16): the game
  runs 2:16.5. ALE's ``lives()`` is 0 throughout.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari import render
from jaxtari.env import Game, ObjectGroup, joystick, pytree_dataclass
from jaxtari.games import freeway_art as art

NUM_LANES = 10
# A car's screen left x is its RAM x (ram[117 - lane]) minus this (measured on ALE frames); the
# car_x signal and the ground-truth module use the same offset.
CAR_SCREEN_X_OFFSET = 3
# The chicken's screen top y is this minus its climb ram[14].
CHICKEN_SCREEN_Y0 = art.CHICKEN_SCREEN_Y0


@dataclasses.dataclass(frozen=True)
class FreewayConstants:
    game_frames: int = 8192  # rule: termination.time-limit
    # Per lane, top to bottom: a car moves 1 px every `lane_periods[i]` frames in direction
    # `lane_dirs[i]` (-1 left, +1 right, 0 parked). Game 1's row of the disassembly's CarPatterns
    # table, and ram[108..117] on all 8192 frames of a game.
    lane_periods: tuple = (5, 4, 3, 2, 1, 1, 2, 3, 4, 5)  # rule: physics.car-speeds
    lane_dirs: tuple = (-1, -1, -1, -1, -1, 1, 1, 1, 1, 1)  # rule: physics.car-speeds
    # measured: getScreenRGB frames
    # Which way each lane's car sprite faces (drawn and collided with), independent of lane_dirs
    # so that a mod that parks or reverses cars does not redraw them.
    lane_faces_right: tuple = (False,) * 5 + (True,) * 5
    car_colours: tuple = art.CAR_RGB  # measured: getScreenRGB
    climb_start: int = 6         # ram[14] on the kerb  measured: ram[14]
    climb_top: int = 177         # the last climb before the crossing  rule: scoring.crossing
    climb_step: int = 1          # px per frame under UP / DOWN  rule: action.walk-chicken, action.down-moves-back
    cross_wait: int = 15         # ram[106] low bits after a crossing (x 2 frames)  measured: ram[106]
    hit_wait: int = 28           # ram[106] low bits after a hit (x 2 frames)  measured: ram[106], 12 random games
    hit_push_until: int = 16     # pushed down while the hit count (before this frame) is >= this  measured: ram[106], 12 random games
    hit_immune_from: int = 23    # a new hit is ignored while the hit count is >= this  measured: ram[106], 12 random games
    push_step: int = 1           # px per frame of push after a hit  measured: ram[106], 12 random games
    points_per_crossing: int = 1  # rule: scoring.crossing
    # Lanes whose collision is also read one frame later (measured: only the bottom lane, 12 random games).
    late_collision_lanes: tuple = (False,) * 9 + (True,)


@pytree_dataclass
class FreewayState:
    frame: jax.Array        # int32 frames since reset
    key: jax.Array          # PRNG key (Freeway's game 0 has no randomness; carried for the API)
    climb: jax.Array        # int32, ram[14]: 6 on the kerb .. 177 at the top
    car_x: jax.Array        # int32 (10,), ram[117 - i]: 0..159
    hit_count: jax.Array    # int32, low bits of ram[106] while bit 6 is set, else 0
    cross_count: jax.Array  # int32, low bits of ram[106] while bit 7 is set, else 0
    hurt_pose: jax.Array    # bool, a hit is counting down on this frame (HURT replaces WALK_B)
    late_overlap: jax.Array  # bool, a late-read lane's car overlapped the chicken on this screen
    score: jax.Array        # int32, ram[103] as a number
    shown_score: jax.Array  # int32, the score the digits show on this frame


def _collision_table() -> np.ndarray:
    """overlap[pose, car_faces_right, dy + 9, dx + 7]: do chicken and car share a lit pixel?

    dy = car top - chicken top, dx = car left - chicken left (screen pixels).
    """
    chick = list(render.art_mask(art.CHICKEN_ART))
    car_l = render.art_mask(art.CAR_ART, lit="#k")
    cars = [car_l, car_l[:, ::-1]]
    ch_h, ch_w = chick[0].shape
    car_h, car_w = car_l.shape
    table = np.zeros((len(chick), 2, car_h + ch_h - 1, car_w + ch_w - 1), bool)
    for p, cm in enumerate(chick):
        for f, km in enumerate(cars):
            for dy in range(-(car_h - 1), ch_h):
                for dx in range(-(car_w - 1), ch_w):
                    canvas = np.zeros((ch_h + 2 * car_h, ch_w + 2 * car_w), bool)
                    canvas[car_h:car_h + ch_h, car_w:car_w + ch_w] = cm
                    sub = canvas[car_h + dy:car_h + dy + car_h, car_w + dx:car_w + dx + car_w]
                    table[p, f, dy + car_h - 1, dx + car_w - 1] = (sub & km).any()
    return table


_OVERLAP = _collision_table()
_CAR_H, _CAR_W = len(art.CAR_ART), len(art.CAR_ART[0])
_CH_H, _CH_W = len(art.CHICKEN_ART[0]), len(art.CHICKEN_ART[0][0])
_LANE_TOP = np.asarray(art.CAR_TOP_Y0 + art.LANE_SPACING * np.arange(NUM_LANES), np.int32)
# collide() looks at two lanes only: the rows a car shares with the chicken (-CAR_H < dy < CH_H)
# are 17 consecutive lines, which hold at most two lane tops 16 apart; lane `first` is the
# topmost lane that can meet it.
assert _CAR_H + _CH_H - 1 <= 2 * art.LANE_SPACING
# _draw wraps every car at 160: what that adds at x 0..3 (a car at x > 152) lies under the bar.
assert _CAR_W <= art.HMOVE_BAR_W


class Freeway(Game):
    name = "freeway"
    minimal_actions = (0, 2, 5)  # NOOP, UP, DOWN (ALEInterface.getMinimalActionSet())  rule: action.minimal-set
    Constants = FreewayConstants
    mechanics = ("move_cars", "move_chicken", "collide")

    def __init__(self, constants=None, **kw):
        super().__init__(constants, **kw)
        c = self.consts
        for name in ("lane_periods", "lane_dirs", "lane_faces_right", "car_colours",
                     "late_collision_lanes"):
            if len(getattr(c, name)) != NUM_LANES:
                raise ValueError(f"freeway: {name} needs one entry per lane ({NUM_LANES}), "
                                 f"got {len(getattr(c, name))}")
        if any(int(p) < 1 for p in c.lane_periods):
            raise ValueError("freeway: lane_periods must be >= 1 (use lane_dirs = 0 to park a lane)")
        self._periods = np.asarray(c.lane_periods, np.int32)
        self._dirs = np.asarray(c.lane_dirs, np.int32)
        # Which lanes are drawn where they were before this frame's move (left-driving ones).
        self._draw_lag = self._dirs < 0
        self._faces_right = np.asarray(c.lane_faces_right, bool)
        self._car_sheet = _car_sheet(c.car_colours, self._faces_right)
        self._backgrounds = {}
        self._other_chicken_y = art.CHICKEN_SCREEN_Y0 - c.climb_start  # never moves (no 2nd player)

    # ---- reset / step -------------------------------------------------------------------------
    def _reset(self, key):
        return FreewayState(
            frame=jnp.int32(0), key=key, climb=jnp.int32(self.consts.climb_start),
            car_x=jnp.zeros((NUM_LANES,), jnp.int32), hit_count=jnp.int32(0),
            cross_count=jnp.int32(0), hurt_pose=jnp.bool_(False), late_overlap=jnp.bool_(False),
            score=jnp.int32(0),
            shown_score=jnp.int32(0),
        )

    def _lanes_moving(self, frame):
        """(10,) bool: which cars move on frame ``frame`` (the measured per-lane schedule)."""
        last = frame >= self.consts.game_frames
        # Per lane with its own constant period: a remainder by a constant compiles to a multiply,
        # one by a vector of periods to a division per lane.
        moving = []
        for period, d in zip(self._periods.tolist(), self._dirs.tolist()):
            first = 1 if d < 0 else 2
            due = (frame >= first) & ((frame - first) % period == 0)
            moving.append(due & (d != 0) & ~((d < 0) & last))
        return jnp.stack(moving)

    # rule: physics.car-speeds  measured: ram[108..117], each lane's first move exact over 8192 frames
    def move_cars(self, car_x, frame):
        """Cars after frame ``frame``'s move (x wraps at 160)."""
        step = jnp.where(self._lanes_moving(frame), jnp.asarray(self._dirs), 0)
        return (car_x + step) % render.SCREEN_W

    # rule: action.walk-chicken, action.down-moves-back
    def move_chicken(self, state, ale_action):
        """Climb after the joystick / the push of a hit (before the crossing check)."""
        c = self.consts
        js = joystick(ale_action)
        free = (state.hit_count == 0) & (state.cross_count == 0)
        dy = js.up.astype(jnp.int32) - js.down.astype(jnp.int32)
        pushed = state.hit_count >= c.hit_push_until  # rule: physics.collision-push-back
        climb = jnp.where(free, state.climb + c.climb_step * dy, state.climb)
        climb = jnp.where(pushed, state.climb - c.push_step, climb)
        return jnp.maximum(climb, c.climb_start)

    # measured: every hit and non-hit of 12 random games (TIA collision latch, read a frame late)
    def collide(self, state):
        """(10,) bool: which lane's car overlaps the chicken on the screen drawn for ``state``."""
        pose = self._pose(state)
        chick_top = art.CHICKEN_SCREEN_Y0 - state.climb
        # A car can share rows with the chicken when -CAR_H < dy < CH_H: 17 rows, and lanes are 16
        # apart, so only two lanes can (asserted at import). Only those two are looked up.
        first = jnp.clip((chick_top - _CAR_H - _LANE_TOP[0]) // art.LANE_SPACING + 1, 0, NUM_LANES - 2)
        lanes = first + jnp.arange(2)
        dy = jnp.asarray(_LANE_TOP)[lanes] - chick_top
        dx = self._car_screen_x(state)[lanes] - art.CHICKEN_X
        inside = (dy > -_CAR_H) & (dy < _CH_H) & (dx > -_CAR_W) & (dx < _CH_W)
        iy = jnp.clip(dy + _CAR_H - 1, 0, _OVERLAP.shape[2] - 1)
        ix = jnp.clip(dx + _CAR_W - 1, 0, _OVERLAP.shape[3] - 1)
        faces_right = jnp.asarray(self._faces_right.astype(np.int32))[lanes]
        hit = jnp.asarray(_OVERLAP)[pose, faces_right, iy, ix] & inside
        return jnp.any((jnp.arange(NUM_LANES)[:, None] == lanes[None, :]) & hit[None, :], axis=1)

    def _step(self, state, ale_action):
        c = self.consts
        frame = state.frame + 1
        live = state.frame < c.game_frames
        overlap = self.collide(state)
        hit = jnp.any(overlap) | state.late_overlap
        late = jnp.any(overlap & jnp.asarray(self.consts.late_collision_lanes, bool))
        climb = self.move_chicken(state, ale_action)
        crossed = climb > c.climb_top
        climb = jnp.where(crossed, c.climb_start, climb)
        cross_count = jnp.where(crossed, c.cross_wait, state.cross_count)
        hit_count = jnp.where(crossed, 0, state.hit_count)
        can_hit = (cross_count == 0) & (hit_count < c.hit_immune_from)
        hit_count = jnp.where(hit & can_hit, c.hit_wait, hit_count)
        hurt_pose = hit_count > 0
        tick = (frame % 2 == 0).astype(jnp.int32)
        hit_count = jnp.maximum(hit_count - tick, 0)
        cross_count = jnp.maximum(cross_count - tick, 0)
        reward = jnp.where(crossed, c.points_per_crossing, 0).astype(jnp.int32)
        score = state.score + reward
        shown = jnp.where(frame % 2 == 1, state.score, state.shown_score)
        new = FreewayState(
            frame=frame, key=state.key, climb=climb, car_x=self.move_cars(state.car_x, frame),
            hit_count=hit_count, cross_count=cross_count, hurt_pose=hurt_pose, late_overlap=late,
            score=score, shown_score=shown,
        )
        # After the game is over nothing moves any more, the frame count included (as ALE's
        # console freezes at game over; the wrappers reset on `done`).
        keep = {f.name: jnp.where(live, getattr(new, f.name), getattr(state, f.name))
                for f in dataclasses.fields(FreewayState) if f.name != "key"}
        new = new.replace(**keep)
        return new, jnp.where(live, reward, 0)

    # ---- what the outside sees ---------------------------------------------------------------
    def is_terminal(self, state):  # rule: termination.time-limit
        return state.frame >= self.consts.game_frames

    def score(self, state):
        return state.score

    def lives(self, state):
        return jnp.int32(0)  # ALE reports 0 lives for Freeway throughout  rule: lives.none

    def _pose(self, state):
        second = jnp.where(state.hurt_pose, art.POSE_HURT, art.POSE_WALK_B)
        return jnp.where((state.climb & 4) == 0, second, art.POSE_WALK_A).astype(jnp.int32)

    def _car_screen_x(self, state):
        """Left x where each car is drawn on this frame (-CAR_SCREEN_X_OFFSET..156)."""
        lag = jnp.where(jnp.asarray(self._draw_lag) & self._lanes_moving(state.frame),
                        -jnp.asarray(self._dirs), 0)
        return (state.car_x + lag) % render.SCREEN_W - CAR_SCREEN_X_OFFSET

    def chicken_y(self, state):
        return CHICKEN_SCREEN_Y0 - state.climb

    def objects(self, state):
        pose = self._pose(state)
        return {
            "chicken": ObjectGroup.make(art.CHICKEN_X, self.chicken_y(state), _CH_W, _CH_H,
                                        state.frame > 0, pose=pose),
            "other_chicken": ObjectGroup.make(art.OTHER_CHICKEN_X, self._other_chicken_y, _CH_W,
                                              _CH_H, state.frame > 0, pose=art.POSE_WALK_A),
            "cars": ObjectGroup.make(self._car_screen_x(state), jnp.asarray(_LANE_TOP), _CAR_W,
                                     _CAR_H, lane=jnp.arange(NUM_LANES),
                                     direction=jnp.asarray(self._dirs)),
            "score": ObjectGroup.make(art.PLAYER_SCORE_X, art.SCORE_Y, 2 * art.DIGIT_SPACING, 8,
                                      value=state.shown_score),
        }

    def signals(self, state):
        return {
            "chicken_y": self.chicken_y(state),
            "car_x": state.car_x - CAR_SCREEN_X_OFFSET,
            "player_score": state.score,
            "timer": jnp.maximum(self.consts.game_frames - state.frame, 0),
        }

    # ---- pixels ----------------------------------------------------------------------------------
    def _background(self, raster):
        key = (raster.height, raster.width, raster.channels)
        if key not in self._backgrounds:
            with jax.ensure_compile_time_eval():
                self._backgrounds[key] = np.asarray(_draw_background(raster))
        return jnp.asarray(self._backgrounds[key])

    def _draw(self, raster, state):
        canvas = self._background(raster)
        canvas = render.paint(canvas, self._score_mask(raster, state), self._score_colour(state))
        shown = state.frame > 0  # ALE's first frame after reset shows no chickens
        canvas = render.draw_sprites(canvas, raster, _CHICKENS, self._pose(state), art.CHICKEN_X,
                                     self.chicken_y(state), shown)
        # The second player's chicken never moves or changes pose: a fixed mask.
        other = render.glyph_table(raster, _CHICKENS.mask, [art.OTHER_CHICKEN_X],
                                   self._other_chicken_y)[0, art.POSE_WALK_A]
        canvas = render.paint(canvas, jnp.asarray(other) & shown, art.CHICKEN_RGB)
        # Cars are drawn over the chicken (the car's pixels win where they overlap). x wraps at
        # 160: a car at x < 0 shows its left columns at the right edge (x 157..159) and the rest
        # under the HMOVE bar. (Wrapping every car also sends the right end of one at x > 152 to
        # columns 0..3, which the HMOVE bar covers, so the picture is the same.)
        x = self._car_screen_x(state)
        lanes = jnp.arange(NUM_LANES)
        # One lane per row band: all ten cars in one pass per layer.
        canvas = render.draw_sprite_rows(canvas, raster, self._car_sheet, lanes, x,
                                         jnp.asarray(_LANE_TOP), True, wrap=render.SCREEN_W)
        return render.draw_rect(canvas, raster, 0, 0, art.HMOVE_BAR_W, render.SCREEN_H, art.BLACK)

    def _score_mask(self, raster, state):
        """(H, W) bool: the lit pixels of both players' score digits."""
        def digits(value, x):
            return render.digits_mask(raster, _DIGIT_MASKS.mask, value, x, art.SCORE_Y, 2,
                                      art.DIGIT_SPACING)
        return digits(state.shown_score, art.PLAYER_SCORE_X) | digits(0, art.OTHER_SCORE_X)

    def _score_colour(self, state):
        flashing = state.frame >= self.consts.game_frames - art.SCORE_FLASH_FRAMES
        flash = jnp.asarray(art.SCORE_FLASH_RGB, jnp.uint8)[(state.frame % 256) // 2]
        return jnp.where(flashing, flash, jnp.asarray(art.SCORE_RGB, jnp.uint8))

    def render(self, state):
        return self._draw(render.FULL, state)

    def render_gray84(self, state):
        return self._draw(render.SMALL_GRAY, state)


# ---- sprite sheets and the static picture -------------------------------------------------------
def _car_sheet(colours, faces_right) -> render.SpriteSheet:
    """One 8x10 car per lane in its colour (black tyres), mirrored where it faces right."""
    body = render.art_mask(art.CAR_ART, lit="#")
    tyre = render.art_mask(art.CAR_ART, lit="k")
    n = len(colours)
    rgb = np.zeros((n, _CAR_H, _CAR_W, 3), np.uint8)
    mask = np.zeros((n, _CAR_H, _CAR_W), bool)
    for i, (col, right) in enumerate(zip(colours, faces_right)):
        b, t = (body[:, ::-1], tyre[:, ::-1]) if right else (body, tyre)
        rgb[i][b] = col
        rgb[i][t] = art.TYRE_RGB
        mask[i] = b | t
    return render.SpriteSheet(rgb, render.gray(rgb), mask)


_CHICKENS = render.SpriteSheet.from_art([list(p) for p in art.CHICKEN_ART], art.CHICKEN_RGB)
_DIGIT_MASKS = render.SpriteSheet.from_art([list(d) for d in art.DIGIT_ART], (255, 255, 255))
_LOGO = render.SpriteSheet.from_art([list(art.LOGO_ART)], art.SCORE_RGB)


def _draw_background(raster):
    """The picture that never changes: road, kerbs, lane lines, the logo."""
    c = raster.blank(art.ROAD_RGB)
    for (y, h), col in ((art.SCORE_BAND, art.ROAD_RGB), (art.TOP_KERB, art.KERB_RGB),
                        (art.BOTTOM_KERB, art.KERB_RGB)):
        c = render.draw_rect(c, raster, 0, y, render.SCREEN_W, h, col)
    for y, h in art.BLACK_ROWS:
        c = render.draw_rect(c, raster, 0, y, render.SCREEN_W, h, art.BLACK)
    dash = ((raster.xs >= art.DASH_X0) & ((raster.xs - art.DASH_X0) % art.DASH_PERIOD < art.DASH_LEN))
    for ys, col in ((art.LANE_LINE_YS, art.LANE_LINE_RGB), (art.MEDIAN_YS, art.MEDIAN_RGB)):
        for y in ys:
            c = render.paint(c, (raster.ys == y) & dash, col)
    c = render.draw_sprites(c, raster, _LOGO, 0, art.LOGO_XY[0], art.LOGO_XY[1], True)
    return c
