"""Issue 49, the command line: a committed report is never replaced by a weaker one without
--replace (and the file is left byte for byte), ``--mods ''`` is the same error on every stage, and
options checked before any work (``--faults-dir``, ``--against``, ``--max-steps``, ``--llm``).

Each refused run ends before an emulator starts or a compile begins, so these run in seconds."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from alignment import atomic, cli_checks
from alignment.cli import app

REPO = Path(__file__).resolve().parents[1]
# typer's error panel is as wide as COLUMNS (80 when unset) and breaks a word longer than that
# inside the word, where text() cannot join it: a tmp_path a few letters longer (an xdist worker's
# popen-gw0/) split the path a message names. Wide enough for any path a test names.
RUNNER = CliRunner(env={"COLUMNS": "400"})


def invoke(*args: str):
    result = RUNNER.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def text(result) -> str:
    """All that was printed, with rich's boxes and line wrapping taken out."""
    out = result.output + (result.stderr if result.stderr_bytes is not None else "")
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", out))


@pytest.fixture()
def committed(tmp_path):
    """Copies of the committed pong audits and robustness report, in folders of their own."""
    audits, robustness = tmp_path / "audits", tmp_path / "robustness"
    audits.mkdir()
    robustness.mkdir()
    for name in ("pong.json", "pong.md", "pong+no_enemy_points.json", "pong+no_enemy_points.md"):
        shutil.copy(REPO / "audits" / name, audits / name)
    for name in ("pong.json", "pong.md", "pong-pc.png"):
        shutil.copy(REPO / "robustness" / name, robustness / name)
    return audits, robustness


def _bytes(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


# ---- data loss ------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, lost", [
    (["--no-faults", "--no-explore", "--no-events", "--mutants", "none"],
     ["seeded faults: 9 now, 0", "mutation testing", "exploration budget", "matched rollouts"]),
    (["--no-faults", "--quick"], ["seeded faults: 9 now, 0 in this run"]),
    (["--quick", "--mutants", "4"], ["source mutants sampled): 8 now, 4 in this run"]),
    (["--quick", "--no-events"], ["matched rollouts: yes now, none in this run"]),
])
def test_audit_refuses_to_replace_a_committed_audit_with_a_weaker_one(committed, options, lost):
    audits, _ = committed
    before = _bytes(audits)
    result = invoke("audit", "pong", "--out", audits, *options)
    said = text(result)
    assert result.exit_code == 1
    assert f"{audits / 'pong.json'} holds a stronger audit than this run would write" in said
    for item in lost:
        assert item in said
    assert "--replace to overwrite" in said and "pass --out to write this run elsewhere" in said
    assert _bytes(audits) == before


def test_audit_of_a_modified_game_refuses_a_weaker_one_too(committed):
    audits, _ = committed
    before = _bytes(audits)
    result = invoke("audit", "pong", "--mods", "no_enemy_points", "--no-explore", "--out", audits)
    assert result.exit_code == 1
    assert "pong+no_enemy_points.json holds a stronger audit" in text(result)
    assert "exploration budget" in text(result)
    assert _bytes(audits) == before


def test_the_committed_audits_own_options_and_stronger_ones_pass_the_check(committed):
    """What re-makes a committed audit (--quick, its 8 mutants) and the full default are never
    refused: only a run that holds less is."""
    from alignment.audit.command import _check_not_weaker
    from alignment.audit.mutants import Sample

    from alignment.audit.mutants import QUICK_BATCHED

    audits, _ = committed
    for explore, size, batched in (("quick", 8, QUICK_BATCHED), ("full", 24, None),
                                   ("full", None, None)):
        _check_not_weaker(audits, "pong", faults=9, sample=Sample(size, batched=batched),
                          explore=explore, events=True, llm="offline")
    with pytest.raises(cli_checks.ReplaceRefused,
                       match=f"batched Constants mutants run: {QUICK_BATCHED} now, 10 in this run"):
        _check_not_weaker(audits, "pong", faults=9, sample=Sample(8, batched=10), explore="quick",
                          events=True, llm="offline")
    _check_not_weaker(audits, "pong+no_enemy_points", faults=0, sample=None, explore="quick",
                      events=True, llm="offline")
    with pytest.raises(cli_checks.ReplaceRefused, match="seeded faults: 9 now, 8 in this run"):
        _check_not_weaker(audits, "pong", faults=8, sample=Sample(8), explore="quick",
                          events=True, llm="offline")


def test_robustness_refuses_a_smoke_run_over_the_committed_report(committed):
    _, robustness = committed
    before = _bytes(robustness)
    result = invoke("robustness", "pong", "--budget", "smoke", "--seeds", "1", "--episodes", "1",
                    "--backends", "jax", "--max-steps", "100", "--out", robustness)
    said = text(result)
    data = json.loads((robustness / "pong.json").read_text())
    assert result.exit_code == 2
    assert f"{robustness / 'pong.json'} holds a stronger robustness report" in said
    for item in (f"agents (seeds): {len(data['agents']['seeds'])} now, 1 in this run",
                 f"episodes per agent: {data['episodes']} now, 1",
                 "backends: [ale, jax] now, [jax] in this run", "--replace to overwrite"):
        assert item in said
    assert _bytes(robustness) == before


def test_robustness_measures_of_the_committed_command_are_not_weaker():
    """The command the committed report records, run again, is not refused as weaker."""
    import shlex

    from alignment.robustness.core import report_measures, run_measures

    data = json.loads((REPO / "robustness" / "pong.json").read_text())
    words = shlex.split(data["command"])
    assert words[:3] == ["jaxtari-align", "robustness", "pong"], data["command"]
    given = dict(zip(words[3::1], words[4::1]))  # each option's following word
    # the command's defaults where the recorded command leaves an option out
    new = run_measures("pong", given.get("--mods", ",".join(sorted(data["mods"]))).split(","),
                       given.get("--backends", "jax,ale").split(","),
                       int(given.get("--seeds", 5)), int(given.get("--episodes", 10)),
                       int(given.get("--max-steps", 27000)), given.get("--budget", "cpu"),
                       REPO / given["--agents"] if "--agents" in given else None)
    cli_checks.check_not_weaker("pong.json", report_measures(data), new, what="report")


@settings(max_examples=60, deadline=None)
@given(old=st.dictionaries(st.sampled_from("abcd"), st.one_of(
           st.none(), st.booleans(), st.integers(0, 9), st.lists(st.sampled_from("xyz"), max_size=3))),
       new=st.dictionaries(st.sampled_from("abcd"), st.one_of(
           st.none(), st.booleans(), st.integers(0, 9), st.lists(st.sampled_from("xyz"), max_size=3))))
def test_a_run_is_refused_exactly_when_some_measure_is_lost(old, new):
    def lost(o, n):  # the rule written out: nothing is never lost, anything beats nothing
        if o is None or o is False or o == 0 or o == []:
            return False
        if n is None or n is False or n == 0 or n == []:
            return True
        if isinstance(o, bool):
            return False
        if isinstance(o, list):
            return not isinstance(n, list) or not set(o) <= set(n)
        return isinstance(n, list) or n < o
    expect = any(lost(v, new.get(k)) for k, v in old.items())
    try:
        cli_checks.check_not_weaker("r.json", old, new, what="report")
        refused = False
    except cli_checks.ReplaceRefused as exc:
        refused = True
        assert "--replace to overwrite r.json" in str(exc)
    assert refused == expect


# ---- one reading of --mods ----------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["audit", "pong"], ["compare", "pong"], ["probe", "pong"], ["robustness", "pong"],
    ["play", "pong"], ["playtest", "replay", "--game", "pong"], ["stress", "pong"],
])
@pytest.mark.parametrize("value", ["", " ", ",", " , "])
def test_mods_naming_no_mod_is_the_same_error_on_every_stage(command, value, tmp_path):
    result = invoke(*command, "--mods", value)
    assert result.exit_code in (1, 2)
    assert f"--mods {value!r} names no mod" in text(result)
    assert "(comma separated or repeated: --mods a,b or --mods a --mods b)" in text(result)


def test_mod_list_reads_commas_and_repeats_alike():
    assert cli_checks.mod_list(["a,b", "c", " d , e "]) == ["a", "b", "c", "d", "e"]
    assert cli_checks.mod_list([]) == [] and cli_checks.mod_list(None) == []


# ---- checked before any work ---------------------------------------------------------------------

def test_a_mistyped_faults_dir_is_an_error_not_an_audit_without_faults(tmp_path):
    result = invoke("audit", "pong", "--faults-dir", tmp_path / "faultz", "--out", tmp_path / "o")
    assert result.exit_code == 1 and "--faults-dir" in text(result) and "no such folder" in text(result)
    empty = tmp_path / "empty"
    empty.mkdir()
    result = invoke("audit", "pong", "--faults-dir", empty, "--out", tmp_path / "o")
    assert result.exit_code == 1
    assert f"--faults-dir '{empty}' holds no fault set of pong (pong.py)" in text(result)
    assert not (tmp_path / "o" / "pong.json").exists()


def test_against_a_binary_file_is_named(tmp_path):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(bytes(range(256)) * 4)
    result = invoke("audit", "pong", "--against", blob, "--out", tmp_path / "o")
    assert result.exit_code == 1
    assert f"--against '{blob}' is not text (a binary file?)" in text(result)


@pytest.mark.parametrize("value, bound", [("10000000000", "less than or equal to 27000"),
                                          ("27001", "less than or equal to 27000"),
                                          ("0", "greater than or equal to 1"),
                                          ("-5", "greater than or equal to 1")])
def test_robustness_max_steps_beyond_the_v5_cap_is_refused(value, bound, tmp_path):
    result = invoke("robustness", "pong", "--max-steps", value, "--out", tmp_path)
    assert result.exit_code == 2
    assert f"Invalid value for '--max-steps': Input should be {bound}" in text(result)


def _whole_number_options():
    """(command words, option, min, max) of every whole-number option of the app."""
    from typing import Optional

    import typer

    def walk(command, words):
        for name, sub in (getattr(command, "commands", None) or {}).items():
            yield from walk(sub, [*words, name])
        if not getattr(command, "commands", None):
            for p in command.params:
                if p.param_type_name == "option" and \
                        p.type_descriptor.annotation in (int, Optional[int]):
                    yield words, p.opts[0], p.min, p.max

    return list(walk(typer.main.get_command(app), []))


# Whole numbers checked otherwise, with a message of their own: a game's modes are the ROM's list
# ("pong: mode 3 not available; modes: [0, 1]").
CHECKED_ELSEWHERE = {("play", "--mode"), ("ramtrace", "--mode")}


def test_every_whole_number_option_is_bounded_by_typer():
    """min= and max= on each: 10**10 is a usage error naming the option, never an overflow."""
    options = _whole_number_options()
    assert len(options) > 20 and (["robustness"], "--max-steps", 1, 27_000) in options
    unbounded = [(" ".join(w), o) for w, o, low, high in options
                 if (low is None or high is None) and (" ".join(w), o) not in CHECKED_ELSEWHERE]
    assert unbounded == []
    # what JAX and ALE carry: a seed is 32-bit unsigned, every other number an int32
    for words, option, low, high in options:
        if high is not None:
            assert high <= (2**32 - 1 if "seed" in option else 2**31 - 1), (words, option)


_GAME_ARGUMENT = {"playtest": [], "gate": [], "runs": [], "review": [], "docs-tables": [],
                  "stress-remake": ["stress/pong-pixels.json"]}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_whole_number_option_out_of_its_range_is_a_usage_error(data):
    words, option, low, high = data.draw(st.sampled_from(
        [o for o in _whole_number_options() if o[2] is not None and o[3] is not None]))
    value = data.draw(st.one_of(st.integers(high + 1, 10**30), st.integers(-10**30, low - 1)))
    arguments = _GAME_ARGUMENT.get(words[0], ["pong"])
    if words[:1] == ["playtest"]:
        arguments = {"export": ["x.jsonl.gz"], "script": ["pong"]}.get(words[1], [])
    result = invoke(*words, *arguments, option, str(value))
    assert result.exit_code == 2, (words, option, value, text(result))
    assert f"Invalid value for '{option}'" in text(result)


def test_run_refuses_an_unknown_llm_before_any_stage(tmp_path):
    result = invoke("run", "pong", "--llm", "bogus", "--state-dir", tmp_path / "state")
    assert result.exit_code == 2
    assert "unknown --llm 'bogus'; use one of: offline, anthropic, openai" in text(result)
    assert not (tmp_path / "state" / "reports").exists()


def test_robustness_names_its_own_option_when_another_run_trains_the_agents(tmp_path):
    from alignment.learning import checkpoints as ckpts
    from alignment.learning.config import budget_config
    from alignment.robustness.core import RobustnessInputError, check_not_busy

    root = ckpts.checkpoint_root(tmp_path, "pong", budget_config("smoke", "objects"))
    with atomic.exclusive(root.parent / f"{root.name}.lock", "held"):
        with pytest.raises(RobustnessInputError, match="or give another --train-dir$"):
            check_not_busy("pong", "smoke", tmp_path)
    check_not_busy("pong", "smoke", tmp_path)  # free again


def test_agents_from_a_stress_mods_folder_are_read_as_agents_of_the_game(tmp_path):
    from alignment.robustness import agents as ag

    m = ag.FOLDER.match("pong+no_enemy_points+lazy_enemy-objects-2048")
    assert (m["game"], m["mods"], m["steps"]) == ("pong", "+no_enemy_points+lazy_enemy", "2048")
    folder = tmp_path / "pong+no_enemy_points-objects-2048"
    (folder / "jax").mkdir(parents=True)
    with pytest.raises(ag.AgentsError, match="no seeds trained on the jax side"):
        ag.load(folder, "pong")
    other = tmp_path / "freeway+stop_cars-objects-2048"
    other.mkdir()
    with pytest.raises(ag.AgentsError, match="trained on freeway, not pong"):
        ag.load(other, "pong")


@settings(max_examples=200, deadline=None)
@given(items=st.lists(st.text(alphabet=" ,ab_", max_size=8), max_size=4))
def test_any_mods_option_is_its_names_or_refused_by_its_value(items):
    pieces = [item.replace(",", " ").split() for item in items]
    try:
        got = cli_checks.mod_list(items)
    except cli_checks.InputError as exc:
        empty = [item for item, p in zip(items, pieces) if not p]
        assert empty and f"--mods {empty[0]!r} names no mod" in str(exc)
        return
    assert all(pieces) and got == [m for p in pieces for m in p]


def test_replace_lets_a_weaker_run_past_the_check(committed, tmp_path):
    """With --replace the weaker run goes on to its work (here it stops at the next check, a spec
    folder without the game's spec, so that no audit runs), and the report is still untouched."""
    audits, robustness = committed
    before = _bytes(audits)
    result = invoke("audit", "pong", "--no-faults", "--mutants", "none", "--no-explore",
                    "--no-events", "--replace", "--specs", tmp_path / "nospecs", "--out", audits)
    assert result.exit_code == 1
    assert "stronger audit" not in text(result) and "nospecs" in text(result)
    assert _bytes(audits) == before
    result = invoke("robustness", "pong", "--seeds", "1", "--replace", "--agents",
                    tmp_path / "noagents", "--out", robustness)
    assert result.exit_code == 2
    assert "stronger" not in text(result) and "--agents" in text(result)


def test_a_model_without_an_llm_is_named_not_ignored(tmp_path):
    result = invoke("audit", "pong", "--model", "claude-x", "--out", tmp_path)
    assert result.exit_code == 1
    assert "--model 'claude-x' names a model for --llm anthropic or openai" in text(result)


# ---- the stage-4 artefacts: transfer reports and policy files --------------------------------------

@pytest.fixture()
def committed_transfer(tmp_path):
    """A copy of the committed Pong transfer report (JSON, markdown, plot) in a folder of its own."""
    out = tmp_path / "stress"
    out.mkdir()
    for suffix in ("json", "md", "png"):
        shutil.copy(REPO / "stress" / f"pong-pixels-transfer.{suffix}", out)
    return out


POLICY = REPO / "stress" / "policies" / "pong-pixels.npz"


@pytest.mark.parametrize("options, lost", [
    (["--episodes", "2", "--anchor-episodes", "0"],
     ["games per agent and side: 100 now, 2 in this run",
      "games per agent under the anchor's protocol: 20 now, none in this run"]),
    (["--agents", "0,1"], ["agents (training seeds): [0, 1, 2] now, [0, 1] in this run"]),
    (["--max-frames", "1000"], ["emulator frames per game at most: 108,000 now, 1,000 in this run"]),
])
def test_transfer_refuses_to_replace_a_committed_report_with_a_weaker_one(committed_transfer,
                                                                          options, lost):
    before = _bytes(committed_transfer)
    result = invoke("transfer", "pong", "--policy", POLICY, "--out", committed_transfer, *options)
    said = text(result)
    assert result.exit_code == 2, said
    assert "holds a stronger transfer report than this run would write" in said
    for item in lost:
        assert item in said
    assert "--replace to overwrite" in said
    assert _bytes(committed_transfer) == before


def test_the_committed_transfer_command_is_not_weaker_than_its_report():
    from alignment.learning import policy as pol
    from alignment.stress import transfer_report

    data = json.loads((REPO / "stress" / "pong-pixels-transfer.json").read_text())
    p = pol.load(POLICY, "pong", "pixels")
    new = transfer_report.run_measures(p, p.seeds, data["episodes"], data["max_frames"],
                                       data["anchor_eval"]["episodes"])
    cli_checks.check_not_weaker("t.json", transfer_report.measures(data), new, what="report")


def test_transfer_anchor_refuses_fewer_anchor_games_than_the_report_holds(committed_transfer):
    before = _bytes(committed_transfer)
    result = invoke("transfer-anchor", "pong", "--episodes", "3", "--out", committed_transfer)
    said = text(result)
    assert result.exit_code == 2, said
    assert ("games per agent under the anchor's protocol: 20 now, 3 in this run); give "
            "--episodes 20 or more, or --replace") in said
    assert _bytes(committed_transfer) == before


def test_stress_export_refuses_to_replace_a_stronger_policy_file(tmp_path):
    dest = tmp_path / "pong-pixels.npz"
    shutil.copy(POLICY, dest)
    before = dest.read_bytes()
    result = invoke("stress", "pong", "--obs", "pixels", "--budget", "smoke", "--seeds", "1",
                    "--backends", "jax", "--out", tmp_path / "s", "--export-policy", dest)
    said = text(result)
    assert result.exit_code == 2, said
    assert f"{dest} holds a stronger policy file than this run would write" in said
    assert "agent steps per seed: 10,000,000 now, 2,048 in this run" in said
    assert "pass --export-policy to write this run elsewhere, or --replace" in said
    assert dest.read_bytes() == before and not (tmp_path / "s").exists()
    result = invoke("stress", "pong", "--obs", "objects", "--budget", "smoke", "--seeds", "3",
                    "--backends", "jax", "--out", tmp_path / "s", "--export-policy", dest)
    assert "observations: pixels now, objects in this run" in text(result)
    dest.write_text("not a policy")
    result = invoke("stress", "pong", "--budget", "smoke", "--backends", "jax", "--out",
                    tmp_path / "s", "--export-policy", dest)
    assert result.exit_code == 2
    assert "exists but cannot be read as a policy file (not an .npz file)" in text(result)


@settings(max_examples=100, deadline=None)
@given(old=st.one_of(st.none(), st.integers(0, 3), st.text("ab", max_size=2)),
       new=st.one_of(st.none(), st.integers(0, 3), st.text("ab", max_size=2)))
def test_a_setting_must_be_equal_and_an_equal_value_is_never_lost(old, new):
    """cli_checks.Same: another value of a setting is refused whichever way it differs; any value
    (a word too) equal to the old one passes."""
    def refused(o, n):
        try:
            cli_checks.check_not_weaker("r.json", {"m": o}, {"m": n}, what="report")
        except cli_checks.ReplaceRefused:
            return True
        return False
    assert refused(cli_checks.Same(old), cli_checks.Same(new)) == (old != new)
    assert not refused(old, old)
    assert refused(cli_checks.Same(old), new)


@pytest.mark.parametrize("value, said", [
    (",", "--agents ',' names no agent: leave it out for all of"),
    (" , ", "names no agent"),
    ("0,1,0", "--agents '0,1,0' names seed(s) [0] more than once"),
    ("0,x", "--agents '0,x': give training seeds as whole numbers"),
    ("7", "has agents of seeds [0, 1, 2], not [7]"),
])
def test_transfer_agents_that_name_no_agent_or_one_twice_are_refused(value, said, tmp_path):
    """',' was a traceback after the policy loaded; '0,0' played agent 0's games twice."""
    result = invoke("transfer", "pong", "--policy", POLICY, "--agents", value, "--out", tmp_path)
    assert result.exit_code == 2, text(result)
    assert said in text(result)
    assert list(tmp_path.iterdir()) == []
