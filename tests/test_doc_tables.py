"""The docs' tables of figures are the committed artefacts' (alignment/doc_tables.py)."""

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from alignment import doc_tables
from alignment.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_the_committed_docs_show_what_the_artefacts_say():
    assert doc_tables.readme_tables_stale(ROOT) == []


def test_every_document_with_tables_has_its_blocks():
    text = (ROOT / "README.md").read_text()
    assert "<!-- generated: games (jaxtari-align docs-tables) -->" in text
    results = (ROOT / "docs" / "results.md").read_text()
    for name in ("audits", "mod-audits", "stress", "robustness"):
        assert f"<!-- generated: {name} (jaxtari-align docs-tables) -->" in results


def _copy(tmp_path: Path) -> Path:
    """The docs and the artefacts' JSON (and the sessions' names) in a folder of their own."""
    root = tmp_path / "repo"
    for doc in doc_tables.DOCUMENTS:
        (root / doc).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / doc, root / doc)
    for folder in ("audits", "stress", "robustness"):
        (root / folder).mkdir()
        for path in (ROOT / folder).glob("*.json"):
            shutil.copy(path, root / folder / path.name)
    for session in (ROOT / "playtest").glob("*/*.jsonl.gz"):
        (root / "playtest" / session.parent.name).mkdir(parents=True, exist_ok=True)
        (root / "playtest" / session.parent.name / session.name).touch()
    return root


def _games_row(text: str, game: str) -> str:
    block = text.split("<!-- generated: games")[1].split("<!-- end generated: games -->")[0]
    [row] = [line for line in block.splitlines() if line.startswith(f"| {game} |")]
    return row


def test_a_changed_audit_makes_its_tables_stale_until_they_are_rewritten(tmp_path):
    root = _copy(tmp_path)
    assert doc_tables.readme_tables_stale(root) == []
    audit = root / "audits" / "pong.json"
    data = json.loads(audit.read_text())
    data["summary"].update(recall=0.5, seeded_faults_detected=7)
    audit.write_text(json.dumps(data))
    assert doc_tables.readme_tables_stale(root) == [
        "README.md: games (rewrite it with `jaxtari-align docs-tables`)",
        "docs/results.md: audits (rewrite it with `jaxtari-align docs-tables`)"]

    out = runner.invoke(app, ["docs-tables", "--root", str(root), "--check"])
    assert out.exit_code == 1 and "stale: README.md: games" in out.output
    assert "| Pong | 11/11 | 100% | 9/9 |" in _games_row((root / "README.md").read_text(), "Pong")

    out = runner.invoke(app, ["docs-tables", "--root", str(root)])
    assert out.exit_code == 0, out.output
    assert "rewrote" in out.output
    assert _games_row((root / "README.md").read_text(), "Pong").startswith("| Pong | 11/11 | 50% | 7/9 |")
    assert doc_tables.readme_tables_stale(root) == []
    # everything outside the blocks is kept as it was
    before, after = (ROOT / "README.md").read_text(), (root / "README.md").read_text()
    assert before.split("<!-- generated: games")[0] == after.split("<!-- generated: games")[0]
    assert before.split("<!-- end generated: games -->")[1] == after.split("<!-- end generated: games -->")[1]


def test_a_new_game_and_a_new_session_appear(tmp_path):
    root = _copy(tmp_path)
    shutil.copy(root / "audits" / "pong.json", root / "audits" / "tennis.json")
    (root / "playtest" / "tennis").mkdir()
    (root / "playtest" / "tennis" / "s1.jsonl.gz").touch()
    assert "README.md: games (rewrite it with `jaxtari-align docs-tables`)" in (
        doc_tables.readme_tables_stale(root))
    doc_tables.rewrite(root)
    row = _games_row((root / "README.md").read_text(), "Tennis")
    assert row.endswith("| 0 | none | 1 |")  # no modified game, no stress report, one session


def test_bad_markers_and_artefacts_are_named(tmp_path):
    root = _copy(tmp_path)
    readme = root / "README.md"
    text = readme.read_text()
    readme.write_text(text.replace("generated: games (jaxtari-align docs-tables)",
                                   "generated: gmaes (jaxtari-align docs-tables)"))
    [problem] = doc_tables.readme_tables_stale(root)
    assert problem.startswith("README.md:") and "unknown generated block 'gmaes'" in problem
    assert "blocks: games, audits" in problem

    readme.write_text(text.replace("<!-- end generated: games -->", ""))
    [problem] = doc_tables.readme_tables_stale(root)
    assert problem == ("README.md: block 'games' has no end marker "
                       "<!-- end generated: games -->")
    out = runner.invoke(app, ["docs-tables", "--root", str(root)])
    assert out.exit_code == 1 and "has no end marker" in out.output
    assert readme.read_text() == text.replace("<!-- end generated: games -->", "")  # untouched

    readme.write_text(text)
    (root / "audits" / "pong.json").write_text("{not json")
    [problem, _] = doc_tables.readme_tables_stale(root)
    assert problem.startswith(f"cannot read {root / 'audits' / 'pong.json'}")


def test_the_games_table_gives_each_games_stage_4_verdict_by_observation():
    stress, transfer = doc_tables._stress(ROOT), doc_tables._transfer(ROOT)
    freeway = doc_tables._stage4_cell("freeway", stress, transfer)
    assert freeway == (f"pixels: {transfer['freeway-pixels-transfer']['verdict']['label']}, "
                       f"objects: {transfer['freeway-objects-transfer']['verdict']['label']}")
    # no transfer report: a JAX-only training is no verdict; PPO trained on both is the older one
    jax_only = {"kangaroo-objects": stress["kangaroo-objects"]}
    assert doc_tables._stage4_cell("kangaroo", jax_only, {}) == "none"
    both = json.loads((ROOT / "stress" / "superseded" / "kangaroo-objects.json").read_text())
    cell = doc_tables._stage4_cell("kangaroo", {"kangaroo-objects": both}, {})
    assert cell == "PPO on both: inconclusive (245,760 steps x 5 seeds)"


def test_the_readme_stays_a_users_page():
    # issue 46: the README is for users (what it is, the two commands, the games, one example
    # each); measurements live in benchmarks/README.md and the figures in docs/results.md
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines: move details to docs/"
    assert lines[0] == "# jaxtari-align"
