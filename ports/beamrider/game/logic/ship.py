"""The ship on its logic frame: the move between beams, then its one shot (lariat or torpedo).

Measured on ALE (ports/beamrider/NOTES.md): a move starts only from a beam, with LEFT or RIGHT
held on a logic frame and a beam on that side; it runs 3 x a logic frame to the next beam, the
last step cut there; the other direction pressed on a logic frame mid-move turns it back to the
beam it left (presses on odd frames are never read). The shot is launched after the move,
only from a beam (the landing frame counts) and only with no shot in flight: FIRE a lariat, UP a
torpedo while any are left (UP wins when both are held). UP with none left launches nothing but
keeps the slot busy for the next 3 logic frames (a new one may follow on the 4th if UP is held). A shot in flight rises 8 a logic frame
and is gone after its last y; the slot it frees is free for a launch on the next logic frame."""

from __future__ import annotations

import jax.numpy as jnp

from ..state import ShipState


def move(k, s: ShipState, stick, may_start) -> ShipState:
    """The move phase: start a move from a beam, or carry one on to the next beam."""
    beams = jnp.asarray(k.beam_x, jnp.int32)
    press_right = may_start & stick.right & (s.x < beams[-1])
    press_left = may_start & stick.left & ~stick.right & (s.x > beams[0])
    # a press on a logic frame sets the direction, mid-move too (a reversal heads back to the beam
    # just left); without one a move carries on
    right = press_right | (((s.flags & k.moving_right) != 0) & ~press_left)
    left = press_left | (((s.flags & k.moving_left) != 0) & ~press_right)
    # the beam a move heads for: the next one on its side of the current x
    next_right = jnp.min(jnp.where(beams > s.x, beams, beams[-1]))
    next_left = jnp.max(jnp.where(beams < s.x, beams, beams[0]))
    x = jnp.where(right, jnp.minimum(s.x + k.ship_step, next_right),
                  jnp.where(left, jnp.maximum(s.x - k.ship_step, next_left), s.x))
    arrived = jnp.any(x == beams)
    # the top bit is the rejuvenator's (logic/rejuvenator.py): a move keeps it as it was
    on_beam = (k.on_beam_flags & ~k.rejuvenator_due) | (s.flags & k.rejuvenator_due)
    flags = jnp.where(right & ~arrived, on_beam | k.moving_right,
                      jnp.where(left & ~arrived, on_beam | k.moving_left, on_beam))
    return s.replace(x=x, flags=jnp.where(right | left, flags, s.flags))


def shoot(k, s: ShipState, stick, may_fire) -> ShipState:
    """The shot phase: a shot in flight rises (and ends past its last y), else one may launch."""
    flying = s.shot_y != k.no_shot
    last = jnp.where(s.torpedo, k.torpedo_last_y, k.lariat_last_y)
    risen = s.shot_y - k.shot_step
    flown_y = jnp.where(risen < last, k.no_shot, risen)

    on_beam = (s.flags & (k.moving_right | k.moving_left)) == 0
    ready = ~flying & may_fire & on_beam & (s.dud == 0)
    torpedo = stick.up & (s.torpedoes > 0)
    dud = ready & stick.up & (s.torpedoes == 0)
    launch = ready & (torpedo | (stick.fire & ~stick.up))
    return s.replace(
        shot_y=jnp.where(flying, flown_y, jnp.where(launch, k.shot_start_y, s.shot_y)),
        shot_x=jnp.where(launch, s.x, s.shot_x),
        torpedo=jnp.where(launch, torpedo, s.torpedo),
        torpedoes=jnp.where(launch & torpedo, s.torpedoes - 1, s.torpedoes),
        dud=jnp.where(dud, k.dud_busy, jnp.maximum(s.dud - 1, 0)))


def reach_depth(k, torpedo):
    """The one step more past a shot's last y."""
    return jnp.where(torpedo, k.torpedo_reach_depth, k.lariat_reach_depth)


def reach(k, before: ShipState, s: ShipState, depths) -> ShipState:
    """A shot ending at its last y flies one step more while enough objects (``depths``: the
    slots' and the entries' after this frame's fall) stand above that step (measured; NOTES.md
    "The rejuvenator": it is how the lariat reaches one; a torpedo alike)."""
    last = jnp.where(before.torpedo, k.torpedo_last_y, k.lariat_last_y)
    ended = (before.shot_y == last) & (s.shot_y == k.no_shot)
    step = reach_depth(k, before.torpedo)
    above = jnp.sum(depths < step) >= k.lariat_reach_objects
    return s.replace(shot_y=jnp.where(ended & above, step, s.shot_y))


def picture(k, s: ShipState):
    """ram[49] while the shot flies (measured): a lariat's picture, a torpedo's shrinking by its
    height, none on its one step more; 0 with no shot (the byte then holds other things: no signal)."""
    shrunk = sum((s.shot_y <= y).astype(jnp.int32) for y in k.torpedo_picture_ys)
    torpedo = jnp.asarray(k.torpedo_pictures, jnp.int32)[shrunk]
    flying = jnp.where(s.shot_y == reach_depth(k, s.torpedo), k.reach_picture,
                       jnp.where(s.torpedo, torpedo, k.lariat_picture))
    return jnp.where(s.shot_y == k.no_shot, 0, flying)
