"""The spec stage's core: build returns what it made as data, prints nothing and writes nothing;
store.write stores it."""

from __future__ import annotations

import pytest
import yaml

from alignment.spec.core import SpecError, build
from alignment.spec.store import load_spec, write
from tests.docs.paths import TEST_DOCS


def test_build_returns_data_and_is_quiet(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("JAXTARI_ALIGN_CACHE", str(tmp_path / "cache"))
    first = build("Frostbite", docs=TEST_DOCS, out_dir=tmp_path)
    assert not first.path.exists()  # the core writes nothing
    write(first)
    assert first.path == tmp_path / "frostbite.yaml" and first.path.is_file()
    assert load_spec(first.path) == first.spec
    assert first.added == [r.id for r in first.spec.rules] and first.added
    assert first.kept == [] and first.changed == [] and first.discarded_reviews == 0

    data = yaml.safe_load(first.path.read_text())
    data["rules"][0].update(status="reviewed", statement="Reviewed by a person.")
    reviewed_id = data["rules"][0]["id"]
    first.path.write_text(yaml.safe_dump(data, sort_keys=False))
    again = build("frostbite", docs=TEST_DOCS, out_dir=tmp_path)
    assert again.kept == [reviewed_id] and reviewed_id not in again.added
    assert again.spec.rule(reviewed_id).statement == "Reviewed by a person."

    forced = build("frostbite", docs=TEST_DOCS, out_dir=tmp_path, force=True)
    assert forced.discarded_reviews == 1 and reviewed_id in forced.changed
    assert capsys.readouterr() == ("", "")


def test_build_errors_are_messages(tmp_path):
    with pytest.raises(SpecError, match="Did you mean: frostbite"):
        build("Frostbyte", docs=TEST_DOCS, out_dir=tmp_path)
    with pytest.raises(SpecError, match="--llm must be one of"):
        build("pong", docs=TEST_DOCS, out_dir=tmp_path, llm="gpt")
    assert not list(tmp_path.iterdir())
