"""``jaxtari-align compare``: the report schema on a real Pong run, consistency of its numbers with
the emulator, the statistics, policy files, and clear errors for bad input."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from alignment import catalog, stats
from alignment.audit import command, compare
from alignment.reference import AleGame
from alignment.reference.policy import PolicyError, episode_actions, read_policy_file

EPISODES, SEED, MAX_FRAMES, FRAMESKIP = 2, 3, 1200, 4


def _app():
    app = typer.Typer()
    command.register(app)

    @app.command("other")  # a second command keeps typer from flattening the app into one command
    def _other() -> None:
        pass

    return app


def _invoke(*args):
    return CliRunner().invoke(_app(), ["compare", *args])


def _no_traceback(result):
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def pong_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("compare")
    result = _invoke("pong", "--policy", "random", "--episodes", str(EPISODES), "--seed", str(SEED),
                     "--max-frames", str(MAX_FRAMES), "--out", str(out))
    _no_traceback(result)
    assert result.exit_code == 0, result.output
    return result, json.loads((out / "pong-compare.json").read_text()), out


def test_cli_is_registered_in_the_project_app():
    from alignment.cli import app

    names = {c.name for c in app.registered_commands}
    assert "compare" in names


def test_report_schema(pong_run):
    _, r, _ = pong_run
    assert r["schema"] == compare.SCHEMA and r["game"] == "pong" and r["ale_id"] == "ALE/Pong-v5"
    assert set(r) >= {"versions", "settings", "episodes", "summary", "events", "matched", "elapsed_s"}
    st = r["settings"]
    assert (st["policy"], st["episodes"], st["seed"], st["max_frames"], st["frameskip"], st["sticky"]) \
        == ("random", EPISODES, SEED, MAX_FRAMES, FRAMESKIP, 0.25)
    assert st["actions"] == list(catalog.entry("pong").minimal_actions)
    for side in ("ale", "jax"):
        eps = r["episodes"][side]
        assert len(eps) == EPISODES
        for ep in eps:
            assert set(ep) == {"return", "steps", "frames", "terminated", "truncated", "life_losses",
                               "level_changes", "reward_values"}
            assert isinstance(ep["return"], (int, float)) and isinstance(ep["terminated"], bool)
            assert 0 < ep["frames"] <= MAX_FRAMES and ep["steps"] > 0
            assert (ep["steps"] - 1) * FRAMESKIP < ep["frames"] <= ep["steps"] * FRAMESKIP
            assert ep["terminated"] != ep["truncated"]
            assert set(ep["reward_values"]) <= {-1, 1}  # Pong's only rewards
        for name in ("return", "length_frames"):
            s = r["summary"][name][side]
            values = [ep["return" if name == "return" else "frames"] for ep in eps]
            assert s["n"] == EPISODES
            assert math.isclose(s["mean"], np.mean(values))
            assert math.isclose(s["std"], np.std(values, ddof=1), abs_tol=1e-9)
            assert s["min"] <= s["mean"] <= s["max"]
    for name in ("return", "length_frames"):
        for test in ("welch_t", "mann_whitney_u"):
            p = r["summary"][name][test]["p_value"]
            assert p is None or 0.0 <= p <= 1.0
    ev = r["events"]
    for key in ("precision", "recall"):
        assert ev[key] is None or 0.0 <= ev[key] <= 1.0
    kinds_ale = {v for ep in r["episodes"]["ale"] for v in ep["reward_values"]}
    kinds_jax = {v for ep in r["episodes"]["jax"] for v in ep["reward_values"]}
    assert set(ev["reward_values"]["ale"]) == kinds_ale and set(ev["reward_values"]["jax"]) == kinds_jax
    if kinds_jax:
        assert ev["precision"] == len(kinds_ale & kinds_jax) / len(kinds_jax)
    assert ev["life_losses"] == {"ale": 0, "jax": 0}  # Pong has no lives
    m = r["matched"]
    assert m["sticky"] == 0.0 and set(m["signals"]) == set(catalog.entry("pong").signals)
    for name, s in m["signals"].items():
        assert 0.0 <= s["agreement"] <= 1.0
        assert s["first_divergence"] is None or 1 <= s["first_divergence"] <= MAX_FRAMES
        assert (s["first_divergence"] is None) == (s["agreement"] == 1.0)
        assert s["tolerance"] == catalog.entry("pong").signals[name].tolerance
    assert len(m["episodes"]) == EPISODES
    for ep in m["episodes"]:
        assert 0 < ep["frames"]["ale"] <= MAX_FRAMES and 0 < ep["frames"]["jax"] <= MAX_FRAMES


def test_report_agrees_with_an_independent_emulator_run(pong_run):
    """The ALE numbers of the report are what the emulator gives for the same actions."""
    _, r, _ = pong_run
    e = catalog.entry("pong")
    steps = math.ceil(MAX_FRAMES / FRAMESKIP)
    actions = episode_actions(e, "random", seed=SEED, episodes=EPISODES, steps=steps)
    # matched run, episode 0: sticky off, each action held FRAMESKIP frames
    ale = AleGame("pong")
    total, frames = 0, 0
    for a in np.repeat(actions[0], FRAMESKIP)[:MAX_FRAMES]:
        total += ale.step(int(a))
        frames += 1
        if ale.terminated:
            break
    assert r["matched"]["episodes"][0]["frames"]["ale"] == frames
    # v5 episode 0: sticky on with the episode's seed
    seed0 = r["settings"]["episode_seeds"][0]
    ale = AleGame("pong", seed=seed0, sticky=0.25)
    ret = 0
    for a in actions[0]:
        for _ in range(FRAMESKIP):
            ret += ale.step(int(a))
        if ale.terminated or ale.frame >= MAX_FRAMES:
            break
    assert r["episodes"]["ale"][0]["return"] == ret
    assert r["episodes"]["ale"][0]["frames"] == ale.frame


def test_markdown_and_terminal_output(pong_run):
    result, r, out = pong_run
    md = (out / "pong-compare.md").read_text()
    assert md.startswith("# pong: ALE (ALE/Pong-v5) vs JAX")
    for header in ("## Episodes (v5 protocol)", "## Events", "## Matched runs"):
        assert header in md
    for name in catalog.entry("pong").signals:
        assert f"| {name} |" in md
        assert name in result.output
    assert "pong-compare.json" in result.output


# ---- statistics ---------------------------------------------------------------------------------
def test_precision_recall():
    pr = stats.precision_recall([-1, 1], [-1, 5])
    assert (pr["precision"], pr["recall"], pr["only_ale"], pr["only_jax"]) == (0.5, 0.5, [1], [5])
    pr = stats.precision_recall([], [])
    assert pr["precision"] is None and pr["recall"] is None
    assert stats.precision_recall([10], [10])["precision"] == 1.0


def test_agreement_first_divergence_is_one_based():
    a = np.array([0, 1, 2, 3, 4])
    b = np.array([0, 1, 5, 3, 9])
    g = stats.agreement(a, b, tolerance=1)
    assert g["agreement"] == 0.6 and g["first_divergence"] == 3 and g["max_abs_diff"] == 5
    assert stats.agreement(a, a + 1, tolerance=1)["first_divergence"] is None
    vec = stats.agreement(np.zeros((3, 4)), np.array([[0] * 4, [0, 0, 0, 3], [0] * 4]), 2)
    assert vec["agreement"] == pytest.approx(2 / 3) and vec["first_divergence"] == 2


def test_two_sample_tests():
    res = stats.two_sample([1, 2, 3, 4], [11, 12, 13, 14])
    assert res["welch_t"]["p_value"] < 0.01 and res["mann_whitney_u"]["p_value"] < 0.05
    same = stats.two_sample([5, 5, 5], [5, 5, 5])
    assert same["welch_t"]["p_value"] == 1.0 and same["mann_whitney_u"]["p_value"] == 1.0
    assert stats.two_sample([1], [2])["welch_t"]["p_value"] is None


# ---- policies ---------------------------------------------------------------------------------
def test_policy_files(tmp_path):
    e = catalog.entry("freeway")
    (tmp_path / "a.json").write_text('["NOOP", "up", "DOWN"]')
    assert read_policy_file(e, tmp_path / "a.json").tolist() == [0, 1, 2]
    (tmp_path / "b.json").write_text('{"actions": ["UP", "NOOP"], "repeat": 3}')
    assert read_policy_file(e, tmp_path / "b.json").tolist() == [1, 1, 1, 0, 0, 0]
    (tmp_path / "c.txt").write_text("UP UP  # go\nDOWN,NOOP\n")
    assert read_policy_file(e, tmp_path / "c.txt").tolist() == [1, 1, 2, 0]
    looped = episode_actions(e, "file", seed=0, episodes=2, steps=5, policy_file=tmp_path / "c.txt")
    assert looped.tolist() == [[1, 1, 2, 0, 1]] * 2
    with pytest.raises(PolicyError, match="NOOP, UP, DOWN"):
        (tmp_path / "d.json").write_text('["UP", "JUMP"]')
        read_policy_file(e, tmp_path / "d.json")
    with pytest.raises(PolicyError, match="repeat"):
        (tmp_path / "e.json").write_text('{"actions": ["UP"], "repeat": 0}')
        read_policy_file(e, tmp_path / "e.json")


def test_random_policy_depends_on_the_seed_only():
    e = catalog.entry("pong")
    a = episode_actions(e, "random", seed=1, episodes=3, steps=50)
    assert a.shape == (3, 50) and a.min() >= 0 and a.max() < 6
    np.testing.assert_array_equal(a, episode_actions(e, "random", seed=1, episodes=3, steps=50))
    assert not np.array_equal(a, episode_actions(e, "random", seed=2, episodes=3, steps=50))
    assert not np.array_equal(a[0], a[1])


# ---- bad input -----------------------------------------------------------------------------------
def test_unknown_game_is_a_clear_error(tmp_path):
    result = _invoke("tetris", "--out", str(tmp_path))
    _no_traceback(result)
    assert result.exit_code != 0
    assert "unknown game 'tetris'" in result.output
    for g in catalog.games():
        assert g in result.output


def test_policy_file_with_an_unknown_action(tmp_path):
    f = tmp_path / "p.json"
    f.write_text('["NOOP", "JUMP"]')
    result = _invoke("pong", "--policy", "file", "--policy-file", str(f), "--out", str(tmp_path))
    _no_traceback(result)
    assert result.exit_code != 0
    assert "'JUMP'" in result.output
    assert "NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE" in result.output


@pytest.mark.parametrize("args, message", [
    (["--policy", "file"], "--policy-file"),
    (["--policy", "file", "--policy-file", "/nonexistent/p.json"], "does not exist"),
    (["--policy", "greedy"], "unknown policy 'greedy'"),
])
def test_other_bad_policies(tmp_path, args, message):
    result = _invoke("pong", *args, "--out", str(tmp_path))
    _no_traceback(result)
    assert result.exit_code != 0 and message in result.output


def test_bad_numbers_are_usage_errors(tmp_path):
    result = _invoke("pong", "--episodes", "0", "--out", str(tmp_path))
    _no_traceback(result)
    assert result.exit_code != 0


def test_catalog_entry_without_a_jax_game(tmp_path, monkeypatch):
    ghost = dataclasses.replace(catalog.entry("pong"), name="ghostpong", jax_game=None)
    monkeypatch.setitem(catalog.CATALOG, "ghostpong", ghost)
    result = _invoke("ghostpong", "--episodes", "1", "--max-frames", "10", "--out", str(tmp_path))
    _no_traceback(result)
    assert result.exit_code != 0
    assert "ghostpong has no JAX game" in result.output


def test_scripted_policy_loops_the_catalog_script():
    e = catalog.entry("freeway")
    assert e.script == (("UP", 12), ("NOOP", 3))
    a = episode_actions(e, "scripted", seed=0, episodes=2, steps=20)
    assert a.tolist() == [[1] * 12 + [0] * 3 + [1] * 5] * 2
    for name in catalog.games():  # every script names real actions of its game
        g = catalog.entry(name)
        assert episode_actions(g, "scripted", seed=0, episodes=1, steps=40).max() < len(
            g.minimal_actions)


def test_compare_with_a_mod_that_has_an_ale_counterpart_plays_it_on_both_sides(tmp_path):
    # Freeway's stop_cars: ALE parks the cars through RAM writes, so both sides agree on car_x
    result = _invoke("freeway", "--mods", "stop_cars", "--episodes", "1", "--max-frames", "400",
                     "--out", str(tmp_path))
    _no_traceback(result)
    assert result.exit_code == 0, result.output
    r = json.loads((tmp_path / "freeway-compare.json").read_text())
    assert r["mods"] == {"names": ["stop_cars"], "ale": True, "jax_only": {}}
    car = r["matched"]["signals"]["car_x"]
    assert car["agreement"] == 1.0 and car["first_divergence"] is None
    assert "on both sides" in (tmp_path / "freeway-compare.md").read_text()


@pytest.mark.slow  # a second Freeway compare (the first one stays in the default run)
def test_compare_with_a_jax_only_mod_plays_the_original_on_ale_and_says_so(tmp_path):
    result = _invoke("freeway", "--mods", "stop_cars,invincible", "--episodes", "1",
                     "--max-frames", "400", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    r = json.loads((tmp_path / "freeway-compare.json").read_text())
    assert r["mods"]["ale"] is False and set(r["mods"]["jax_only"]) == {"invincible"}
    # ALE's cars drive (the original), the JAX cars are parked: car_x diverges at once
    assert r["matched"]["signals"]["car_x"]["first_divergence"] is not None
    assert "ALE plays the original game" in result.output


def test_compare_refuses_an_unknown_mod_listing_the_games_mods(tmp_path):
    result = _invoke("pong", "--mods", "zero_gravity", "--out", str(tmp_path))
    _no_traceback(result)
    assert result.exit_code == 1
    assert "unknown mod 'zero_gravity'" in result.output and "lazy_enemy" in result.output
