"""``jaxtari-align robustness``: bad input refused by name before any work, and the whole command
at a smoke budget (real training, both backends) with its JSON checked against the schema."""

import functools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from alignment.robustness import agents as ag
from alignment.robustness.core import RobustnessInputError, agents_obs, validate
from alignment.robustness.schema import SchemaError, check


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "alignment.cli", "robustness", *args],
                          capture_output=True, text=True, timeout=900, cwd=cwd)


def test_an_unknown_mod_lists_the_games_mods():
    with pytest.raises(RobustnessInputError, match="unknown mod 'zero_gravity'.*lazy_enemy, "
                                                   "no_enemy_points, slow_enemy"):
        validate("pong", ["zero_gravity"], ("jax", "ale"), 2, 2, 100)


def test_a_mod_without_counterpart_asked_on_ale_only_says_it_runs_jax_only(tmp_path):
    with pytest.raises(RobustnessInputError, match="lazy_enemy has no ALE counterpart and runs "
                                                   "JAX-only; add jax to --backends"):
        validate("pong", ["lazy_enemy"], ("ale",), 2, 2, 100)
    proc = cli("pong", "--mods", "lazy_enemy", "--backends", "ale", "--out", str(tmp_path / "r"))
    assert proc.returncode == 2 and "runs JAX-only" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "r" / "pong.json").exists()


def test_a_game_whose_features_ale_cannot_decode_is_refused_on_ale_before_any_work():
    with pytest.raises(RobustnessInputError, match="frostbite: no RAM decoding.*--backends jax"):
        validate("frostbite", None, ("jax", "ale"), 2, 2, 100)
    assert validate("frostbite", ["keep_warm"], ("jax",), 2, 2, 100)[2] == ("jax",)


def test_pixel_agents_play_ale_from_its_screen_without_a_ram_decoding():
    # Frostbite's objects have no ALE-side decoding; its pixel agents see ALE's screen
    assert validate("frostbite", None, ("jax", "ale"), 2, 2, 100, "pixels")[2] == ("jax", "ale")
    assert agents_obs(Path("stress/policies/frostbite-pixels.npz")) == "pixels"
    assert agents_obs(Path("stress/policies/seaquest-objects.npz")) == "objects"
    assert agents_obs(None) == "objects"
    assert agents_obs(Path("stress/.checkpoints/frostbite-pixels-245760")) == "pixels"


def test_bad_numbers_and_backends_are_refused():
    with pytest.raises(RobustnessInputError, match="--episodes must be a whole number from 1 to 10,000, got 0"):
        validate("pong", None, ("jax",), 2, 0, 100)
    with pytest.raises(RobustnessInputError, match="unknown backend.*gym"):
        validate("pong", None, ("gym",), 2, 2, 100)
    with pytest.raises(RobustnessInputError, match="unknown game 'tetris'"):
        validate("tetris", None, ("jax",), 2, 2, 100)


def test_no_workers_is_refused_before_any_work(tmp_path):
    proc = cli("pong", "--workers", "0", "--out", str(tmp_path / "r"))
    assert proc.returncode == 2 and "--workers" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "r").exists()


def test_agents_of_another_game_or_observation_are_refused_by_name(tmp_path):
    other = tmp_path / "freeway-objects-2048"
    (other / "jax" / "seed0").mkdir(parents=True)
    with pytest.raises(ag.AgentsError, match="trained on freeway, not pong"):
        ag.load(other, "pong")
    pixels = tmp_path / "pong-pixels-2048"
    pixels.mkdir()
    with pytest.raises(ag.AgentsError, match="see pixels observations"):
        ag.load(pixels, "pong")
    with pytest.raises(ag.AgentsError, match="not a stress checkpoint folder"):
        ag.load(tmp_path, "pong")
    proc = cli("pong", "--agents", str(other), "--out", str(tmp_path / "r"))
    assert proc.returncode == 2 and "trained on freeway, not pong" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_report_that_drifts_from_the_schema_is_refused():
    with pytest.raises(SchemaError, match="robustness/v1"):
        check({"schema": "jaxtari-align/robustness/v1", "game": "pong"})


@pytest.mark.slow
def test_the_command_end_to_end_at_a_smoke_budget(tmp_path):
    # Freeway: stop_cars has an ALE counterpart (equal on every signal, not on the screen),
    # invincible is JAX-only
    out, train = tmp_path / "robustness", tmp_path / "stress"
    proc = cli("freeway", "--mods", "stop_cars,invincible", "--budget", "smoke", "--seeds",
               "2", "--episodes", "2", "--max-steps", "200", "--train-dir", str(train),
               "--out", str(out))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "invincible has no ALE counterpart" in proc.stderr
    # progress lines reach a pipe (a log file), not only a terminal
    for line in ("JAX: 2 agents x 2 episodes on 3 variant(s), one compiled run",
                 "ALE: 2 agents x 2 episodes on 2 variant(s)", "ALE original: 4 episodes done",
                 "ALE stop_cars: 4 episodes done", "ALE: random policy, 10 episodes"):
        assert line in proc.stderr, (line, proc.stderr[-3000:])
    data = json.loads((out / "freeway.json").read_text())
    report = check(data)
    assert (out / "freeway.md").read_text().startswith("# Robustness: freeway")
    assert (out / "freeway-pc.png").read_bytes()[:4] == b"\x89PNG"
    assert report.agents.trained_here and report.agents.seeds == [0, 1]
    assert Path(report.agents.source) == train / ".checkpoints" / "freeway-objects-2048"
    assert report.mods["stop_cars"].ale and not report.mods["invincible"].ale
    assert report.mods["stop_cars"].counterpart.exact is False
    assert set(report.sides) == {"jax", "ale"}
    assert set(report.sides["jax"].agents) == {"original", "stop_cars", "invincible"}
    assert set(report.sides["ale"].agents) == {"original", "stop_cars"}
    for side in report.sides.values():
        for rows in side.agents.values():
            assert np.shape(rows) == (2, 2)
    # PC recomputed by hand from the report's own returns
    jax = report.sides["jax"]
    s_org = np.mean(jax.agents["original"], axis=1)
    s_mod = np.mean(jax.agents["stop_cars"], axis=1)
    r_org, r_mod = np.mean(jax.random["original"]), np.mean(jax.random["stop_cars"])
    with np.errstate(divide="ignore", invalid="ignore"):  # undefined where S_org == R_org
        want = ((s_mod - r_mod) - (s_org - r_org)) / np.abs(s_org - r_org)
    want[s_org == r_org] = np.nan
    got = np.array([np.nan if v is None else v for v in report.pc["stop_cars"]["jax"]])
    np.testing.assert_allclose(got, want)
    assert set(report.pc["invincible"]) == {"jax"}
    assert "stop_cars" in report.comparison or not all(v is not None for v in got)
    # the gate re-derives the same PC and verdicts from the returns the command wrote
    from alignment.robustness.verdicts import failures

    assert failures(data) == []
    # a second run reuses the trained agents (nothing trained)
    proc = cli("freeway", "--mods", "invincible", "--budget", "smoke", "--seeds", "2",
               "--episodes", "1", "--max-steps", "50", "--backends", "jax", "--train-dir",
               str(train), "--out", str(out), "--replace")  # a smaller run: replaces by consent
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert not check(json.loads((out / "freeway.json").read_text())).agents.trained_here


@functools.lru_cache(maxsize=None)
def _runner(game):
    """``game``'s objects runner at 2,048 steps, seed key 3 (made once: a compile of the game)."""
    import jax

    from alignment.learning.config import budget_config
    from alignment.learning.ppo import init_runner, make_jax_env

    config = budget_config(2048, "objects")
    return config, init_runner(config, make_jax_env(game, config), jax.random.key(3))


def _finished_checkpoint(folder, game, drop_env_leaves=0, obs_shape=None):
    """A finished seed-0 checkpoint of ``game``'s objects runner at 2,048 steps, written with
    the stress stage's own writer; its game-state part shortened by ``drop_env_leaves`` arrays
    (a game state from before a mechanic was modelled), or its observations of another shape."""
    from alignment.learning import checkpoints as ckpts

    config, runner = _runner(game)
    ts = ckpts.leaves_of(runner.train_state)
    env = ckpts.leaves_of(runner.env_state)[drop_env_leaves:]
    obs = np.asarray(runner.obs) if obs_shape is None else np.zeros(obs_shape, np.float32)
    rest = ckpts.leaves_of((runner.key, runner.update))
    steps = config.num_updates * config.batch_size
    history = [{"interval": 0, "steps": steps, "episodes": 0, "return": None}]
    ckpts.save(folder, "jax", 0, ckpts.Checkpoint(1, ts + env + [obs] + rest, history))
    return runner.train_state.params


def test_agents_load_though_the_game_state_changed_since_training(tmp_path):
    # the network is what is evaluated: a game state with fewer fields (Pong before its timer
    # stop was modelled had 6 fewer) leaves the agents readable, with their own weights
    import jax

    folder = tmp_path / "pong-objects-2048"
    params = _finished_checkpoint(folder, "pong", drop_env_leaves=6)
    agents = ag.load(folder, "pong")
    got = jax.tree_util.tree_leaves(agents.params)
    want = jax.tree_util.tree_leaves(params)
    assert len(got) == len(want) and agents.seeds == [0]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g)[0], np.asarray(w))
    # observations of another width are another game's agents, whatever else fits
    other = tmp_path / "x" / "pong-objects-2048"
    _finished_checkpoint(other, "pong", obs_shape=(8, 3))
    with pytest.raises(ag.AgentsError, match="not one of pong's objects runners"):
        ag.load(other, "pong")


def test_agents_of_a_stress_mods_folder_are_evaluated_and_their_mods_recorded(tmp_path):
    """``--agents`` takes what ``stress --mods`` trains into (<game>+<mod>-objects-<steps>): the
    agents play, the report records the mods they trained on and says where it wrote; agents of
    the original game are then another experiment, not written over it unasked."""
    folder = tmp_path / "stress" / ".checkpoints" / "pong+no_enemy_points-objects-2048"
    _finished_checkpoint(folder, "pong")
    out = tmp_path / "robustness"
    proc = cli("pong", "--agents", str(folder), "--mods", "lazy_enemy", "--seeds", "1",
               "--episodes", "1", "--backends", "jax", "--max-steps", "50", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {out / 'pong.json'}, {out / 'pong.md'} and {out / 'pong-pc.png'}" in proc.stdout
    data = json.loads((out / "pong.json").read_text())
    check(data)
    assert data["agents"]["trained_mods"] == ["no_enemy_points"]
    assert data["agents"]["source"] == str(folder)
    before = (out / "pong.json").read_bytes()
    original = tmp_path / "stress" / ".checkpoints" / "pong-objects-2048"
    _finished_checkpoint(original, "pong")
    proc = cli("pong", "--agents", str(original), "--mods", "lazy_enemy", "--seeds", "1",
               "--episodes", "1", "--backends", "jax", "--max-steps", "50", "--out", str(out))
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 2, said
    assert (f"{out / 'pong.json'} holds a robustness report of other settings than this run "
            "would write (mods the agents trained on: [no_enemy_points] now, [] in this run)") in said
    assert (out / "pong.json").read_bytes() == before


def test_seeds_takes_the_first_agents_of_a_policy_file(tmp_path):
    """``--seeds 1`` with a policy file of three agents evaluates one, seed 0 (it evaluated all
    three, silently, before)."""
    policy = Path(__file__).resolve().parents[2] / "stress" / "policies" / "pong-objects.npz"
    out = tmp_path / "robustness"
    proc = cli("pong", "--agents", str(policy), "--mods", "lazy_enemy", "--seeds", "1",
               "--episodes", "1", "--backends", "jax", "--max-steps", "20", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    data = json.loads((out / "pong.json").read_text())
    assert data["agents"]["seeds"] == [0]
    assert {name: len(rows) for name, rows in data["sides"]["jax"]["agents"].items()} == {
        "original": 1, "lazy_enemy": 1}
