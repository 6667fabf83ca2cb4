"""Seaquest's RAM facts (alignment/reference/games/seaquest/ram.py), each re-checked on the real emulator
(ale-py, sticky actions off, one frame per action)."""

from __future__ import annotations

import numpy as np
import pytest

from alignment.porting import ramtrace as rt
from jaxtari.games.seaquest import constants as k
from alignment.reference.games.seaquest import ram as gt

SUB_COLOUR = (187, 187, 53)  # the player's sub on ALE's NTSC palette (COLOR_PLAYER1)
OPENING = 130
HIDDEN_TOP_LINES = range(53, 57)  # frames of the opening oxygen refill (the sub cannot act before)


@pytest.fixture(scope="module")
def dive():
    """The opening, then right, down to the bottom, left, and up to the surface."""
    return rt.record("seaquest", rt.parse_script(f"NOOP:{OPENING},RIGHT:70,DOWN:100,LEFT:140,UP:110"))


def _signal(name):
    return next(s for s in gt.signals() if s.name == name)


def test_reset_state():
    t = rt.record("seaquest", rt.parse_script("NOOP:1"))
    r = t.rams[0]
    assert (r[k.RAM_SUB_X], r[k.RAM_SUB_Y]) == (k.SUB_START_X, k.SUB_Y_MIN)
    assert t.lives[0] == r[k.RAM_RESERVE_SUBS] + 1 == k.START_RESERVE_SUBS + 1
    assert gt.score(r) == 0 and r[k.RAM_OXYGEN] == 0 and r[k.RAM_GAME_OVER] == 0


def test_the_opening_fills_the_oxygen_one_unit_every_other_frame():
    t = rt.record("seaquest", rt.parse_script(f"NOOP:{OPENING}"))
    ox = t.rams[:, k.RAM_OXYGEN].astype(int)
    steps = np.diff(ox)
    assert set(steps.tolist()) == {0, 1} and ox.max() == k.OXYGEN_MAX
    full = int(np.argmax(ox == k.OXYGEN_MAX))
    assert np.all(np.diff(np.flatnonzero(steps[:full])) == 2)  # every other frame


def test_the_sub_moves_one_pixel_a_frame_within_its_limits(dive):
    x, y = dive.rams[:, k.RAM_SUB_X].astype(int), dive.rams[:, k.RAM_SUB_Y].astype(int)
    assert x.max() == k.SUB_X_MAX and x.min() == k.SUB_X_MIN
    assert y.max() == k.SUB_Y_MAX and y.min() == k.SUB_Y_MIN
    assert set(np.abs(np.diff(x)).tolist()) <= {0, 1} and set(np.abs(np.diff(y)).tolist()) <= {0, 1}
    facing = dive.rams[:, k.RAM_SUB_DIRECTION]
    left = [dive.action_names[a] == "LEFT" for a in dive.actions]
    assert np.all(facing[1:][np.asarray(left)] == k.REFLECT)


def test_player_position_signals_match_the_screen():
    import ale_py

    ale = rt.open_rom("seaquest")
    for _ in range(OPENING):
        ale.act(ale_py.Action.NOOP)
    checked = 0
    for action, frames in (("DOWN", 30), ("RIGHT", 20), ("DOWNLEFT", 25)):
        for _ in range(frames):
            ale.act(getattr(ale_py.Action, action))
            ram, screen = ale.getRAM(), ale.getScreenRGB()
            ys, xs = np.nonzero(np.all(screen == SUB_COLOUR, axis=2))
            assert xs.min() == _signal("player_x").ale(ram)
            top = _signal("player_y").ale(ram)
            if top in HIDDEN_TOP_LINES:  # measured: lines 53..56 (below the surface) draw no sub
                assert ys.min() == HIDDEN_TOP_LINES[-1] + 1
            else:
                assert ys.min() == top
            checked += 1
    assert checked == 75


def test_oxygen_drains_one_unit_every_32_frames_under_water(dive):
    y = dive.rams[:, k.RAM_SUB_Y].astype(int)
    ox = dive.rams[:, k.RAM_OXYGEN].astype(int)
    fc = dive.rams[:, k.RAM_FRAME_COUNT].astype(int)
    for t in range(OPENING + 1, len(ox)):
        under = y[t - 1] >= k.OXYGEN_DRAIN_Y and y[t] >= k.OXYGEN_DRAIN_Y
        if under and (fc[t] & k.OXYGEN_DRAIN_MASK) == 0:
            assert ox[t] == ox[t - 1] - 1, t
        elif under:
            assert ox[t] == ox[t - 1], t


@pytest.mark.parametrize("seed", [0, 1])
def test_score_lives_and_game_over_over_a_whole_random_game(seed):
    t = rt.record("seaquest", frames=6000, seed=seed, hold=(1, 8))
    assert t.game_over[-1], "a random player loses every sub within 6,000 frames"
    scores = np.asarray([gt.score(r) for r in t.rams])
    assert np.array_equal(scores[1:] - scores[:-1], t.rewards)
    assert scores[-1] > 0
    # ALE's lives(): the reserve subs + 1 while the game is on, 0 once it is over
    reserve = t.rams[:, k.RAM_RESERVE_SUBS].astype(int) + 1
    assert np.array_equal(t.lives, np.where(t.game_over, 0, reserve))
    assert np.array_equal(t.game_over, t.rams[:, k.RAM_GAME_OVER] != 0)
    # every decoder reads a value of the documented range on every frame
    for r in t.rams[:: 50]:
        assert 0 <= _signal("oxygen").ale(r) <= k.OXYGEN_MAX
        assert 0 <= _signal("divers_carried").ale(r) <= k.MAX_DIVERS
        assert _signal("enemy_x").ale(r).shape == (k.NUM_LANES,)
        assert set(gt.lane_copies(r).tolist()) <= {0, 1, 2, 3}


def test_pokes_write_what_they_name():
    import ale_py

    ale = rt.open_rom("seaquest")
    pokes = {p.name: p for p in gt.pokes()}
    assert set(pokes) == {"score", "divers", "oxygen", "reserve_subs", "wave"}
    for _ in range(OPENING):
        ale.act(ale_py.Action.NOOP)
    for _ in range(20):  # under water first: at the surface a refill would start at once
        ale.act(ale_py.Action.DOWN)
    for name, value in (("score", 9_990), ("divers", 5), ("oxygen", 20), ("reserve_subs", 6)):
        for a, v in pokes[name].ram(value).items():
            ale.setRAM(a, v)
    for _ in range(40):  # dive: the oxygen drains from the written value, the score stays
        ale.act(ale_py.Action.DOWN)
    r = ale.getRAM()
    assert gt.score(r) == 9_990 and r[k.RAM_DIVERS] == 5 and ale.lives() == 7
    assert 18 <= r[k.RAM_OXYGEN] <= 20


def test_surfacing_with_divers_gives_one_up_and_refills():
    import ale_py

    ale = rt.open_rom("seaquest")
    for _ in range(OPENING):
        ale.act(ale_py.Action.NOOP)
    for _ in range(12):
        ale.act(ale_py.Action.DOWN)
    ale.setRAM(k.RAM_DIVERS, 3)
    ale.setRAM(k.RAM_OXYGEN, 30)
    for _ in range(12 + 2 * (k.OXYGEN_MAX - 30) + 4):
        ale.act(ale_py.Action.UP)
    r = ale.getRAM()
    assert r[k.RAM_SUB_Y] == k.SUB_Y_MIN and r[k.RAM_OXYGEN] == k.OXYGEN_MAX
    assert r[k.RAM_DIVERS] == 2 and r[k.RAM_DIFFICULTY] == 1 and ale.lives() == 4

