"""The rejuvenator: the object that enters a shot entry (kinds 16..19) once a life, late in a
sector, and is worth a ship in reserve when caught.

Measured on ALE (ports/beamrider/NOTES.md, "The rejuvenator"), on the even frames after the
enemies' shots fell:

- arrival: while ram[13]'s top bit says one may still come this life, with 1..9 enemies left,
  the count's bit 2 clear and the entry picked by the count's low two bits empty, the random number
  reading xxx1x000 and nothing (a slot or an entry, whatever it holds) at depth 1..63: it enters
  that entry at depth 32 on the beam the random number's top three bits pick, and the top bit of
  ram[13] drops until a life is taken.
- falling: 30/16 a logic frame with the grid clock's dither; its picture steps at depths 104,
  144 and 176; it leaves at depth 210 as a shot does (logic/enemy_shots.py ``past_the_ship``).
- catch: at depth 206 or more within the loss window of the ship: one more ship in reserve, the
  entry emptied (its depth left for the next odd frame to clear).
- shot down: the ship's shot, still flying after its move and any hit on a saucer, meeting it in
  the saucers' hit window: the shot is gone, no points, no launch on the next 3 logic frames
  (as after a hit), and the entry holds debris (kind 1), 10
  above the depth it fell to, falling 67/16 a logic frame and leaving at 210 as a shot does."""

from __future__ import annotations

import jax.numpy as jnp

from ..state import EnemyShotState, SaucerState
from .dither import dithered


def _pictured(k, kind, first):
    return (kind >= first) & (kind < first + len(k.rejuvenator_picture_depths) + 1)


def is_rejuvenator(k, kind):
    return _pictured(k, kind, k.kind_rejuvenator)


def is_faller(k, kind):
    """Sector 2's kind-24 object (24..27 by its picture), which arrives and falls as the rejuvenator
    does, faster (measured; what it is worth is not)."""
    return _pictured(k, kind, k.kind_faller)


def fall(k, shots: EnemyShotState, count) -> EnemyShotState:
    """The even frame's fall and the picture for the new depth (the rejuvenator and sector 2's
    kind-24 object alike); debris falls too."""
    here = is_rejuvenator(k, shots.kind)
    faller = is_faller(k, shots.kind)
    debris = shots.kind == k.kind_debris
    speed = jnp.select([here, faller, debris], [k.rejuvenator_speed, k.faller_speed, k.debris_speed], 0)
    depth = jnp.where(here | faller | debris, shots.depth + dithered(k, speed, count), shots.depth)
    steps = sum((depth >= d).astype(jnp.int32) for d in k.rejuvenator_picture_depths)
    kind = jnp.where(here, k.kind_rejuvenator + steps, jnp.where(faller, k.kind_faller + steps, shots.kind))
    return shots.replace(kind=kind, depth=depth)


def on_ship(k, x, depth, ship_x):
    """The loss window (logic/enemy_shots.py ``ship_lost``), which is also where one is caught."""
    dx = ship_x - x
    return (depth >= k.loss_depth) & (dx >= k.loss_left) & (dx <= k.loss_right)


def caught(k, shots: EnemyShotState, ship_x):
    """Which entries hold a rejuvenator the ship catches on this frame."""
    return is_rejuvenator(k, shots.kind) & on_ship(k, shots.x, shots.depth, ship_x)


def _arrival(k, shots: EnemyShotState, saucers: SaucerState, count, due):
    """The entry an object enters on this even frame when ``due``: count & 3, with the count's bit 2
    clear, the entry empty and nothing (a slot or an entry, whatever it holds) at depth 1..63."""
    entry = jnp.arange(k.shot_count) == count % k.shot_count
    low = lambda d: jnp.any((d > 0) & (d < k.rejuvenator_clear_depth))
    clear = ((count & k.rejuvenator_count_bit) == 0) & ~low(saucers.depth) & ~low(shots.depth)
    return entry & due & clear & (shots.kind == k.kind_empty)


def arrives(k, shots: EnemyShotState, saucers: SaucerState, flags, enemies_left, count, random):
    """The entry a rejuvenator enters on this even frame (one-hot, all False when none does)."""
    due = (((flags & k.rejuvenator_due) != 0) & (enemies_left >= 1) & (enemies_left <= k.rejuvenator_most_left)
           & ((random & k.rejuvenator_random_mask) == k.rejuvenator_random_value))
    return _arrival(k, shots, saucers, count, due)


def faller_arrives(k, shots: EnemyShotState, saucers: SaucerState, sector, count, random):
    """The entry sector 2's kind-24 object enters on this even frame (one-hot)."""
    due = (sector >= k.faller_first_sector) & ((random & k.faller_random_mask) == k.faller_random_value)
    return _arrival(k, shots, saucers, count, due)


def enter(k, shots: EnemyShotState, arriving, random, kind=None) -> EnemyShotState:
    """The rejuvenator (or ``kind``) in its entry: depth 32, on the beam the random number picks."""
    beams = jnp.asarray(k.beam_x, jnp.int32)
    x = beams[((random >> k.rejuvenator_beam_shift) + 1) >> 1]
    return shots.replace(kind=jnp.where(arriving, k.kind_rejuvenator if kind is None else kind, shots.kind),
                         x=jnp.where(arriving, x, shots.x),
                         depth=jnp.where(arriving, k.rejuvenator_start_depth, shots.depth))


def shot_down(k, shots: EnemyShotState, shot_y, shot_x, flying):
    """The entry whose rejuvenator the ship's shot meets on this frame (one-hot: the lowest such
    entry; all False when none)."""
    met = (flying & is_rejuvenator(k, shots.kind) & (jnp.abs(shots.x - shot_x) <= k.hit_half_width)
           & (jnp.abs(shot_y - shots.depth) <= k.hit_half_depth))
    return met & (jnp.cumsum(met) == 1)


def to_debris(k, shots: EnemyShotState, hit) -> EnemyShotState:
    return shots.replace(kind=jnp.where(hit, k.kind_debris, shots.kind),
                         depth=jnp.where(hit, shots.depth - k.debris_rise, shots.depth))
