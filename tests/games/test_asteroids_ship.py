"""The ship of the Asteroids port (jaxtari/games/asteroids/: turn, fire, thrust, drag, move, wrap,
shots) in lockstep with ALE (ale-py, sticky actions off, one frame per act): every mirrored byte
equal on every frame, the first difference fails. Hyperspace (DOWN alone), deaths and shots
ending on an asteroid are not ported yet: play avoids DOWN alone, and the plain game is compared
up to the first of the others; a second run keeps ALE's asteroid lists empty with RAM writes, so
the ship flies whole long games alone."""

from __future__ import annotations

import numpy as np
import pytest

from alignment.porting import ramtrace
from alignment.signals import RamWrite
from jaxtari.games.asteroids import constants as c
from jaxtari.games.asteroids import game as g
from jaxtari.games.asteroids.logic.positions import EAST, WEST
from alignment.reference.games.asteroids import ram as k

ROM = "asteroids"
# every ALE action but the two reading as the joystick pushed down alone (hyperspace in mode 0)
PLAYED = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT",
          "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE",
          "DOWNLEFTFIRE")
# asteroid lists held empty: the cartridge refills them on the frame it finds them empty and skips
# its collision checks on that frame, so no asteroid ever meets the ship or a shot
NO_ASTEROIDS = tuple(RamWrite(k.ASTEROID_Y + slot, k.OFF_SCREEN_Y) for slot in range(2 * k.LIST_LENGTH))


def _script(seed: int, steps: int):
    rng = np.random.default_rng(seed)
    return [(PLAYED[rng.integers(len(PLAYED))], int(rng.integers(1, 13))) for _ in range(steps)]


def _first_difference(trace, frames: int):
    """(frame, {name: (jax, ale)}) of the first frame whose bytes differ, or None."""
    states = g.rollout_ship(g.reset_ship(), trace.actions[:frames].astype(np.int32))
    ours = g.ship_signals(states)
    theirs = [k.ship_bytes(r) for r in trace.rams[1:frames + 1]]
    for t in range(frames):
        diff = {n: (int(ours[n][t]), theirs[t][n]) for n in ours if int(ours[n][t]) != theirs[t][n]}
        if diff:
            return t, diff
    return None


def _modelled_frames(trace) -> int:
    """Frames from reset before ALE first leaves what the port models: a reward or a newly hit
    asteroid (a shot ends there), the ship killed, exploding, in hyperspace or off the screen."""
    for t in range(trace.frames):
        before, after = trace.rams[t], trace.rams[t + 1]
        newly_hit = (sum(a["hit"] for a in k.asteroids(after))
                     > sum(a["hit"] for a in k.asteroids(before)))
        if (trace.rewards[t] or newly_hit or after[k.FEATURE_TIMER]
                or after[k.PLAYER_STATE] & (k.PLAYER_KILLED | k.PLAYER_HYPERSPACE)
                or after[k.SHIP_Y] == k.OFF_SCREEN_Y):
            return t
    return trace.frames


def test_the_move_tables_are_the_roms():
    from ale_py import roms

    rom = roms.get_rom_path(ROM).read_bytes()
    for table in (EAST, WEST):
        assert rom.find(bytes(table.astype(np.uint8))) >= 0


def test_the_ship_matches_ale_in_the_plain_game_until_a_hit_or_a_death():
    compared = 0
    for seed in range(8):
        trace = ramtrace.record(ROM, _script(seed, 100))
        frames = _modelled_frames(trace)
        assert _first_difference(trace, frames) is None, seed
        compared += frames
    assert compared >= 1000


@pytest.mark.parametrize("seed", [0, 1])
def test_the_ship_matches_ale_flying_alone(seed):
    trace = ramtrace.record(ROM, _script(seed, 500), writes=NO_ASTEROIDS)
    frames = _modelled_frames(trace)
    assert frames == trace.frames >= 3000
    assert _first_difference(trace, frames) is None
    # what the run went through: every heading, shots in both slots, both kinds of wrap
    rams = trace.rams[1:]
    assert set((rams[:, k.PLAYER_ATTRIBUTES] & k.ROTATION_MASK).tolist()) == set(range(c.ROTATIONS))
    assert all((rams[:, k.SHOT_DIRECTION[i]] != 0).any() for i in range(c.MAX_SHOTS))
    ys = rams[:, k.SHIP_Y].astype(int)
    assert (np.abs(np.diff(ys)) > c.PLAY_HEIGHT // 2).any(), "the ship never wrapped vertically"
    xs = np.array([k.horizontal_pixel(v) for v in rams[:, k.SHIP_X]])
    assert (np.abs(np.diff(xs)) > c.SCREEN_WIDTH // 2).any(), "the ship never wrapped sideways"


def test_a_bad_action_is_refused():
    assert g.checked_action(3) == 3
    with pytest.raises(ValueError, match="0..17"):
        g.checked_action(18)
    with pytest.raises(TypeError, match="int"):
        g.checked_action("LEFT")


def test_the_ship_matches_ale_at_full_thrust():
    """Thrust held long enough for the velocity's high byte to reach the cartridge's clamp
    (-64..63), heading up, then turned a quarter and held again, then coasting."""
    trace = ramtrace.record(ROM, [("UP", 400), ("LEFT", 16), ("UPFIRE", 400), ("NOOP", 600)],
                            writes=NO_ASTEROIDS)
    assert _modelled_frames(trace) == trace.frames
    assert _first_difference(trace, trace.frames) is None
    highs = trace.rams[1:, list(k.SHIP_VELOCITY_HIGH)].astype(np.int64)
    signed = np.where(highs >= 0x80, highs - 0x100, highs)
    assert signed.min() == -64 and signed.max() == 63  # pressed against both ends of the clamp
