"""Bad documents and bad spec files: a clear error naming the file, or a correct result.

Hypothesis draws corpus files (arbitrary bytes, text in other encodings, another game's page) and
spec files (a valid spec with one field replaced by an arbitrary value, or removed). Whatever is
drawn, loading ends in the module's own error type or in a valid result — never another
exception — and the spec on disk is never changed by reading it.
"""

from __future__ import annotations

import copy

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alignment.docs.corpus import load_documents
from alignment.docs.text import DocumentError
from alignment.spec.store import SpecFileError, load_spec, parse_yaml
from tests.docs.paths import SPECS, TEST_DOCS

FILES = settings(max_examples=150, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@FILES
@given(data=st.one_of(
    st.binary(max_size=4096),
    st.text(max_size=2048).map(lambda t: t.encode("utf-16")),
    st.text(max_size=2048).map(lambda t: t.encode("utf-8")),
    st.sampled_from([b"%PDF-1.4\n...", b"\x00" * 64, b"   \n\t", b"<html><body></body></html>"]),
), kind=st.sampled_from(["farama/pong.md", "atariage/pong.txt", "farama/pong.html"]))
def test_any_corpus_file_is_read_or_refused_with_its_name(tmp_path_factory, data, kind):
    root = tmp_path_factory.mktemp("corpus")
    path = root / kind
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    try:
        loaded = load_documents("pong", docs_dir=root)
    except DocumentError as err:
        assert "pong" in str(err)
        return
    for doc in loaded.documents:
        assert doc.text.strip() and doc.game == "pong"


SPEC_TEXT = (SPECS / "pong.yaml").read_text("utf-8")
SPEC_DATA = yaml.safe_load(SPEC_TEXT)
_ANY = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=30),
                 st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5),
                                                                       st.integers(), max_size=2))


def _paths(data, prefix=()):
    """Every (path) into a nested YAML value, so a drawn mutation can reach any field."""
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data[:3]):
            yield from _paths(v, prefix + (i,))


PATHS = [p for p in _paths(SPEC_DATA) if p]


@FILES
@given(where=st.sampled_from(PATHS), value=_ANY, remove=st.booleans())
def test_any_edit_of_a_spec_is_read_or_refused_with_its_place(tmp_path_factory, where, value,
                                                             remove):
    data = copy.deepcopy(SPEC_DATA)
    parent = data
    for key in where[:-1]:
        parent = parent[key]
    if remove and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    path = tmp_path_factory.mktemp("specs") / "pong.yaml"
    text = yaml.safe_dump(data, sort_keys=False)
    path.write_text(text, "utf-8")
    try:
        spec = load_spec(path)
    except SpecFileError as err:
        assert str(path) in str(err)
    else:
        assert spec.game  # a valid spec after all
    assert path.read_text("utf-8") == text


@pytest.mark.parametrize("text, problem", [
    ("", "must hold a mapping"),
    ("- a\n- b\n", "must hold a mapping"),
    ("game: [unclosed\n", "not valid YAML"),
    (SPEC_TEXT.replace("schema_version: 1", "schema_version: 2"), "newer jaxtari-align"),
])
def test_named_spec_problems(text, problem):
    with pytest.raises(SpecFileError, match=problem):
        parse_yaml(text, where="pong.yaml")


def test_test_corpus_still_loads():
    assert len(load_documents("frostbite", docs_dir=TEST_DOCS).documents) == 2
