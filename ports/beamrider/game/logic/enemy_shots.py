"""The enemies' shots (entries 3..6 of the cartridge's object table) and the ship they take.

Measured on ALE (ports/beamrider/NOTES.md, "The enemies' shots" and "A lost ship"):

- firing (odd frames, after the saucers moved, slots 2, 1, 0): a saucer leaving one of the firing
  steps (the end of a ride or crossing that leads into its next move) on a drawn beam, its depth
  then 96..198, puts a shot in the highest empty entry: kind 2, its x, 8 below it - unless another
  object stands from 8 above to 5 below that depth, or off the drawn beams: the entry then takes
  only the depth (and the x on a beam) and stays empty - no shot and no signal, but it counts as
  an object in use until the next odd frame clears it. Wave 8's crosses (the blank firing steps) write such a
  stray depth on leaving, never a shot.
- falling (even frames): 22/16 a logic frame with the grid clock's dither; the picture flips 2 <-> 3
  on the even frames whose count is odd. A shot reaching depth 210 goes on that frame, after the
  loss test (it still takes the ship), unless two other objects are in use (the other entries, one
  arriving on the frame, the ship's shot unless it hit something on the frame; an entry held so
  no longer counts for the entries after it), then on the next odd frame.
- the loss (even frames, after the ship and the shots moved): a shot, or a saucer coming down or
  climbing, at depth 206 or more with the ship's x minus its x in -5..3. A saucer that takes the
  ship so is paid for as a kill (its points, one enemy less; the wave timer untouched)."""

from __future__ import annotations

import jax.numpy as jnp

from ..state import EnemyShotState, SaucerState
from .dither import dithered
from .rejuvenator import is_faller, is_rejuvenator


def is_shot(k, kind):
    return (kind == k.kind_shot_a) | (kind == k.kind_shot_b)


def _falling(k, kind):
    """The entries that fall and leave at the bottom: shots, the rejuvenator and its debris, a
    crosser come down on a beam."""
    return (is_shot(k, kind) | is_rejuvenator(k, kind) | (kind == k.kind_debris)
            | (kind == k.kind_crosser_down) | is_faller(k, kind))


def _emptied(k, shots: EnemyShotState, gone) -> EnemyShotState:
    return shots.replace(kind=jnp.where(gone, k.kind_empty, shots.kind),
                         depth=jnp.where(gone, k.start_saucer_depth, shots.depth))


def fire(k, shots: EnemyShotState, before: SaucerState, after: SaucerState) -> EnemyShotState:
    """The odd frame: shots that stayed past their last depth and last frame's stray depths go,
    then the saucers fire."""
    shots = _emptied(k, shots, (shots.kind == k.kind_empty)
                     | (_falling(k, shots.kind) & (shots.depth >= k.shot_gone_depth)))
    firing = jnp.asarray(k.firing_steps, jnp.int32)
    blank = jnp.asarray(k.blank_firing_steps, jnp.int32)
    beams = jnp.asarray(k.beam_x, jnp.int32)
    saucer = ((after.kind == k.kind_climber) | (after.kind == k.kind_dive_left)
              | (after.kind == k.kind_dive_right))
    entries = jnp.arange(k.shot_count)
    for i in reversed(range(3)):
        turned = after.step[i] == before.step[i] + 1
        left_firing_step = jnp.any(before.step[i] == firing) & turned
        left_blank_step = jnp.any(before.step[i] == blank) & turned
        depth = after.depth[i] + k.fire_drop
        below = shots.depth - depth
        blocked = jnp.any((shots.kind != k.kind_empty) & (below >= -k.fire_block_above) & (below <= k.fire_block_gap))
        on_beam = jnp.any(after.x[i] == beams)
        # the highest empty entry
        slot = jnp.max(jnp.where(shots.kind == k.kind_empty, entries, -1))
        fires = ((left_firing_step | left_blank_step) & saucer[i] & (after.depth[i] >= k.fire_min_depth)
                 & (after.depth[i] <= k.fire_max_depth) & (slot >= 0))
        chosen = fires & (entries == slot)
        # measured: off the drawn beams, or blocked, the entry gets the depth only (x too on a
        # beam) and stays empty: a stray depth that still counts as busy on the next even frame
        # so does a blank firing step (wave 8's crosses: measured)
        shots = shots.replace(kind=jnp.where(chosen & on_beam & ~blocked & left_firing_step, k.kind_shot_a,
                                             shots.kind),
                              x=jnp.where(chosen & on_beam, after.x[i], shots.x),
                              depth=jnp.where(chosen, depth, shots.depth))
    return shots


def fall(k, shots: EnemyShotState, count, speed) -> EnemyShotState:
    """The even frame: every shot falls at ``speed`` (ram[7], sixteenths) and flips its picture."""
    flying = is_shot(k, shots.kind)
    depth = jnp.where(flying, shots.depth + dithered(k, speed, count), shots.depth)
    flip = flying & ((count & 1) == 1)
    return shots.replace(kind=jnp.where(flip, shots.kind ^ (k.kind_shot_a ^ k.kind_shot_b), shots.kind),
                         depth=depth)


def past_the_ship(k, shots: EnemyShotState, ship_shot_flying, arriving) -> EnemyShotState:
    """After the loss test: a shot past its last depth goes now unless the frame is busy (two
    other objects in flight: the other shots, one arriving on this frame, the ship's shot); else on
    the next odd frame."""
    past = _falling(k, shots.kind) & (shots.depth >= k.shot_gone_depth)
    # the entries in use: the shots and a stray depth left by a blocked shot (measured), and an
    # object arriving into an empty entry on this frame (measured: poked seed 0's frame 2,979)
    in_use = (shots.depth != k.start_saucer_depth) | arriving
    extra = ship_shot_flying.astype(jnp.int32)
    gone = jnp.zeros_like(past)
    # the entries in order: one held to the odd frame no longer counts for the later ones
    # (measured: poked seed 76's frame 1,969, entry 0 at 211 held, entry 3's shot at 210 gone)
    for j in range(k.shot_count):
        others = jnp.sum(in_use) - in_use[j] + extra
        # measured: a crosser come down a beam never waits (logic/sector_end.py)
        goes = past[j] & ((others < k.shot_busy_objects) | (shots.kind[j] == k.kind_crosser_down))
        gone = gone.at[j].set(goes)
        in_use = in_use.at[j].set(in_use[j] & (goes | ~past[j]))
    return _emptied(k, shots, gone)


def _on_ship(k, present, x, depth, ship_x):
    dx = ship_x - x
    return present & (depth >= k.loss_depth) & (dx >= k.loss_left) & (dx <= k.loss_right)


def rammed(k, saucers: SaucerState, ship_x):
    """The saucers standing on the ship (the even frame, after the moves): each takes the ship and
    is paid for as a kill (measured)."""
    saucer = ((saucers.kind == k.kind_climber) | (saucers.kind == k.kind_dive_left)
              | (saucers.kind == k.kind_dive_right))
    return _on_ship(k, saucer, saucers.x, saucers.depth, ship_x)


def ship_lost(k, shots: EnemyShotState, saucers: SaucerState, ship_x):
    """Whether a shot or a saucer stands on the ship (the even frame, after the moves)."""
    # everything that falls takes the ship but the rejuvenator, which is caught (logic/rejuvenator.py)
    deadly = _falling(k, shots.kind) & ~is_rejuvenator(k, shots.kind)
    return (jnp.any(_on_ship(k, deadly, shots.x, shots.depth, ship_x))
            | jnp.any(rammed(k, saucers, ship_x)))


def cleared(k, shots: EnemyShotState) -> EnemyShotState:
    """Every entry emptied (a lost ship), the x kept as the cartridge keeps it."""
    return _emptied(k, shots, jnp.ones_like(shots.kind, bool))
