"""BeamRider's RAM map (ports/beamrider/reference/ram.py) re-checked on the emulator (ale-py,
sticky actions off, one frame per act): each address against what ALE itself reports (rewards,
lives(), game over), against what pressing an action does, or against ALE's screen after a poke."""

from __future__ import annotations

import collections
import numpy as np
import pytest

from alignment.porting import ramtrace
from alignment.porting.pokes import poke_outcomes
from ports.beamrider.game import constants as c
from ports.beamrider.reference import ram

ROM = "beam_rider"
TOP_LINES = slice(0, 40)      # the score, "SECTOR nn", enemies left and torpedoes (measured)
BOTTOM_LINES = slice(180, 195)  # the reserve ships (measured)


@pytest.fixture(scope="module")
def random_game():
    """A whole game of random held actions (seed 5: 4,494 frames, six saucers, three deaths)."""
    return ramtrace.record(ROM, frames=30_000, seed=5, hold=(2, 8))


def test_the_score_bytes_are_the_summed_reward(random_game):
    tr = random_game
    assert tr.game_over[-1]
    summed = np.concatenate([[0], np.cumsum(tr.rewards)])
    assert [ram.score(r) for r in tr.rams] == summed.tolist()
    assert set(tr.rewards.tolist()) == {0, 44}     # sector 1's saucers (NOTES.md "Points by sector")


def test_each_kill_takes_one_enemy_from_the_count(random_game):
    tr = random_game
    left = tr.rams[:, ram.ENEMIES_LEFT].astype(int)
    assert left[0] == c.START_ENEMIES
    assert np.flatnonzero(np.diff(left)).tolist() == np.flatnonzero(tr.rewards).tolist()
    assert set(np.diff(left).tolist()) == {0, -1}


def test_lives_are_the_reserve_plus_one_after_the_death_animation(random_game):
    tr = random_game
    now = np.asarray([ram.lives_now(r) for r in tr.rams])
    lag = now != tr.lives
    # ALE keeps the old count while the death plays (until ram[12] reads 1): one more, never less
    assert (tr.lives[lag] == now[lag] + 1).all()
    assert lag.sum() < 0.1 * len(now)
    assert now[0] == 3 and ram.game_over(tr.rams[-1]) and tr.lives[-1] == 0
    assert not any(ram.game_over(r) for r in tr.rams[:-1])


def test_the_frame_count_steps_on_odd_frames_until_a_death(random_game):
    tr = random_game
    t = np.arange(len(tr.rams))
    first_death = int(np.flatnonzero(tr.rams[:, ram.PHASE] != ram.PHASE_PLAY)[
        np.flatnonzero(tr.rams[:, ram.PHASE] != ram.PHASE_PLAY) > c.PLAY_PHASE_FRAME][0])
    expected = (c.START_COUNT + t // c.LOGIC_PERIOD) % 256
    assert (tr.rams[:first_death, ram.FRAME_COUNT] == expected[:first_death]).all()
    assert tr.rams[first_death + 2, ram.FRAME_COUNT] < expected[first_death + 2]  # restarts


def test_the_ship_x_stops_on_five_beams():
    tr = ramtrace.record(ROM, ramtrace.parse_script("NOOP:240,LEFT:60,RIGHT:100,LEFT:30"))
    xs = tr.rams[:, ram.SHIP_X].astype(int)
    still = [int(x) for t, x in enumerate(xs) if t and ram.ship_moving(tr.rams[t]) == 0]
    assert set(still) == set(ram.BEAM_X)
    assert xs.min() == ram.BEAM_X[0] and xs.max() == ram.BEAM_X[-1]
    assert {ram.ship_moving(r) for r in tr.rams} == {-1, 0, 1}


def test_torpedoes_count_down_on_up_and_fire_does_not_take_one():
    tr = ramtrace.record(ROM, ramtrace.parse_script("FIRE:400,UP:400"))
    torps = tr.rams[:, ram.TORPEDOES].astype(int)
    assert torps[0] == c.START_TORPEDOES and torps[400] == c.START_TORPEDOES
    assert torps[-1] == 0 and set(np.diff(torps).tolist()) == {0, -1}
    lariats = [t for t in range(1, 401) if tr.rams[t, ram.SHOT_Y] == c.SHOT_START_Y
               and tr.rams[t - 1, ram.SHOT_Y] == ram.NO_SHOT]
    assert len(lariats) >= 5


def _screen_after(writes, frames=10):
    ale = ramtrace.open_rom(ROM)
    for a, v in writes.items():
        ale.setRAM(a, v)
    for _ in range(frames):
        ale.act(0)
    return ale.getScreenRGB()


@pytest.mark.parametrize("name,writes,lines", [
    ("sector", {ram.SECTOR: 5}, TOP_LINES),
    ("enemies left", {ram.ENEMIES_LEFT: 7}, TOP_LINES),
    ("torpedoes", {ram.TORPEDOES: 1}, TOP_LINES),
    ("score", ram.score_bytes(1234), TOP_LINES),
    ("reserve ships", {ram.LIVES: 4}, BOTTOM_LINES),
])
def test_a_poked_byte_changes_what_is_drawn_there_only(name, writes, lines):
    plain, poked = _screen_after({}), _screen_after(writes)
    differs = (plain != poked).any(-1)
    rows = np.flatnonzero(differs.any(1))
    assert rows.size, f"poking the {name} changed nothing on the screen"
    assert rows.min() >= (lines.start or 0) and rows.max() < lines.stop, (name, rows)


def test_the_random_number_shifts_on_every_odd_frame_of_a_whole_game(random_game):
    r = random_game.rams[:, ram.RANDOM].astype(int)
    for t in range(len(r) - 1):
        bit = bin(r[t] & c.RANDOM_TAPS).count("1") & 1
        assert r[t + 1] == ((((r[t] << 1) & 0xFF) | bit) if t % 2 else r[t]), t
    assert r[0] == c.START_RANDOM


@pytest.mark.parametrize("seed", [5, 12])
def test_each_kill_turns_one_saucer_slot_into_an_explosion_at_the_shot(seed):
    tr = ramtrace.record(ROM, frames=30_000, seed=seed, hold=(2, 8))
    r = tr.rams.astype(int)
    kills = np.flatnonzero(tr.rewards)
    assert len(kills) >= 5
    for t in kills:
        hit = [i for i, (a, b) in enumerate(zip(ram.enemies(r[t]), ram.enemies(r[t + 1])))
               if a["kind"] in ram.SAUCER_KINDS and b["kind"] == ram.EXPLOSION_KINDS[0]]
        assert len(hit) == 1, t
        e = ram.enemies(r[t])[hit[0]]
        # the shot (launched from ram[40]'s beam) is gone on the kill frame, its y a little
        # below the saucer's depth and the saucer within 6 of its beam
        assert r[t + 1, ram.SHOT_Y] == ram.NO_SHOT
        assert abs(e["x"] - r[t, ram.SHOT_X]) <= 6, t
        assert 7 <= r[t, ram.SHOT_Y] - e["depth"] <= 16, t  # the range seen, not yet the rule
    starts = [(t, i) for t in range(1, len(r)) for i in range(3)
              if r[t, ram.ENEMY_KIND[i]] == ram.EXPLOSION_KINDS[0]
              and r[t - 1, ram.ENEMY_KIND[i]] != ram.EXPLOSION_KINDS[0]]
    assert len(starts) == len(kills)


def test_the_explosion_steps_every_four_frames(random_game):
    r = random_game.rams.astype(int)
    for i, slot in enumerate(ram.ENEMY_KIND):
        steps = [t for t in range(1, len(r)) if r[t, slot] != r[t - 1, slot]
                 and r[t, slot] in ram.EXPLOSION_KINDS[1:]]
        gaps = np.diff(steps)
        assert set(gaps[gaps < 20].tolist()) <= {ram.EXPLOSION_STEP_FRAMES}, i


def test_saucers_riding_back_up_stay_on_a_beam(random_game):
    r = random_game.rams
    riding = [e for row in r for e in ram.enemies(row) if e["kind"] == 1]
    assert riding and all(e["x"] in ram.BEAM_X for e in riding)


def test_a_saucer_waits_on_the_horizon_then_comes_down_a_beam():
    tr = ramtrace.record(ROM, ramtrace.parse_script("NOOP:560"))
    first = [ram.enemies(row)[0] for row in tr.rams]
    assert first[238]["kind"] == ram.KIND_WAITING and first[238]["depth"] == 0
    down = [e for e in first[400:520] if e["step"] == 1]
    assert down and all(e["x"] in ram.BEAM_X for e in down)
    depths = [e["depth"] for e in down]
    assert depths == sorted(depths) and depths[-1] > depths[0]


def test_the_saucers_ignore_the_player_until_the_first_kill_or_death():
    """The enemy slots of random games equal those of a NOOP game frame for frame until the
    first kill or lost ship: the saucers' paths are the cartridge's own (its random number and
    counters), not aimed at the ship."""
    from tests.ports.test_beamrider_ship import covered_frames

    slots = [a for group in (ram.ENEMY_STEP, ram.ENEMY_DEPTH, ram.ENEMY_X, ram.ENEMY_KIND,
                             ram.ENEMY_PARAM) for a in group]
    noop = ramtrace.record(ROM, ramtrace.parse_script("NOOP:1200")).rams
    for seed in range(4):
        tr = ramtrace.record(ROM, frames=1_200, seed=seed, hold=(1, 8))
        n = covered_frames(tr)
        assert n > 400
        assert (tr.rams[:n][:, slots] == noop[:n][:, slots]).all(), seed


def _first_lost_ship(r) -> int:
    out = np.flatnonzero((r[:, ram.PHASE] != ram.PHASE_PLAY) & (np.arange(len(r)) > c.PLAY_PHASE_FRAME))
    return int(out[0]) if out.size else len(r)


@pytest.mark.parametrize("seed", [None, 0, 1, 2, 3])
def test_the_grid_clock_moves_by_its_dithered_speed_until_the_first_lost_ship(seed):
    """ram[24] moves on each odd frame by ram[4] (signed, sixteenths): the whole part, plus one
    when the new count's low nibble read backwards is below the fraction; ram[4] falls 2 an odd
    frame through the intro and is 19 from the frame play starts (kills do not change either)."""
    tr = (ramtrace.record(ROM, ramtrace.parse_script("NOOP:2400")) if seed is None
          else ramtrace.record(ROM, frames=2_000, seed=seed, hold=(1, 8)))
    r = tr.rams.astype(int)
    end = _first_lost_ship(r)
    assert end > 1_000
    for t in range(1, end):
        speed, count = r[t - 1, ram.GRID_SPEED], r[t, ram.FRAME_COUNT]
        if count == r[t - 1, ram.FRAME_COUNT]:
            assert r[t, ram.GRID] == r[t - 1, ram.GRID], t
            continue
        whole = (speed - 256 if speed > 127 else speed) >> 4
        dither = int(f"{count & 15:04b}"[::-1], 2)
        assert r[t, ram.GRID] == (r[t - 1, ram.GRID] + whole + (dither < speed % 16)) % c.GRID_WRAP, t
        expected = c.PLAY_GRID_SPEED if t - 1 >= c.PLAY_PHASE_FRAME else (256 - c.INTRO_SPEED_STEP * (t // 2)) % 256
        assert r[t, ram.GRID_SPEED] == expected, t


SLOT_BYTES = [a for group in (ram.ENEMY_KIND, ram.ENEMY_STEP, ram.ENEMY_X, ram.ENEMY_DEPTH,
                              ram.ENEMY_PARAM) for a in group]


def _noop_rams(frames, poke_frame=None, value=None):
    """RAM after reset and after each of ``frames`` NOOPs, ram[2] poked before ``poke_frame``."""
    ale = ramtrace.open_rom(ROM)
    rams = [ale.getRAM().copy()]
    for t in range(frames):
        if t == poke_frame:
            ale.setRAM(ram.RANDOM, value)
        ale.act(0)
        rams.append(ale.getRAM().copy())
    return np.asarray(rams).astype(int)


@pytest.mark.parametrize("value", [0, 0x11, 0x44, 0x88, 0xCC, 0xFF])
def test_the_spawn_draws_direction_and_count_from_the_random_number(value):
    r = _noop_rams(c.SAUCER_SPAWN_FRAME + 1, poke_frame=c.SAUCER_SPAWN_FRAME - 1, value=value)
    drawn = r[-1, ram.RANDOM]          # ram[2] after it stepped on the spawn frame
    kind = c.KIND_HORIZON_RIGHT if drawn & c.HORIZON_RIGHT_BIT else c.KIND_HORIZON_LEFT
    for i in range(3):
        assert ram.enemies(r[-1])[i] == {"kind": kind, "step": 0, "x": c.SPAWN_X, "depth": 0,
                                         "param": c.START_COUNT_BASE - c.COUNT_BASE_STEP + (drawn & c.HORIZON_COUNT_MASK)}
    assert (r[:-1][:, SLOT_BYTES] == r[0][SLOT_BYTES]).all()


def test_the_random_number_is_read_only_when_a_slot_reaches_the_horizon():
    """ram[2] poked at frame 330 changes no slot byte until the first climber is back on the
    horizon (frame 733 of the NOOP game), and that slot's count then."""
    plain, poked = _noop_rams(800), _noop_rams(800, poke_frame=330, value=0x37)
    differ = np.flatnonzero((plain[:, SLOT_BYTES] != poked[:, SLOT_BYTES]).any(1))
    assert differ[0] == 734
    back = [i for i in range(3) if plain[733, ram.ENEMY_KIND[i]] == c.KIND_CLIMBER
            and plain[734, ram.ENEMY_DEPTH[i]] == 0]
    assert back == [0]


def test_every_dive_takes_the_grid_depth_and_the_next_target_towards_the_centre():
    for value in (None, 0x00, 0x5A, 0xA5):
        r = _noop_rams(1_600, poke_frame=None if value is None else c.SAUCER_SPAWN_FRAME - 1,
                       value=value)
        dives = 0
        for t in range(c.SAUCER_SPAWN_FRAME + 2, len(r)):
            for i in range(3):
                if (r[t - 1, ram.ENEMY_KIND[i]] in (c.KIND_HORIZON_LEFT, c.KIND_HORIZON_RIGHT)
                        and r[t, ram.ENEMY_KIND[i]] in (c.KIND_DIVE_LEFT, c.KIND_DIVE_RIGHT)):
                    x, target = r[t, ram.ENEMY_X[i]], r[t, ram.ENEMY_PARAM[i]]
                    aim = (min(v for v in c.SAUCER_TARGETS if v > x) if x < c.CENTRE_X
                           else max(v for v in c.SAUCER_TARGETS if v < x))
                    assert r[t, ram.ENEMY_DEPTH[i]] == r[t, ram.GRID], (value, t)
                    assert target == aim, (value, t, x)
                    assert r[t, ram.ENEMY_KIND[i]] == (c.KIND_DIVE_RIGHT if target > x else c.KIND_DIVE_LEFT)
                    dives += 1
        assert dives >= 8, value


@pytest.mark.parametrize("value", [0, 50, 100, 150, 200, 250])
def test_the_jax_saucers_follow_worlds_with_other_spawns(value):
    """The JAX port against ALE with ram[2] poked before the spawn (another world each time): the
    five slot arrays equal on every frame to frame 1,200."""
    import jax.numpy as jnp
    from ports.beamrider.game import game as g

    frames = 1_200
    r = _noop_rams(frames, poke_frame=c.SAUCER_SPAWN_FRAME - 1, value=value)
    noops = np.zeros(frames, np.int32)
    before = g.rollout(g.reset(), noops[:c.SAUCER_SPAWN_FRAME - 1])
    start = g.jax.tree.map(lambda a: a[-1], before).replace(random=jnp.int32(value))
    after = g.signals(g.rollout(start, noops[c.SAUCER_SPAWN_FRAME - 1:]))
    for name, got in after.items():
        if name.startswith("saucer_"):
            ale = np.asarray([ram.saucer_bytes(row)[name] for row in r[c.SAUCER_SPAWN_FRAME:]])
            bad = np.flatnonzero(ale != got)
            assert bad.size == 0, (value, name, int(bad[0]) + c.SAUCER_SPAWN_FRAME)


@pytest.fixture(scope="module")
def random_games():
    """8 random games of held actions (3,000 frames each, kills in all of them)."""
    return [ramtrace.record(ROM, frames=3_000, seed=s, hold=(1, 8)) for s in range(8)]


def test_the_hit_rule_predicts_every_kill(random_games):
    """On each even frame a shot still flying after its move hits the first saucer slot (kinds
    1, 4, 5; paths of waves 2 and 3) within HIT_HALF_WIDTH of its beam in x and HIT_HALF_DEPTH of
    its new y in depth; nothing else starts an explosion."""
    kills = 0
    for tr in random_games:
        r = tr.rams.astype(int)
        for t in range(1, len(r) - 1):
            pre, post = r[t], r[t + 1]
            started = [i for i in range(3) if post[ram.ENEMY_KIND[i]] == c.KIND_EXPLOSION_FIRST
                       and pre[ram.ENEMY_KIND[i]] != c.KIND_EXPLOSION_FIRST]
            struck = []
            if t % 2 == 0 and pre[ram.PHASE] == ram.PHASE_PLAY:
                y = pre[ram.SHOT_Y] - c.SHOT_STEP
                flying = pre[ram.SHOT_Y] != ram.NO_SHOT and y >= (
                    c.TORPEDO_LAST_Y if pre[ram.SHOT_PICTURE] in ram.TORPEDO_PICTURES else c.LARIAT_LAST_Y)
                struck = [i for i in range(3) if flying
                          and pre[ram.ENEMY_KIND[i]] in (c.KIND_CLIMBER, c.KIND_DIVE_LEFT, c.KIND_DIVE_RIGHT)
                          and pre[ram.ENEMY_STEP[i]] <= c.STEP_LONG_RETURN
                          and abs(pre[ram.ENEMY_X[i]] - pre[ram.SHOT_X]) <= c.HIT_HALF_WIDTH
                          and abs(y - pre[ram.ENEMY_DEPTH[i]]) <= c.HIT_HALF_DEPTH][:1]
            if any(pre[ram.ENEMY_STEP[i]] > c.STEP_LONG_RETURN for i in started):
                continue
            assert started == struck, (t, started, struck)
            kills += len(started)
    assert kills >= 20


def test_the_wave_timer_paces_the_waves_until_the_first_lost_ship(random_games):
    """ram[8] falls by one on each odd frame whose new count is a multiple of 8, loses 22 on a kill
    frame, and when it reads 0 or below on such a frame the next wave starts (timer 90, ram[16]
    + 1, ram[6] - 2); the spawn frame starts wave 2."""
    waves = 0
    for tr in random_games:
        r = tr.rams.astype(int)
        end = _first_lost_ship(r)
        assert (r[c.SAUCER_SPAWN_FRAME, [ram.WAVE_TIMER, ram.WAVE, ram.COUNT_BASE]]
                == [0, c.START_WAVE, c.START_COUNT_BASE]).all()
        assert (r[c.SAUCER_SPAWN_FRAME + 1, [ram.WAVE_TIMER, ram.WAVE, ram.COUNT_BASE]]
                == [c.WAVE_TIMER, c.START_WAVE + 1, c.START_COUNT_BASE - c.COUNT_BASE_STEP]).all()
        for t in range(c.SAUCER_SPAWN_FRAME + 2, end):
            timer, wave, base = r[t - 1, [ram.WAVE_TIMER, ram.WAVE, ram.COUNT_BASE]]
            if tr.rewards[t - 1]:
                timer = (timer - c.KILL_TIMER_COST) % 256
            if t % 2 == 0 and r[t, ram.FRAME_COUNT] % c.TIMER_TICK_COUNTS == 0:
                if timer == 0 or timer > 127:
                    timer, wave, base = c.WAVE_TIMER, wave + 1, base - c.COUNT_BASE_STEP
                    waves += 1
                else:
                    timer -= 1
            assert list(r[t, [ram.WAVE_TIMER, ram.WAVE, ram.COUNT_BASE]]) == [timer, wave, base], t
    assert waves >= 4


CARRIED_STEPS = (c.STEP_ENTRY, c.STEP_CROSS, c.STEP_RECROSS, c.STEP_LONG_ENTRY, c.STEP_SWEEP_ENTRY,
                 c.STEP_SWEEP_CROSS, c.STEP_ZIG_ENTRY, c.STEP_ZIG_CROSS, c.STEP_ZAG_CROSS, c.STEP_WEAVE_ENTRY,
                 c.STEP_WEAVE_BACK, c.STEP_WEAVE_ON, c.STEP_WEAVE_BACK_AGAIN, c.STEP_PLUNGE_ENTRY,
                 c.STEP_PLUNGE_CROSS)


def _seen_depths(before, after, i):
    """The other slots' depths as slot ``i`` sees them on an odd frame: the slots run before it
    (higher index) as they moved, the others as they stand, but those the grid carries (coming
    down in entry, cross or re-cross) with this frame's carry taken."""
    seen = {}
    for j in range(3):
        if j == i:
            continue
        carried = (before[ram.ENEMY_KIND[j]] in (c.KIND_DIVE_LEFT, c.KIND_DIVE_RIGHT)
                   and before[ram.ENEMY_STEP[j]] in CARRIED_STEPS)
        seen[j] = after[ram.ENEMY_DEPTH[j]] if (j > i or carried) else before[ram.ENEMY_DEPTH[j]]
    return seen


@pytest.mark.parametrize("seed", [None, 6, 9, 16, 21, 24])
def test_a_lateral_move_waits_while_another_slot_stands_at_its_depth(seed):
    """Every ride or climb reaching its mark turns into its lateral move unless another slot
    stands at the very depth it arrives at; held, it goes on with the mark 32 on from there.
    (These games hold 7 of the 33 held turns seen in 171 games.)"""
    r = (_noop_rams(2_000) if seed is None
         else ramtrace.record(ROM, frames=6_000, seed=seed, hold=(1, 8)).rams.astype(int))
    held = turned = 0
    for t in range(c.SAUCER_SPAWN_FRAME + 2, len(r)):
        before, after = r[t - 1], r[t]
        if after[ram.FRAME_COUNT] == before[ram.FRAME_COUNT] or not (
                before[ram.PHASE] == after[ram.PHASE] == ram.PHASE_PLAY):
            continue
        grid_move = (after[ram.GRID] - before[ram.GRID]) % c.GRID_WRAP
        for i in range(3):
            kind, step = before[ram.ENEMY_KIND[i]], before[ram.ENEMY_STEP[i]]
            mark, depth = before[ram.ENEMY_PARAM[i]], before[ram.ENEMY_DEPTH[i]]
            new = after[ram.ENEMY_DEPTH[i]]
            if (kind not in (c.KIND_DIVE_LEFT, c.KIND_DIVE_RIGHT)
                    or after[ram.ENEMY_KIND[i]] >= c.KIND_EXPLOSION_FIRST):
                continue
            if step == c.STEP_RIDE and new >= mark + grid_move:
                lead = c.BLOCK_LEAD
            elif step == c.STEP_CLIMB and mark >= depth - c.CLIMB_MEET:
                lead = -c.BLOCK_LEAD
            else:
                continue
            blocked = new in _seen_depths(before, after, i).values()
            assert (after[ram.ENEMY_STEP[i]] == step) == blocked, (seed, t, i)
            if blocked:
                assert after[ram.ENEMY_PARAM[i]] == new + lead, (seed, t, i)
                held += 1
            else:
                turned += 1
    assert held >= 1 and turned >= 5


def test_a_poked_slot_holds_the_turn_only_at_the_depth_it_is_seen_at():
    """Clone/restore on the NOOP game: slot 2 reaches its ride's mark on frame 1,655 at depth 131.
    Slot 1 (climbing, run after slot 2) holds it only when it stands at 131; slot 0 (re-crossing,
    carried by the grid before slot 2 looks) only when its carry brings it to 131."""
    ale = ramtrace.open_rom(ROM)
    for _ in range(1_653):
        ale.act(0)
    base = ale.cloneState()

    def held_by(slot, depth, away):
        ale.restoreState(base)
        ale.setRAM(ram.ENEMY_DEPTH[away], 60)
        ale.setRAM(ram.ENEMY_DEPTH[slot], depth)
        for _ in range(2):
            ale.act(0)
        stood = int(ale.getRAM()[ram.ENEMY_DEPTH[slot]])
        ale.act(0)
        r = ale.getRAM().astype(int)
        assert r[ram.ENEMY_DEPTH[2]] == 131
        return stood, r[ram.ENEMY_STEP[2]] == c.STEP_RIDE

    climber = {stood: held for stood, held in (held_by(1, d, 0) for d in range(128, 139))}
    assert [d for d, held in climber.items() if held] == [131] and len(climber) >= 9
    recrosser = {stood: held for stood, held in (held_by(0, d, 1) for d in range(124, 136))}
    assert [d for d, held in recrosser.items() if held] == [130] and len(recrosser) >= 9


def _dithered(speed, count):
    """The cartridge's fractional move (logic/dither.py), in plain Python for the RAM checks."""
    nibble = count & 0x0F
    order = ((nibble & 1) << 3) | ((nibble & 2) << 1) | ((nibble & 4) >> 1) | ((nibble & 8) >> 3)
    byte = speed & 0xFF
    return ((byte - 256 if byte > 127 else byte) >> 4) + (order < (byte & 0x0F))


SLOT_ARRAYS = (ram.ENEMY_KIND, ram.ENEMY_STEP, ram.ENEMY_X, ram.ENEMY_DEPTH, ram.ENEMY_PARAM)


def _dive_moves(seed, pokes=None):
    """Every odd frame of play of a random game on which a slot coming down (kinds 4/5) stays a
    saucer: (t, slot, its RAM rows before and after, the new count, the grid's move, its kind,
    step, x, depth and parameter before, the five after, +1/-1 for the dive's side)."""
    r = ramtrace.record(ROM, frames=6_000, seed=seed, hold=(1, 8), pokes=pokes).rams.astype(int)
    for t in range(c.SAUCER_SPAWN_FRAME + 2, len(r)):
        before, after = r[t - 1], r[t]
        if after[ram.FRAME_COUNT] == before[ram.FRAME_COUNT] or not (
                before[ram.PHASE] == after[ram.PHASE] == ram.PHASE_PLAY):
            continue
        count, grid_move = after[ram.FRAME_COUNT], (after[ram.GRID] - before[ram.GRID]) % c.GRID_WRAP
        for i in range(3):
            kind, step, x, depth, param = (before[a[i]] for a in SLOT_ARRAYS)
            got = tuple(after[a[i]] for a in SLOT_ARRAYS)
            if kind in (c.KIND_DIVE_LEFT, c.KIND_DIVE_RIGHT) and got[0] in (
                    c.KIND_CLIMBER, c.KIND_DIVE_LEFT, c.KIND_DIVE_RIGHT):
                toward = 1 if kind == c.KIND_DIVE_RIGHT else -1
                yield t, i, before, after, count, grid_move, kind, step, x, depth, param, got, toward


def _entry_move(kind, step, x, depth, param, count, grid_move, toward, speed, lead):
    """An entry's expected move: x at ``speed`` towards the target, stopping on it, the depth with
    the grid; on the target the next step with the ride's mark ``lead`` below the depth."""
    nx = x + _dithered(toward * speed, count)
    nx = min(nx, param) if toward > 0 else max(nx, param)
    nd = depth + grid_move
    return (kind, step + 1, nx, nd, nd + lead) if nx == param else (kind, step, nx, nd, param)


def _program_moves(seed, start, expect, pokes=None) -> collections.Counter:
    """Every odd-frame move of the slots coming down in a random game against the expected kind,
    step, x, depth and parameter (None: a frame left to another test): ``start`` (entry step, its
    x speed, the ride's lead, speed and reach) for an entry into a ride stopping on its mark,
    ``expect`` for the program's other steps. Asserts each, and counts the moves checked per step."""
    seen = collections.Counter()
    for t, i, before, after, count, grid_move, kind, step, x, depth, param, got, toward in _dive_moves(seed, pokes):
        args = (before, after, i, kind, step, x, depth, param, count, grid_move, toward)
        started, want = _entry_or_ride(*args, *start)
        if not started:
            want = expect(*args)
        if want is not None:
            assert got == want, (seed, t, i, got, want)
            seen[step] += 1
    return seen


def _ride_to_mark(before, after, i, kind, step, x, depth, param, count, grid_move, toward, speed, reach):
    """A ride that stops on its mark (waves 7 and 8): the depth at ``speed``, the mark with the
    grid; on the mark the next step with the target ``reach`` places on the dive's side. None for
    a held turn (another slot standing at that depth: the test above)."""
    targets = list(c.SAUCER_TARGETS)
    mark = param + grid_move
    nd = min(depth + _dithered(speed, count), mark)
    if nd >= mark and nd in _seen_depths(before, after, i).values():
        return None
    return ((kind, step + 1, x, nd, targets[targets.index(x) + reach * toward])
            if nd >= mark else (kind, step, x, nd, mark))


def _entry_or_ride(before, after, i, kind, step, x, depth, param, count, grid_move, toward, entry_step,
                   entry_speed, lead, ride_speed, reach):
    """Waves 7 and 8 start alike: an entry (``entry_step``) into a ride stopping on its mark.
    (True, the expected move or None for a held turn) on those two steps, else (False, None)."""
    if step == entry_step:
        return True, _entry_move(kind, step, x, depth, param, count, grid_move, toward, entry_speed, lead)
    if step == entry_step + 1:
        return True, _ride_to_mark(before, after, i, kind, step, x, depth, param, count, grid_move, toward,
                                   ride_speed, reach)
    return False, None


def _cross_move(kind, step, x, depth, param, count, grid_move, speed, done):
    """A crossing's expected move: x at ``speed`` towards the parameter, stopping on it, the depth
    with the grid; on it ``done`` (kind, step, parameter)."""
    way = 1 if param > x else -1
    nx = x + _dithered(way * speed, count)
    nx = min(nx, param) if way > 0 else max(nx, param)
    return (done[0], done[1], nx, depth + grid_move, done[2]) if nx == param else (
        kind, step, nx, depth + grid_move, param)


@pytest.mark.parametrize("seed", [6, 9, 10, 11, 13, 16])
def test_wave_four_dives_enter_ride_and_sweep_three_targets(seed):
    """Steps 9..11 (wave 4) on every odd frame of a random game: the entry at 17/16 (stopping on
    the target; depth with the grid), the ride at 28/16 plus one while short of its mark (the mark
    with the grid), the sweep across three targets at 13/16 (depth with the grid), and each
    step's turn: ride with the mark 32 below, sweep to the target three on, kind 1 at step 12."""
    targets = list(c.SAUCER_TARGETS)
    seen = collections.Counter()
    for t, i, before, after, count, grid_move, kind, step, x, depth, param, got, toward in _dive_moves(seed):
        if step == c.STEP_SWEEP_ENTRY:
            want = _entry_move(kind, step, x, depth, param, count, grid_move, toward, c.SWEEP_ENTRY_X_SPEED,
                               c.RIDE_LEAD)
        elif step == c.STEP_SWEEP_RIDE:
            mark = param + grid_move
            nd = depth + _dithered(c.RIDE_DEPTH_SPEED, count)
            nd += c.SWEEP_RIDE_EXTRA if nd < mark else 0
            if nd >= mark and nd in _seen_depths(before, after, i).values():
                continue                                     # a held turn (the test above)
            want = ((kind, step + 1, x, nd, targets[targets.index(x) + c.SWEEP_REACH * toward])
                    if nd >= mark else (kind, step, x, nd, mark))
        elif step == c.STEP_SWEEP_CROSS:
            nx = x + _dithered((1 if param > x else -1) * c.SWEEP_CROSS_X_SPEED, count)
            want = ((c.KIND_CLIMBER, c.STEP_SWEEP_RETURN, nx, depth + grid_move, param) if nx == param
                    else (kind, step, nx, depth + grid_move, param))
        else:
            continue
        assert got == want, (seed, t, i, got, want)
        seen[step] += 1
    assert min(seen[s] for s in (c.STEP_SWEEP_ENTRY, c.STEP_SWEEP_RIDE, c.STEP_SWEEP_CROSS)) >= 20, seen


@pytest.mark.parametrize("seed", [10, 25, 31, 46])
def test_wave_seven_dives_enter_ride_to_their_mark_and_cross_one_target(seed):
    """Steps 23..25 (wave 7) on every odd frame of a random game: the entry at 13/16 (stopping on
    the target; depth with the grid), the ride at 48/16 stopping on its mark (64 below the entry's
    end, moving with the grid), the cross one target on at 21/16 (depth with the grid), and each
    step's turn: kind 1 at step 26 on the crossed-to target."""
    def expect(before, after, i, kind, step, x, depth, param, count, grid_move, toward):
        if step == c.STEP_PLUNGE_CROSS:
            return _cross_move(kind, step, x, depth, param, count, grid_move, c.PLUNGE_CROSS_X_SPEED,
                               (c.KIND_CLIMBER, c.STEP_PLUNGE_RETURN, param))
        return None

    seen = _program_moves(seed, (c.STEP_PLUNGE_ENTRY, c.PLUNGE_ENTRY_X_SPEED, c.PLUNGE_RIDE_LEAD,
                                 c.PLUNGE_RIDE_DEPTH_SPEED, c.PLUNGE_REACH), expect)
    assert min(seen[s] for s in (c.STEP_PLUNGE_ENTRY, c.STEP_PLUNGE_RIDE, c.STEP_PLUNGE_CROSS)) >= 20, seen


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_wave_eight_dives_ride_cross_back_climb_and_cross_on_and_back(seed):
    """Steps 27..32 (wave 8, from ram[16] poked before the spawn) on every odd frame of a random
    game: the entry at 25/16, the ride at 48/16 stopping on its mark 64 below, the cross one target
    back at 29/16, the climb at -29/16 to its mark 32 above (the mark with the grid; within 2 of
    the depth it turns, the depth moving -13/16), the crosses one target on and one back at 33/16
    (depth with the grid), and kind 1 at step 33."""
    targets = list(c.SAUCER_TARGETS)

    def expect(before, after, i, kind, step, x, depth, param, count, grid_move, toward):
        if step == c.STEP_SWITCH_BACK:
            return _cross_move(kind, step, x, depth, param, count, grid_move, c.SWITCH_BACK_X_SPEED,
                               (kind, step + 1, depth + grid_move - c.SWITCH_CLIMB_LEAD))
        if step == c.STEP_SWITCH_CLIMB and param >= depth - c.CLIMB_MEET:
            nd = depth + _dithered(c.TURN_DEPTH_SPEED, count)
            if nd in _seen_depths(before, after, i).values():
                return None                                  # a held turn
            return kind, step + 1, x, nd, targets[targets.index(x) + c.SWITCH_ON_REACH * toward]
        if step == c.STEP_SWITCH_CLIMB:
            return kind, step, x, depth + _dithered(c.CLIMB_DEPTH_SPEED, count), param + grid_move
        if step in (c.STEP_SWITCH_ON, c.STEP_SWITCH_BACK_AGAIN):
            done = ((kind, step + 1, targets[targets.index(param) - toward]) if step == c.STEP_SWITCH_ON
                    else (c.KIND_CLIMBER, c.STEP_SWITCH_RETURN, param))
            return _cross_move(kind, step, x, depth, param, count, grid_move, c.SWITCH_ON_X_SPEED, done)
        return None

    seen = _program_moves(seed, (c.STEP_SWITCH_ENTRY, c.SWITCH_ENTRY_X_SPEED, c.SWITCH_RIDE_LEAD,
                                 c.SWITCH_RIDE_DEPTH_SPEED, c.SWITCH_BACK_REACH), expect,
                          {c.SAUCER_SPAWN_FRAME - 1: {ram.WAVE: c.SWITCHBACK_WAVE - 1}})
    assert min(seen[s] for s in range(c.STEP_SWITCH_ENTRY, c.STEP_SWITCH_RETURN)) >= 8, seen


@pytest.mark.parametrize("seed", [None, 0, 5, 12])
def test_a_lost_ship_restarts_the_count_and_the_grid_and_empties_the_slots(seed):
    """On the (even) frame a ship is lost ram[12] turns 3 -> 5, the count restarts at 0, the grid
    takes speed 30 at position 15, the three slots are emptied (kind 0, depth 255) and the shot
    is gone; then the ship stays put and the speed falls by one every 4 counts; its last step ends
    the loss (NOTES.md, "A lost ship")."""
    r = (_noop_rams(2_600) if seed is None
         else ramtrace.record(ROM, frames=6_000, seed=seed, hold=(1, 8)).rams.astype(int))
    losses = [t for t in range(1, len(r)) if r[t - 1, ram.PHASE] == ram.PHASE_PLAY and r[t, ram.PHASE] == LOSS_PHASE]
    assert losses
    for t in losses:
        after = r[t]
        assert (t - 1) % c.LOGIC_PERIOD == 0
        assert [after[ram.FRAME_COUNT], after[ram.GRID_SPEED], after[ram.GRID]] == [0, LOSS_SPEED, LOSS_GRID]
        assert all(after[ram.ENEMY_KIND[i]] == c.KIND_EMPTY and after[ram.ENEMY_DEPTH[i]] == c.START_SAUCER_DEPTH
                   for i in range(3))
        assert after[ram.SHOT_Y] in (ram.NO_SHOT, c.SHOT_START_Y)
        u = t + 1
        while r[u, ram.PHASE] == LOSS_PHASE:
            before, now = r[u - 1], r[u]
            if now[ram.FRAME_COUNT] != before[ram.FRAME_COUNT] and now[ram.FRAME_COUNT] % LOSS_SLOWDOWN_COUNTS == 0:
                assert now[ram.GRID_SPEED] == before[ram.GRID_SPEED] - 1, (seed, u)
            else:
                assert now[ram.GRID_SPEED] == before[ram.GRID_SPEED], (seed, u)
            assert now[ram.SHIP_X] == before[ram.SHIP_X]
            u += 1
            if u == len(r):
                return
        # the speed's last step (1 -> 0) ends it: ram[12] 1 with one ship less in reserve, or after
        # the last ship 6 with ram[5] at 255, the game over
        assert r[u - 1, ram.GRID_SPEED] == 1, (seed, u)
        reserve = after[ram.LIVES]
        assert ((r[u, ram.PHASE], r[u, ram.LIVES]) == (ram.PHASE_LIFE_LOST, reserve - 1) if reserve
                else (r[u, ram.PHASE], r[u, ram.LIVES]) == (GAME_OVER_PHASE, c.GAME_OVER_RESERVE)), (seed, u)


# measured (387 lost ships over 171 games; NOTES.md "A lost ship")
LOSS_PHASE = c.DYING_PHASE
LOSS_SPEED, LOSS_GRID = c.LOSS_GRID_SPEED, c.LOSS_GRID
LOSS_SLOWDOWN_COUNTS = c.LOSS_SPEED_COUNTS
GAME_OVER_PHASE = c.GAME_OVER_PHASE


# ---- the enemies' shots and what loses a ship (NOTES.md "The enemies' shots", "A lost ship") ------

SHOT_ENTRY_KINDS = (c.KIND_EMPTY, c.KIND_SHOT_A, c.KIND_SHOT_B)


def _only_shots(row) -> bool:
    """The object table's entries 3..6 hold shots or nothing (other kinds come later: not decoded)."""
    return all(row[a] in SHOT_ENTRY_KINDS for a in ram.SHOT_KIND)


@pytest.fixture(scope="module")
def long_random_games():
    """6 random games of held actions, 6,000 frames each (lost ships in all of them)."""
    return [ramtrace.record(ROM, frames=6_000, seed=s, hold=(1, 8)) for s in (0, 3, 5, 8, 12, 17)]


def test_enemy_shots_fall_at_22_sixteenths_and_flip_their_picture_on_odd_counts(long_random_games):
    """Every even frame of play moves each shot (kinds 2/3) by 22/16 with the grid clock's dither
    and flips its picture when the count is odd; odd frames never move one."""
    moves = 0
    for tr in long_random_games:
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            if not (before[ram.PHASE] == after[ram.PHASE] == ram.PHASE_PLAY) or not _only_shots(before):
                continue
            for j, kind_at in enumerate(ram.SHOT_KIND):
                kind, depth = before[kind_at], before[ram.SHOT_DEPTH[j]]
                if kind == c.KIND_EMPTY or after[kind_at] == c.KIND_EMPTY:
                    continue
                if (t - 1) % c.LOGIC_PERIOD == 0:
                    flip = (c.KIND_SHOT_A ^ c.KIND_SHOT_B) if after[ram.FRAME_COUNT] & 1 else 0
                    assert after[ram.SHOT_DEPTH[j]] == depth + _dithered(c.ENEMY_SHOT_SPEED, after[ram.FRAME_COUNT])
                    assert after[kind_at] == kind ^ flip, (t, j)
                    moves += 1
                else:
                    assert (after[ram.SHOT_DEPTH[j]], after[kind_at]) == (depth, kind), (t, j)
    assert moves > 2_000


def test_saucers_fire_only_when_leaving_a_firing_step_on_a_beam(long_random_games):
    """Each new shot appears on an odd frame, 8 below a saucer that just left one of the firing
    steps on a drawn beam at depth 96..198, in the highest entry that was empty."""
    fired = 0
    for tr in long_random_games:
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            if not (before[ram.PHASE] == after[ram.PHASE] == ram.PHASE_PLAY) or not _only_shots(after):
                continue
            new = [j for j, a in enumerate(ram.SHOT_KIND) if before[a] == c.KIND_EMPTY and after[a] != c.KIND_EMPTY]
            if not new:
                continue
            assert (t - 1) % c.LOGIC_PERIOD == 1 and len(new) == 1, (t, new)
            j = new[0]
            free = [e for e, a in enumerate(ram.SHOT_KIND) if before[a] == c.KIND_EMPTY]
            assert j == max(free) and after[ram.SHOT_KIND[j]] == c.KIND_SHOT_A
            shooters = [i for i in range(3)
                        if before[ram.ENEMY_STEP[i]] in c.FIRING_STEPS
                        and after[ram.ENEMY_STEP[i]] == before[ram.ENEMY_STEP[i]] + 1
                        and after[ram.ENEMY_X[i]] == after[ram.SHOT_ENTRY_X[j]]
                        and after[ram.ENEMY_DEPTH[i]] + c.FIRE_DROP == after[ram.SHOT_DEPTH[j]]]
            assert len(shooters) == 1, (t, j)
            i = shooters[0]
            assert after[ram.ENEMY_X[i]] in c.BEAM_X
            assert c.FIRE_MIN_DEPTH <= after[ram.ENEMY_DEPTH[i]] <= c.FIRE_MAX_DEPTH
            fired += 1
    assert fired >= 60


def _ship_lost_by_rule(before, after) -> bool:
    """The loss rule: after the even frame's moves, a shot or a saucer at depth LOSS_DEPTH or more
    with the ship's new x minus its x in LOSS_LEFT..LOSS_RIGHT."""
    x = after[ram.SHIP_X]
    step = _dithered(c.ENEMY_SHOT_SPEED, after[ram.FRAME_COUNT])
    things = [(before[ram.SHOT_ENTRY_X[j]], before[ram.SHOT_DEPTH[j]] + step)
              for j, a in enumerate(ram.SHOT_KIND) if before[a] in (c.KIND_SHOT_A, c.KIND_SHOT_B)]
    things += [(before[ram.ENEMY_X[i]], before[ram.ENEMY_DEPTH[i]]) for i in range(3)
               if before[ram.ENEMY_KIND[i]] in (c.KIND_CLIMBER, c.KIND_DIVE_LEFT, c.KIND_DIVE_RIGHT)]
    return any(d >= c.LOSS_DEPTH and c.LOSS_LEFT <= x - tx <= c.LOSS_RIGHT for tx, d in things)


def test_the_loss_rule_predicts_every_lost_ship(long_random_games):
    """On every even frame of play (the entries holding only shots) a ship is lost exactly when
    the loss rule says so; odd frames never lose one."""
    losses = 0
    for tr in long_random_games:
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            if before[ram.PHASE] != ram.PHASE_PLAY or not _only_shots(before):
                continue
            lost = after[ram.PHASE] == c.DYING_PHASE
            if (t - 1) % c.LOGIC_PERIOD == 1:
                assert not lost, t
                continue
            assert lost == _ship_lost_by_rule(before, after), t
            losses += lost
    assert losses >= 10


def test_a_poked_shot_takes_the_ship_only_inside_the_window():
    """Clone/restore before random seed 0's first loss (frame 1,056: the ship moving left from x 99
    onto beam 94, a shot on beam 94 at depth 209): the shot's x poked (the ship ends the frame at
    96) loses the ship exactly for x - 96 in -3..5, i.e. ship - shot in LOSS_LEFT..LOSS_RIGHT; its
    depth poked loses it on that frame only from 205 (which falls to 206 or more) on."""
    actions = ramtrace.record(ROM, frames=1_056, seed=0, hold=(1, 8)).actions
    before = poke_outcomes(ROM, actions, ram.SHIP_X, [99], then=[0],
                           read=lambda r: int(r[ram.SHIP_X]))
    assert before == {99: 96}
    lost = lambda r: int(r[ram.PHASE]) == c.DYING_PHASE
    by_x = poke_outcomes(ROM, actions, ram.SHOT_ENTRY_X[3], range(84, 112), then=[0], read=lost)
    assert [x for x, hit in by_x.items() if hit] == list(range(96 - c.LOSS_RIGHT, 96 - c.LOSS_LEFT + 1))
    by_depth = poke_outcomes(ROM, actions, ram.SHOT_DEPTH[3], range(196, 216), then=[0], read=lost)
    assert [d for d, hit in by_depth.items() if hit] == list(range(205, 216))


def _rejuvenator_due_by_rule(before, after) -> int | None:
    """The entry a rejuvenator enters on this even frame by the arrival rule (NOTES.md "The
    rejuvenator"), or None; ``after`` supplies the depths after the shots fell."""
    count, entry = int(before[ram.FRAME_COUNT]), int(before[ram.FRAME_COUNT]) % len(ram.SHOT_KIND)
    # the entry itself is empty, so it did not fall: its (stray) depth as it stood
    depths = [after[a] for a in ram.ENEMY_DEPTH + ram.SHOT_DEPTH if a != ram.SHOT_DEPTH[entry]]
    depths.append(before[ram.SHOT_DEPTH[entry]])
    due = (before[ram.SHIP_FLAGS] & ram.REJUVENATOR_DUE and 1 <= before[ram.ENEMIES_LEFT] <= c.REJUVENATOR_MOST_LEFT
           and not count & c.REJUVENATOR_COUNT_BIT and before[ram.SHOT_KIND[entry]] == c.KIND_EMPTY
           and before[ram.RANDOM] & c.REJUVENATOR_RANDOM_MASK == c.REJUVENATOR_RANDOM_VALUE
           and not any(0 < d < c.REJUVENATOR_CLEAR_DEPTH for d in depths))
    return entry if due else None


def _beam_of(random: int) -> int:
    return c.BEAM_X[((random >> c.REJUVENATOR_BEAM_SHIFT) + 1) >> 1]


def test_the_arrival_rule_predicts_every_rejuvenator(long_random_games):
    """On every even frame of play a rejuvenator enters exactly the entry the rule names, at depth
    32 on the beam the random number picks, and ram[13]'s top bit drops with it; it then falls at
    30/16 with the dither, its picture stepping at depths 104, 144 and 176."""
    arrivals = falls = 0
    for tr in long_random_games:
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            if before[ram.PHASE] != ram.PHASE_PLAY or after[ram.PHASE] != ram.PHASE_PLAY:
                continue
            new = [j for j, a in enumerate(ram.SHOT_KIND)
                   if after[a] in ram.REJUVENATOR_KINDS and before[a] not in ram.REJUVENATOR_KINDS]
            if (t - 1) % c.LOGIC_PERIOD == 1:
                assert not new, t
                continue
            entry = _rejuvenator_due_by_rule(before, after)
            assert new == ([] if entry is None else [entry]), t
            if new:
                arrivals += 1
                assert after[ram.SHOT_DEPTH[entry]] == c.REJUVENATOR_START_DEPTH
                assert after[ram.SHOT_ENTRY_X[entry]] == _beam_of(int(before[ram.RANDOM]))
                assert not after[ram.SHIP_FLAGS] & ram.REJUVENATOR_DUE
            for j, a in enumerate(ram.SHOT_KIND):
                if before[a] in ram.REJUVENATOR_KINDS and after[a] in ram.REJUVENATOR_KINDS:
                    depth = before[ram.SHOT_DEPTH[j]] + _dithered(c.REJUVENATOR_SPEED, int(before[ram.FRAME_COUNT]))
                    assert after[ram.SHOT_DEPTH[j]] == depth, t
                    assert after[a] == c.KIND_REJUVENATOR + sum(depth >= d for d in c.REJUVENATOR_PICTURE_DEPTHS)
                    falls += 1
    assert arrivals >= 3 and falls >= 200


def test_a_poked_random_number_picks_whether_and_where_a_rejuvenator_comes():
    """Clone/restore on random seed 0's frame 2,336 (a rejuvenator arrives in entry 0 on beam 162):
    every value of ram[2] poked, it arrives exactly for xxx1x000 and on the beam its top three bits
    pick; 1..9 enemies left bring it, 0 and 10..15 do not; a slot at depth 1..63 holds it back."""
    actions = ramtrace.record(ROM, frames=2_336, seed=0, hold=(1, 8)).actions
    read = lambda r: (int(r[ram.SHOT_KIND[0]]), int(r[ram.SHOT_ENTRY_X[0]]))
    by_random = poke_outcomes(ROM, actions, ram.RANDOM, range(256), then=[11], read=read)
    came = {v: x for v, (kind, x) in by_random.items() if kind == c.KIND_REJUVENATOR}
    assert sorted(came) == [v for v in range(256) if v & c.REJUVENATOR_RANDOM_MASK == c.REJUVENATOR_RANDOM_VALUE]
    assert all(x == _beam_of(v) for v, x in came.items())
    by_left = poke_outcomes(ROM, actions, ram.ENEMIES_LEFT, range(1, 16), then=[11], read=read)
    assert [n for n, (kind, _) in by_left.items() if kind == c.KIND_REJUVENATOR] == list(range(1, 10))
    by_depth = poke_outcomes(ROM, actions, ram.ENEMY_DEPTH[1], [0, 1, 40, 63, 64, 200], then=[11], read=read)
    assert [d for d, (kind, _) in by_depth.items() if kind == c.KIND_REJUVENATOR] == [0, 64, 200]


def test_a_rejuvenator_is_caught_inside_the_loss_window():
    """Clone/restore on random seed 57's frame 2,184 (the ship at 145 catches a rejuvenator on beam
    145 as it falls from 205 to 207): its x poked, one more ship in reserve exactly for ship - x in
    LOSS_LEFT..LOSS_RIGHT; its depth poked, caught from 204 (falling to 206) on."""
    actions = ramtrace.record(ROM, frames=2_184, seed=57, hold=(1, 8)).actions
    caught = lambda r: int(r[ram.LIVES]) == 3
    by_x = poke_outcomes(ROM, actions, ram.SHOT_ENTRY_X[0], range(130, 160), then=[0], read=caught)
    assert [x for x, hit in by_x.items() if hit] == list(range(145 - c.LOSS_RIGHT, 145 - c.LOSS_LEFT + 1))
    by_depth = poke_outcomes(ROM, actions, ram.SHOT_DEPTH[0], range(196, 210), then=[0], read=caught)
    assert [d for d, hit in by_depth.items() if hit] == list(range(204, 210))


def _lariat_reaches_by_rule(after) -> bool:
    above = [d for d in (after[a] for a in ram.ENEMY_DEPTH + ram.SHOT_DEPTH) if d < c.LARIAT_REACH_DEPTH]
    return len(above) >= c.LARIAT_REACH_OBJECTS


def test_a_lariat_goes_one_step_more_while_four_objects_stand_above_it(long_random_games):
    """Every lariat at its last y (102) on a logic frame of play: it goes on to 94 exactly when the
    rule says so (4 of the 7 objects above depth 94 after the fall), and is gone on the next (odd)
    frame."""
    reached = ended = 0
    for tr in long_random_games:
        r = tr.rams.astype(int)
        for t in range(1, len(r) - 2):
            before, after = r[t - 1], r[t]
            if ((t - 1) % c.LOGIC_PERIOD or before[ram.PHASE] != ram.PHASE_PLAY
                    or after[ram.PHASE] != ram.PHASE_PLAY or before[ram.SHOT_Y] != c.LARIAT_LAST_Y
                    or before[ram.SHOT_PICTURE] != ram.LARIAT_PICTURE):
                continue
            goes_on = after[ram.SHOT_Y] == c.LARIAT_REACH_DEPTH
            assert goes_on == _lariat_reaches_by_rule(after), t
            if goes_on:
                reached += 1
                assert r[t + 1][ram.SHOT_Y] == ram.NO_SHOT, t    # gone on the odd frame after
            else:
                assert after[ram.SHOT_Y] == ram.NO_SHOT
                ended += 1
    assert reached >= 1 and ended >= 100


def test_a_poked_depth_decides_the_lariats_last_step():
    """Clone/restore on random seed 3's frame 4,068 (a lariat at 102, the slots on the horizon, a
    rejuvenator in entry 1 at 64: 4 objects above depth 94): the rejuvenator's depth poked lets the
    lariat on to 94 only while it falls to above 94; slot 0's depth only below 94 (an empty slot's
    255 does not count)."""
    actions = ramtrace.record(ROM, frames=4_069, seed=3, hold=(1, 8)).actions
    before, play = actions[:-1], [int(actions[-1])]
    shot = lambda r: int(r[ram.SHOT_Y])
    by_rejuvenator = poke_outcomes(ROM, before, ram.SHOT_DEPTH[1], range(84, 100), then=play, read=shot)
    assert [d for d, y in by_rejuvenator.items() if y == c.LARIAT_REACH_DEPTH] == list(range(84, 92))
    assert all(y == ram.NO_SHOT for d, y in by_rejuvenator.items() if d >= 92)
    by_slot = poke_outcomes(ROM, before, ram.ENEMY_DEPTH[0], [0, 60, 93, 94, 120, 255], then=play, read=shot)
    reach = c.LARIAT_REACH_DEPTH
    assert by_slot == {0: reach, 60: reach, 93: reach, 94: ram.NO_SHOT, 120: ram.NO_SHOT, 255: ram.NO_SHOT}


SAUCER_KINDS = (c.KIND_CLIMBER, c.KIND_DIVE_LEFT, c.KIND_DIVE_RIGHT)


def _objects_above(before, after, i) -> int:
    """The objects standing above slot ``i`` on an even frame (NOTES.md "A saucer at the bottom"):
    the other slots (a tie counting for a higher slot), the entries after their fall (one that
    left this frame at its depth before), the ship's shot before its move (a tie counting)."""
    depth = before[ram.ENEMY_DEPTH[i]]
    slots = sum(before[ram.ENEMY_DEPTH[j]] < depth or (before[ram.ENEMY_DEPTH[j]] == depth and j > i)
                for j in range(3) if j != i)
    entries = sum((after[a] if after[a] != ram.EMPTY_DEPTH else before[a]) <= depth for a in ram.SHOT_DEPTH)
    return slots + entries + int(before[ram.SHOT_Y] <= depth)


def _bottom_by_rule(before, after, i) -> str:
    """What the rule says slot ``i`` does on this even frame: 'stays', 'gone' or 'waits'."""
    x, depth = before[ram.ENEMY_X[i]], before[ram.ENEMY_DEPTH[i]]
    if before[ram.ENEMY_KIND[i]] not in SAUCER_KINDS or depth < c.SAUCER_BOTTOM_DEPTHS[x]:
        return "stays"
    edge = c.SAUCER_BOTTOM_DEPTHS[x] < c.SAUCER_BOTTOM_DEPTH
    busy = c.SAUCER_EDGE_BUSY_OBJECTS if edge else c.SAUCER_BOTTOM_BUSY_OBJECTS
    return "waits" if _objects_above(before, after, i) >= busy else "gone"


@pytest.fixture(scope="module")
def bottom_games():
    """Random games whose saucers leave at the bottom, some of them on the odd frame after."""
    return [ramtrace.record(ROM, frames=6_000, seed=s, hold=(1, 8)) for s in (0, 9, 10, 16, 24, 30, 35, 39)]


def test_the_bottom_rule_predicts_every_saucer_leaving(bottom_games):
    """On every even frame of play, every slot holding a saucer: it is gone (kind 0, depth 255)
    exactly when the rule says so; one that waits is back on the horizon on the next odd frame
    (x 128, depth 0) instead of moving."""
    outcomes = collections.Counter()
    for tr in bottom_games:
        r = tr.rams.astype(int)
        for t in range(1, len(r) - 1):
            before, after = r[t - 1], r[t]
            if ((t - 1) % c.LOGIC_PERIOD or before[ram.PHASE] != ram.PHASE_PLAY
                    or after[ram.PHASE] != ram.PHASE_PLAY):
                continue
            for i in range(3):
                if before[ram.ENEMY_KIND[i]] not in SAUCER_KINDS or after[ram.ENEMY_KIND[i]] not in (
                        c.KIND_EMPTY,) + SAUCER_KINDS:
                    continue      # not a saucer, or hit on this frame
                rule = _bottom_by_rule(before, after, i)
                gone = (after[ram.ENEMY_KIND[i]] == c.KIND_EMPTY
                        and after[ram.ENEMY_DEPTH[i]] == ram.EMPTY_DEPTH)
                assert gone == (rule == "gone"), (t, i, rule)
                if rule == "waits":
                    nxt = r[t + 1]
                    assert (nxt[ram.ENEMY_KIND[i]] in (c.KIND_HORIZON_LEFT, c.KIND_HORIZON_RIGHT)
                            and nxt[ram.ENEMY_X[i]] == c.SPAWN_X and nxt[ram.ENEMY_DEPTH[i]] == 0), t
                outcomes[rule] += 1
    assert outcomes["gone"] >= 15 and outcomes["waits"] >= 4 and outcomes["stays"] >= 10_000


@pytest.mark.parametrize("x", [44, 60, 61, 62, 66, 70, 77, 78, 100, 160, 179, 180, 189, 192, 196, 213])
def test_a_poked_saucer_leaves_at_the_depth_its_x_allows(x):
    """Clone/restore on random seed 0's frame 2,278 (slot 1 a saucer at x 62, depth 178, no shot
    in flight, nothing else low): slot 1's x poked, its depth swept; the slot is gone (kind 0)
    from the limit for that x on, and only from there."""
    actions = ramtrace.record(ROM, frames=2_279, seed=0, hold=(1, 8)).actions
    limit = c.SAUCER_BOTTOM_DEPTHS[x]
    gone = poke_outcomes(ROM, actions[:-1], ram.ENEMY_DEPTH[1], range(limit - 4, limit + 4),
                         then=[int(actions[-1])], fixed=[(ram.ENEMY_X[1], x)],
                         read=lambda r: int(r[ram.ENEMY_KIND[1]]) == c.KIND_EMPTY)
    assert [d for d, g in gone.items() if g] == list(range(limit, limit + 4))


def _logic_frames_of_play(traces):
    """(trace, t, before, after) for every even (logic) frame played wholly in play."""
    for tr in traces:
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            if not (t - 1) % c.LOGIC_PERIOD and before[ram.PHASE] == after[ram.PHASE] == ram.PHASE_PLAY:
                yield tr, t, before, after


@pytest.fixture(scope="module")
def debris_games():
    """Random games in which a lariat shoots a rejuvenator down."""
    return [ramtrace.record(ROM, frames=6_000, seed=s, hold=(1, 8)) for s in (9, 14, 24, 30, 53, 54)]


def test_a_rejuvenator_shot_down_turns_debris_falling_at_67_sixteenths(debris_games):
    """On every even frame of play with a rejuvenator and the ship's shot in flight: the entry
    turns debris (kind 1) exactly when the shot's new y is within 8 of the rejuvenator's fallen
    depth on its beam; the shot is then gone, nothing is paid and the debris starts 10 above that
    depth. Debris falls 67/16 a logic frame with the dither and leaves on the even frame it would
    reach 210."""
    downed = falls = gone = 0
    for tr, t, before, after in _logic_frames_of_play(debris_games):
        for j in range(len(ram.SHOT_KIND)):
            kind, x, depth = before[ram.SHOT_KIND[j]], before[ram.SHOT_ENTRY_X[j]], before[ram.SHOT_DEPTH[j]]
            if kind in ram.REJUVENATOR_KINDS and before[ram.SHOT_Y] != ram.NO_SHOT:
                fallen = depth + _dithered(c.REJUVENATOR_SPEED, before[ram.FRAME_COUNT])
                y = before[ram.SHOT_Y] - c.SHOT_STEP
                met = abs(before[ram.SHOT_X] - x) <= c.HIT_HALF_WIDTH and abs(y - fallen) <= c.HIT_HALF_DEPTH
                assert (after[ram.SHOT_KIND[j]] == c.KIND_DEBRIS) == met, (t, j)
                if met:
                    assert after[ram.SHOT_DEPTH[j]] == fallen - c.DEBRIS_RISE and after[ram.SHOT_Y] == ram.NO_SHOT
                    assert tr.rewards[t - 1] == 0
                    downed += 1
            if kind == c.KIND_DEBRIS:
                step = _dithered(c.DEBRIS_SPEED, before[ram.FRAME_COUNT])
                if depth + step >= c.SHOT_GONE_DEPTH:
                    assert after[ram.SHOT_KIND[j]] == c.KIND_EMPTY, t
                    gone += 1
                else:
                    assert after[ram.SHOT_DEPTH[j]] == depth + step, t
                    falls += 1
    assert downed == len(debris_games) and falls >= 100 and gone >= 5


@pytest.mark.parametrize("seed", [14, 26])
def test_an_emptied_slot_comes_back_only_while_three_enemies_are_left(seed):
    """Every odd frame of play that starts with an empty slot (an explosion over, a saucer gone
    at the bottom): the slot is back on the horizon exactly when 3 or more enemies are left."""
    r = ramtrace.record(ROM, frames=6_000, seed=seed, hold=(1, 8)).rams.astype(int)
    outcomes = collections.Counter()
    for t in range(c.SAUCER_SPAWN_FRAME + 2, len(r)):
        before, after = r[t - 1], r[t]
        if after[ram.FRAME_COUNT] == before[ram.FRAME_COUNT] or not (
                before[ram.PHASE] == after[ram.PHASE] == ram.PHASE_PLAY):
            continue
        for i in range(3):
            if before[ram.ENEMY_KIND[i]] != c.KIND_EMPTY:
                continue
            back = after[ram.ENEMY_KIND[i]] in (c.KIND_HORIZON_LEFT, c.KIND_HORIZON_RIGHT)
            assert back == (before[ram.ENEMIES_LEFT] >= c.RESPAWN_LEAST_LEFT), (t, i)
            outcomes[back] += 1
    assert outcomes[True] >= 5 and outcomes[False] >= 5, outcomes


@pytest.mark.parametrize("left", [0, 1, 2, 3])
def test_the_spawn_brings_only_as_many_slots_as_enemies_are_left(left):
    """ram[84] poked before the spawn: only that many slots appear (at most three), the highest
    first; with none left the sector's end begins instead (ram[12] 4)."""
    tr = ramtrace.record(ROM, [("NOOP", c.SAUCER_SPAWN_FRAME + 4)],
                         pokes={c.SAUCER_SPAWN_FRAME - 1: {ram.ENEMIES_LEFT: left}})
    after = tr.rams[c.SAUCER_SPAWN_FRAME + 1]
    shown = [int(after[a]) != ram.KIND_EMPTY for a in ram.ENEMY_KIND]
    assert shown == [i >= 3 - left for i in range(3)]
    assert (int(tr.rams[-1][ram.PHASE]) == ram.PHASE_SECTOR_END) == (left == 0)


@pytest.fixture(scope="module")
def sector_end_games():
    """Random games (held actions 1..8 frames) with one enemy left from the spawn on and no
    rejuvenator due (ram[84] 1 and ram[13]'s top bit cleared just before it): the first kill ends the
    sector, and crossers come for the ship's shot to meet."""
    pokes = {c.SAUCER_SPAWN_FRAME - 1: {ram.ENEMIES_LEFT: 1, ram.SHIP_FLAGS: c.ON_BEAM_FLAGS & ~c.REJUVENATOR_DUE}}
    return [ramtrace.record(ROM, frames=3_000, seed=s, hold=(1, 8), pokes=pokes) for s in range(24)]


def test_the_ships_shot_meets_a_crosser_in_the_saucers_window(sector_end_games):
    """On every even frame of play or the sector's end with the ship's shot in flight (short of its
    last y) and a crosser in an entry: the shot is gone exactly when a crosser, after this frame's
    move, stands within 6 of the shot's beam and within 8 of the shot's new y; nothing is paid; a
    lariat leaves the crosser flying on, a torpedo turns the lowest such entry into the explosion's
    first step where the crosser stood."""
    met_lariat = met_torpedo = flown = 0
    for seed, t, reward, before, after, met in _shot_meeting_frames(sector_end_games, ram.CROSSER_KINDS):
        assert (after[ram.SHOT_Y] == ram.NO_SHOT) == bool(met), (seed, t)
        flown += not met
        if not met:
            continue
        assert reward == 0
        torpedo = before[ram.SHOT_PICTURE] in ram.TORPEDO_PICTURES
        kinds = [after[ram.SHOT_KIND[j]] for j in met]
        if torpedo:
            assert kinds[0] == c.KIND_EXPLOSION_FIRST and all(k in ram.CROSSER_KINDS for k in kinds[1:])
            met_torpedo += 1
        else:
            assert all(k in ram.CROSSER_KINDS for k in kinds), (seed, t)
            met_lariat += 1
    assert met_lariat >= 20 and met_torpedo >= 2 and flown >= 500


def _shot_meeting_frames(traces, kinds):
    """(seed, t, reward, before, after, met) for every even frame of play or the sector's end with
    the ship's shot in flight short of its last y, no saucer shot on it, the sentinel's crossing not
    done and an entry holding one of ``kinds``; ``met``: those entries within the saucers' window after the frame's move (x within 6 of the shot's beam, depth within
    8 of the shot's new y)."""
    for seed, tr in enumerate(traces):
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            if ((t - 1) % c.LOGIC_PERIOD or before[ram.PHASE] not in (ram.PHASE_PLAY, ram.PHASE_SECTOR_END)
                    or after[ram.PHASE] != before[ram.PHASE] or before[ram.SHOT_Y] == ram.NO_SHOT
                    or before[ram.SHOT_Y] in (c.LARIAT_LAST_Y, c.TORPEDO_LAST_Y, c.LARIAT_REACH_DEPTH)
                    or after[ram.ENEMIES_LEFT] != before[ram.ENEMIES_LEFT]
                    or (before[ram.PHASE] == ram.PHASE_SECTOR_END
                        and before[ram.ENEMY_X[0]] == c.SENTINEL_CROSSING)):
                continue
            entries = [j for j, a in enumerate(ram.SHOT_KIND) if before[a] in kinds]
            if not entries:
                continue
            y = before[ram.SHOT_Y] - c.SHOT_STEP
            met = [j for j in entries if abs(after[ram.SHOT_ENTRY_X[j]] - before[ram.SHOT_X]) <= c.HIT_HALF_WIDTH
                   and abs(y - after[ram.SHOT_DEPTH[j]]) <= c.HIT_HALF_DEPTH]
            yield seed, t, tr.rewards[t - 1], before, after, met


def test_a_crosser_blown_up_by_a_torpedo_burns_out_in_its_entry(sector_end_games):
    """An explosion in an entry in sector 1 (a crosser a torpedo met): on each even frame its depth
    rises 2 and its kind steps when the count is odd, 6..11, then the entry is empty (depth 255);
    odd frames leave it as it was."""
    steps = ends = 0
    for seed, tr in enumerate(sector_end_games):
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            # (sector 2's objects explode in the entries too, and end otherwise: not decoded)
            if after[ram.PHASE] != before[ram.PHASE] or before[ram.SECTOR] != 1:
                continue
            for j in range(len(ram.SHOT_KIND)):
                kind, depth = before[ram.SHOT_KIND[j]], before[ram.SHOT_DEPTH[j]]
                if not c.KIND_EXPLOSION_FIRST <= kind <= c.KIND_EXPLOSION_LAST:
                    continue
                if (t - 1) % c.LOGIC_PERIOD:
                    assert (after[ram.SHOT_KIND[j]], after[ram.SHOT_DEPTH[j]]) == (kind, depth), (seed, t)
                    continue
                stepped = kind + (before[ram.FRAME_COUNT] & 1)
                if stepped > c.KIND_EXPLOSION_LAST:
                    assert (after[ram.SHOT_KIND[j]], after[ram.SHOT_DEPTH[j]]) == (c.KIND_EMPTY, ram.EMPTY_DEPTH)
                    ends += 1
                else:
                    assert (after[ram.SHOT_KIND[j]], after[ram.SHOT_DEPTH[j]]) == (stepped, depth - c.EXPLOSION_RISE)
                    steps += 1
    assert ends >= 2 and steps >= 20


FALLER_KINDS = range(c.KIND_FALLER, c.KIND_FALLER + len(c.REJUVENATOR_PICTURE_DEPTHS) + 1)


def test_sector_twos_kind_24_object_arrives_and_falls_as_the_rejuvenator_does(sector_end_games):
    """Sector 2's play, every even frame after the spawn: the kind-24 object enters the entry count & 3
    exactly when the count's bit 2 is clear, that entry is empty, the random number's low three bits
    read 001 and nothing stands at depth 1..63 (slots as they stood, entries after their fall): at
    depth 32 on the beam ((ram[2] >> 5) + 1) >> 1. It falls 35/16 an even frame with the dither, its
    picture 24..27 stepping at depths 104, 144, 176."""
    arrivals = falls = 0
    for seed, tr in enumerate(sector_end_games):
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            if ((t - 1) % c.LOGIC_PERIOD or before[ram.SECTOR] != 2 or before[ram.PHASE] != ram.PHASE_PLAY
                    or after[ram.PHASE] != ram.PHASE_PLAY or all(before[a] == c.KIND_EMPTY for a in ram.ENEMY_KIND)):
                continue
            count, random = before[ram.FRAME_COUNT], before[ram.RANDOM]
            j = count % len(ram.SHOT_KIND)
            depths = ([before[ram.ENEMY_DEPTH[i]] for i in range(3)]
                      + [after[ram.SHOT_DEPTH[i]] for i in range(len(ram.SHOT_KIND)) if i != j])
            due = (not count & c.REJUVENATOR_COUNT_BIT and before[ram.SHOT_KIND[j]] == c.KIND_EMPTY
                   and (random & c.FALLER_RANDOM_MASK) == c.FALLER_RANDOM_VALUE
                   and not any(0 < d < c.REJUVENATOR_CLEAR_DEPTH for d in depths))
            arrived = before[ram.SHOT_KIND[j]] == c.KIND_EMPTY and after[ram.SHOT_KIND[j]] == c.KIND_FALLER
            assert arrived == due, (seed, t)
            if due:
                assert after[ram.SHOT_DEPTH[j]] == c.REJUVENATOR_START_DEPTH
                assert after[ram.SHOT_ENTRY_X[j]] == c.BEAM_X[((random >> c.REJUVENATOR_BEAM_SHIFT) + 1) >> 1]
                arrivals += 1
            for i in range(len(ram.SHOT_KIND)):
                if before[ram.SHOT_KIND[i]] in FALLER_KINDS and after[ram.SHOT_KIND[i]] in FALLER_KINDS:
                    depth = before[ram.SHOT_DEPTH[i]] + _dithered(c.FALLER_SPEED, count)
                    picture = c.KIND_FALLER + sum(depth >= d for d in c.REJUVENATOR_PICTURE_DEPTHS)
                    assert (after[ram.SHOT_DEPTH[i]], after[ram.SHOT_KIND[i]]) == (depth, picture), (seed, t)
                    falls += 1
    assert arrivals >= 50 and falls >= 2_000


def test_the_ships_shot_meets_a_kind_24_object_as_it_meets_a_crosser(sector_end_games):
    """On every even frame of play or the sector's end with the ship's shot in flight (short of its
    last y), no saucer hit and a kind-24 object in an entry (no rejuvenator nor crosser): the shot
    is gone exactly when one, after its fall, stands within 6 of the shot's beam and within 8 of
    the shot's new y; nothing is paid; a lariat leaves it falling, a torpedo turns the lowest such
    entry into the explosion's first step with its count (ram[53 + entry]) at 8."""
    lariats = torpedoes = flown = 0
    for seed, t, reward, before, after, met in _shot_meeting_frames(sector_end_games, FALLER_KINDS):
        if any(before[a] in ram.CROSSER_KINDS or before[a] in ram.REJUVENATOR_KINDS for a in ram.SHOT_KIND):
            continue
        assert (after[ram.SHOT_Y] == ram.NO_SHOT) == bool(met), (seed, t)
        flown += not met
        if not met:
            continue
        assert reward == 0
        if before[ram.SHOT_PICTURE] in ram.TORPEDO_PICTURES:
            assert after[ram.SHOT_KIND[met[0]]] == c.KIND_EXPLOSION_FIRST, (seed, t)
            assert after[SHOT_COUNT_BASE + met[0]] == c.EXPLOSION_COUNT, (seed, t)
            torpedoes += 1
        else:
            assert all(after[ram.SHOT_KIND[j]] in FALLER_KINDS for j in met), (seed, t)
            lariats += 1
    assert lariats >= 10 and torpedoes >= 3 and flown >= 500


# ram[53 + entry]: a crosser's speed, an explosion's count (NOTES.md "The crossers")
SHOT_COUNT_BASE = 53


def test_a_saucers_shot_is_held_back_by_an_object_8_above_to_5_below(sector_end_games):
    """Every odd frame of play writing a saucer's new shot depth (8 below it) into an empty entry on
    a drawn beam: no shot (a stray depth, kind 0) exactly when another object stands from 8 above
    to 5 below that depth (sector 2's kind-24 objects give the cases above)."""
    shots = held = held_above = 0
    for seed, tr in enumerate(sector_end_games):
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            if not (t - 1) % c.LOGIC_PERIOD or not before[ram.PHASE] == after[ram.PHASE] == ram.PHASE_PLAY:
                continue
            for j, a in enumerate(ram.SHOT_KIND):
                depth = after[ram.SHOT_DEPTH[j]]
                if (before[a] != c.KIND_EMPTY or after[a] not in (c.KIND_EMPTY, c.KIND_SHOT_A)
                        or depth == ram.EMPTY_DEPTH or after[ram.SHOT_ENTRY_X[j]] not in c.BEAM_X):
                    continue
                shooters = [i for i in range(3) if after[ram.ENEMY_DEPTH[i]] + c.FIRE_DROP == depth
                            and after[ram.ENEMY_X[i]] == after[ram.SHOT_ENTRY_X[j]]
                            and before[ram.ENEMY_STEP[i]] in c.FIRING_STEPS
                            and after[ram.ENEMY_STEP[i]] == before[ram.ENEMY_STEP[i]] + 1]
                if not shooters:
                    continue
                gaps = [after[ram.SHOT_DEPTH[q]] - depth for q in range(len(ram.SHOT_KIND))
                        if q != j and after[ram.SHOT_KIND[q]] != c.KIND_EMPTY]
                blocked = any(-c.FIRE_BLOCK_ABOVE <= gap <= c.FIRE_BLOCK_GAP for gap in gaps)
                assert (after[a] == c.KIND_EMPTY) == blocked, (seed, t, gaps)
                shots += not blocked
                held += blocked
                held_above += any(-c.FIRE_BLOCK_ABOVE <= gap < 0 for gap in gaps)
    assert shots >= 50 and held_above >= 1


def test_sector_twos_shots_fall_a_sixteenth_faster(sector_end_games):
    """Every even frame of play moving an enemy shot: ram[7] sixteenths with the dither - 22 in
    sector 1, 23 in 2."""
    moves = collections.Counter()
    for _, t, before, after in _logic_frames_of_play(sector_end_games):
        sector = before[ram.SECTOR]
        speed = before[ram.SHOT_SPEED]
        assert speed == c.SHOT_SPEED_BASE + sector, t
        for j in range(len(ram.SHOT_KIND)):
            if all(x[ram.SHOT_KIND[j]] in (c.KIND_SHOT_A, c.KIND_SHOT_B) for x in (before, after)):
                step = _dithered(speed, before[ram.FRAME_COUNT])
                assert after[ram.SHOT_DEPTH[j]] == before[ram.SHOT_DEPTH[j]] + step, (t, j)
                moves[sector] += 1
    assert moves[1] >= 50 and moves[2] >= 1_000


def test_a_torpedo_takes_one_step_more_while_four_objects_stand_above_it(sector_end_games):
    """A torpedo at its last y (54) flies on to 46 exactly when at least 4 of the 7 objects (slots
    as they stood, entries after their fall; empty ones at 255 not) stand above 46, as the lariat's
    reach to 94 does."""
    outcomes = collections.Counter()
    for tr in sector_end_games:
        r = tr.rams.astype(int)
        for t in range(1, len(r)):
            before, after = r[t - 1], r[t]
            if ((t - 1) % c.LOGIC_PERIOD or before[ram.SHOT_Y] != c.TORPEDO_LAST_Y
                    or before[ram.SHOT_PICTURE] not in ram.TORPEDO_PICTURES or after[ram.PHASE] != before[ram.PHASE]):
                continue
            slots = [before[ram.ENEMY_DEPTH[i]] if before[ram.ENEMY_KIND[i]] != c.KIND_EMPTY else ram.EMPTY_DEPTH
                     for i in range(3)]
            above = sum(d < c.TORPEDO_REACH_DEPTH for d in slots + [after[a] for a in ram.SHOT_DEPTH])
            on = above >= c.LARIAT_REACH_OBJECTS
            assert after[ram.SHOT_Y] == (c.TORPEDO_REACH_DEPTH if on else ram.NO_SHOT), t
            outcomes[on] += 1
    assert outcomes[True] >= 2 and outcomes[False] >= 50


def _shot_picture_by_rule(torpedo: bool, y: int) -> int:
    """ram[49] while the ship's shot flies (NOTES.md "ram[21] is the sound, ram[49] the shot")."""
    if y == (c.TORPEDO_REACH_DEPTH if torpedo else c.LARIAT_REACH_DEPTH):
        return c.REACH_PICTURE
    if not torpedo:
        return c.LARIAT_PICTURE
    return c.TORPEDO_PICTURES[sum(y <= edge for edge in c.TORPEDO_PICTURE_YS)]


@pytest.mark.parametrize("seed", [46, 57, 89])
def test_ram_49_is_the_ships_shot_and_ram_21_only_its_sound(seed):
    """Every shot of a poked last-enemy game into sector 2: a torpedo (UP took one from ram[83]) or
    a lariat shows its picture in ram[49] on every frame of its flight - and keeps flying as one
    while ram[21] plays a saucer's firing (37..47) instead of its own sound: these torpedoes go on
    past the lariat's last y, the lariats of that run stop at it or take the lariat's one step more."""
    tr = ramtrace.record(ROM, frames=2_100, seed=seed, hold=(1, 8),
                         pokes={c.SAUCER_SPAWN_FRAME - 1: {ram.ENEMIES_LEFT: 1,
                                                           ram.SHIP_FLAGS: c.ON_BEAM_FLAGS & ~c.REJUVENATOR_DUE}})
    r = tr.rams.astype(int)
    torpedo, checked, firing_sound = None, 0, collections.Counter()
    for t in range(1, len(r)):
        before, after = r[t - 1], r[t]
        if (before[ram.SHOT_Y] == c.LARIAT_LAST_Y and before[ram.SOUND] in range(37, 48)
                and (t - 1) % c.LOGIC_PERIOD == 0 and before[ram.PHASE] == after[ram.PHASE] == ram.PHASE_PLAY):
            firing_sound[(torpedo, int(after[ram.SHOT_Y]))] += 1
        if after[ram.SHOT_Y] == ram.NO_SHOT:
            torpedo = None
            continue
        if before[ram.SHOT_Y] == ram.NO_SHOT:
            torpedo = bool(after[ram.TORPEDOES] == before[ram.TORPEDOES] - 1)
        assert after[ram.SHOT_PICTURE] == _shot_picture_by_rule(torpedo, after[ram.SHOT_Y]), t
        checked += 1
    assert checked >= 500
    assert firing_sound[(True, c.LARIAT_LAST_Y - c.SHOT_STEP)] >= 1
    assert set(firing_sound) <= {(True, c.LARIAT_LAST_Y - c.SHOT_STEP), (False, ram.NO_SHOT),
                                 (False, c.LARIAT_REACH_DEPTH)}


@pytest.mark.parametrize("poked", [26, 40])
def test_the_enemies_shots_fall_at_ram_7_sixteenths(poked):
    """ram[7] poked before the spawn: every enemy shot's move of three random games fits that speed
    with the dither (and no other speed fits them all)."""
    games = [ramtrace.record(ROM, frames=2_500, seed=seed, hold=(1, 8),
                             pokes={c.SAUCER_SPAWN_FRAME - 1: {ram.SHOT_SPEED: poked}}) for seed in range(3)]
    fits = collections.Counter()
    moves = 0
    for _, t, before, after in _logic_frames_of_play(games):
        for j in range(len(ram.SHOT_KIND)):
            if all(x[ram.SHOT_KIND[j]] in (c.KIND_SHOT_A, c.KIND_SHOT_B) for x in (before, after)):
                moves += 1
                for speed in range(16, 64):
                    fits[speed] += (after[ram.SHOT_DEPTH[j]] - before[ram.SHOT_DEPTH[j]]
                                    == _dithered(speed, before[ram.FRAME_COUNT]))
    assert moves >= 50
    assert [speed for speed, n in fits.items() if n == moves] == [poked]


@pytest.mark.parametrize("sector", [0x02, 0x09, 0x15, 0x23, 0x30])
def test_a_sectors_end_sets_the_shots_speed_to_21_plus_the_sector_up_to_25(sector):
    """ram[0] poked before the spawn with one enemy left: the sector's end moves the sector on and
    sets ram[7] to 21 + the new sector (its BCD digits), the sector counted up to 25 (poked 0x30: 46);
    the port's next sector agrees."""
    import jax.numpy as jnp

    from ports.beamrider.game import game as g

    tr = ramtrace.record(ROM, frames=1_300, seed=4, hold=(1, 8),
                         pokes={c.SAUCER_SPAWN_FRAME - 1: {ram.SECTOR: sector, ram.ENEMIES_LEFT: 1,
                                                           ram.SHIP_FLAGS: c.ON_BEAM_FLAGS & ~c.REJUVENATOR_DUE}})
    r = tr.rams.astype(int)
    moved = [t for t in range(c.SAUCER_SPAWN_FRAME + 1, len(r)) if r[t, ram.SECTOR] != r[t - 1, ram.SECTOR]]
    assert len(moved) == 1
    before, after = r[moved[0] - 1], r[moved[0]]
    number = 10 * (after[ram.SECTOR] >> 4) + (after[ram.SECTOR] & 15)
    assert before[ram.SHOT_SPEED] == c.ENEMY_SHOT_SPEED
    assert after[ram.SHOT_SPEED] == c.SHOT_SPEED_BASE + min(number, c.SHOT_SPEED_LAST_SECTOR)
    start = g.reset()
    ended = g.next_sector(c.DEFAULTS, start.replace(player=start.player.replace(sector=jnp.int32(sector))))
    assert int(ended.shot_speed) == after[ram.SHOT_SPEED]
