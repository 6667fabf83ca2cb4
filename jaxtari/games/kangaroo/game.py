"""Kangaroo's game: reset, the frame in the cartridge's order as a few named phases (:mod:`.logic`),
score, lives, the end; the picture (:mod:`.draw`) and the objects and signals (:mod:`.objects`)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from jaxtari.env import Game, joystick
from jaxtari.games.kangaroo import constants as k
from jaxtari.games.kangaroo import draw
from jaxtari.games.kangaroo import objects as objects_of
from jaxtari.games.kangaroo.constants import KangarooConstants
from jaxtari.games.kangaroo.logic import frame, monkeys
from jaxtari.games.kangaroo.logic.ape import ape
from jaxtari.games.kangaroo.logic.cpu import where
# the RAM mirror's names, imported from here by the reference and the tests
from jaxtari.games.kangaroo.state import (  # noqa: F401
    FIELD_RAM, KangarooState, built_list, picture_of, ram_of_state, reset_ram, state_from_ram, with_ram)


def bcd(byte):
    return (byte >> 4) * 10 + (byte & 0xF)


class Kangaroo(Game):
    name = "kangaroo"
    # rule: action.minimal-set
    minimal_actions = tuple(range(18))  # ALE's minimal set for Kangaroo is all 18 actions
    Constants = KangarooConstants
    mechanics = ()

    def _reset(self, key):
        if self.consts.mode not in k.MODES:
            raise ValueError(f"Kangaroo has ALE modes {k.MODES}; got mode={self.consts.mode!r}")
        r = np.zeros(128, np.int64)
        for i, v in reset_ram(self.consts).items():
            r[i] = v
        return self._hold(state_from_ram(r, key=key))

    def _hold(self, s):
        """The mods' switches: their bytes held after reset and after every frame."""
        c = self.consts
        if c.monkeys_held_off:
            s = s.replace(monkey_row=jnp.full(k.MONKEY_SLOTS, k.MONKEY_HELD_OFF, jnp.int32))
        if c.coconut_held_off:
            s = s.replace(coconut_row=jnp.int32(k.COCONUT_NONE))
        if c.timer_frozen:
            s = s.replace(timer=jnp.int32(c.start_timer))
        return s

    def _step(self, state, ale_action):
        joy = joystick(ale_action)
        s, ended, attract = self._vertical_blank(state)
        picture = picture_of(s, state)  # the kernel draws here
        s, built = self._overscan(s, joy, picture)
        s = where(ended, attract, s)  # the game over: the attract mode takes the frame
        s = self._hold(s).replace(frame=state.frame + 1, picture=built)
        return s, self.score(s) - self.score(state)

    def _vertical_blank(self, state):
        """Bank 1's vertical blank, then bank 0's work before the picture: a monkey coming on, the
        music, the monkeys touching the mother and the big ape (none while the mother waits).
        Returns the state, whether the game ended on this frame and the attract mode's state of
        that frame."""
        c = self.consts
        s = frame.vertical_blank(c, state)
        ended = ((s.attract & k.SIGN) != 0) & ((state.attract & k.SIGN) == 0)
        attract = frame.attract_frame(s)
        s = where((s.mother_state & k.SIGN) != 0, s, monkeys.spawn(c, s))
        s = monkeys.cap_pace(c, s)
        s = frame.music(c, s)
        s = where((s.mother_state & k.SIGN) != 0, s, ape(c, monkeys.touch_mother(c, s)))
        return s, ended, attract

    def _overscan(self, s, joy, picture):
        """After the picture: the punches it latched, the bell's clock, the overscan's game logic,
        the pickups. Returns the state and the next picture's inputs (``picture`` with the
        player-1 list the overscan built before the pickups)."""
        c = self.consts
        s = monkeys.punch_monkeys(c, s)
        s = frame.bell_clock(c, s)
        s = frame.overscan(c, s, joy, draw.glove_enabled(c, picture))
        built = picture.replace(built=built_list(s))
        return frame.pickups(c, s), built

    # rule: termination.last-life-lost
    def is_terminal(self, state):
        return state.lives == k.BYTE

    def score(self, state):
        return (bcd(state.score_high) * 100 + bcd(state.score_low)) * 100

    def lives(self, state):
        # ALE's lives(): ram[45] + 1 (0 once the game is over: 255 + 1 wraps)
        return (state.lives + 1) & k.BYTE

    def render(self, state):
        return draw.render(self.consts, state)

    def render_gray84(self, state):
        return draw.render_gray84(self.consts, state)

    def objects(self, state):
        return objects_of.objects(self, state)

    def signals(self, state):
        return objects_of.signals(self, state)
