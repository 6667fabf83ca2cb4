"""ALE's emulators stepped in worker processes give the returns of the same emulators stepped in
this process, bit for bit (a mod's RAM writes too), and a worker that dies, fails or falls silent
stops the run with an error naming it, its processes gone."""

import os
import signal
from pathlib import Path

import numpy as np
import pytest

from alignment import catalog
from alignment.robustness import agents as ag
from alignment.robustness import evaluate as ev
from alignment.robustness.emulators import AlePool, EmulatorPoolError

POLICIES = Path(__file__).resolve().parents[2] / "stress" / "policies"


def test_a_pool_of_workers_gives_the_serial_returns_with_a_ram_write_mod():
    writes = catalog.entry("pong").ale_mods["no_enemy_points"].writes
    variants = {"original": (), "modified": writes}
    kw = dict(agents=1, episodes=5, seed=4, max_steps=300)
    serial = ev.ale_returns("pong", variants, None, None, workers=1, **kw)
    for workers in (2, 3):  # 5 emulators: slices of 3+2, and 2+2+1
        pooled = ev.ale_returns("pong", variants, None, None, workers=workers, **kw)
        for v in variants:
            np.testing.assert_array_equal(pooled.returns[v], serial.returns[v])
        assert pooled.truncated == serial.truncated
    # not trivially equal: the computer scores on the original, its points are not counted on
    # the mod, and the emulators' sticky actions differ between episodes
    assert serial.returns["original"].sum() < 0
    assert not np.array_equal(serial.returns["original"], serial.returns["modified"])
    assert len(set(serial.returns["original"][0])) > 1


@pytest.mark.slow
@pytest.mark.parametrize("game,obs,mod", [("freeway", "pixels", "stop_cars"),
                                          ("pong", "objects", "no_enemy_points")])
def test_agents_seeing_screens_or_ram_play_the_same_games_in_a_pool(game, obs, mod):
    agents = ag.from_policy(POLICIES / f"{game}-{obs}.npz", game).first(2)
    variants = {"original": (), mod: catalog.entry(game).ale_mods[mod].writes}
    kw = dict(agents=2, episodes=2, seed=1, max_steps=160, obs=obs)
    serial = ev.ale_returns(game, variants, agents.apply_fn(), agents.params, workers=1, **kw)
    pooled = ev.ale_returns(game, variants, agents.apply_fn(), agents.params, workers=2, **kw)
    for v in variants:
        np.testing.assert_array_equal(pooled.returns[v], serial.returns[v])
    assert any(np.any(r != 0) for r in serial.returns.values())  # the agents scored something


def _pool():
    return AlePool(2, 2).start("pong", (), 0)


def _gone(procs):
    return all(not p.is_alive() for p in procs)


def test_a_killed_worker_is_named_and_the_pool_closes():
    with pytest.raises(EmulatorPoolError, match=r"emulator worker 1 \(process \d+, emulators "
                                                r"1..1\) "
                                                r"died \(exit code -9\) while it should step"):
        with _pool() as pool:
            procs = list(pool.procs)
            os.kill(procs[1].pid, signal.SIGKILL)
            pool.step(np.zeros(2, int), np.ones(2, bool))
    assert _gone(procs)


def test_a_silent_worker_times_out_by_name_and_is_stopped():
    with pytest.raises(EmulatorPoolError, match=r"emulator worker 0 .* gave no answer in 5 s"):
        with _pool() as pool:
            procs = list(pool.procs)
            pool.timeout_s = 5  # a step's wait; the start had the default's (spawns are slow)
            os.kill(procs[0].pid, signal.SIGSTOP)  # alive, never answering
            pool.step(np.zeros(2, int), np.ones(2, bool))
    assert _gone(procs)


def test_an_error_in_a_worker_comes_back_with_its_traceback():
    with pytest.raises(EmulatorPoolError, match=r"(?s)emulator worker 1 .* failed while it should "
                                                r"step its emulators.*IndexError"):
        with _pool() as pool:
            procs = list(pool.procs)
            pool.step(np.array([0, 99]), np.ones(2, bool))  # pong has 6 actions
    assert _gone(procs)
