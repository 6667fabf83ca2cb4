"""BeamRider, one emulator frame a step: the clock (ram[1], ram[2] and the grid on odd frames, the
intro's end, a lost ship's run-down, the next ship's intro), the saucers and their shots on the
odd frames (logic/saucers.py, logic/enemy_shots.py), then on the even (logic) frames the ship's
move, its shot, the shot's hit on a saucer, the enemies' shots and the rejuvenator falling, the
loss of the ship, the rejuvenator's catch and arrival (logic/ship.py, logic/hits.py,
logic/enemy_shots.py, logic/rejuvenator.py).

``reset()`` is ALE's state after reset (measured: every seed starts alike); ``step(state,
ale_action)`` advances one frame and ``rollout`` a sequence; ``signals(state)`` gives every
mirrored byte under the names of ``reference.ram.ship_bytes``, which the lockstep tests compare
with ALE. The sector's end (logic/sector_end.py: the crossers, the ship's shot meeting them), a ship
lost in it and the next sector's start (``next_sector``) run as measured; sector 2 is
modelled in part (its kind-24 object's arrival, fall and the ship's shot meeting it, its shots'
speed, every sector's points; its paths not looked at)."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from jaxtari.env import Game, joystick
from jaxtari.xla import select_tree

from . import constants as c
from .constants import BYTE, BeamRiderConstants
from .logic import enemy_shots, hits, rejuvenator, saucers, sector_end, ship
from .logic.dither import dithered
from .state import BeamRiderState, EnemyShotState, PlayerState, SaucerState, ShipState


def reset(k: BeamRiderConstants = c.DEFAULTS, key=None) -> BeamRiderState:
    key = jax.random.key(0) if key is None else key
    i32 = jnp.int32
    return BeamRiderState(
        ship=ShipState(x=i32(k.beam_x[k.start_beam]), flags=i32(k.on_beam_flags),
                       shot_y=i32(k.no_shot), shot_x=i32(k.start_shot_x),
                       torpedo=jnp.bool_(False), torpedoes=i32(k.start_torpedoes),
                       dud=i32(0)),
        saucers=SaucerState(kind=jnp.full(3, k.kind_empty, jnp.int32), step=jnp.zeros(3, jnp.int32),
                            x=jnp.zeros(3, jnp.int32), depth=jnp.full(3, k.start_saucer_depth, jnp.int32),
                            param=jnp.zeros(3, jnp.int32), timer=i32(0), wave=i32(k.start_wave),
                            count_base=i32(k.start_count_base)),
        enemy_shots=EnemyShotState(kind=jnp.full(k.shot_count, k.kind_empty, jnp.int32),
                                   x=jnp.zeros(k.shot_count, jnp.int32),
                                   depth=jnp.full(k.shot_count, k.start_saucer_depth, jnp.int32),
                                   speed=jnp.zeros(k.shot_count, jnp.int32)),
        player=PlayerState(sector=i32(k.start_sector), enemies_left=i32(k.start_enemies),
                           reserve=i32(k.start_reserve), score=i32(0)),
        count=i32(k.start_count), random=i32(k.start_random), phase=i32(k.intro_phase),
        grid=i32(k.start_grid), grid_speed=i32(k.start_grid_speed), shot_speed=i32(k.enemy_shot_speed),
        frame=i32(0), intro_start=i32(0), sentinel_hit=jnp.bool_(False),
        key=key)


def parity(v):
    """1 when ``v`` (a byte) has an odd number of bits set."""
    v = v ^ (v >> 4)
    v = v ^ (v >> 2)
    return (v ^ (v >> 1)) & 1


def grid_step(k, grid, speed, count):
    """The grid's move on an odd frame, by its speed with the dither (constants.py, "the grid's
    clock")."""
    return (grid + dithered(k, speed, count)) % k.grid_wrap


def intro_frame(state: BeamRiderState):
    """Frames since the running intro began (the sector's start at reset, or the next ship's)."""
    return state.frame - state.intro_start


def clock(k, state: BeamRiderState, ale_action) -> BeamRiderState:
    """The odd frames' counter, random number and grid clock, the intro's end, the lost ship's
    run-down (the speed falling one every 4 counts, the reserve blinking, the life taken at 0) and
    the next ship's intro, started by the joystick."""
    odd = state.frame % k.logic_period == k.counter_parity
    count = jnp.where(odd, (state.count + 1) & BYTE, state.count)
    shifted = ((state.random << 1) & BYTE) | parity(state.random & k.random_taps)
    starts = intro_frame(state) == k.play_phase_frame
    phase = jnp.where(starts, k.play_phase, state.phase)
    grid = jnp.where(odd, grid_step(k, state.grid, state.grid_speed, count), state.grid)
    intro_speed = jnp.where(state.phase == k.intro_phase,
                            (state.grid_speed - k.intro_speed_step) & BYTE, state.grid_speed)
    speed = jnp.where(starts, k.play_grid_speed, jnp.where(odd, intro_speed, state.grid_speed))

    # a ship being lost: the reserve it had waits in slot 0's parameter (measured)
    dying = odd & (state.phase == k.dying_phase)
    slower = (state.grid_speed - ((count % k.loss_speed_counts) == 0).astype(jnp.int32)) & BYTE
    speed = jnp.where(dying, slower, speed)
    had = state.saucers.param[0]
    blink = (had > 0) & (slower <= k.blink_speed) & ((slower & 1) == 0)
    reserve = jnp.where(dying, had - blink.astype(jnp.int32), state.player.reserve)
    ends = dying & (slower == 0)
    over = had == 0
    phase = jnp.where(ends, jnp.where(over, k.game_over_phase, k.life_taken_phase), phase)
    reserve = jnp.where(ends, jnp.where(over, k.game_over_reserve, had - 1), reserve)
    count = jnp.where(ends, k.life_taken_count, count)
    s = state.ship
    taken = ends & ~over        # measured: after the last ship it stays where it was lost
    # measured: the flags' top bit (a rejuvenator may still come) stays as it was, for the sector
    on_beam = (k.on_beam_flags & ~k.rejuvenator_due) | (s.flags & k.rejuvenator_due)
    # measured: what the loss frame left (a slot's depth, the ship's shot) is gone on the next odd frame
    ship_ = s.replace(x=jnp.where(taken, k.beam_x[k.start_beam], s.x),
                      flags=jnp.where(taken, on_beam, s.flags),
                      shot_y=jnp.where(dying, k.no_shot, s.shot_y))
    left_depths = jnp.where(dying & (state.saucers.kind == k.kind_empty), k.start_saucer_depth,
                            state.saucers.depth)
    # measured: with the life taken the game waits until an odd frame finds the joystick pushed
    # (FIRE alone does not do), then runs the sector's intro again, one frame on from that one
    stick = joystick(ale_action)
    pushed = stick.up | stick.down | stick.left | stick.right
    again = odd & (state.phase == k.life_taken_phase) & pushed
    phase = jnp.where(again, k.intro_phase, phase)
    ticked = state.replace(count=count, random=jnp.where(odd, shifted, state.random), phase=phase,
                           grid=grid, grid_speed=speed, ship=ship_,
                           saucers=state.saucers.replace(depth=left_depths),
                           player=state.player.replace(reserve=reserve),
                           intro_start=jnp.where(again, state.frame + 1, state.intro_start))
    # measured (156 lives taken with no enemy left, each a ship lost in the sector's end): the life
    # taken moves on to the next sector as the sector's end's last frame does
    onward = taken & (state.player.enemies_left == 0)
    return select_tree(onward, next_sector(k, ticked), ticked)


def lose_ship(k, state: BeamRiderState, entry_depths) -> BeamRiderState:
    """The even frame a ship is lost (measured): the run-down starts (ram[12] 5, the count 0, the
    grid at 15 with speed 30), every slot and shot empties, the ship's shot goes and slot 0's
    parameter keeps the reserve; in the sector's end the enemies left read 0 again (255 before).
    A slot or the ship's shot with 5 objects above it (``entry_depths``: the entries as they stood)
    keeps its depth to the next odd frame (constants.py ``LOSS_KEPT_OBJECTS``)."""
    s, shot = state.saucers, state.ship
    flying = shot.shot_y != k.no_shot
    shot_depth = jnp.where(flying, shot.shot_y - k.shot_step, k.no_shot)
    above = hits.objects_above(k, s, entry_depths, shot_depth)
    kept_slot = (s.kind != k.kind_empty) & (above >= k.loss_kept_objects)
    shot_above = jnp.sum(hits.standing(k, s) < shot_depth) + jnp.sum(entry_depths < shot_depth)
    kept_shot = flying & (shot_above >= k.loss_kept_objects)
    left = jnp.where(sector_end.no_enemy_left(k, state.player.enemies_left), 0, state.player.enemies_left)
    empty = jnp.full_like(s.kind, k.kind_empty)
    return state.replace(
        phase=jnp.int32(k.dying_phase), count=jnp.int32(0), grid=jnp.int32(k.loss_grid),
        grid_speed=jnp.int32(k.loss_grid_speed),
        saucers=s.replace(kind=empty, depth=jnp.where(kept_slot, s.depth, k.start_saucer_depth),
                          param=s.param.at[0].set(state.player.reserve)),
        enemy_shots=enemy_shots.cleared(k, state.enemy_shots),
        ship=shot.replace(shot_y=jnp.where(kept_shot, shot.shot_y, k.no_shot)),
        player=state.player.replace(enemies_left=left))


def fly(k, state: BeamRiderState, ale_action) -> BeamRiderState:
    """The ship's logic frame in play: move, shoot, the shot's hit on a saucer (logic/hits.py),
    then the enemies' shots and the rejuvenator fall, a shot may take the ship
    (logic/enemy_shots.py), the rejuvenator be caught or arrive (logic/rejuvenator.py)."""
    stick = joystick(ale_action)
    ending = state.phase == k.sector_end_phase
    # measured: once the sentinel has crossed, or a torpedo met it, the ship starts no move and
    # launches nothing
    held = ending & (sector_end.crossed(k, state.saucers) | state.sentinel_hit)
    # measured: a torpedo standing at its last y meets the sentinel (judged as they stood)
    sentinel_met = sector_end.meets_sentinel(k, state.saucers, state.ship, ending) & ~state.sentinel_hit
    moved_ship = ship.move(k, state.ship, stick, (intro_frame(state) >= k.first_move_frame) & ~held)
    s = ship.shoot(k, moved_ship, stick, (intro_frame(state) >= k.first_shot_frame) & ~held)
    # measured: and a shot still in flight is gone
    s = s.replace(shot_y=jnp.where(held, k.no_shot, s.shot_y))
    logic = (state.frame % k.logic_period == 0) & ((state.phase == k.play_phase) | ending)
    # the enemies' shots, the rejuvenator and the crossers move on this frame whatever the ship's
    # shot does (a crosser turning by the ship's x as it stood: measured)
    fallen = rejuvenator.fall(k, enemy_shots.fall(k, state.enemy_shots, state.count, state.shot_speed), state.count)
    fallen = sector_end.burn(k, sector_end.fly(k, fallen, state.count, state.ship.x), state.count)
    # (an emptied slot's depth reads 255 from this frame: logic/hits.py)
    standing = jnp.where(state.saucers.kind == k.kind_empty, k.start_saucer_depth, state.saucers.depth)
    # measured: a rejuvenator arrives before the lariat's reach is judged (it counts there), and
    # with the enemies left as they stood before this frame's kill
    arriving = rejuvenator.arrives(k, fallen, state.saucers.replace(depth=standing), state.ship.flags,
                                   state.player.enemies_left, state.count, state.random)
    # measured: none once a torpedo met the sentinel (its crossing stopped short of 128)
    crossing = sector_end.arrives(k, fallen, standing, state.player.enemies_left, state.count, state.random,
                                  state.grid, state.saucers.x[0]) & ~state.sentinel_hit
    # measured: none on the first even frame of play, before the spawn (8 of 8 with the rule met)
    falling = (rejuvenator.faller_arrives(k, fallen, state.saucers.replace(depth=standing), state.player.sector,
                                          state.count, state.random)
               & (intro_frame(state) > k.saucer_spawn_frame))
    entry_depths = jnp.where(arriving | falling, k.rejuvenator_start_depth,
                             jnp.where(crossing, k.crosser_base_depth + state.grid, fallen.depth))
    s = ship.reach(k, state.ship, s, jnp.concatenate([standing, entry_depths]))
    s = s.replace(shot_y=jnp.where(sentinel_met, k.no_shot, s.shot_y),
                  dud=jnp.where(sentinel_met, k.hit_busy, s.dud))
    # measured: the one step more past the last y meets nothing - no saucer (poked seed 73's frame
    # 2,251: a lariat reaching 94 with a saucer 8 above it on its beam flew on, nothing paid; the
    # only such case in 1,997 reach steps over 300 poked games), no crosser, no kind-24 object
    reached = s.shot_y == ship.reach_depth(k, s.torpedo)
    # measured: an emptied slot keeps its depth on this frame with 4 objects above it as they stood
    keep = hits.keeps_depth(k, state.saucers, state.enemy_shots.depth, state.ship.shot_y)
    moved = hits.hit(k, state.replace(ship=s), ~reached, keep)
    hit_shot_y = moved.ship.shot_y
    # measured: a shot still flying after any hit on a saucer may shoot the rejuvenator down
    flying = moved.ship.shot_y != k.no_shot
    # (one the ship catches on this frame is caught: seed 34's frame 5,086, a lariat launched there)
    downed = (rejuvenator.shot_down(k, fallen, moved.ship.shot_y, moved.ship.shot_x, flying)
              & ~rejuvenator.caught(k, fallen, moved.ship.x))
    fallen = rejuvenator.to_debris(k, fallen, downed)
    # measured: the entries on the ship are judged before the shot meets them (poked seed 78's
    # frame 2,031: a torpedo launched at a kind-24 object falling onto the ship; the ship was lost)
    lost = enemy_shots.ship_lost(k, fallen, moved.saucers, moved.ship.x)
    # measured: so may a crosser: a lariat is gone and the crosser flies on, a torpedo blows it up;
    # a torpedo blows up an enemy shot too, even on its launch frame (poked seeds 148, 171, 199, 227,
    # 267: 5 of 5 in the saucers' window, 2 just outside it flew past), which a lariat passes through
    # (a shot taking its one step more past its last y meets none: poked seed 2's frame 2,595, a
    # lariat reaching 94 with a kind-24 object 7 below it on its beam)
    met = sector_end.shot_at(k, fallen, moved.ship.shot_y, moved.ship.shot_x,
                             flying & ~jnp.any(downed) & ~reached, moved.ship.torpedo)
    fallen = sector_end.blow_up(k, fallen, met & moved.ship.torpedo)
    # measured: then no launch on the next 3 logic frames, as after a saucer's hit
    down = jnp.any(downed) | jnp.any(met)
    moved = moved.replace(ship=moved.ship.replace(shot_y=jnp.where(down, k.no_shot, moved.ship.shot_y),
                                                  dud=jnp.where(down, k.hit_busy, moved.ship.dud)))
    # measured: a shot that hit a saucer or met an entry's object on this frame no longer counts as
    # in flight (poked seeds 2, 172, 53 and 83: frames 1,915, 2,285, 2,103 and 2,005); one that
    # ended at its last y still does (a lariat in ram[21]'s 37..47 run that hit a saucer counted:
    # random seed 57's frame 3,823, not modelled)
    struck = ((s.shot_y != k.no_shot) & (hit_shot_y == k.no_shot)) | down | sentinel_met
    in_flight = ((state.ship.shot_y != k.no_shot) & ~struck) | (moved.ship.shot_y != k.no_shot)
    # measured: a saucer at the bottom on the ship's beam takes it (the loss empties every slot)
    moved = moved.replace(saucers=saucers.at_the_bottom(k, moved.saucers, state.saucers.depth, entry_depths,
                                                                  state.ship.shot_y))
    # a rejuvenator caught: a ship more, its entry emptied (the depth stays until the odd frame)
    catch = rejuvenator.caught(k, fallen, moved.ship.x)
    player = moved.player.replace(reserve=moved.player.reserve + jnp.any(catch).astype(jnp.int32))
    fallen = enemy_shots.past_the_ship(k, fallen, in_flight, arriving | falling | crossing)
    fallen = fallen.replace(kind=jnp.where(catch, k.kind_empty, fallen.kind))
    ship_ = moved.ship.replace(flags=jnp.where(jnp.any(arriving), moved.ship.flags & ~k.rejuvenator_due,
                                               moved.ship.flags))
    entered = rejuvenator.enter(k, rejuvenator.enter(k, fallen, arriving, moved.random), falling, moved.random,
                                k.kind_faller)
    entered = sector_end.enter(k, entered, crossing, moved.random, state.grid)
    # measured: the even frame after the sector's end began, ram[84] turns 255
    player = player.replace(enemies_left=jnp.where(ending & (player.enemies_left == 0), k.sector_end_enemies,
                                                   player.enemies_left))
    # measured: the sentinel met pays 30 x (the sector + 10); slot 0's parameter keeps the reserve
    # and slot 1's starts the bonus's wait (constants.py ``SENTINEL_REACH``)
    player = player.replace(score=player.score + jnp.where(sentinel_met, hits.points(k, player.sector,
                                                                                     k.sentinel_points_unit), 0))
    sv = moved.saucers
    sv = sv.replace(param=jnp.where(sentinel_met, sv.param.at[0].set(player.reserve)
                                    .at[1].set(k.sentinel_bonus_wait), sv.param))
    moved = moved.replace(enemy_shots=entered, player=player, ship=ship_, saucers=sv,
                          sentinel_hit=state.sentinel_hit | sentinel_met)
    # measured: the frame a ship is lost launches nothing (the shot's beam and the torpedoes stay)
    # and the shot hits nothing (no points, the wave timer untouched); a saucer taking the ship
    # pays as a kill (its points, one enemy less)
    rams = jnp.sum(enemy_shots.rammed(k, moved.saucers, moved.ship.x).astype(jnp.int32))
    unhit = moved.replace(ship=moved_ship, saucers=state.saucers,
                          player=moved.player.replace(score=state.player.score
                                                      + rams * hits.points(k, state.player.sector,
                                                                           k.saucer_points_unit),
                                                      enemies_left=state.player.enemies_left - rams))
    moved = select_tree(lost, lose_ship(k, unhit, state.enemy_shots.depth), moved)
    return select_tree(logic, moved, state)


def enemies(k, before: BeamRiderState, state: BeamRiderState) -> BeamRiderState:
    """The saucers' odd frame in play, after the clock (they read the new count, grid and random),
    then their shots (logic/enemy_shots.py); the sector's end's switch, crossing and end
    (logic/sector_end.py)."""
    grid_move = (state.grid - before.grid) % k.grid_wrap
    flown = saucers.fly(k, state.saucers, intro_frame(state), state.count, grid_move, state.grid, state.random,
                        state.player.enemies_left)
    odd = state.frame % k.logic_period == k.counter_parity
    shots = sector_end.ride(k, enemy_shots.fire(k, state.enemy_shots, state.saucers, flown), grid_move)
    playing = state.phase == k.play_phase
    ending = state.phase == k.sector_end_phase
    slots = select_tree(playing, flown, state.saucers)
    # the sector's end: the switch on the frame the last slot empties, then the sentinel's crossing
    starts, crossing = sector_end.switch(k, slots, playing, odd, state.player.enemies_left, state.random)
    sentinel_slots = select_tree(ending & odd, sector_end.sentinel(k, state.saucers, state.sentinel_hit), slots)
    slots = select_tree(starts, crossing, sentinel_slots)
    # measured: a lariat's one step more (logic/ship.py ``reach``) is gone on the next odd frame
    s = state.ship
    reached = odd & (playing | ending) & (s.shot_y == ship.reach_depth(k, s.torpedo))
    moved = state.replace(ship=s.replace(shot_y=jnp.where(reached, k.no_shot, s.shot_y)),
                          saucers=slots, phase=jnp.where(starts, k.sector_end_phase, state.phase),
                          enemy_shots=select_tree(odd & (playing | ending), shots, state.enemy_shots))
    # measured: with the wait run out (as it stood), the first odd frame that leaves the grid at 0 or
    # 1 ends the sector
    over = (ending & odd & ~state.sentinel_hit & (state.saucers.param[1] == k.sentinel_wait_end)
            & (state.grid <= k.sector_end_grid))
    moved = bonus(k, moved, ending & odd & state.sentinel_hit, state.saucers.param)
    return select_tree(over, next_sector(k, moved), moved)


def bonus(k, state: BeamRiderState, running, param) -> BeamRiderState:
    """The odd frame of the sentinel's bonus (measured; constants.py ``SENTINEL_REACH``), by its wait
    in slot 1's parameter as it stood (``param``): from 226 the grid stops on its next pass over 0 or
    1; at 255 each new count a multiple of 16 pays 10 x (the sector + 10) and takes a ship from the
    reserve, the one with none left ends the sector and gives the reserve kept in slot 0's back."""
    stops = running & (param[1] >= k.sentinel_bonus_stop_grid) & (state.grid <= k.sector_end_grid)
    pays = running & (param[1] == k.sentinel_bonus_ready) & (state.count % k.sentinel_bonus_counts == 0)
    last = pays & (state.player.reserve == 0)
    player = state.player.replace(
        score=state.player.score + jnp.where(pays, hits.points(k, state.player.sector, k.sentinel_bonus_unit), 0),
        reserve=jnp.where(pays & ~last, state.player.reserve - 1, state.player.reserve))
    paid = state.replace(player=player, grid_speed=jnp.where(stops, 0, state.grid_speed))
    ended = next_sector(k, paid)
    ended = ended.replace(player=ended.player.replace(reserve=param[0]))
    return select_tree(last, ended, paid)


def next_sector(k, state: BeamRiderState) -> BeamRiderState:
    """The sector's end's last frame (measured, 10 ends): ram[12] 1 - the next ship's wait for the
    joystick, then the intro - with the sector one on, 15 enemies, 3 torpedoes, the grid stopped,
    the wave timer spent, the wave 2 (the spawn starts the next), the horizon count's base 8 lower a
    sector down to 8 (48 in sector 2), the enemies' shots' speed 21 + the sector (to 25), the sector
    counted in BCD, the ship back on the centre beam with the rejuvenator due again; the slots'
    bytes are kept."""
    sector = hits.next_sector(k, state.player.sector)
    base = k.start_count_base - k.sector_count_base_step * (hits.sector_number(sector) - 1)
    return state.replace(
        phase=jnp.int32(k.life_taken_phase), grid_speed=jnp.int32(0), sentinel_hit=jnp.bool_(False),
        shot_speed=k.shot_speed_base + jnp.minimum(hits.sector_number(sector), k.shot_speed_last_sector),
        player=state.player.replace(sector=sector, enemies_left=jnp.int32(k.start_enemies)),
        ship=state.ship.replace(x=jnp.int32(k.beam_x[k.start_beam]), flags=jnp.int32(k.on_beam_flags),
                                torpedoes=jnp.int32(k.start_torpedoes)),
        saucers=state.saucers.replace(timer=jnp.int32(0), wave=jnp.int32(k.next_sector_wave),
                                      count_base=jnp.maximum(base, k.sector_count_base_floor)))


def frame(k: BeamRiderConstants, state: BeamRiderState, ale_action) -> BeamRiderState:
    """One frame's phases: the clock, the saucers (odd frames), the ship (even frames)."""
    ticked = clock(k, state, ale_action)
    state = fly(k, enemies(k, state, ticked), ale_action)
    return state.replace(frame=state.frame + 1)


@functools.partial(jax.jit, static_argnames="k")
def step(state: BeamRiderState, ale_action, k: BeamRiderConstants = c.DEFAULTS) -> BeamRiderState:
    """One emulator frame under ALE action ``ale_action`` (0..17, ALE's full action set)."""
    return frame(k, state, ale_action)


@functools.partial(jax.jit, static_argnames="k")
def rollout(state: BeamRiderState, ale_actions, k: BeamRiderConstants = c.DEFAULTS):
    """The states after each of ``ale_actions`` (int32 (T,)), stacked on a leading axis."""
    def one(s, a):
        s = frame(k, s, a)
        return s, s

    return jax.lax.scan(one, state, jnp.asarray(ale_actions, jnp.int32))[1]


def signals(state: BeamRiderState) -> dict[str, np.ndarray]:
    """The mirrored bytes by the reference's names (ram.ship_bytes), for one state or a stack."""
    s = jax.device_get(state)
    return {"count": np.asarray(s.count), "random": np.asarray(s.random), "phase": np.asarray(s.phase),
            "grid": np.asarray(s.grid), "grid_speed": np.asarray(s.grid_speed),
            "shot_speed": np.asarray(s.shot_speed),
            "ship_x": np.asarray(s.ship.x), "ship_flags": np.asarray(s.ship.flags),
            "shot_y": np.asarray(s.ship.shot_y), "shot_x": np.asarray(s.ship.shot_x),
            # measured: the shot a loss frame leaves has no picture (ram[49] 0)
            "shot_picture": np.where(np.asarray(s.phase) == c.DYING_PHASE, 0,
                                     np.asarray(ship.picture(c.DEFAULTS, s.ship))),
            "torpedoes": np.asarray(s.ship.torpedoes),
            "enemies_left": np.asarray(s.player.enemies_left),
            "sector": np.asarray(s.player.sector), "reserve": np.asarray(s.player.reserve),
            "score": np.asarray(s.player.score),
            "wave_timer": np.asarray(s.saucers.timer), "wave": np.asarray(s.saucers.wave),
            "count_base": np.asarray(s.saucers.count_base),
            **enemy_shot_signals(s.enemy_shots),
            **{f"saucer_{name}_{i}": np.asarray(getattr(s.saucers, name))[..., i]
               for name in ("kind", "step", "x", "depth", "param") for i in range(3)}}


def enemy_shot_signals(shots) -> dict[str, np.ndarray]:
    """The enemies' shots by entry: kind, and x and depth while the entry holds a shot (the
    cartridge leaves scratch values in empty entries: no signal)."""
    kind = np.asarray(shots.kind)
    held = kind != c.KIND_EMPTY
    x = np.where(held, np.asarray(shots.x), 0)
    depth = np.where(held, np.asarray(shots.depth), c.START_SAUCER_DEPTH)
    return {f"enemy_shot_{name}_{j}": v[..., j] for name, v in (("kind", kind), ("x", x), ("depth", depth))
            for j in range(c.SHOT_COUNT)}


class BeamRider(Game):
    name = "beamrider"
    # ALE driver isMinimal / the Farama page's Discrete(9) table, as ALE action ids:
    # NOOP, FIRE, UP, RIGHT, LEFT, UPRIGHT, UPLEFT, RIGHTFIRE, LEFTFIRE
    minimal_actions = (0, 1, 2, 3, 4, 6, 7, 11, 12)
    Constants = BeamRiderConstants
    mechanics = ()

    def _reset(self, key):
        return reset(self.consts, key)

    def _step(self, state, ale_action):
        new = frame(self.consts, state, ale_action)
        return new, new.player.score - state.player.score

    def is_terminal(self, state):
        return state.player.reserve == self.consts.game_over_reserve

    def score(self, state):
        return state.player.score

    def lives(self, state):
        # ALE driver: the life is taken once ram[12] reads 1; while a ship is being lost the
        # reserve it had waits in slot 0's parameter (measured)
        had = jnp.where(state.phase == self.consts.dying_phase, state.saucers.param[0], state.player.reserve)
        # ALE driver: a drop of exactly one waits for ram[12] 1, any other change is taken at once, so
        # through the sentinel's bonus (the reserve paid out one a step) every second step shows
        bonus = state.sentinel_hit & (state.phase == self.consts.sector_end_phase)
        had = had + (bonus & (((state.saucers.param[0] - state.player.reserve) & 1) == 1)).astype(jnp.int32)
        return (had + 1) & BYTE

    def signals(self, state):
        return {name: jnp.asarray(v) for name, v in signals(state).items()}
