"""Kangaroo's ground truth (alignment/reference/games/kangaroo/) re-checked on the
emulator (ale-py, sticky actions off): every address is held against what ALE itself reports
(lives(), the rewards, game over) or against ALE's screen; the pokes and the mods' RAM writes do on
ALE what they say."""

from pathlib import Path

import numpy as np
import pytest

from alignment import catalog
from alignment.porting import ramtrace
from alignment.reference.games.kangaroo import ram as k
from alignment.signals import RamWrite

ROM = "kangaroo"
START_FRAMES = 160  # the mother waits this long after reset (measured)
DEEP = Path(__file__).resolve().parents[1] / "data" / "deep" / "kangaroo-s0.json"


@pytest.fixture(scope="module")
def idle():
    """Left alone, the coconuts take all three lives (measured: game over on frame 1,150)."""
    return ramtrace.record(ROM, [("NOOP", 3000)], screens=True)


@pytest.fixture(scope="module")
def punching():
    """Walk right, then punch on and off: a monkey coming down is punched (200 points)."""
    return ramtrace.record(ROM, [("NOOP", START_FRAMES), ("RIGHT", 270)]
                           + [("FIRE", 4), ("NOOP", 4)] * 188)


def test_lives_are_ram45_plus_one_and_255_ends_the_game(idle):
    alive = ~idle.game_over
    assert idle.game_over[-1] and alive[:-1].all()
    assert [k.lives(r) for r in idle.rams[alive]] == idle.lives[alive].tolist()
    assert sorted(set(idle.lives.tolist())) == [0, 1, 2, 3]
    assert idle.rams[-1, k.LIVES] == k.GAME_OVER_LIVES


def test_the_score_bytes_are_the_summed_reward(punching):
    assert punching.rewards.sum() > 0, "the punching script should score"
    summed = np.concatenate([[0], np.cumsum(punching.rewards)])
    assert [k.score(r) for r in punching.rams] == summed.tolist()
    assert set(punching.rewards.tolist()) <= {0, 200}


def _bbox(screen, rgb, lines=k.PLAY_LINES):
    m = (screen[lines] == np.asarray(rgb)).all(-1)
    ys, xs = np.nonzero(m)
    if not len(xs):
        return None
    return int(xs.min()), int(ys.min()) + lines.start


ABOVE_SCORE = slice(0, k.PLAY_LINES.stop)  # monkeys start at the top (the mother's colour is the
# baby's there, the monkeys' is their own)


def test_the_mother_is_drawn_where_her_bytes_say():
    tr = ramtrace.record(ROM, [("NOOP", START_FRAMES + 20), ("RIGHT", 120), ("NOOP", 20),
                               ("LEFT", 60)], screens=True)
    xs = tr.rams[:, k.MOTHER_X]
    assert xs[START_FRAMES + 140] > xs[START_FRAMES + 20]  # RIGHT moved her right
    checked = 0
    for t in range(START_FRAMES + 1, tr.frames + 1):
        r, prev = tr.rams[t], tr.rams[t - 1]
        # the screen of a frame shows the position the frame started with; standing still only
        if (r[[k.MOTHER_X, k.MOTHER_ROW, k.MOTHER_POSE]] != prev[[k.MOTHER_X, k.MOTHER_ROW,
                                                                  k.MOTHER_POSE]]).any():
            continue
        assert _bbox(tr.screens[t], k.MOTHER_RGB) == (k.mother_x(r), k.mother_y(r)), t
        checked += 1
    assert checked > 100
    assert k.mother_floor(tr.rams[-1]) == 0


def test_the_monkeys_are_drawn_where_their_slots_say(idle):
    seen = 0
    for t in range(1, idle.frames + 1):
        r = idle.rams[t]
        active = k.monkeys_active(r)
        slots = list(k.MONKEY_ROW + k.MONKEY_X)
        # a frame's screen shows the slots as the frame began: compare where they stood still
        if active.sum() != 1 or idle.game_over[t] or (r[slots] != idle.rams[t - 1][slots]).any():
            continue
        i = int(np.flatnonzero(active)[0])
        box = _bbox(idle.screens[t], k.MONKEY_RGB, ABOVE_SCORE)
        assert box == (int(k.monkey_x(r)[i]), int(k.monkey_y(r)[i])), t
        seen += 1
    assert seen > 50  # the first monkey climbs down the right side


def test_a_monkey_slot_holding_128_draws_nothing():
    # after the first lost life of the stored deep game a slot holds 128 (from frame 1,287)
    from alignment import deepplay

    doc, actions = deepplay.load_actions(DEEP)
    names = deepplay.Lookahead.of_rom(ROM).names
    tr = ramtrace.record(ROM, [(names[a], 1) for a in actions[:1700]], screens=True)
    checked = 0
    for t in range(1, tr.frames + 1):
        rows = tr.rams[t - 1, list(k.MONKEY_ROW)]  # a frame's screen shows the RAM it began with
        if not (rows == 128).any():
            continue
        assert not k.monkeys_active(tr.rams[t - 1])[rows == 128].any()
        stray = (tr.screens[t, ABOVE_SCORE] == np.asarray(k.MONKEY_RGB)).all(-1)
        for row, x in zip(rows, tr.rams[t - 1, list(k.MONKEY_X)]):
            if row < k.NO_MONKEY:  # blank out the monkeys that are there (with room to move)
                top, left = int(row) * k.ROW_LINES + k.MONKEY_Y_OFFSET, int(x) + k.MONKEY_X_OFFSET
                stray[max(0, top - 8):top + 24, max(0, left - 8):left + 16] = False
        assert not stray.any(), t
        checked += 1
    assert checked > 100  # 137 frames (measured)


def test_the_timer_counts_down_every_256_frames_and_ends_a_life():
    # monkeys and coconut held off: the idle mother lives until the timer runs out
    writes = [*k.ALE_MODS["no_monkey"].writes, *k.ALE_MODS["no_coconut"].writes]
    tr = ramtrace.record(ROM, [("NOOP", 5600)], writes=writes)
    values = [k.timer(r) for r in tr.rams]
    ticks = np.flatnonzero(np.diff(values)) + 1
    first_death = int(np.flatnonzero(np.diff(tr.lives))[0]) + 1
    assert values[0] == 20
    before = [values[t] for t in ticks if t < first_death]
    assert before == list(range(19, -1, -1))  # 19 .. 0, across the blank-digit encoding
    tick_frames = [int(t) for t in ticks if t < first_death]
    assert np.diff(tick_frames).tolist() == [256] * 19
    dying = int(np.flatnonzero(tr.rams[:, k.MOTHER_STATE] == k.DYING)[0])
    assert dying == tick_frames[-1]  # she dies on the frame it reads 0
    assert values[-1] == 20  # the next life starts it again


def test_the_level_poke_draws_its_layout_from_the_first_frame():
    shots = []
    for level in range(3):
        writes = [RamWrite(a, v, when="reset") for a, v in k.POKES[0].ram(level).items()]
        tr = ramtrace.record(ROM, [("NOOP", 100)], writes=writes, screens=True)
        assert (tr.rams[:, k.LEVEL] == level).all()
        shots.append(tr.screens[-1])
    # three different floor layouts
    assert (shots[0] != shots[1]).any() and (shots[1] != shots[2]).any() and (
        shots[0] != shots[2]).any()


def test_score_and_timer_pokes_read_back_and_the_score_is_paid():
    pokes = {p.name: p for p in k.POKES}
    writes = {**pokes["score"].ram(123_400), **pokes["timer"].ram(5)}
    tr = ramtrace.record(ROM, [("NOOP", 10)],
                         writes=[RamWrite(a, v, when="reset") for a, v in writes.items()])
    assert k.score(tr.rams[0]) == 123_400 and k.timer(tr.rams[0]) == 5
    assert tr.rewards[0] == 123_400  # ALE pays a written score as the next frame's reward
    assert pokes["timer"].ram(9) == {k.TIMER: 0xA9} and pokes["timer"].ram(12) == {k.TIMER: 0x12}
    assert pokes["timer"].ram(0) == {k.TIMER: 0xAA}  # the byte the cartridge writes at 0


def test_no_monkey_writes_keep_every_monkey_and_apple_away():
    writes = k.ALE_MODS["no_monkey"].writes
    assert {w.address for w in writes} == set(k.MONKEY_ROW) and {w.value for w in writes} == {127}
    plain = ramtrace.record(ROM, frames=1200, seed=2, hold=(1, 8), screens=True)
    mod = ramtrace.record(ROM, frames=1200, seed=2, hold=(1, 8), writes=writes, screens=True)

    def monkey_frames(tr):
        return int((tr.screens[:, k.PLAY_LINES] == np.asarray(k.MONKEY_RGB)).all(-1).any(
            axis=(1, 2)).sum())

    assert monkey_frames(plain) > 100 and np.asarray(
        [k.thrown_active(r).any() for r in plain.rams[1:]]).sum() > 0
    assert monkey_frames(mod) == 0
    # (the cartridge clears ram[25] on the game-over frame itself: frames of play only)
    assert not any(k.monkeys_active(r).any() or k.thrown_active(r).any()
                   for r in mod.rams[~mod.game_over])


def test_kangaroo_is_a_catalog_game_whose_files_are_no_other_games():
    assert catalog.canonical("ALE/Kangaroo-v5") == "kangaroo" and "kangaroo" not in catalog.in_progress()
    root = catalog._repo_root()
    for game in catalog.games():  # its files are no other game's behaviour
        files = [f.relative_to(root).as_posix() for f in catalog.behaviour_files(game)]
        assert files and (game == "kangaroo") == any("kangaroo" in f for f in files), game


def test_the_mother_walks_a_pixel_every_third_frame():
    writes = [*k.ALE_MODS["no_monkey"].writes, *k.ALE_MODS["no_coconut"].writes]
    tr = ramtrace.record(ROM, [("NOOP", START_FRAMES), ("RIGHT", 120)], writes=writes)
    moved = np.flatnonzero(np.diff(tr.rams[:, k.MOTHER_X].astype(int)))
    assert len(moved) >= 35 and (np.diff(tr.rams[:, k.MOTHER_X].astype(int))[moved] == 1).all()
    assert (tr.rams[moved + 1, k.FRAME_COUNTER] % k.WALK_PERIOD == 0).all()
    assert set(np.diff(moved).tolist()) == {k.WALK_PERIOD}


def test_fruit_and_punched_apples_pay_100_and_punched_monkeys_200_in_the_deep_game():
    from alignment import deepplay

    _, actions = deepplay.load_actions(DEEP)
    names = deepplay.Lookahead.of_rom(ROM).names
    tr = ramtrace.record(ROM, [(names[a], 1) for a in actions])
    kinds = []
    for t in np.flatnonzero(tr.rewards):
        before, after = tr.rams[t], tr.rams[t + 1]
        eaten = k.fruit_present(before) & ~k.fruit_present(after)
        if eaten.any():
            kinds.append(("fruit", int(tr.rewards[t])))
        elif (k.thrown_active(before) & ~k.thrown_active(after)).any():
            kinds.append(("apple", int(tr.rewards[t])))
        else:
            kinds.append(("punch", int(tr.rewards[t])))
    assert ("fruit", k.FRUIT_POINTS) in kinds and ("punch", k.PUNCH_POINTS) in kinds
    assert {r for what, r in kinds if what == "fruit"} == {k.FRUIT_POINTS}
    assert {r for what, r in kinds if what == "punch"} == {k.PUNCH_POINTS}
    assert {r for what, r in kinds if what == "apple"} == {k.APPLE_POINTS}
