"""The Frostbite game: one frame is a short pipeline of the cartridge's rules, in its order (the
vertical blank's game logic, the picture's collisions, the overscan); the rules live in the modules
named in each step."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari import render
from jaxtari.env import ACTION_NAMES, Game, joystick
from jaxtari.games.frostbite import objects
from jaxtari.games.frostbite.logic import bailey, collisions, enemies, overscan, status, world
from jaxtari.games.frostbite.logic.cartridge import to_bcd
from jaxtari.games.frostbite.constants import (
    BLUE_FLOE_COLOUR, DEMO_LIVES, F_SINK, LATE_START_TIMERS, WHITE_FLOE_COLOUR, FrostbiteConstants,
)
from jaxtari.games.frostbite.draw import draw_frame
from jaxtari.games.frostbite.logic.geometry import enemy_screen_x
from jaxtari.games.frostbite.state import initial_state, new_screen
from jaxtari.xla import select_tree


class Frostbite(Game):
    name = "frostbite"
    minimal_actions = tuple(range(18))   # ALE: getMinimalActionSet() is all 18 actions  rule: action.minimal-set
    Constants = FrostbiteConstants
    mechanics = ("spawn_enemy", "floe_speed")

    def _reset(self, key):
        return initial_state(self.consts, key)

    def ale_start(self, state, timer):
        """The start ALE's reset_game leaves when the console's reset set the RIOT timer to
        ``timer`` (``reset`` gives the first reset_game's after a load, timer 65): with a late
        timer (LATE_START_TIMERS) the game has run one frame further, its pause as long."""
        ahead, _ = self._step(state, ACTION_NAMES.index("NOOP"))
        ahead = ahead.replace(frame=state.frame, hold=state.hold)
        return select_tree(jnp.isin(timer, jnp.asarray(LATE_START_TIMERS)), ahead, state)

    def new_screen(self, s, m):
        """The cartridge's new-screen routine (after a lost life or a finished level), where m."""
        return new_screen(self.consts, s, m)

    # ---- swappable mechanics ------------------------------------------------------------------------
    # rule: physics.floes-drift, physics.steer-in-air
    def floe_speed(self, numerators):
        """Speed numerators (1/16 px per frame: floes, enemies, Bailey in the air) -> what the
        accumulators add each frame; the floe entry scaled by floe_speed_scale/16."""
        return numerators.at[0].set(numerators[0] * self.consts.floe_speed_scale // 16)

    # rule: spawning.fish, physics.hazards-push
    def spawn_enemy(self, s, lfsr):
        """Row bytes, start x and copies of new enemies (cartridge rule), one random byte per row (4,)."""
        return enemies.spawn(self.consts, s, lfsr)

    # ---- one frame ------------------------------------------------------------------------------------
    def _step(self, state, ale_action):
        c, joy = self.consts, joystick(ale_action)
        # the vertical blank: the game logic, which reads the joystick
        s = status.next_frame(state)
        s, go = status.pause(s)
        s, go = status.screen_status(c, s, go)          # sinking, freezing, tally, new screen, game over
        s, go = world.bear_chases_bailey(s, go)
        s = world.floes_break_up(s, go)
        s = enemies.animate(enemies.move(self, s, go), go)
        at = bailey.footing(s, go)
        s, drowned = bailey.drown(s, at)
        s, built = bailey.land(c, s, at)
        s = bailey.meet_enemy(bailey.reverse_row(s, at, built), at)
        s, rode = bailey.ride_floe(s, at)
        s = bailey.jump(s, at, rode, joy)
        live = go & ~drowned                            # drowning skips the rest of the logic
        s = bailey.enter_igloo(s, live)
        s = world.drift_floes(world.whiten_rows(s, live), live)
        s = bailey.animate(bailey.walk(s, live, joy), live, joy)
        s, degree_went = world.cool_down(s, live)
        s = world.bear_walks(c, s, live, degree_went)
        # the picture: what it shows is read back by the next frame's logic
        s = collisions.latch(s, c.enemies)
        # the overscan
        s = overscan.fish_points_and_sound(c, s)
        s = overscan.read_fire_and_random(overscan.next_speeds(self, s), joy)
        return s.replace(frame=s.frame + 1), s.score - state.score

    def _collisions(self, s):
        """What this frame's picture shows the next frame's logic (collisions.latch)."""
        return collisions.latch(s, self.consts.enemies)

    # ---- queries --------------------------------------------------------------------------------
    def is_terminal(self, state):
        # ALE: ram[76] == 0 and ram[113] bit 7 (sinking). A last Bailey lost to the cold also ends
        # the game here, unless ale_endless_game_over (then, as on ALE, the episode runs on).
        sunk = (state.lives == 0) & ((state.flags & F_SINK) != 0)
        if self.consts.ale_endless_game_over:
            return sunk | (state.game_over & (state.sink > 0))   # sank (not frozen): over on ALE too
        return sunk | state.game_over

    def score(self, state):
        return state.score

    def lives(self, state):
        # ALE reports ram[76] + 1 while the game runs and 0 once it is over (measured: after a
        # random game ends ram[76] is 0 and ALEInterface.lives() is 0, not 1).
        lives = jnp.where(state.demo, DEMO_LIVES, state.lives)
        return jnp.where(self.is_terminal(state), 0, (lives & 15) + 1)

    def signals(self, state):
        return objects.signals(self, state)

    def objects(self, state):
        return objects.objects(self, state)

    def render(self, state):
        return draw_frame(self, state, render.FULL)

    def render_gray84(self, state):
        return draw_frame(self, state, render.SMALL_GRAY)



def mirrored_ram(state) -> dict:
    """The ALE RAM bytes this state mirrors, {ram index: value as the cartridge stores it}: what the
    emulator comparison checks byte for byte."""
    s = state
    out = {1: s.fc, 2: s.lfsr, 30: s.floe_shape, 70: jnp.where(s.game_over, -1, 0),
           72: to_bcd(s.score // 10000), 73: to_bcd((s.score // 100) % 100), 74: to_bcd(s.score % 100),
           75: s.level_index, 76: s.lives, 77: s.blocks & 0xFF, 100: s.y, 101: to_bcd(s.temperature),
           102: s.x, 103: s.hold, 104: s.bear_x, 106: s.jump, 107: s.sink, 108: s.facing,
           110: s.anim, 111: s.bear_frame, 112: s.frozen, 113: s.flags, 114: s.pushed_row & 0xFF,
           117: s.white_hold, 116: s.sound, 118: jnp.where(s.landed, 0xFF, 0),
           105: jnp.where(s.igloo_jump, 0x80, 0), 119: s.fish_eaten, 57: s.floe_row & 0xFF, 56: s.enemy_row & 0xFF}
    for i in range(3):
        out[22 + i] = s.speed[i]
        out[25 + i] = s.speed_frac[i]
    for i in range(4):
        out[31 + i] = s.floe_x[i]
        out[43 + i] = jnp.where(s.floe_white[i], WHITE_FLOE_COLOUR, BLUE_FLOE_COLOUR)
        out[17 + i] = s.row_byte[i]
        out[96 + i] = s.enemy_x[i]
        out[92 + i] = s.enemy_copies[i]
        out[84 + i] = enemy_screen_x(s)[i]
    del out[70]  # ram[70] also counts the attract-mode delay; not mirrored
    return out
