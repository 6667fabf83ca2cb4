"""Offline corpora: the project's own test documents and, when present, the real ../shared/docs."""

from __future__ import annotations

import pytest

from alignment import gamenames
from alignment.docs.corpus import CorpusError, load_documents, resolve_docs_dir
from alignment.docs.document import sha256_text
from alignment.docs.text import DocumentError
from tests.docs.paths import SHARED_DOCS, TEST_DOCS, needs_shared


def test_test_corpus_loads_page_and_manual():
    loaded = load_documents("frostbite", docs_dir=TEST_DOCS)
    assert [d.id for d in loaded.documents] == ["farama/frostbite", "manual/frostbite"]
    assert loaded.missing == []
    farama, manual = loaded.documents
    assert farama.kind == "farama" and manual.kind == "manual"
    assert farama.url == "https://ale.farama.org/environments/frostbite/"
    assert manual.url == "https://atariage.com/manual_html_page.php?SoftwareLabelID=199"
    assert "written for the jaxtari-align tests" in manual.origin
    for doc in loaded.documents:
        assert doc.sha256 == sha256_text(doc.text)


def test_missing_manual_is_reported():
    loaded = load_documents("pong", docs_dir=TEST_DOCS)
    assert [d.id for d in loaded.documents] == ["farama/pong"]
    assert len(loaded.missing) == 1 and "no AtariAge manual for pong" in loaded.missing[0]


def test_game_without_any_document():
    loaded = load_documents("seaquest", docs_dir=TEST_DOCS)
    assert loaded.documents == [] and len(loaded.missing) == 2


def test_env_variable_and_bad_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("JAXTARI_ALIGN_DOCS", str(TEST_DOCS))
    assert resolve_docs_dir(None) == TEST_DOCS
    monkeypatch.setenv("JAXTARI_ALIGN_DOCS", str(tmp_path / "nowhere"))
    with pytest.raises(CorpusError, match=r"\$JAXTARI_ALIGN_DOCS"):
        resolve_docs_dir(None)
    with pytest.raises(CorpusError, match="--docs"):
        resolve_docs_dir(tmp_path / "also-nowhere")


def test_a_pdf_in_the_corpus_is_a_clear_error(tmp_path):
    (tmp_path / "farama").mkdir()
    (tmp_path / "farama" / "pong.md").write_bytes(b"%PDF-1.5\n...")
    with pytest.raises(DocumentError) as err:
        load_documents("pong", docs_dir=tmp_path)
    message = str(err.value)
    assert "farama/pong" in message and "PDF" in message and "pong.md" in message


def test_corpus_file_names_match_loosely(tmp_path):
    (tmp_path / "farama").mkdir()
    (tmp_path / "farama" / "river_raid.md").write_text("# Riverraid\n\ntext\n")
    loaded = load_documents("Riverraid", docs_dir=tmp_path)
    assert [d.id for d in loaded.documents] == ["farama/riverraid"]


@pytest.mark.parametrize("name, slug", [
    ("Frostbite", "frostbite"), ("frostbite", "frostbite"), ("ms_pacman", "ms_pacman"),
    ("MsPacman", "ms_pacman"), ("ALE/Pong-v5", "pong"), ("PongNoFrameskip-v4", "pong"),
    ("river_raid", "riverraid"), ("Montezuma's Revenge", "montezuma_revenge"),
])
def test_game_names(name, slug):
    assert gamenames.resolve(name) == slug


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(gamenames.UnknownGameError) as err:
        gamenames.resolve("Frostbyte")
    message = str(err.value)
    assert "Did you mean: frostbite" in message and "zaxxon" in message and "pong" in message
    assert len(gamenames.GAME_SLUGS) == 104


@needs_shared
def test_real_corpus_every_farama_page_loads():
    stems = sorted(p.stem for p in (SHARED_DOCS / "farama").glob("*.md"))
    games = [s for s in stems if s not in ("env_spec", "environments")]
    assert len(games) >= 20
    for stem in games:
        loaded = load_documents(stem, docs_dir=SHARED_DOCS)
        assert loaded.documents[0].kind == "farama", stem
        assert loaded.documents[0].url.startswith("https://ale.farama.org/environments/"), stem


@needs_shared
def test_real_corpus_game_list_matches_the_farama_index():
    index = (SHARED_DOCS / "farama" / "environments.md").read_text()
    listed = [line.split("/", 1)[1].strip() for line in index.splitlines()
              if line.startswith("environments/")]
    assert tuple(listed) == gamenames.GAME_SLUGS


@needs_shared
def test_real_frostbite_manual_provenance():
    loaded = load_documents("frostbite", docs_dir=SHARED_DOCS)
    manual = loaded.documents[1]
    assert manual.url == "https://atariage.com/manual_html_page.php?SoftwareLabelID=199"
    assert "LeonGuertler/Atari-10K" in manual.origin
    assert "\x1a" not in manual.text  # a stray control byte of the transcription is dropped


def _corpus_with(tmp_path, kind_dir: str, name: str, text: str):
    (tmp_path / kind_dir).mkdir(parents=True, exist_ok=True)
    (tmp_path / kind_dir / name).write_text(text, "utf-8")
    return tmp_path


def test_another_games_farama_page_is_refused(tmp_path):
    pong = (TEST_DOCS / "farama" / "pong.md").read_text("utf-8")
    root = _corpus_with(tmp_path, "farama", "frostbite.md", pong)
    with pytest.raises(DocumentError, match=r"Farama page of pong, not frostbite.*farama/frostbite\.md"):
        load_documents("frostbite", docs_dir=root)


def test_another_games_manual_is_refused(tmp_path):
    frostbite_page = (TEST_DOCS / "farama" / "frostbite.md").read_text("utf-8")
    root = _corpus_with(tmp_path, "farama", "frostbite.md", frostbite_page)
    _corpus_with(root, "atariage", "frostbite.txt",
                 "BREAKOUT\n(c) 1978\n\nUse your paddle controllers. Knock the bricks out of the wall.\n")
    with pytest.raises(DocumentError, match=r"manual of breakout, not frostbite.*atariage/frostbite\.txt"):
        load_documents("frostbite", docs_dir=root)


def test_a_document_naming_no_game_is_accepted():
    # the project's test manual never names Frostbite: nothing contradicts its file name
    loaded = load_documents("frostbite", docs_dir=TEST_DOCS)
    assert [d.id for d in loaded.documents] == ["farama/frostbite", "manual/frostbite"]


@needs_shared
def test_every_shared_document_is_its_own_games():
    """No false alarm on the real pages and manuals (each page loads with its manual, if any)."""
    for path in sorted((SHARED_DOCS / "farama").glob("*.md")):
        if path.stem in ("environments", "env_spec"):
            continue
        loaded = load_documents(path.stem, docs_dir=SHARED_DOCS)
        assert loaded.documents[0].id == f"farama/{gamenames.resolve(path.stem)}"


def test_oversized_document_is_refused_before_reading(tmp_path):
    root = _corpus_with(tmp_path, "farama", "pong.md", "# Pong\n" + "x" * (1024 * 1024 + 1))
    with pytest.raises(DocumentError, match=r"over the 1,048,576-byte cap"):
        load_documents("pong", docs_dir=root)


def test_encoding_hint_survives(tmp_path):
    (tmp_path / "farama").mkdir()
    (tmp_path / "farama" / "pong.md").write_bytes("# Pong\n caf\xe9 \xff\xfe ok".encode("latin-1"))
    with pytest.raises(DocumentError, match="re-save the file as UTF-8"):
        load_documents("pong", docs_dir=tmp_path)
