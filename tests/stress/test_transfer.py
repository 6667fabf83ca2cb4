"""Stage 4 on the real game: the policy file, the evaluation on ALE and on the JAX game, its verdict
and the gate's replay, with the real emulator throughout (CPU, tiny budgets)."""

from __future__ import annotations

import copy
import json
import math
import types
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alignment.learning import policy as pol
from alignment.learning import statistics as st
from alignment.stress import anchors, transfer, transfer_check, transfer_report
from alignment.learning.config import PPOConfig


def _observation_matches(game: str, frames: int = 600, every: int = 7) -> int:
    """ALE's grey screen through observe_screen against the JAX game's own 84x84 render, on
    matched frames (the same random actions, held 4 frames, sticky off; both started as the
    lockstep backends start them): returns frames compared."""
    import jaxtari
    from alignment.reference.ale import AleGame

    ale = AleGame(game, seed=0, sticky=0.0)
    jgame = jaxtari.make(game)
    _, state = jgame.reset(jax.random.key(0))
    step = jax.jit(lambda s, a: jgame.step(s, a)[1])
    draw = jax.jit(jgame.render_gray84)
    rng = np.random.default_rng(1)
    compared = 0
    a = 0
    for t in range(frames):
        if t % 4 == 0:
            a = int(rng.integers(ale.num_actions))
        if t % every == 0:
            want = np.asarray(draw(state))
            got = transfer.observe_screen(ale.gray())
            assert got.shape == (84, 84) and got.dtype == np.uint8
            assert np.array_equal(got, want), f"{game}: frame {t} differs in {(got != want).sum()} px"
            compared += 1
        ale.step(a)
        state = step(state, a)
        if ale.terminated:
            break
    return compared


@pytest.mark.parametrize("game", ["pong", "breakout"])
def test_observation_of_ale_screen_equals_jax_render(game):
    assert _observation_matches(game) > 50


@pytest.mark.slow
@pytest.mark.parametrize("game", ["freeway", "frostbite", "seaquest", "kangaroo"])
def test_observation_of_ale_screen_equals_jax_render_every_game(game):
    assert _observation_matches(game, frames=2000) > 200


def _constant_policy(game: str, obs: str, action: int, seeds=(0, 1)) -> pol.Policy:
    """Agents that (almost) always pick ``action``: every weight zero, the policy head's bias
    large on that action."""
    from alignment.learning.ppo import make_jax_env
    from flax import traverse_util

    env = make_jax_env(game, PPOConfig(obs=obs))
    template = pol._template(game, obs, env.num_actions, PPOConfig().mlp_sizes)
    flat = traverse_util.flatten_dict(template, sep="/")
    head = sorted(k for k, v in flat.items() if k.endswith("bias") and v.shape == (env.num_actions,))
    assert len(head) == 1, head
    params = {}
    for k, v in flat.items():
        x = np.zeros((len(seeds),) + v.shape, np.float32)
        if k == head[0]:
            x[:, action] = 12.0
        params[k] = x
    return pol.make(game, obs, env.num_actions, PPOConfig().mlp_sizes, list(seeds),
                    traverse_util.unflatten_dict(params, sep="/"), {"steps": 0, "note": "test"})


def test_policy_file_round_trip_and_refusals(tmp_path):
    p = _constant_policy("freeway", "objects", 1)
    path = pol.save(tmp_path / "freeway-objects.npz", p)
    q = pol.load(path, "freeway", "objects")
    assert q.seeds == [0, 1] and q.num_actions == p.num_actions and q.meta["note"] == "test"
    for a, b in zip(jax.tree_util.tree_leaves(p.params), jax.tree_util.tree_leaves(q.params)):
        assert np.array_equal(np.asarray(a), np.asarray(b))
    with pytest.raises(pol.PolicyError, match="trained on game 'freeway', not 'pong'"):
        pol.load(path, "pong", "objects")
    with pytest.raises(pol.PolicyError, match="no such policy file"):
        pol.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(pol.PolicyError, match="not a policy file"):
        pol.load(tmp_path / "junk.npz")
    # an array of another shape (a network of another game) is named
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    key = next(k for k in arrays if k.endswith("kernel"))
    arrays[key] = arrays[key][..., :-1]
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(pol.PolicyError, match=key):
        pol.load(tmp_path / "bad.npz")


def test_policy_rounding_is_what_is_evaluated():
    p = _constant_policy("freeway", "objects", 1)
    leaf = jax.tree_util.tree_leaves(p.params)[0]
    assert leaf.dtype == jnp.float32
    third = pol.make("freeway", "objects", p.num_actions, p.mlp_sizes, [0, 1],
                     jax.tree_util.tree_map(lambda x: x + 1 / 3, p.params), {})
    x = np.asarray(jax.tree_util.tree_leaves(third.params)[0])
    assert np.array_equal(x, x.astype(np.float16).astype(np.float32))
    assert not np.allclose(x, np.float32(1 / 3), rtol=0, atol=0)


def test_bootstrap_difference_on_known_samples():
    d = transfer.bootstrap_difference([1.0, 1.0, 1.0], [0.0, 0.0, 0.0])
    assert d["diff"] == 1.0 and d["ci"] == [1.0, 1.0]
    d = transfer.bootstrap_difference(np.arange(100.0), np.arange(100.0) + 5, seed=3)
    assert d["diff"] == -5.0 and d["ci"][0] < -5.0 < d["ci"][1]


def test_agents_are_blocks_the_spread_between_them_is_no_part_of_the_difference():
    # two agents, one scoring ~100 and one ~1000, each alike on both sides: pooled, the spread
    # between them swamps a margin of 20; within agents the sides differ by 2 and -2
    rng = np.random.default_rng(0)
    low, high = rng.normal(100, 5, 30), rng.normal(1000, 5, 30)
    sides = {"jax": [{"returns": (low + 2).tolist()}, {"returns": (high - 2).tolist()}],
             "ale": [{"returns": low.tolist()}, {"returns": high.tolist()}]}
    stats, v = transfer.compare_sides(sides, random_mean=0.0)  # margin: 10% of 550 = 55
    assert v["label"] == "equivalent" and "within 2 agents" in v["detail"]
    assert v["test"]["diff"] == pytest.approx(0.0, abs=1e-9)
    # the interval is the within-agent one: se = sqrt(4 * 25/30 / 4) by hand, not ~450/sqrt(30)
    within = np.sqrt(sum(np.var(r, ddof=1) / 30 / 4 for r in (low + 2, high - 2, low, high)))
    assert v["test"]["se"] == pytest.approx(within)
    assert v["test"]["se"] < 1.0 < st.welch(_all(sides, "jax"), _all(sides, "ale"))["se"] / 50
    d = stats["difference"]
    assert d["agents"] == 2 and d["ci"][0] < 0 < d["ci"][1] and d["ci"][1] - d["ci"][0] < 4
    # the pooled bootstrap of the same games is wide: resampling mixes the agents' counts
    pooled = transfer.bootstrap_difference(_all(sides, "jax"), _all(sides, "ale"))
    assert pooled["ci"][1] - pooled["ci"][0] > 100


def _all(sides, side):
    return np.concatenate([e["returns"] for e in sides[side]])


FRAMES = 1600  # ~400 agent steps of Freeway: the always-UP chicken crosses about 4 times


def _up_freeway(episodes=8, **kw):
    p = _constant_policy("freeway", "objects", 1, seeds=(0,))  # index 1 is UP in Freeway's set
    return p, transfer.evaluate(p, episodes=episodes, random_episodes=2, max_frames=FRAMES,
                                replays=1, **kw)


@pytest.mark.slow  # ~2.5 min: 8 whole-ish games a side, twice, and the random policy
def test_transfer_equivalent_on_the_real_game_and_different_under_a_fault(tmp_path):
    from alignment.audit.faults import load_faults

    p, clean = _up_freeway(matched=1)
    ale = clean.sides["ale"][0]["returns"]
    assert min(ale) >= 2, ale  # the chicken crossed: the agents met the game's scoring
    assert clean.verdict["label"] == "equivalent", clean.verdict["detail"]
    assert clean.matched[0]["first_divergence"] is None and clean.matched[0]["frames"] > 1000
    # the agent's objects, decoded from RAM on ALE: equal but on the one frame per hit where RAM
    # no longer tells the hurt pose (alignment/reference/games/freeway/ram.py)
    seen = clean.matched[0]["observation"]
    assert seen["frames"] > 1000 and set(seen.get("fields_ever", [])) <= {"chicken[0].pose"}, seen
    assert seen["frames_differing"] <= 10, seen
    assert all(r["ale"] == r["ale_alone"] and r["jax"] == r["jax_alone"] for r in clean.replays)
    fault = next(f for f in load_faults("freeway") if f.name == "crossing_worth_2")
    _, broken = _up_freeway(jax_mods=(fault.mod,), matched=0)
    assert broken.verdict["label"] == "different", broken.verdict["detail"]
    assert broken.statistics["jax"]["mean"] > 1.5 * broken.statistics["ale"]["mean"]


@pytest.mark.slow  # ~1.5 min; the default run's gate test below covers a replay that differs
def test_gate_replay_holds_on_the_game_and_fails_when_it_changes(tmp_path):
    from alignment.audit.faults import load_faults

    p = _constant_policy("freeway", "objects", 1, seeds=(0,))
    (tmp_path / "stress" / "policies").mkdir(parents=True)
    ppath = pol.save(tmp_path / "stress" / "policies" / "freeway-objects.npz", p)
    sha = pol.describe_file(ppath)[1]
    good = transfer.evaluate(p, episodes=3, random_episodes=2, max_frames=FRAMES, replays=1,
                             matched=0)
    good.policy_file, good.policy_sha256 = "stress/policies/freeway-objects.npz", sha
    transfer_report.write(good, tmp_path / "stress")
    rel = "stress/freeway-objects-transfer.json"
    assert transfer_check.check(tmp_path, rel) == []
    # a report made on another game (here: one the fault changed) no longer replays
    fault = next(f for f in load_faults("freeway") if f.name == "crossing_worth_2")
    stale = transfer.evaluate(p, episodes=3, random_episodes=2, max_frames=FRAMES, replays=1,
                              matched=0, jax_mods=(fault.mod,))
    stale.policy_file, stale.policy_sha256 = good.policy_file, sha
    transfer_report.write(stale, tmp_path / "stress")
    problems = transfer_check.check(tmp_path, rel)
    assert any("replayed on jax" in m for m in problems), problems
    # an edited return is caught by the recomputed summary, a swapped policy by its hash
    transfer_report.write(good, tmp_path / "stress")
    doc = json.loads((tmp_path / rel).read_text())
    doc["sides"]["jax"][0]["returns"][0] += 40
    (tmp_path / rel).write_text(json.dumps(doc))
    assert any("summary does not match" in m for m in transfer_check.check(tmp_path, rel,
                                                                           replay=False))
    transfer_report.write(good, tmp_path / "stress")
    pol.save(ppath, _constant_policy("freeway", "objects", 2, seeds=(0,)))
    assert any("sha256 differs" in m for m in transfer_check.check(tmp_path, rel))


@pytest.fixture(scope="module")
def up_400():
    """The always-UP Freeway agent and its evaluation at 400 frames a game (one replay, no matched
    run), which three tests below start from: evaluated once; each test takes a deep copy."""
    p = _constant_policy("freeway", "objects", 1, seeds=(0,))
    return p, transfer.evaluate(p, episodes=2, random_episodes=2, max_frames=400, replays=1,
                                matched=0)


def _up_400(made):
    return made[0], copy.deepcopy(made[1])


def test_report_files_are_written_whole(tmp_path, up_400):
    # 400 frames a game, as the gate test below: the files, not the returns, are what is checked
    p, r = _up_400(up_400)
    written = transfer_report.write(r, tmp_path)
    names = sorted(p.name for p in written.values())
    assert names == ["freeway-objects-transfer.json", "freeway-objects-transfer.md",
                     "freeway-objects-transfer.png"]
    doc = json.loads((tmp_path / "freeway-objects-transfer.json").read_text())
    assert doc["schema"] == "jaxtari-align/transfer/v1" and doc["episodes"] == 2
    assert all(math.isfinite(x) for x in doc["sides"]["ale"][0]["returns"])
    assert (tmp_path / "freeway-objects-transfer.png").read_bytes()[:4] == b"\x89PNG"
    assert "Anchor: CleanRL" in (tmp_path / "freeway-objects-transfer.md").read_text()


def test_robustness_evaluates_a_pixel_policy_file_on_both_sides(tmp_path):
    from alignment.robustness.core import run_robustness

    p = _constant_policy("freeway", "pixels", 1, seeds=(0, 1))
    path = pol.save(tmp_path / "freeway-pixels.npz", p)
    r = run_robustness("freeway", mods=["stop_cars"], agents_dir=path, episodes=2,
                       random_episodes=2, max_steps=400)
    assert r.obs == "pixels" and r.agents["seeds"] == [0, 1]
    for side in ("jax", "ale"):
        got = np.asarray(r.sides[side]["agents"]["original"])
        assert got.shape == (2, 2) and (got >= 2).all(), (side, got)  # UP crosses on both
        # with the cars stopped nothing pushes the chicken back: it crosses at least as often
        assert (np.asarray(r.sides[side]["agents"]["stop_cars"]) >= got).all()
    from alignment.robustness import report as robustness_report
    from alignment.robustness.schema import check

    assert check(robustness_report.to_json(r)).obs == "pixels"  # the report's schema takes it


def test_games_cut_by_the_frame_cap_are_truncated_on_both_sides(up_400):
    # a Freeway game runs 2 min 16 s (8,160 frames): at a 400-frame cap every game is cut, on ALE
    # too (ale-py's game_over() counts the cap unless asked not to)
    _, r = _up_400(up_400)
    for side in ("ale", "jax"):
        e = r.sides[side][0]
        assert e["truncated"] == [True, True] and e["steps"] == [100, 100], side


def test_the_gate_judges_transfer_reports_and_fails_a_changed_one(tmp_path, up_400):
    from alignment.gate.config import Thresholds
    from alignment.gate.core import Artefacts, _transfer_part, current_transfer_replays

    p, r = _up_400(up_400)
    ppath = pol.save(tmp_path / "stress" / "policies" / "freeway-objects.npz", p)
    r.policy_file, r.policy_sha256 = "stress/policies/freeway-objects.npz", pol.describe_file(ppath)[1]
    transfer_report.write(r, tmp_path / "stress")
    art = Artefacts(tmp_path)
    failures, notes, cells = _transfer_part(art, tmp_path, "freeway", Thresholds(),
                                            current_transfer_replays)
    assert failures == [] and notes == []
    assert cells == [f"transfer {r.verdict['label']} (objects)"]
    failures, notes, _ = _transfer_part(art, tmp_path, "freeway", Thresholds(), None)
    assert failures == [] and "not played again (--no-replay)" in notes[0]
    rel = tmp_path / "stress" / "freeway-objects-transfer.json"
    doc = json.loads(rel.read_text())
    doc["replays"][0]["ale_alone"] += 1
    rel.write_text(json.dumps(doc))
    failures, _, _ = _transfer_part(art, tmp_path, "freeway", Thresholds(), current_transfer_replays)
    assert any("replayed on ale" in f for f in failures), failures


def test_anchor_summary_against_the_published_mean_less_two_sd():
    anchor = {"mean": 33.1, "sd": 0.31, "sticky": 0.0}
    below = transfer.anchor_summary([[30.0, 32.0], [34.0, 33.0]], anchor)
    assert below["agent_means"] == [31.0, 33.5] and below["mean"] == 32.25
    assert math.isclose(below["bar"], 32.48) and below["meets"] is False
    assert transfer.anchor_summary([[33.0], [32.0]], anchor)["meets"] is True  # 32.5 >= 32.48


def test_anchor_section_played_on_ale_written_and_rederived_by_the_gate(tmp_path, up_400):
    from typer.testing import CliRunner

    from alignment.cli import app

    p, r = _up_400(up_400)
    ppath = pol.save(tmp_path / "freeway-objects.npz", p)
    assert r.anchor_eval is None  # only when asked
    r.policy_file, r.policy_sha256 = pol.describe_file(ppath)
    out = tmp_path / "stress"
    transfer_report.write(r, out)
    before = json.loads((out / "freeway-objects-transfer.json").read_text())
    res = CliRunner().invoke(app, ["transfer-anchor", "freeway", "--obs", "objects", "--episodes",
                                   "2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads((out / "freeway-objects-transfer.json").read_text())
    e = doc.pop("anchor_eval")
    assert before.pop("anchor_eval") is None and doc == before  # the rest of the report kept
    # the always-UP chicken under sticky 0 crosses a few times in 400 frames: far below CleanRL
    assert e["sticky"] == 0.0 and e["episodes"] == 2 and len(e["returns"]) == 1
    assert all(x >= 1 for x in e["returns"][0]) and e["meets"] is False
    md = (out / "freeway-objects-transfer.md").read_text()
    assert "## Under the anchor's protocol" in md
    # the published agents see pixels: an object agent's report says so, not the pixel gaps
    assert "still differs from the anchor: object-centric features instead of pixels" in md
    assert "another observation and network" in doc["anchor"]["protocol"]
    assert "another observation" not in anchors.anchor("freeway", obs="pixels")["protocol"]
    rel = "freeway-objects-transfer.json"
    assert transfer_check.check(out, rel, replay=False) == []
    doc["anchor_eval"] = {**e, "meets": True}  # a careless "meets"
    (out / rel).write_text(json.dumps(doc))
    assert any("anchor-protocol figures" in m for m in transfer_check.check(out, rel, replay=False))
    doc["anchor_eval"] = {**e, "returns": [e["returns"][0][:1]]}  # a dropped game
    (out / rel).write_text(json.dumps(doc))
    assert any("anchor-protocol section" in m for m in transfer_check.check(out, rel, replay=False))
    # a policy file that is not the evaluated one is refused, naming the fix
    pol.save(ppath, _constant_policy("freeway", "objects", 2, seeds=(0,)))
    res = CliRunner().invoke(app, ["transfer-anchor", "freeway", "--obs", "objects", "--out",
                                   str(out)])
    assert res.exit_code == 2 and "sha256 differs" in res.output


def test_an_anchor_bar_at_or_below_zero_is_called_empty_in_the_report(tmp_path):
    # Frostbite's published 1137 ± 1192 puts mean − 2 sd below zero: meeting it proves nothing
    doc = json.loads((Path(__file__).parents[2] / "stress" / "frostbite-pixels-transfer.json").read_text())
    e = doc["anchor_eval"]
    assert e["bar"] < 0 and e["meets"] is True
    md = transfer_report.to_markdown(transfer_report.from_json(doc))
    assert f"That is {e['mean'] / e['anchor_mean']:.0%} of the anchor's mean" in md
    assert "says nothing about competence" in md
    # an agent at or above the anchor's mean is said to reach it (some games' bar), nothing more
    doc["anchor_eval"] = {**e, "mean": e["anchor_mean"] * 1.5}
    md = transfer_report.to_markdown(transfer_report.from_json(doc))
    assert "It reaches the anchor's mean itself too (150% of it)." in md
    assert "of the anchor's mean" not in md and "says nothing about competence" not in md


def test_matched_games_are_the_agents_own_games_which_their_actions_replay(tmp_path):
    """A matched episode is the agent's own whole game on ALE with sticky actions off: its
    recorded actions, replayed on a fresh emulator, give that game back (return and end), and the
    replay on both backends covers every frame of it. (Under sticky actions the recorded actions
    are not the game: an agent whose actions vary plays another game when they are replayed.)"""
    from alignment.catalog import entry
    from alignment.stress.ale_rollout import _ale_interface

    p = _constant_policy("breakout", "objects", 0, seeds=(5,))
    p.params = jax.tree_util.tree_map(jnp.zeros_like, p.params)  # uniform: actions vary
    rows = transfer.matched_games(p, 0, 2, seed=11, max_frames=1600)
    assert [r["episode"] for r in rows] == [0, 1] and all(r["agent_seed"] == 5 for r in rows)
    for k, row in enumerate(rows):
        acts = row["actions"]
        assert row["sticky"] == 0.0 and len(acts) == row["agent_steps"] and len(set(acts)) > 1
        assert row["frames"] == 4 * len(acts) and row["first_divergence"] is None, row
        assert row["observation"]["first_divergence"] is None
        ale = _ale_interface(entry("breakout").rom, 11 + k, 0.0)
        ale.setInt("max_num_frames_per_episode", 1600)
        ale.loadROM(transfer._rom_path(entry("breakout").rom))
        ale.reset_game()
        legal = ale.getMinimalActionSet()
        total = 0.0
        for t, a in enumerate(acts):
            assert not (ale.game_over() or ale.game_truncated()), f"game ended before step {t}"
            total += ale.act(legal[a])
        assert ale.game_over() or ale.game_truncated()
        assert total == row["agent_return"]
    # the report says so, and a report's rows are made again from the actions they record
    report = types.SimpleNamespace(game="breakout", obs="objects", eval_seed=11, seeds=[], sides={})
    assert transfer._matched_row(report, rows[0]) == rows[0]


def test_anchor_standing_never_rounds_a_mean_below_the_anchor_up_to_it():
    base = {"anchor_mean": 1633.67, "bar": 1139.25}
    assert "99.9% of the anchor's mean, just below it" in transfer_report._anchor_standing(
        {**base, "mean": 1632.0})
    assert "That is 5% of the anchor's mean" in transfer_report._anchor_standing(
        {**base, "mean": 81.7})
    assert transfer_report._anchor_standing({**base, "mean": 1700.0}) == (
        "It reaches the anchor's mean itself too (104% of it). ")
