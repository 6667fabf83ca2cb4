"""Pokes: the quantities a probe may write (each game's ``pokes`` registry) give the same game on
ALE and on the JAX game. Each case pokes both backends at the same frame, then plays the same
frames on both and compares every catalog signal and the reward on every frame and the 210x160
screen on every eighth frame and the last."""

import numpy as np
import pytest

from alignment import catalog
from alignment.backends import BackendError, make_backend

ON_FIRST_ROW = [("NOOP", 120), ("DOWN", 8), ("NOOP", 60)]  # Frostbite: the first landing
WANDER = [("DOWN", 8), ("NOOP", 60), ("UP", 8), ("NOOP", 60), ("FIRE", 5), ("DOWN", 8),
          ("NOOP", 40), ("RIGHT", 30), ("LEFT", 20)]
CENTRE_HIT = [("FIRE", 2), ("LEFT", 16), ("NOOP", 47)]  # Breakout: the serve onto the paddle
RALLY = [("NOOP", 30), ("RIGHT", 12), ("NOOP", 40), ("LEFT", 20), ("NOOP", 60), ("RIGHT", 25),
         ("NOOP", 80), ("LEFT", 30), ("NOOP", 60)]


@pytest.fixture(scope="module")
def pair():
    cache = {}

    def get(game):
        if game not in cache:
            cache[game] = [make_backend(k, game, full_action_space=True) for k in ("ale", "jax")]
        for b in cache[game]:
            b.reset(0)
        return cache[game]

    return get


def _lockstep(backends, plan):
    """Play ``plan`` (("poke", name, value) or (action, frames)) on both backends; the frames
    where any signal or the reward differ, and those where the screen differs."""
    ale, jax_side = backends
    names = list(ale.entry.signals)
    bad, bad_screens, frames = [], [], 0
    for item in plan:
        if item[0] == "poke":
            for b in backends:
                b.poke(item[1], item[2])
            continue
        action, n = item
        for _ in range(n):
            r = [b.act(action) for b in backends]
            a, j = ale.signals(), jax_side.signals()
            diff = {k: (a[k], j[k]) for k in names if not np.array_equal(a[k], j[k])}
            if r[0] != r[1]:
                diff["reward"] = tuple(r)
            if diff:
                bad.append((frames, diff))
            frames += 1
            if frames % 8 == 0 and np.any(ale.rgb() != jax_side.rgb()):
                bad_screens.append(frames)
    if np.any(ale.rgb() != jax_side.rgb()):
        bad_screens.append(frames)
    return bad[:3], bad_screens[:5]


@pytest.mark.parametrize("plan", [
    pytest.param([("poke", "score", 4990), ("poke", "level", 10)] + ON_FIRST_ROW + WANDER,
                 id="score-and-level-10-at-reset"),
    pytest.param([("poke", "level", 16)] + ON_FIRST_ROW + WANDER, id="level-16-at-reset"),
    pytest.param(ON_FIRST_ROW + [("poke", "score", 4990)] + WANDER, id="score-mid-game"),
])
def test_frostbite_pokes_give_the_same_game_on_both(pair, plan):
    backends = pair("frostbite")
    assert _lockstep(backends, plan) == ([], [])
    ale = backends[0].signals()
    poked = dict((p[1], p[2]) for p in plan if p[0] == "poke")
    if "level" in poked:
        assert ale["level"] == poked["level"]
    if "score" in poked:  # play went on past 5,000 (the bonus Bailey itself: the spec's probe)
        assert ale["score"] >= 5000


@pytest.mark.parametrize("plan", [
    pytest.param(CENTRE_HIT + [("poke", "bricks", 0), ("poke", "score", 432)] + RALLY,
                 id="second-wall"),
    pytest.param(CENTRE_HIT + [("poke", "bricks", 0), ("poke", "score", 864)] + RALLY,
                 id="no-third-wall"),
    pytest.param([("NOOP", 37), ("poke", "bricks", 40), ("poke", "score", 123)] + CENTRE_HIT
                 + RALLY, id="part-wall-once-the-start-up-animation-is-over"),
    pytest.param(CENTRE_HIT + [("poke", "bricks", 20), ("poke", "score", 300)] + RALLY,
                 id="part-wall-mid-game"),
])
def test_breakout_pokes_give_the_same_game_on_both(pair, plan):
    backends = pair("breakout")
    assert _lockstep(backends, plan) == ([], [])


SEAQUEST_DIVE = [("NOOP", 130), ("DOWN", 12), ("NOOP", 40)]  # under water, above the top lane
SEAQUEST_SURFACE = [("UP", 12), ("NOOP", 200), ("DOWNFIRE", 30), ("LEFTFIRE", 40), ("NOOP", 40)]


@pytest.mark.parametrize("plan, peak", [
    pytest.param(SEAQUEST_DIVE + [("poke", "divers", 6), ("poke", "oxygen", 30),
                                  ("poke", "score", 9990), ("poke", "reserve_subs", 6)]
                 + SEAQUEST_SURFACE, {"level": 1, "score": 10_890}, id="six-divers-bonus-sub-past-the-cap"),
    pytest.param([("poke", "wave", 2)] + SEAQUEST_DIVE + [("poke", "divers", 3)] + SEAQUEST_SURFACE,
                 {"level": 2}, id="wave-2-at-reset-with-the-patrol-sub"),
])
def test_seaquest_pokes_give_the_same_game_on_both(pair, plan, peak):
    backends = pair("seaquest")
    assert _lockstep(backends, plan) == ([], [])
    ale = backends[0].signals()
    for name, value in peak.items():
        assert ale[name] >= value, (name, ale[name])


KANGAROO_START = [("NOOP", 160)]  # the start tune: the mother waits
KANGAROO_WALK = [("RIGHT", 60), ("FIRE", 6), ("NOOP", 10), ("DOWN", 12), ("LEFT", 40), ("UP", 20),
                 ("NOOP", 40)]


@pytest.mark.parametrize("layout", [1, 2])
def test_kangaroo_layout_poke_at_reset_gives_the_same_game_on_both(pair, layout):
    """The layout written before the first frame: drawn, its fruit and ladders in place, the
    mother walking its bottom floor; every signal and the sampled screens equal."""
    backends = pair("kangaroo")
    assert _lockstep(backends, [("poke", "level", layout)] + KANGAROO_START + KANGAROO_WALK) == ([], [])
    assert backends[0].signals()["level"] == layout


def test_kangaroo_timer_and_score_pokes_give_the_same_game_on_both(pair):
    """The poked timer and score read back at once on both; the timer poked to 1 runs out at its
    next tick (frame 414), a life is lost and the next life starts it at 20; every signal and the
    sampled screens equal throughout."""
    backends = pair("kangaroo")
    assert _lockstep(backends, KANGAROO_START + [("poke", "timer", 1), ("poke", "score", 45_600)]) \
        == ([], [])
    for b in backends:
        assert (b.signals()["timer"], b.signals()["score"]) == (1, 45_600), b.kind
    assert _lockstep(backends, KANGAROO_WALK + [("NOOP", 600)]) == ([], [])
    ale = backends[0].signals()
    assert ale["lives"] < 3 and ale["timer"] == 20 and ale["score"] >= 45_600


def test_kangaroo_level_poke_is_refused_after_the_first_frame(pair):
    for b in pair("kangaroo"):
        b.act("NOOP")
        with pytest.raises(BackendError, match="only before the first frame"):
            b.poke("level", 1)


def test_breakout_second_wall_at_432_and_none_at_864(pair):
    for score, bricks in ((432, 18), (864, 0)):
        backends = pair("breakout")
        _lockstep(backends, CENTRE_HIT + [("poke", "bricks", 0), ("poke", "score", score)]
                  + [("NOOP", 60)])
        for b in backends:
            assert list(b.signals()["bricks_per_row"]) == [bricks] * 6, (b.kind, score)
            assert b.signals()["score"] == score


def test_a_poked_score_is_the_score_at_once_and_never_a_reward(pair):
    """ALE pays a RAM score change as the next frame's reward; the backend counts it as the score."""
    for b in pair("frostbite"):
        b.poke("score", 1230)
        assert b.signals()["score"] == 1230, b.kind
        assert b.act("NOOP", 5) == 0.0, b.kind
        assert b.signals()["score"] == 1230, b.kind


def test_a_clone_between_poke_and_frame_replays_the_same(pair):
    ale = pair("frostbite")[0]
    ale.act("NOOP", 120)
    ale.poke("score", 4990)
    snap = ale.clone()
    first = [ale.act("DOWN", 8), ale.act("NOOP", 60), ale.signals()["score"]]
    ale.restore(snap)
    assert [ale.act("DOWN", 8), ale.act("NOOP", 60), ale.signals()["score"]] == first == [0, 10, 5000]


@pytest.mark.parametrize("kind", ["ale", "jax"])
def test_bad_pokes_are_clear_errors(pair, kind):
    b = dict(zip(("ale", "jax"), pair("frostbite")))[kind]
    with pytest.raises(BackendError, match=r"unknown poke 'lives'; quantities a probe can set on "
                                           r"frostbite: level, score"):
        b.poke("lives", 3)
    with pytest.raises(BackendError, match=r"1000000 is out of range; score takes 0\.\.999999"):
        b.poke("score", 1_000_000)
    with pytest.raises(BackendError, match="must be an integer"):
        b.poke("score", 12.5)
    b.act("NOOP", 3)
    with pytest.raises(BackendError, match=r"poke level is written only before the first frame "
                                           r"\(at reset\), not at frame 3"):
        b.poke("level", 5)


def test_breakout_bricks_wait_for_the_start_up_wall(pair):
    for b in pair("breakout"):
        with pytest.raises(BackendError, match="poke bricks is written only from frame 37 on, not "
                                               "at frame 0"):
            b.poke("bricks", 0)


def test_every_poke_names_its_public_source_and_a_sane_range():
    for game in catalog.games():
        for name, poke in catalog.entry(game).pokes.items():
            assert poke.name == name and poke.low <= poke.high and poke.source, (game, name)
            for value in (poke.low, poke.high):
                writes = poke.ram(value)
                assert all(0 <= a < 128 and 0 <= v <= 255 for a, v in writes.items()), (game, name)
