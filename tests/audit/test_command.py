"""``jaxtari-align audit``: bad input gets a message naming the problem and the fix, never a trace."""

import yaml
from typer.testing import CliRunner

from alignment.cli import app
from tests.docs.paths import SPECS, TEST_DOCS

runner = CliRunner()


def _audit(*args):
    return runner.invoke(app, ["audit", *args, "--no-faults", "--no-events", "--no-explore",
                               "--mutants", "none"])


def _spec_with(tmp_path, rule_id, edit):
    data = yaml.safe_load((SPECS / "pong.yaml").read_text())
    rule = next(r for r in data["rules"] if r["id"] == rule_id)
    edit(rule)
    data["rules"] = [rule]
    (tmp_path / "pong.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return tmp_path


def test_a_bad_mutants_option_names_the_choices():
    r = runner.invoke(app, ["audit", "pong", "--mutants", "many"])
    assert r.exit_code == 1
    assert "--mutants takes none, all or a whole number >= 0 (source mutants to sample), got 'many'" in r.output


def test_a_bad_batched_mutants_option_names_the_choices():
    r = runner.invoke(app, ["audit", "pong", "--batched-mutants", "0"])
    assert r.exit_code == 1
    assert ("--batched-mutants takes all or a whole number >= 1 (batched Constants mutants to "
            "draw; the quick audit draws 48, the full one all), got '0'") in r.output
    assert "Traceback" not in r.output
    r = runner.invoke(app, ["audit", "pong", "--mutants", "none", "--batched-mutants", "5"])
    assert r.exit_code == 1
    assert "--batched-mutants with --mutants none: no mutant runs; drop one of them" in r.output
    r = runner.invoke(app, ["audit", "pong", "--mods", "no_enemy_points", "--batched-mutants", "5"])
    assert r.exit_code == 1
    assert "--mutants or --batched-mutants with --mods" in r.output


def test_unknown_game_lists_the_games():
    r = _audit("pacmann")
    assert r.exit_code == 1
    from alignment import catalog

    assert f"unknown game 'pacmann'; games in the catalog: {', '.join(catalog.games())}" in r.output


def test_missing_spec_names_the_file_and_the_command(tmp_path):
    r = _audit("pong", "--specs", str(tmp_path), "--out", str(tmp_path / "out"))
    assert r.exit_code == 1
    assert f"{tmp_path}/pong.yaml is missing; make it with `jaxtari-align spec pong" in r.output
    assert not (tmp_path / "out").exists()


def test_stale_spans_name_the_rule_and_the_document(tmp_path):
    # the project's own small farama/pong.md is not the text the reviewed spec was cut from
    r = _audit("pong", "--docs", str(TEST_DOCS), "--out", str(tmp_path))
    assert r.exit_code == 1
    assert "rules[3] (action.right-paddle): span [638, 731) of 'farama/pong'" in r.output
    assert "Traceback" not in r.output


def test_a_probe_naming_an_unknown_signal_names_the_rule_and_the_expectation(tmp_path):
    def edit(rule):
        rule["probe"]["expectations"][0]["signal"] = "mana"
    specs = _spec_with(tmp_path, "lives.none", edit)
    r = _audit("pong", "--specs", str(specs), "--out", str(tmp_path / "out"))
    assert r.exit_code == 1
    assert "lives.none: rule lives.none: probe expectation 1 (mana == 0) names unknown signal 'mana'" \
        in " ".join(r.output.split())
    assert (tmp_path / "out" / "pong.md").is_file()  # the report lists it as a probe error


def test_a_probe_naming_an_unknown_action_names_the_rule_and_the_step(tmp_path):
    def edit(rule):
        rule["probe"]["steps"][0]["action"] = "JUMP"
    specs = _spec_with(tmp_path, "lives.none", edit)
    r = _audit("pong", "--specs", str(specs), "--out", str(tmp_path / "out"))
    assert r.exit_code == 1
    assert "rules[0] (lives.none).probe.steps[0].action: unknown ALE action 'JUMP'" in r.output


def test_an_unusable_out_dir_fails_before_work_and_keeps_the_previous_report(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = _audit("pong", "--out", str(blocker / "audits"))
    assert r.exit_code == 1
    assert "is a file, not a folder; choose another location" in r.output
    # a failing run leaves the report already there as it was
    out = tmp_path / "out"
    out.mkdir()
    (out / "pong.json").write_text("{}")
    r = _audit("pong", "--out", str(out), "--specs", str(tmp_path / "nowhere"))
    # what a file that is no audit holds cannot be told: it is not replaced unasked
    assert r.exit_code == 1 and "exists but cannot be read as an audit" in " ".join(r.output.split())
    r = _audit("pong", "--out", str(out), "--specs", str(tmp_path / "nowhere"), "--replace")
    assert r.exit_code == 1 and "pong has no spec" in r.output
    assert (out / "pong.json").read_text() == "{}"
