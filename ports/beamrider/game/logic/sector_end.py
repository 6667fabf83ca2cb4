"""The sector's end: the sentinel's crossing (kept in the slots' bytes once they are all empty) and
the crossers, the objects that come into the shot entries (kinds 68/69) once no enemy is left.

Measured on ALE (ports/beamrider/NOTES.md, "The sector's end"):

- the switch (odd frames, after the slots moved): in play with no enemy left, the frame that leaves
  every slot empty turns ram[12] to 4; slot 0's x then counts the sentinel's crossing 0..215 (one an
  odd frame), slot 0's parameter holds its speed (+-16, by the random number's top bit) and slot 2's
  its x (7 or 222 on; one a step); when the crossing is done slot 1's parameter waits 55 odd frames,
  down to 1. ram[84] reads 255 from the next even frame.
- a crosser arrives on an even frame with no enemy left (0, or the sector's end's 255), in the entry
  the rejuvenator's arrival picks (count & 3, its bit 2 clear, the entry empty), when the random
  number's low three bits are 0, the crossing is below 128 and fewer than two objects stand at its
  arrival depth (64 + the grid's position): kind 68, at x 224 moving -40/16 an even frame (x 32,
  +40/16, with the random number's top bit set).
- it moves its x on even frames and its depth with the grid on odd ones; the even frame its move
  takes it past the ship's x (as the ship stood) to within 3 of a drawn beam it turns onto that
  beam (kind 69) and then falls 36/16 an even frame, leaving on the even frame it reaches 210 (no
  wait for the odd frame) and taking the ship as a shot does.
- the ship's shot meets a crosser in the saucers' hit window, after the crossers moved (486 of 486
  in 300 poked games): the shot is gone, nothing paid, no launch for 3 logic frames; a lariat
  leaves the crosser flying on, a torpedo turns the entry into an explosion (kinds 6..11) that
  burns on the even frames. Sector 2's kind-24 objects are met the same way (150 of 150 in 100
  poked games)."""

from __future__ import annotations

import jax.numpy as jnp

from ..constants import BYTE
from ..state import EnemyShotState, SaucerState, ShipState
from .dither import dithered
from .enemy_shots import is_shot
from .rejuvenator import is_faller


def is_crosser(k, kind):
    return (kind == k.kind_crosser) | (kind == k.kind_crosser_down)


def no_enemy_left(k, enemies_left):
    """ram[84] read as the cartridge tests it: 0, or negative as a signed byte (the sector's end)."""
    return (enemies_left == 0) | (enemies_left > BYTE >> 1)


def switch(k, s: SaucerState, playing, odd, enemies_left, random):
    """Whether this odd frame starts the sector's end, and the slots' bytes it writes."""
    starts = playing & odd & (enemies_left == 0) & jnp.all(s.kind == k.kind_empty)
    rightward = (random & k.sentinel_rightward_bit) != 0
    speed = jnp.where(rightward, k.sentinel_speed, -k.sentinel_speed) & BYTE
    start_x = jnp.where(rightward, k.sentinel_left_x, k.sentinel_right_x)
    crossing = s.replace(x=s.x.at[0].set(0), param=s.param.at[0].set(speed).at[2].set(start_x))
    return starts, crossing


def sentinel(k, s: SaucerState, hit) -> SaucerState:
    """One odd frame of the sector's end: the crossing steps on, then the wait runs down; once a
    torpedo met the sentinel, its bonus's wait counts up instead (to 255, where it stays)."""
    bonus_wait = jnp.minimum(s.param[1] + 1, k.sentinel_bonus_ready)
    crossing = (s.x[0] < k.sentinel_crossing) & ~hit
    x = s.x[0] + crossing.astype(jnp.int32)
    step = jnp.where(s.param[0] > BYTE >> 1, -1, 1) * crossing.astype(jnp.int32)
    done = crossing & (x == k.sentinel_crossing)
    wait = jnp.where(done, k.sentinel_wait,
                     jnp.where(~crossing & (s.param[1] > k.sentinel_wait_end), s.param[1] - 1, s.param[1]))
    wait = jnp.where(hit, bonus_wait, wait)
    return s.replace(x=s.x.at[0].set(x), param=s.param.at[1].set(wait).at[2].set((s.param[2] + step) & BYTE))


def meets_sentinel(k, s: SaucerState, shot: ShipState, ending):
    """Whether the torpedo meets the sentinel on this even frame: still crossing, the torpedo
    standing at its last y, the sentinel's x (slot 2's parameter) 0..27 left of the torpedo's beam
    (constants.py ``SENTINEL_REACH``; lariats never meet it)."""
    gap = shot.shot_x - s.param[2]
    return (ending & (s.x[0] < k.sentinel_crossing) & shot.torpedo & (shot.shot_y == k.torpedo_last_y)
            & (gap >= 0) & (gap <= k.sentinel_reach))


def crossed(k, s: SaucerState):
    """The sentinel has crossed: the ship starts no move and launches nothing."""
    return s.x[0] >= k.sentinel_crossing


def arrives(k, shots: EnemyShotState, slot_depths, enemies_left, count, random, grid, sentinel_x):
    """The entry a crosser enters on this even frame (one-hot, all False when none does); with the
    enemies left at 0 (before the sector's end's switch and on the even frame after it) one object
    at the arrival depth holds it back, with the sector's end's 255 two."""
    entry = jnp.arange(k.shot_count) == count % k.shot_count
    depth = k.crosser_base_depth + grid
    crowd = jnp.sum(slot_depths == depth) + jnp.sum(shots.depth == depth)
    due = (no_enemy_left(k, enemies_left) & ((count & k.rejuvenator_count_bit) == 0)
           & ((random & k.crosser_random_mask) == 0) & (sentinel_x < k.crosser_last_sentinel_x)
           & (crowd < jnp.where(enemies_left == 0, k.crosser_crowd_in_play, k.crosser_crowd)))
    return entry & due & (shots.kind == k.kind_empty)


def enter(k, shots: EnemyShotState, arriving, random, grid) -> EnemyShotState:
    rightward = (random & k.crosser_rightward_bit) != 0
    return shots.replace(
        kind=jnp.where(arriving, k.kind_crosser, shots.kind),
        x=jnp.where(arriving, jnp.where(rightward, k.crosser_left_x, k.crosser_right_x), shots.x),
        depth=jnp.where(arriving, k.crosser_base_depth + grid, shots.depth),
        speed=jnp.where(arriving, jnp.where(rightward, k.crosser_x_speed, -k.crosser_x_speed), shots.speed))


def fly(k, shots: EnemyShotState, count, ship_x) -> EnemyShotState:
    """The even frame: crossers move across and may turn onto a beam past the ship; turned ones fall."""
    crossing = shots.kind == k.kind_crosser
    falling = shots.kind == k.kind_crosser_down
    x = shots.x + dithered(k, shots.speed, count)
    beams = jnp.asarray(k.beam_x, jnp.int32)
    near = jnp.abs(x[:, None] - beams[None, :]) <= k.crosser_turn_reach
    past = jnp.where(shots.speed > 0, x > ship_x, x < ship_x)
    turns = crossing & past & jnp.any(near, axis=1)
    beam = jnp.sum(jnp.where(near, beams[None, :], 0), axis=1)    # beams are 17 apart: one at most
    return shots.replace(
        kind=jnp.where(turns, k.kind_crosser_down, shots.kind),
        x=jnp.where(turns, beam, jnp.where(crossing, x, shots.x)),
        depth=jnp.where(falling, shots.depth + dithered(k, k.crosser_fall_speed, count), shots.depth))


def ride(k, shots: EnemyShotState, grid_move) -> EnemyShotState:
    """The odd frame: crossers come down with the grid."""
    return shots.replace(depth=jnp.where(is_crosser(k, shots.kind), shots.depth + grid_move, shots.depth))


def shot_at(k, shots: EnemyShotState, shot_y, shot_x, flying, torpedo):
    """The entry whose crosser or kind-24 object - or, for a torpedo, enemy shot - the ship's shot
    meets on this even frame, after they moved (one-hot: the lowest such entry; all False when
    none): the saucers' hit window, its x within 6 of the shot's beam and its depth within 8 of the
    shot's new y (measured alike for the three: NOTES.md "Sector 2's kind-24 objects", "A torpedo
    meets an enemy shot"; a lariat passes through the enemies' shots)."""
    target = is_crosser(k, shots.kind) | is_faller(k, shots.kind) | (torpedo & is_shot(k, shots.kind))
    met = (flying & target & (jnp.abs(shots.x - shot_x) <= k.hit_half_width)
           & (jnp.abs(shot_y - shots.depth) <= k.hit_half_depth))
    return met & (jnp.cumsum(met) == 1)


def blow_up(k, shots: EnemyShotState, hit) -> EnemyShotState:
    """A torpedo's hit: the entry shows the explosion's first step, its count (in the speed's byte)
    at 8, where the crosser, kind-24 object or enemy shot stood; a lariat's hit leaves it flying (falling) on;
    neither pays."""
    return shots.replace(kind=jnp.where(hit, k.kind_explosion_first, shots.kind),
                         speed=jnp.where(hit, k.explosion_count, shots.speed))


def burn(k, shots: EnemyShotState, count) -> EnemyShotState:
    """The even frame of an explosion in an entry: its count falls by one (to 0), its depth by 2,
    its kind steps when the count (as it stands) is odd; past the last step the entry is empty."""
    exploding = (shots.kind >= k.kind_explosion_first) & (shots.kind <= k.kind_explosion_last)
    stepped = jnp.where((count & 1) == 1, shots.kind + 1, shots.kind)
    gone = exploding & (stepped > k.kind_explosion_last)
    return shots.replace(
        kind=jnp.where(gone, k.kind_empty, jnp.where(exploding, stepped, shots.kind)),
        depth=jnp.where(gone, k.start_saucer_depth, jnp.where(exploding, shots.depth - k.explosion_rise,
                                                              shots.depth)),
        speed=jnp.where(exploding, jnp.maximum(shots.speed - 1, 0), shots.speed))
