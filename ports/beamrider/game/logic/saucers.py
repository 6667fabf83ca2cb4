"""The three enemy-saucer slots on the odd frames (after the clock), sector 1's paths.

Measured on ALE (ports/beamrider/NOTES.md, "The saucers' paths"): every slot runs a small
program whose step is ram[17..19]; each move is a signed speed in sixteenths with the grid clock's
dither (``dithered``). The slots are run last to first (slot 2, 1, 0), so a slot sees the slots
after it already moved this frame (and the grid-carried ones with this frame's carry) - it
matters for the dive's clearance test and the held turn.

- horizon (kinds drifting left / right): x 1 a logic frame; a slot drifting left past the left end
  of its own stretch of the horizon turns right and skips its count that frame; one drifting right
  past its right end turns left and counts as usual. The count runs down to 1; then the slot dives
  if no other slot is coming down (kinds 4/5) above the clearance depth, else it restarts at 5.
- dive: the depth takes the grid's position, the parameter the beam aimed at (the next target
  towards the centre, strictly), the kind says which way that is (4 left, 5 right).
- entry (step 0): x towards the target at 15/16, depth with the grid; on the target, step 1 and the
  parameter becomes a mark 32 below the depth.
- ride (step 1): depth at 28/16, the mark with the grid; once the depth reaches the mark, step 2
  and the parameter the target two places on the way the dive went.
- cross (step 2): x at 22/16 (stopped on the target), depth with the grid; on the target, step 3
  and the parameter a mark 128 above the depth.
- climb (step 3): depth at -29/16, the mark with the grid; once the mark is within 2 of the
  depth, step 4 (the depth moves -13/16 that frame) and the parameter the beam one back.
- re-cross (step 4): x at 17/16 towards it, depth with the grid; on it, kind 1, step 5.
- return (kind 1): depth at -77/16; above the horizon depth the slot is back on the horizon,
  drawing its direction and count from the random number as at the sector's start.
- explosion (kinds 6..11, after a hit: logic/hits.py): a step each time the count turns odd, the
  parameter counting down to 0, the depth rising 2; after 11 the slot is empty for a logic frame,
  then back on the horizon at x 128 as at the spawn (its step kept) - while 3 or more enemies
  are left in the sector; with fewer it stays empty.
- a held turn: a ride or climb reaching its mark keeps its step while another slot stands at the
  depth it arrives at, its mark moved 32 on from there. "Stands", here and in the dive clearance:
  a slot run earlier this frame as it moved, a later one as it stands, but one the grid carries
  (entry, cross, re-cross) with this frame's carry taken.
- wave 4 (the sweep, steps 9..12): the dive aims at the wave-2 target, enters at 17/16 (x stops on
  the target), rides at 28/16 plus one while short of the mark, then sweeps three targets on at
  13/16 (depth with the grid) and climbs back (kind 1, step 12).
- wave 5 (the zigzag, steps 13..17): the dive aims one target beyond the wave-2 one, enters at
  13/16, crosses one target back at 19/16, rides at 34/16 to its mark, crosses one target on at
  19/16 and climbs back (kind 1, step 17).
- wave 6 (the weave, steps 18..22): the dive aims as wave 5's and enters alike, then crosses one
  target back, one on and one back at 8/16 and climbs back (kind 1, step 22).
- the bottom (``at_the_bottom``, even frames): a saucer whose depth reaches the limit for its x
  (210 over the beams, less towards the screen's edges) is gone, unless enough other objects stand
  above it; then it waits, and the next odd frame puts it back on the horizon instead of moving it.
- wave 7 (the plunge, steps 23..26): the dive aims at the wave-2 target, enters at 13/16, rides at
  48/16 to a mark 64 below, crosses one target on at 21/16 and climbs back (kind 1, step 26).
- wave 8 (the switchback, steps 27..33): the dive aims two targets beyond the wave-2 one, enters
  at 25/16, rides at 48/16 to a mark 64 below as wave 7's, crosses one target back at 29/16,
  climbs at -29/16 to a mark 32 above (turning as wave 2's climb), crosses one target on and one
  back at 33/16 and climbs back (kind 1, step 33).
Not modelled yet: the programs of waves 9 and later (steps 34..; the port runs wave 8's).
Waves (``pace``): ram[8] times them (90, one less every 16 frames, 22 less a kill); a spent timer
starts the next wave (ram[16] + 1, the horizon count's base ram[6] - 2). From wave 3 a dive starts
at step 6 aiming two targets further, rides at step 7 (34/16) and climbs straight back (kind 1,
step 8); wave 4 runs the sweep (steps 9..12), wave 5 the zigzag (steps 13..17), wave 6 on the
weave (steps 18..22)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..state import SaucerState
from .dither import dithered
from ..constants import BYTE


def spawn(k, random, count_base):
    """A slot's start on the horizon, from the random number just stepped: its direction from the
    top bit, its count from the low nibble over the wave's base (ram[6])."""
    kind = jnp.where((random & k.horizon_right_bit) != 0, k.kind_horizon_right, k.kind_horizon_left)
    return kind, count_base + (random & k.horizon_count_mask)


def pace(k, s: SaucerState, count) -> SaucerState:
    """The wave timer's tick (every 16 frames): down by one, or the next wave once it is spent."""
    tick = (count % k.timer_tick_counts) == 0
    spent = (s.timer == 0) | (s.timer > BYTE >> 1)
    return s.replace(timer=jnp.where(tick, jnp.where(spent, k.wave_timer, s.timer - 1), s.timer),
                     wave=jnp.where(tick & spent, s.wave + 1, s.wave),
                     count_base=jnp.where(tick & spent, s.count_base - k.count_base_step, s.count_base))


def _slot(k, s: SaucerState, i: int, count, grid_move, grid, random, enemies_left) -> SaucerState:
    """Slot ``i``'s odd-frame update, the other slots as they stand."""
    kind, step, x, depth, param = s.kind[i], s.step[i], s.x[i], s.depth[i], s.param[i]
    targets = jnp.asarray(k.saucer_targets, jnp.int32)
    right = kind == k.kind_dive_right
    toward = jnp.where(right, 1, -1)

    # ---- the horizon
    on_horizon = (kind == k.kind_horizon_left) | (kind == k.kind_horizon_right)
    hx = x + jnp.where(kind == k.kind_horizon_right, 1, -1)
    hkind = jnp.where((kind == k.kind_horizon_right) & (hx > k.horizon_right_end[i]),
                      k.kind_horizon_left, kind)
    bounce = (hkind == k.kind_horizon_left) & (hx < k.horizon_left_end[i])
    # the other slots' depths as this one sees them: the slots not yet run this frame count as
    # they stand, except those carried by the grid (entry, cross, re-cross), which count with this
    # frame's carry already taken (measured: the dive clearance and the blocked lateral move,
    # NOTES.md "The slots' order within a frame")
    index = jnp.arange(3)
    others = index != i
    coming = (s.kind == k.kind_dive_left) | (s.kind == k.kind_dive_right)
    carried = coming & ((s.step == k.step_entry) | (s.step == k.step_long_entry)
                        | (s.step == k.step_cross) | (s.step == k.step_recross)
                        | (s.step == k.step_sweep_entry) | (s.step == k.step_sweep_cross)
                        | (s.step == k.step_zig_entry) | (s.step == k.step_zig_cross)
                        | (s.step == k.step_zag_cross) | (s.step == k.step_weave_entry)
                        | (s.step == k.step_weave_back) | (s.step == k.step_weave_on)
                        | (s.step == k.step_weave_back_again) | (s.step == k.step_plunge_entry)
                        | (s.step == k.step_plunge_cross) | (s.step == k.step_switch_entry)
                        | (s.step == k.step_switch_back) | (s.step == k.step_switch_on)
                        | (s.step == k.step_switch_back_again))
    standing = jnp.where((index < i) & carried, (s.depth + grid_move) & BYTE, s.depth)
    clear = ~jnp.any(others & coming & (standing < k.dive_clearance_depth))
    due = ~bounce & (param == 1)
    dive = due & clear
    aim = jnp.where(hx < k.centre_x,
                    jnp.min(jnp.where(targets > hx, targets, BYTE)),
                    jnp.max(jnp.where(targets < hx, targets, 0)))
    switchback = s.wave >= k.switchback_wave
    plunge = (s.wave >= k.plunge_wave) & ~switchback
    weave = (s.wave >= k.weave_wave) & ~plunge
    zigzag = (s.wave >= k.zigzag_wave) & ~weave & ~plunge
    sweep = (s.wave >= k.sweep_wave) & ~zigzag
    long_dive = (s.wave >= k.long_dive_wave) & ~sweep & ~zigzag
    beyond = jnp.select([long_dive | switchback, zigzag | weave], [k.long_dive_reach, k.zigzag_dive_reach], 0)
    reach = jnp.where(hx < k.centre_x, beyond, -beyond)
    aim = targets[jnp.clip(jnp.argmax(targets == aim) + reach, 0, len(k.saucer_targets) - 1)]
    h = dict(kind=jnp.where(bounce, k.kind_horizon_right,
                            jnp.where(dive, jnp.where(aim > hx, k.kind_dive_right, k.kind_dive_left),
                                      hkind)),
             step=jnp.where(dive, jnp.select([switchback, plunge, weave, zigzag, sweep, long_dive],
                                             [k.step_switch_entry, k.step_plunge_entry, k.step_weave_entry, k.step_zig_entry,
                                              k.step_sweep_entry, k.step_long_entry],
                                             k.step_entry), step), x=hx,
             depth=jnp.where(dive, grid, depth),
             param=jnp.where(bounce, param, jnp.where(dive, aim, jnp.where(
                 due, k.horizon_count_restart, param - 1))))

    # ---- coming down and back up (kinds 4/5)
    here = jnp.argmax(targets == x)
    last = len(k.saucer_targets) - 1
    zig_entry = (step == k.step_zig_entry) | (step == k.step_weave_entry)
    switch_entry = step == k.step_switch_entry
    plunge_entry = (step == k.step_plunge_entry) | switch_entry     # both lead into a ride to a mark
    ex = x + dithered(k, toward * jnp.select([step == k.step_sweep_entry, zig_entry, switch_entry, plunge_entry],
                                             [k.sweep_entry_x_speed, k.zig_entry_x_speed, k.switch_entry_x_speed,
                                              k.plunge_entry_x_speed],
                                             k.entry_x_speed), count)
    ex = jnp.where(right, jnp.minimum(ex, param), jnp.maximum(ex, param))   # x stops on the target
    entered = ex == param
    # wave 5's and 6's entries turn into a cross one target back; the others into a ride
    entry = dict(kind=kind, step=jnp.where(entered, step + 1, step), x=ex, depth=depth + grid_move,
                 param=jnp.where(entered, jnp.where(zig_entry, targets[jnp.clip(jnp.argmax(targets == param) - toward,
                                                                                 0, last)],
                                                    depth + grid_move + jnp.select([switch_entry, plunge_entry],
                                                                                   [k.switch_ride_lead, k.plunge_ride_lead],
                                                                                   k.ride_lead)), param))

    # a lateral move (the ride's turn into the cross, the climb's into the re-cross) waits while
    # another slot (any kind) stands at the very depth this one arrives at (NOTES.md, "The
    # blocked lateral move")
    occupied = lambda d: jnp.any(others & (standing == (d & BYTE)))

    switch_ride = step == k.step_switch_ride
    plunge_ride = (step == k.step_plunge_ride) | switch_ride         # both stop on their mark
    rd = depth + dithered(k, jnp.select([(step == k.step_long_ride) | (step == k.step_zig_ride), switch_ride,
                                         plunge_ride],
                                        [k.long_ride_depth_speed, k.switch_ride_depth_speed,
                                         k.plunge_ride_depth_speed], k.ride_depth_speed),
                          count)
    mark = param + grid_move
    # wave 4's ride goes one further when its wave-2 move leaves it short of the mark; wave 7's
    # stops on the mark (measured: 12 of 12 turn frames listed)
    rd = jnp.where((step == k.step_sweep_ride) & (rd < mark), rd + k.sweep_ride_extra, rd)
    rd = jnp.where(plunge_ride, jnp.minimum(rd, mark), rd)
    long_ride = step == k.step_long_ride
    held = ~long_ride & occupied(rd)
    crosses = (rd >= mark) & ~held
    sweep_ride = step == k.step_sweep_ride
    zig_ride = step == k.step_zig_ride
    span = jnp.select([sweep_ride, zig_ride, switch_ride, plunge_ride],
                      [k.sweep_reach, k.zigzag_dive_reach, k.switch_back_reach, k.plunge_reach], k.cross_reach)
    ride = dict(kind=jnp.where(crosses & long_ride, k.kind_climber, kind),
                step=jnp.where(crosses, jnp.select([long_ride, sweep_ride, zig_ride, switch_ride, plunge_ride],
                                                   [k.step_long_return, k.step_sweep_cross, k.step_zag_cross,
                                                    k.step_switch_back, k.step_plunge_cross],
                                                   k.step_cross), step),
                x=x, depth=rd,
                param=jnp.where(crosses & ~long_ride,
                                targets[jnp.clip(here + span * toward, 0, last)],
                                jnp.where((rd >= mark) & held, rd + k.block_lead, mark)))

    # the crossings that end in a climb: wave 2's (step 2) and wave 8's one target back (step 29)
    switch_back = step == k.step_switch_back
    cdir = jnp.where(param > x, 1, -1)
    cx = x + dithered(k, cdir * jnp.where(switch_back, k.switch_back_x_speed, k.cross_x_speed), count)
    cx = jnp.where(cdir > 0, jnp.minimum(cx, param), jnp.maximum(cx, param))
    crossed = cx == param
    cross = dict(kind=kind, step=jnp.where(crossed, jnp.where(switch_back, k.step_switch_climb, k.step_climb), step),
                 x=cx, depth=depth + grid_move,
                 param=jnp.where(crossed, (depth + grid_move - jnp.where(switch_back, k.switch_climb_lead,
                                                                         k.climb_lead)) & BYTE, param))

    # wave 2's climb (step 3) and wave 8's (step 30) alike, but for where the turn leads
    switch_climb = step == k.step_switch_climb
    met = param >= depth - k.climb_meet
    cd = depth + dithered(k, jnp.where(met, k.turn_depth_speed, k.climb_depth_speed), count)
    turns = met & ~occupied(cd)
    climb = dict(kind=kind, step=jnp.where(turns, jnp.where(switch_climb, k.step_switch_on, k.step_recross), step),
                 x=x, depth=cd,
                 param=jnp.where(turns, jnp.where(switch_climb, targets[jnp.clip(here + k.switch_on_reach * toward,
                                                                                  0, last)],
                                                  x - toward * k.beam_step),
                                 jnp.where(met, cd - k.block_lead, param + grid_move)))

    # the other crossings: wave 2's re-cross, wave 4's sweep, wave 5's two (the first ends in its
    # ride, the others in the climb back)
    rdir = jnp.where(param > x, 1, -1)
    zig_cross = step == k.step_zig_cross
    # more weaving to come (wave 8's cross on is followed by one back as well)
    weave_on = (step == k.step_weave_back) | (step == k.step_weave_on) | (step == k.step_switch_on)
    weaving = (step == k.step_weave_back) | (step == k.step_weave_on) | (step == k.step_weave_back_again)
    switching = (step == k.step_switch_on) | (step == k.step_switch_back_again)
    plunge_cross = step == k.step_plunge_cross
    rx = x + dithered(k, rdir * jnp.select([step == k.step_sweep_cross, zig_cross | (step == k.step_zag_cross),
                                            weaving, plunge_cross, switching],
                                           [k.sweep_cross_x_speed, k.zig_cross_x_speed, k.weave_x_speed,
                                            k.plunge_cross_x_speed, k.switch_on_x_speed],
                                           k.recross_x_speed), count)
    rx = jnp.where(rdir > 0, jnp.minimum(rx, param), jnp.maximum(rx, param))
    back = rx == param
    recross = dict(kind=jnp.where(back & ~zig_cross & ~weave_on, k.kind_climber, kind),
                   step=jnp.where(back, jnp.select([step == k.step_sweep_cross, zig_cross, step == k.step_zag_cross,
                                                    weave_on, step == k.step_weave_back_again, plunge_cross,
                                                    step == k.step_switch_back_again],
                                                   [k.step_sweep_return, k.step_zig_ride, k.step_zig_return,
                                                    step + 1, k.step_weave_return, k.step_plunge_return,
                                                    k.step_switch_return],
                                                   k.step_return), step),
                   x=rx, depth=depth + grid_move,
                   param=jnp.where(back & zig_cross, depth + grid_move + k.ride_lead,
                                   jnp.where(back & weave_on, targets[jnp.clip(
                                       jnp.argmax(targets == param) - rdir, 0, last)], param)))

    # ---- climbing back to the horizon (kind 1)
    ud = depth + dithered(k, k.return_depth_speed, count)
    home = ud < k.horizon_depth
    hkind2, hcount = spawn(k, random, s.count_base)
    up = dict(kind=jnp.where(home, hkind2, kind), step=step, x=x, depth=jnp.where(home, 0, ud),
              param=jnp.where(home, hcount, param))

    # ---- an explosion (after a hit), then the empty slot back on the horizon
    exploding = (kind >= k.kind_explosion_first) & (kind <= k.kind_explosion_last)
    stepped = jnp.where((count & 1) == 1, kind + 1, kind)
    blast = dict(kind=jnp.where(stepped > k.kind_explosion_last, k.kind_empty, stepped), step=step, x=x,
                 depth=depth - k.explosion_rise, param=jnp.maximum(param - 1, 0))
    # measured: an emptied slot comes back only while 3 or more enemies are left in the sector
    empty = (kind == k.kind_empty) & (enemies_left >= k.respawn_least_left)
    respawn = dict(kind=hkind2, step=step, x=jnp.full_like(x, k.spawn_x), depth=jnp.zeros_like(depth),
                   param=hcount)

    diving = (kind == k.kind_dive_left) | (kind == k.kind_dive_right)
    climber = kind == k.kind_climber
    # a saucer the even frame left past the bottom (too busy then) goes straight to the horizon
    waited = (diving | climber) & beyond_bottom(k, x, depth)

    def pick(name):
        moving = jnp.select([(step == k.step_entry) | (step == k.step_long_entry) | (step == k.step_sweep_entry)
                             | zig_entry | plunge_entry,
                             (step == k.step_ride) | (step == k.step_long_ride) | sweep_ride | zig_ride | plunge_ride,
                             (step == k.step_cross) | switch_back,
                             (step == k.step_climb) | switch_climb],
                            [entry[name], ride[name], cross[name], climb[name]], recross[name])
        old = getattr(s, name)[i]
        return jnp.select([on_horizon, waited, diving, climber, exploding, empty],
                          [h[name], respawn[name], moving, up[name], blast[name], respawn[name]], old)

    return s.replace(**{name: getattr(s, name).at[i].set(pick(name) & BYTE)
                        for name in ("kind", "step", "x", "depth", "param")})


def is_saucer(k, kind):
    """The slots holding a saucer (coming down, crossing or climbing back)."""
    return (kind == k.kind_climber) | (kind == k.kind_dive_left) | (kind == k.kind_dive_right)


def beyond_bottom(k, x, depth):
    """Whether a saucer at ``x`` has reached the bottom of the screen: the limit falls off from 210
    towards the edges, where the spreading beams leave the picture."""
    return depth >= jnp.asarray(k.saucer_bottom_depths, jnp.int32)[x & BYTE]


def at_the_bottom(k, s: SaucerState, slot_depths, entry_depths, ship_shot_y) -> SaucerState:
    """The even frame's bottom test: a saucer past its limit is gone (kind 0, depth 255) unless
    enough objects stand above it (the other slots, a tie counting for the higher slot; the
    enemies' entries as they fell; the ship's shot before its move, a tie counting; all as they
    stood before the frame's hit, ``slot_depths``) - 4 past the
    screen's edge, 5 at the bottom depth; then it waits for the odd frame."""
    index = jnp.arange(3)
    depth = slot_depths
    slots_above = jnp.sum((index[None, :] != index[:, None])
                          & ((depth[None, :] < depth[:, None])
                             | ((depth[None, :] == depth[:, None]) & (index[None, :] > index[:, None]))), axis=1)
    above = (slots_above + jnp.sum(entry_depths[None, :] <= depth[:, None], axis=1)
             + (ship_shot_y <= depth).astype(jnp.int32))
    past_edge = jnp.asarray(k.saucer_bottom_depths, jnp.int32)[s.x & BYTE] < k.saucer_bottom_depth
    busy = above >= jnp.where(past_edge, k.saucer_edge_busy_objects, k.saucer_bottom_busy_objects)
    gone = is_saucer(k, s.kind) & beyond_bottom(k, s.x, s.depth) & ~busy
    return s.replace(kind=jnp.where(gone, k.kind_empty, s.kind),
                     depth=jnp.where(gone, k.start_saucer_depth, s.depth))


def fly(k, s: SaucerState, frame, count, grid_move, grid, random, enemies_left) -> SaucerState:
    """The slots' odd frame (``frame`` counts from the intro's start): the three saucers appear on
    the horizon on the spawn frame, afterwards each slot runs its program (last slot first). The
    wave timer ticks on the spawn frame too: at the sector's start it is spent, so the spawn starts
    the first wave; after a lost ship the wave carries on (measured)."""
    paced = pace(k, s, count)
    kind, param = spawn(k, random, paced.count_base)
    # measured (ram[84] poked 0..3 before the spawn): only as many slots as enemies are left appear,
    # the highest first; the others keep their bytes
    shown = jnp.arange(3) >= 3 - jnp.clip(enemies_left, 0, 3)
    appear = paced.replace(kind=jnp.where(shown, kind, paced.kind), x=jnp.where(shown, k.spawn_x, paced.x),
                           depth=jnp.where(shown, 0, paced.depth), param=jnp.where(shown, param, paced.param))
    moved = paced
    for i in reversed(range(3)):
        moved = _slot(k, moved, i, count, grid_move, grid, random, enemies_left)
    started = frame > k.saucer_spawn_frame
    odd = frame % k.logic_period == k.counter_parity
    return jax.tree.map(lambda a, b, c: jnp.where(frame == k.saucer_spawn_frame, a,
                                                  jnp.where(started & odd, b, c)), appear, moved, s)
