"""Seaquest's frame, phase by phase, as the cartridge runs it (README.md tells the game).

One ALE frame runs: the frame counter, the joystick, the game logic (using the collision latches
of the picture drawn on the previous frame), the set-up of the next picture, the picture itself
(which latches the collisions the next frame reads) and the overscan (sounds' timers, colours,
the point value, the divers' reset, animations, the random byte). Every number is a field of
:class:`~jaxtari.games.seaquest.constants.SeaquestConstants`, read through ``self.consts``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import Game, joystick
from jaxtari.games.seaquest import constants as k
from jaxtari.games.seaquest import objects
from jaxtari.games.seaquest.logic import (
    BYTE, DEFAULTS, EVERY_LANE, NONE, SIGN, add_points, colour_mods, fill_oxygen, fractional, lane_of, latches,
    pick, reset_obstacles, set_lane, spawn, where,
)
from jaxtari.games.seaquest.state import SeaquestState


class Seaquest(Game):
    name = "seaquest"
    # ALE's minimal set for Seaquest is all 18 actions
    minimal_actions = tuple(range(18))  # rule: action.minimal-set
    Constants = k.SeaquestConstants
    # measured: the cartridge's one score routine; every caller's points checked on ALE
    mechanics = ("add_points",)

    def _reset(self, key):
        c = self.consts
        if c.difficulty not in (0, 1):
            raise ValueError(f"seaquest: difficulty {c.difficulty} not available; difficulties: [0, 1]")
        i32 = jnp.int32
        lanes = jnp.zeros(k.NUM_LANES, jnp.int32)
        return SeaquestState(
            frame=i32(0), key=key, frame_count=i32(c.reset_frame_count), random=i32(c.reset_random),
            color_cycle=i32(0), game_over=i32(0), obstacle_x=lanes, pattern=lanes,
            nusiz_index=lanes, obstacle_colours=jnp.full(k.NUM_LANES, c.reset_lane_colour, jnp.int32),
            hit_lanes=jnp.arange(k.NUM_LANES, dtype=jnp.int32), torpedo_lane=i32(NONE), sub_lane=i32(NONE),
            ball_lane=i32(NONE), score=i32(0), reserve_subs=i32(c.start_reserve_subs),
            # rule: lives.begins-with-four-subs (three in reserve)
            level=i32(0), difficulty=i32(0), divers=i32(0), sub_x=i32(c.sub_start_x),
            missile_x=lanes, point_value=i32(c.point_value_base << 4),
            fractions=jnp.zeros(3, jnp.int32), sub_direction=i32(0), torpedo_direction=i32(0),
            attributes=lanes, shark_float=i32(0), obstacle_animation=i32(0),
            sub_animation=i32(0), sub_y=i32(c.sub_y_min), oxygen=i32(0),
            torpedo_x=i32(0), game_state=i32(k.GS_OXYGEN_FILL), death=i32(0), sound_pickup=i32(0),
            sound_shark=i32(0), sound_sub=i32(0), sound_torpedo=i32(0), diver_state=lanes,
            patrol_x=i32(0), patrol_hit=jnp.bool_(False), oxygen_warning=i32(0),
            speed_value=i32(0), shown_sub_animation=i32(0),
            shown_colours=jnp.full(k.NUM_LANES, c.reset_lane_colour, jnp.int32),
            shown_random=i32(c.reset_random),
        )

    def ale_start(self, state, timer):
        """The start ALE's reset_game leaves when the console's reset set the RIOT timer to
        ``timer`` (``reset`` gives the first reset_game's after a load, timer 65): outside
        ``late_start_timers`` the frame counter is one lower."""
        c = self.consts
        late = jnp.isin(timer, jnp.asarray(c.late_start_timers))
        return state.replace(frame_count=jnp.where(late, state.frame_count, state.frame_count - 1))

    # ---- swappable mechanics -----------------------------------------------------------------
    # rule: scoring.time-increase-score-10000, lives.reserve-subs-screen-time
    def add_points(self, s, points_bcd, cond=True):
        return add_points(s, points_bcd, cond, self.consts)

    # ---- game logic phases -------------------------------------------------------------------
    def _oxygen_bonus(self, s):
        """Surfaced with six divers: the oxygen left pays out (one unit every other frame, the
        level's points each), then one diver a 16 frames pays 500 x (level + 1, capped at 20),
        then the next wave starts (level and difficulty up, obstacles parked, oxygen refill)."""
        c = self.consts
        draining = s.oxygen != 0  # rule: scoring.more-oxygen-left-bonus
        even = (s.frame_count & 1) == 0
        pay = draining & even
        a = s.replace(oxygen_warning=jnp.where(pay, 0, s.oxygen_warning),
                      oxygen=jnp.where(pay, s.oxygen - 1, s.oxygen))
        a, _ = self.add_points(a, s.point_value, pay)
        # oxygen used up: every 16th frame one diver, else the reward sound fades
        tick = (s.frame_count & c.bonus_diver_mask) == 0
        fade = s.replace(sound_torpedo=s.sound_torpedo >> 1)
        diver = s.divers != 0
        b = s.replace(divers=s.divers - 1, sound_torpedo=jnp.int32(c.reward_sound))
        # rule: scoring.rescued-divers-start-50, scoring.point-value-increases-50, scoring.diver-value-cap
        times = jnp.minimum(s.level, c.diver_bonus_level_cap) + 1
        # the cartridge adds 500 once per level (a bonus sub at each 10,000 crossed): a loop,
        # not 20 unrolled additions, keeps the frame's program small
        b = jax.lax.fori_loop(0, times, lambda _, t: self.add_points(t, c.diver_bonus)[0], b)
        level = (s.level + 1) & BYTE  # rule: progression.six-divers-next-wave
        wave = s.replace(level=level, difficulty=jnp.where(s.difficulty >= level, s.difficulty,
                                                             s.difficulty + 1),
                         game_state=jnp.int32(k.GS_OXYGEN_FILL))
        wave = reset_obstacles(wave, c=c)
        done = where(diver, b, wave)
        return where(draining, a, where(tick, done, fade))

    def _collisions(self, s):
        """What last frame's picture latched: a diver or enemy missile met the sub, the torpedo
        hit an obstacle, a shark met its lane's diver, an obstacle hit the sub. Returns (state,
        whether an enemy missile hit: the frame then skips straight to the animations)."""
        c = self.consts
        bl = s.ball_lane
        ball = bl != NONE
        ball_sub = (lane_of(s.attributes, bl) & k.ATTR_SUB) != 0
        missile_hit = ball & ball_sub  # rule: lives.collision-explodes
        s_hit = s.replace(missile_x=set_lane(s.missile_x, bl, 0, missile_hit),
                          death=jnp.where(missile_hit, c.death_frames, s.death))
        rescue = ball & ~ball_sub & (s.divers < c.max_divers)  # rule: scoring.goal-retrieve-many-divers
        s = s_hit.replace(
            divers=jnp.where(rescue, s.divers + 1, s.divers),
            sound_pickup=jnp.where(rescue, c.pickup_sound, s.sound_pickup),
            attributes=set_lane(s.attributes, bl, s.attributes & k.ATTR_LOW, rescue),
            missile_x=set_lane(s_hit.missile_x, bl, 0, rescue),
            diver_state=set_lane(s.diver_state, bl, k.DIVER_RESCUED, rescue))
        go = ~missile_hit
        # the torpedo
        tl, tx = s.torpedo_lane, s.torpedo_x
        # rule: scoring.blasting-enemy-sub-killer
        shot = go & (tl != NONE) & (tx >= c.torpedo_hit_min) & (tx < c.torpedo_hit_max)
        s = s.replace(torpedo_x=jnp.where(shot, 0, s.torpedo_x))
        s, carry = self.add_points(s, s.point_value, shot)
        attrs = lane_of(s.attributes, tl) & k.ATTR_LOW
        shot_sub = (attrs & k.ATTR_SUB) != 0
        s = s.replace(attributes=set_lane(s.attributes, tl, attrs, shot),
                      sound_sub=jnp.where(shot & shot_sub, c.sub_shot_sound, s.sound_sub),
                      sound_shark=jnp.where(shot & ~shot_sub, c.shark_shot_sound, s.sound_shark))
        offset = (((tx + 8 + carry.astype(jnp.int32)) & BYTE) - lane_of(s.obstacle_x, tl)) & BYTE
        s = self._kill_copy(s, tl, offset >> 4, shot)
        # a shark meets its lane's diver: it speeds up
        mx = s.missile_x
        meets = (go & (s.hit_lanes != NONE) & ((s.attributes & k.ATTR_SUB) == 0)
                 & (mx >= c.shark_diver_min) & (mx < c.shark_diver_max))
        s = s.replace(attributes=jnp.where(meets, s.attributes | k.ATTR_FAST, s.attributes))
        # an obstacle hit the sub: points for it, and the sub dies
        sl = s.sub_lane
        crash = go & (sl != NONE)  # rule: lives.collision-explodes
        s = s.replace(sub_lane=jnp.where(crash, NONE, s.sub_lane),
                      death=jnp.where(crash, c.death_frames, s.death))
        s, _ = self.add_points(s, s.point_value, crash)
        a = s.sub_x + c.sub_width - lane_of(s.obstacle_x, sl)
        a = jnp.where(a < 0, 7 << 3, a & BYTE)
        s = self._kill_copy(s, sl, (a >> 3) + 3, crash)
        return s, missile_hit

    def _kill_copy(self, s, lane, index, cond):
        """Remove the hit copy from a lane's pattern; an emptied lane clears its latch, and an
        emptied shark lane gets a new group at once (subs' lanes wait for their missile)."""
        c = self.consts
        mask = pick(c.killed_copy_masks, index)
        pattern = lane_of(s.pattern, lane) & mask
        s = s.replace(pattern=set_lane(s.pattern, lane, pattern, cond))
        emptied = cond & (pattern == 0)
        s = s.replace(hit_lanes=set_lane(s.hit_lanes, lane, NONE, emptied))
        shark = (lane_of(s.attributes, lane) & k.ATTR_SUB) == 0
        return spawn(s, lane, s.random, emptied & shark, self.consts)

    def _animate(self, s):
        c = self.consts
        fc = s.frame_count
        t = (fc >> 2) & 0xF
        float_ = jnp.where(t < 8, t, t ^ 0xF)
        tick = (fc & c.obstacle_animation_mask) == 0
        anim = jnp.where(tick, s.obstacle_animation - 1, s.obstacle_animation)
        anim = jnp.where(anim < 0, c.obstacle_animation_frames - 1, anim)
        bite = (fc >> 1) & 1
        a = s.attributes
        sub = (a & k.ATTR_SUB) != 0
        new = jnp.where(sub, (a & (k.ATTR_LEFT | k.ATTR_SUB)) | s.sub_animation,
                        jnp.where(a >= k.ATTR_FAST, (a & (k.ATTR_FAST | k.ATTR_LEFT)) | bite,
                                  (a & k.ATTR_LEFT) | anim))
        return s.replace(shark_float=float_, obstacle_animation=anim, attributes=new)

    def _dying(self, s):
        """The death animation: every 4th frame one step; the oxygen bar empties at 15; at 0 the
        level restarts with one diver less and a reserve sub used, or the game ends."""
        c = self.consts
        s = s.replace(torpedo_x=jnp.int32(0), oxygen_warning=jnp.int32(0))
        step = (s.frame_count & c.death_step_mask) == 0
        death = jnp.where(step, s.death - 1, s.death)
        s = s.replace(patrol_x=jnp.where(step, 0, s.patrol_x), death=death)
        s = s.replace(oxygen=jnp.where(step & (death != 0) & (death < c.death_oxygen_empty), 0,
                                       s.oxygen))
        restart = step & (death == 0)
        r = reset_obstacles(s.replace(sub_direction=jnp.int32(0), sub_x=jnp.int32(c.sub_start_x),
                                      sub_y=jnp.int32(c.sub_y_min)), c=c)
        r = r.replace(divers=jnp.where(r.divers > 0, r.divers - 1, 0),
                      attributes=r.attributes & k.ATTR_LOW,
                      game_state=r.game_state | k.GS_OXYGEN_FILL)
        last = r.reserve_subs == 0  # rule: termination.last-sub-lost
        r = r.replace(game_over=jnp.where(last, (r.game_over + 1) & BYTE, r.game_over),
                      sub_y=jnp.where(last, 0, r.sub_y),
                      reserve_subs=jnp.where(last, 0, r.reserve_subs - 1))
        return where(restart, r, s)

    def _move_obstacles(self, s):
        """Every lane at once (no lane reads another's): the obstacles, then each lane's diver
        (shark lanes) or enemy missile (sub lanes)."""
        c = self.consts
        obstacle_speed = s.difficulty + c.obstacle_speed_base
        speeds = jnp.stack([obstacle_speed >> 1, obstacle_speed,
                            s.difficulty + c.missile_speed_base]) & BYTE
        whole, frac = fractional(s, speeds)
        diver_speed, speed, missile_speed = whole[0], whole[1], whole[2]
        s = s.replace(fractions=frac, speed_value=speeds[0])
        a = s.attributes
        left = (a & k.ATTR_LEFT) != 0
        x = jnp.where(left, s.obstacle_x - speed, s.obstacle_x + speed) & BYTE
        out = jnp.where(left, (x & c.obstacle_out_mask) == c.obstacle_out_left,
                        (x & c.obstacle_out_mask) == c.obstacle_out_right)
        speed_up = jnp.where(out, s.random, a >> 4)
        a = jnp.where(out, ((a & k.ATTR_SUB) ^ k.ATTR_SUB) | (s.random & k.ATTR_LEFT), a)
        a = jnp.where(out, a & k.ATTR_LOW, a)
        x = jnp.where(out, jnp.where((a & k.ATTR_LEFT) != 0, c.obstacle_left_start,
                                     c.obstacle_right_start), x)
        d = s.diver_state
        d = jnp.where(out & ((d & SIGN) == 0) & (s.random >= c.diver_spawn_random),
                      k.DIVER_SWIMMING, d)
        s = s.replace(attributes=a, obstacle_x=x, diver_state=d)
        left = (a & k.ATTR_LEFT) != 0
        sub = (a & k.ATTR_SUB) != 0
        mx = s.missile_x
        # shark lanes: the diver swims at the diver speed, or the obstacles' once its shark sped up
        swimming = ~sub & (((d - 1) & BYTE) < SIGN)
        v = jnp.where((speed_up & 1) != 0, speed, diver_speed)
        right_pos = (mx + v) & BYTE
        left_pos = (jnp.where(mx == 0, k.SCREEN_RIGHT, mx) - v) & BYTE
        left_pos = jnp.where(left_pos == 0, k.SCREEN_RIGHT, left_pos)
        pos = jnp.where(left, left_pos, right_pos)
        moves = swimming & ~(left & (v == 0))
        gone = pos >= k.SCREEN_RIGHT
        diver_x = jnp.where(moves, jnp.where(gone, 0, pos), mx)
        d = jnp.where(moves & gone, k.DIVER_NONE, d)
        # sub lanes: the missile leaves from the sub's middle copy's side when in range
        idle = sub & (mx == 0)
        offset = pick(c.missile_offsets, (a & k.ATTR_LEFT) | s.pattern)
        launch_x = (s.obstacle_x + offset) & BYTE
        # rule: spawning.enemy-sub-missiles
        in_range = ((launch_x - c.missile_window_low) & BYTE) < c.missile_window
        if not c.enemy_missiles:
            in_range = jnp.zeros_like(in_range)
        flying = sub & ((mx != 0) | ((s.pattern != 0) & in_range))
        start = jnp.where(mx == 0, launch_x, mx)
        moved = jnp.where(left, start - missile_speed, start + missile_speed) & BYTE
        landed = flying & (moved < k.SCREEN_RIGHT)
        respawn = sub & ~landed & (s.pattern == 0) & (idle | flying)
        missile_x = jnp.where(landed, moved, 0)
        lanes_x = jnp.where(sub, missile_x, diver_x)
        s = s.replace(missile_x=lanes_x, diver_state=d)
        return spawn(s, EVERY_LANE, s.random | SIGN, respawn, c)

    def _surface(self, s):
        """At the surface with oxygen not full: no diver - the sub is lost; six - the bonus;
        else the oxygen refills and one diver is given up (the difficulty rises). Returns
        (state, whether the frame goes on to move the sub)."""
        c = self.consts
        surfacing = (s.sub_y == c.sub_y_min) & (s.oxygen != c.oxygen_max)
        none = surfacing & (s.divers == 0)  # rule: lives.surface-without-divers
        six = surfacing & (s.divers == c.max_divers)
        refill = surfacing & ~none & ~six  # rule: progression.surface-gives-up-diver
        s = s.replace(death=jnp.where(none, c.death_frames, s.death),
                      game_state=jnp.where(six, k.GS_SURFACED_SIX, s.game_state))
        f, full = fill_oxygen(s, refill, c)
        done = refill & full
        f = f.replace(divers=jnp.where(done, f.divers - 1, f.divers),
                      difficulty=jnp.where(done, (f.difficulty + 1) & BYTE, f.difficulty))
        s = where(refill, f, s)
        return s, ~surfacing | done

    def _move_sub(self, s, joy):
        c = self.consts
        # rule: action.control-sub-able-move
        y = jnp.where(joy.up & (s.sub_y >= c.sub_y_min + 1), s.sub_y - 1, s.sub_y)
        y = jnp.where(joy.down & (y < c.sub_y_max), y + 1, y)
        direction = jnp.where(joy.left, k.REFLECT, s.sub_direction)
        x = jnp.where(joy.left & (s.sub_x >= c.sub_x_min + 1), s.sub_x - 1, s.sub_x)
        direction = jnp.where(joy.right, 0, direction)
        x = jnp.where(joy.right & (x < c.sub_x_max), x + 1, x)  # rule: physics.sub-limits
        s = s.replace(sub_y=y, sub_x=x, sub_direction=direction)
        # the torpedo
        idle = s.torpedo_x == 0
        tdir = jnp.where(idle, s.sub_direction, s.torpedo_direction)
        launch = idle & joy.fire & (s.sub_y >= c.torpedo_min_y)  # rule: action.no-torpedo-on-surface
        flying = ~idle | launch
        sound = jnp.where(launch, c.torpedo_sound, s.sound_torpedo)
        sound = jnp.where(flying & ((s.frame_count & c.torpedo_sound_mask) == 0), (sound - 1) & BYTE, sound)
        base = jnp.where(launch, s.sub_x + c.torpedo_launch_offset, s.torpedo_x)
        speed = c.torpedo_speed - (c.torpedo_pro_slowdown if c.difficulty else 0)
        tx = jnp.where(tdir != 0, base - speed, base + speed) & BYTE
        tx = jnp.where(tx >= k.SCREEN_RIGHT, 0, tx)
        s = s.replace(torpedo_direction=tdir, sound_torpedo=sound,
                      torpedo_x=jnp.where(flying, tx, s.torpedo_x))
        # the oxygen drains under water, every 32nd frame; empty: the sub is lost
        # rule: timing.oxygen-decreases, lives.oxygen-runs-out
        drain = (s.sub_y >= c.oxygen_drain_y) & ((s.frame_count & c.oxygen_drain_mask) == 0)
        if not c.oxygen_drains:
            drain = jnp.zeros_like(drain)
        oxygen = jnp.where(drain, (s.oxygen - 1) & BYTE, s.oxygen)
        return s.replace(oxygen=oxygen,
                         death=jnp.where(drain & (oxygen == 0), c.death_frames, s.death))

    def _play(self, s, joy):
        """From the collision latches on (also what runs once the game is over)."""
        playing = s.game_over == 0
        s, missile_hit = self._collisions(s)
        s = self._animate(s)
        dying = playing & (s.death != 0)
        moved = self._move_obstacles(s)
        surfaced, goes_on = self._surface(moved)
        sub = self._move_sub(surfaced, joy)
        after = where(playing & goes_on, sub, where(playing, surfaced, moved))
        return where(dying, self._dying(s), after)

    def _process(self, s, joy):
        """GameProcessing: the six-diver bonus, else the patrol sub, the oxygen refill (which
        brings the obstacles when full), else play; once the game is over, play only (from the
        collision latches on). Play is traced once for both (its input picked): a second copy of it
        made the frame's program larger and slower to compile."""
        c = self.consts
        playing = s.game_over == 0
        lvl = jnp.minimum(s.level, c.patrol_level_cap)
        delay = pick(c.patrol_delay, jnp.maximum(lvl - c.patrol_first_level, 0))
        # rule: spawning.patrol-sub-from-wave-2
        step = (s.level >= c.patrol_first_level) & ((s.frame_count & delay) == 0)
        p = s.replace(patrol_x=jnp.where(step, (s.patrol_x - 1) & BYTE, s.patrol_x))
        hit = p.patrol_hit
        p = p.replace(patrol_x=jnp.where(hit, 0, p.patrol_x),
                      game_state=jnp.where(hit, 0, p.game_state),
                      death=jnp.where(hit, c.death_frames, p.death))
        filling = (p.game_state & k.GS_OXYGEN_FILL) != 0  # rule: timing.opening-refill
        f, full = fill_oxygen(p, filling, c)
        ready = filling & full
        value = f.frame_count
        for lane in range(k.NUM_LANES - 1, -1, -1):
            f = spawn(f, lane, value, ready, c)  # rule: spawning.enemy-lanes
            value = value >> 1
        f = f.replace(torpedo_x=jnp.where(ready, 0, f.torpedo_x),
                      game_state=jnp.where(ready, f.game_state ^ k.GS_OXYGEN_FILL, f.game_state))
        played = self._play(where(playing, p, s), joy)
        bonus = (s.game_state & k.GS_OXYGEN_BONUS) != 0
        processed = where(bonus, self._oxygen_bonus(s), where(filling, f, played))
        return where(playing, processed, played)

    def _overscan(self, s):
        c = self.consts
        quiet = s.sound_pickup != 0
        s = s.replace(sound_pickup=jnp.where(quiet, s.sound_pickup - 1, s.sound_pickup),
                      sound_shark=jnp.where(quiet, 0, s.sound_shark),
                      sound_sub=jnp.where(quiet, 0, s.sound_sub),
                      oxygen_warning=jnp.where(quiet, 0, s.oxygen_warning))
        warn = s.oxygen_warning != 0
        shark = jnp.where(warn, 1, jnp.where(s.sound_shark != 0, s.sound_shark - 1, 0))
        subs = jnp.where(warn, 1, jnp.where(s.sound_sub != 0, s.sound_sub - 1, 0))
        # rule: scoring.time-surface-divers-value, scoring.enemy-value-cap
        point = jnp.minimum((s.level + c.point_value_base) & BYTE, c.point_value_cap) << 4
        rescued = jnp.all((s.diver_state & SIGN) != 0)
        over = s.game_over != 0
        g = jnp.where(over, (s.game_over - 1) & BYTE, s.game_over)
        g = jnp.where(over & (g == 0), BYTE, g)
        fc = s.frame_count
        anim = jnp.where((fc & c.sub_animation_mask) == 0, s.sub_animation - 1, s.sub_animation)
        anim = jnp.where(anim < 0, c.sub_animation_frames - 1, anim)
        r = s.random
        for _ in range(3):
            bit = ((((r << 3) & BYTE) ^ r) & SIGN) != 0
            r = ((r << 1) & BYTE) | bit.astype(jnp.int32)
        eor, mask = colour_mods(s.color_cycle)
        kind_colour = jnp.where((s.attributes & k.ATTR_SUB) != 0, c.sub_colour,
                                pick(c.shark_colours, s.difficulty & 7))
        return s.replace(sound_shark=shark, sound_sub=subs, point_value=point,
                         obstacle_colours=(kind_colour ^ eor) & mask,
                         diver_state=jnp.where(rescued, 0, s.diver_state), game_over=g,
                         sub_animation=anim, random=jnp.where((fc & 7) == 0, r, s.random))

    def _step(self, state, ale_action):
        c = self.consts
        joy = joystick(ale_action)
        s = state
        fc = (s.frame_count + 1) & BYTE
        cc = jnp.where(fc == 0, (s.color_cycle + 1) & BYTE, s.color_cycle)
        cc = jnp.where((fc == 0) & (cc == 0), SIGN, cc)
        cc = jnp.where(joy.up | joy.down | joy.left | joy.right, 0, cc)
        s = s.replace(frame_count=fc, color_cycle=cc)
        s = self._process(s, joy)
        # the next picture: the copies shown, then what it latches
        shown = jnp.where(s.obstacle_x >= SIGN, pick(c.nusiz_masks, (s.obstacle_x - SIGN) >> 4),
                          c.nusiz_masks[-1])
        s = s.replace(nusiz_index=s.pattern & shown)
        s = latches.latch(s, c)
        s = s.replace(shown_sub_animation=s.sub_animation, shown_colours=s.obstacle_colours,
                      shown_random=s.random)
        s = self._overscan(s)
        s = s.replace(frame=state.frame + 1)
        return s, s.score - state.score

    # ---- episode -------------------------------------------------------------------------------
    def is_terminal(self, state):  # rule: termination.last-sub-lost
        return state.game_over != 0

    def score(self, state):
        return state.score

    def lives(self, state):
        # ALE's lives(): the reserve subs + 1, and 0 once the game is over (measured)
        return jnp.where(state.game_over != 0, 0, state.reserve_subs + 1)

    def objects(self, state):
        return objects.objects(self, state)

    def _swap(self):
        """The picture's sprite swap (a visual mod: the draw's ``swap``), None when off."""
        c = self.consts
        return (c.sub_colour, c.shark_colours) if c.swap_enemy_sprites else None

    def render(self, state):
        from jaxtari.games.seaquest.draw import render

        return render(state, self._swap(), self.consts)

    def render_gray84(self, state):
        from jaxtari.games.seaquest.draw import render_gray84

        return render_gray84(state, self._swap(), self.consts)

    def signals(self, state):
        return objects.signals(self, state)


def state_from_ram(ram, *, frame: int = 0, key=None) -> SeaquestState:
    """The state that mirrors a RAM snapshot of the cartridge (128 bytes, ALE's ``getRAM``): every
    field is its bytes (see the field comments), so a state reached on ALE (deep play, pokes)
    continues here exactly. ``frame`` (frames since reset) is not in RAM."""
    import jax

    r = np.asarray(ram, np.int64)

    def lanes(base, n=k.NUM_LANES):
        return jnp.asarray(r[base:base + n], jnp.int32)

    def byte(a):
        return jnp.int32(r[a])

    score = int("".join(f"{int(v):02x}" for v in r[k.RAM_SCORE:k.RAM_SCORE + 3]))
    return SeaquestState(
        frame=jnp.int32(frame), key=jax.random.key(0) if key is None else key,
        frame_count=byte(k.RAM_FRAME_COUNT), random=byte(k.RAM_RANDOM),
        color_cycle=byte(k.RAM_COLOR_CYCLE), game_over=byte(k.RAM_GAME_OVER),
        obstacle_x=lanes(k.RAM_OBSTACLE_X), pattern=lanes(k.RAM_PATTERN),
        nusiz_index=lanes(k.RAM_NUSIZ_INDEX), obstacle_colours=lanes(k.RAM_OBSTACLE_COLOURS),
        hit_lanes=lanes(k.RAM_COLLISIONS),
        torpedo_lane=byte(k.RAM_COLLISIONS + 4), sub_lane=byte(k.RAM_COLLISIONS + 5),
        ball_lane=byte(k.RAM_COLLISIONS + 6), score=jnp.int32(score),
        reserve_subs=byte(k.RAM_RESERVE_SUBS), level=byte(k.RAM_LEVEL),
        difficulty=byte(k.RAM_DIFFICULTY), divers=byte(k.RAM_DIVERS), sub_x=byte(k.RAM_SUB_X),
        missile_x=lanes(k.RAM_MISSILE_X), point_value=byte(k.RAM_POINT_VALUE),
        fractions=lanes(k.RAM_FRACTIONS, 3), sub_direction=byte(k.RAM_SUB_DIRECTION),
        torpedo_direction=byte(k.RAM_TORPEDO_DIRECTION), attributes=lanes(k.RAM_ATTRIBUTES),
        shark_float=byte(k.RAM_SHARK_FLOAT), obstacle_animation=byte(k.RAM_OBSTACLE_ANIMATION),
        sub_animation=byte(k.RAM_SUB_ANIMATION), sub_y=byte(k.RAM_SUB_Y),
        oxygen=byte(k.RAM_OXYGEN), torpedo_x=byte(k.RAM_TORPEDO_X),
        game_state=byte(k.RAM_GAME_STATE), death=byte(k.RAM_DEATH),
        sound_pickup=byte(k.RAM_SOUND_PICKUP), sound_shark=byte(k.RAM_SOUND_SHARK),
        sound_sub=byte(k.RAM_SOUND_SUB), sound_torpedo=byte(k.RAM_SOUND_TORPEDO),
        diver_state=lanes(k.RAM_DIVER_STATE), patrol_x=byte(k.RAM_PATROL_X),
        patrol_hit=jnp.bool_(bool(r[k.RAM_PATROL_HIT] & SIGN)),
        oxygen_warning=byte(k.RAM_OXYGEN_WARNING), speed_value=byte(k.RAM_SPEED_VALUE),
        # the picture's: the animation frame before this frame's overscan stepped it; the lane
        # colours as RAM holds them (the last overscan's are not in RAM: they differ only on a
        # frame whose overscan changed a lane's kind or the difficulty)
        shown_sub_animation=jnp.int32(
            (int(r[k.RAM_SUB_ANIMATION]) + 1) % DEFAULTS.sub_animation_frames
            if int(r[k.RAM_FRAME_COUNT]) & 3 == 0 else int(r[k.RAM_SUB_ANIMATION])),
        shown_colours=lanes(k.RAM_OBSTACLE_COLOURS),
        shown_random=byte(k.RAM_RANDOM),  # differs on a frame whose overscan stepped it
    )
