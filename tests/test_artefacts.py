"""The one table of artefact locations and schema ids (alignment/artefacts.py) against what the
repository holds: every committed report sits where the table says and carries its schema id."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from alignment import artefacts, catalog

ROOT = Path(__file__).resolve().parents[1]


def test_committed_reports_carry_the_tables_schema_ids():
    for art in (artefacts.AUDIT, artefacts.STRESS, artefacts.ROBUSTNESS):
        found = sorted((ROOT / art.folder).glob("*.json"))
        assert found, art.folder
        for path in found:
            want = (artefacts.TRANSFER.schema if path.name.endswith("-transfer.json")
                    else art.schema)  # stage 4's transfer report sits beside the stress reports
            assert json.loads(path.read_text())["schema"] == want, path


def test_each_catalog_game_has_its_spec_and_audit_where_the_table_says():
    for game in catalog.games():
        assert (ROOT / artefacts.SPEC.rel(game=game)).is_file(), game
        audit = ROOT / artefacts.AUDIT.rel(game=game)
        if audit.exists():
            assert (ROOT / artefacts.AUDIT_MARKDOWN.rel(game=game)).is_file()


def test_committed_sessions_carry_the_session_schema():
    sessions = sorted((ROOT / artefacts.PLAYTEST_SESSION.folder).glob("*/*.jsonl.gz"))
    assert sessions
    for path in sessions:
        with gzip.open(path, "rt") as f:
            header = json.loads(f.readline())
        assert header["schema"] == artefacts.PLAYTEST_SESSION.schema, path
        assert path.parent.name == header["game"]


def test_a_games_code_hash_covers_its_spec_and_fault_set_from_the_table():
    files = {f.relative_to(ROOT).as_posix() for f in catalog.behaviour_files("pong")}
    assert artefacts.SPEC.rel(game="pong") in files
    assert artefacts.FAULTS.rel(game="pong") in files


def test_a_path_is_formatted_from_the_table():
    assert artefacts.STRESS.path("out", game="pong", obs="objects") == Path("out/pong-objects.json")
    assert artefacts.STRESS.path(game="pong", obs="pixels") == Path("stress/pong-pixels.json")


def test_a_recorded_command_names_paths_inside_the_repository_from_its_root(tmp_path):
    from alignment.artefacts import command_line

    root = Path(artefacts.__file__).resolve().parents[1]
    policy = root / "stress" / "policies" / "freeway-pixels.npz"
    line = command_line(["robustness", "freeway", "--agents", str(policy), f"--out={root}/x y",
                         "--out", str(tmp_path), "--episodes", "30"])
    assert line == ("jaxtari-align robustness freeway --agents stress/policies/freeway-pixels.npz "
                    f"'--out=x y' --out {tmp_path} --episodes 30")  # outside the clone: as given
