"""HTML/Markdown/plain text to clean text, sections, tables, decoding errors; fuzzed for crashes."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alignment.docs.document import Document, sha256_text
from alignment.docs.text import (
    DocumentError,
    decode_bytes,
    html_links,
    html_to_text,
    normalize_text,
    pipe_tables,
    sections,
)

PAGE = """<!doctype html><html><head><title>x</title><style>.a{}</style>
<script>var hidden = 1;</script></head><body>
<nav>Site menu</nav>
<article>
<h1>Frostbite<a class="headerlink" href="#f">\u00b6</a></h1>
<p>The builder <em>hops</em> across
   drifting ice.</p>
<h2>Actions</h2>
<table><thead><tr><th>Index</th><th>Action</th></tr></thead>
<tbody><tr><td>0</td><td>NOOP</td></tr><tr><td>1</td><td>FIRE</td></tr></tbody></table>
<ul><li>first item</li><li>second <b>item</b></li></ul>
<p>See <a href="https://atariage.com/manual_html_page.php?SoftwareLabelID=199">the manual</a>.</p>
</article>
<footer>Copyright footer</footer>
</body></html>"""


def test_html_keeps_headings_paragraphs_tables_and_lists():
    text = html_to_text(PAGE)
    assert text.splitlines()[0] == "# Frostbite"
    assert "The builder hops across drifting ice." in text
    assert "## Actions" in text
    assert "| Index | Action |" in text and "| 0 | NOOP |" in text and "| 1 | FIRE |" in text
    assert "- first item\n- second item" in text
    for dropped in ("Site menu", "hidden", "Copyright footer", "\u00b6", ".a{}"):
        assert dropped not in text


def test_html_tables_and_sections_are_parseable():
    text = html_to_text(PAGE)
    titles = [s.title for s in sections(text)]
    assert titles[:2] == ["Frostbite", "Actions"]
    (table,) = pipe_tables(text)
    assert [r.cells for r in table] == [("Index", "Action"), ("0", "NOOP"), ("1", "FIRE")]
    for row in table:  # each row's offsets cover exactly its line
        assert text[row.start:row.end].startswith("|") and text[row.start:row.end].endswith("|")


def test_html_links_find_the_manual():
    assert "https://atariage.com/manual_html_page.php?SoftwareLabelID=199" in html_links(PAGE)


def test_normalize_is_light_and_idempotent():
    raw = "\ufeffTitle\r\n\r\n\r\n\r\nLine\twith tab   \r\nnext\x1a line\n"
    out = normalize_text(raw)
    assert out == "Title\n\nLine    with tab\nnext line\n"
    assert normalize_text(out) == out


def test_markdown_sections_ignore_fenced_blocks():
    md = "# Top\n\ntext\n\n```\n# not a heading\n```\n\n## Sub\n\nbody\n"
    secs = sections(md)
    assert [(s.level, s.title) for s in secs] == [(1, "Top"), (2, "Sub")]
    assert md[secs[1].body_start:secs[1].end] == "\nbody\n"


def test_plain_text_sections_are_capitalised_lines():
    txt = "Intro line.\n\nGETTING STARTED\n\nPress the button.\n\nSCORING\n\nFish are 5 points.\n"
    secs = sections(txt)
    assert [s.title for s in secs] == ["", "GETTING STARTED", "SCORING"]
    assert "Fish are 5 points." in txt[secs[2].body_start:secs[2].end]


@pytest.mark.parametrize(
    "data, needle",
    [
        (b"", "is empty"),
        (b"   \n\n", "is empty"),
        (b"%PDF-1.4 binary", "is a PDF"),
        (b"abc\x00\x01def", "binary"),
    ],
)
def test_unreadable_bytes_name_the_document(data, needle):
    with pytest.raises(DocumentError) as err:
        decode_bytes(data, "manual/pong")
    assert "manual/pong" in str(err.value) and needle in str(err.value)


def test_invalid_utf8_names_document_and_line():
    data = b"line one\nline two\nbad \xff byte\n"
    with pytest.raises(DocumentError) as err:
        decode_bytes(data, "farama/pong")
    assert "farama/pong" in str(err.value) and "(line 3)" in str(err.value)
    assert err.value.line == 3


def test_html_may_fall_back_to_cp1252():
    assert decode_bytes("caf\u00e9".encode("cp1252"), "manual/x", html=True) == "caf\u00e9"


def test_document_rejects_a_wrong_sha():
    with pytest.raises(ValueError, match="does not match its text"):
        Document(id="d", kind="manual", game="pong", url="u", retrieved="r", text="abc",
                 sha256=sha256_text("abd"))


# ---------------------------------------------------------------------------------------------
# Fuzzing: no crash, output normalised, every span valid.

_html_piece = st.one_of(
    st.text(alphabet=string.printable + "\u00e9\u00b6\u2014", max_size=20),
    st.sampled_from(["<p>", "</p>", "<h2>", "</h2>", "<table>", "<tr>", "<td>", "</td>", "</tr>",
                     "</table>", "<ul><li>", "</li></ul>", "<br>", "<pre>", "</pre>", "<script>",
                     "</script>", "<!-- c -->", "<div>", "</div>", "&amp;", "&lt;", "<a href='x'>",
                     "</a>", "|", "# ", "\n", "<h1>T</h1>", "<th>", "</th>"]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_html_piece, max_size=40).map("".join))
def test_fuzz_html_to_text_never_crashes_and_spans_are_valid(html):
    text = html_to_text(html)
    assert text == "" or text == normalize_text(text)
    doc = Document(id="fuzz", kind="farama", game="pong", url="u", retrieved="r", text=text or "-")
    for sec in sections(doc.text):
        assert 0 <= sec.start <= sec.body_start <= sec.end <= len(doc.text)
    for table in pipe_tables(doc.text):
        for row in table:
            assert 0 <= row.start < row.end <= len(doc.text)
            assert doc.text[row.start] == "|" and doc.text[row.end - 1] == "|"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_normalize_and_sections(raw):
    text = normalize_text(raw)
    assert "\r" not in text and "\t" not in text
    assert normalize_text(text) == text
    prev_end = 0
    for sec in sections(text):
        assert sec.start == prev_end or prev_end == 0
        assert sec.start <= sec.body_start <= sec.end
        prev_end = sec.end


def test_layout_tables_are_read_as_text():
    html = ("<html><body><table><tr><td width=100></td><td>"
            "<h2>SCORING</h2><p>Each fish is worth 150 points.</p>"
            "<table><tr><th>Level</th><th>Points</th></tr><tr><td>1</td><td>15</td></tr></table>"
            "<font>A builder is lost<br>when he lands<br>in the water.</font>"
            "</td></tr></table></body></html>")
    text = html_to_text(html)
    assert "## SCORING" in text and "Each fish is worth 150 points." in text
    assert "| Level | Points |" in text and "| 1 | 15 |" in text  # the data table inside stays a table
    assert "A builder is lost" in text and "| <" not in text
    assert not any(line.startswith("|") and "fish" in line for line in text.splitlines())


def test_line_breaks_wrap_and_double_breaks_end_paragraphs():
    html = "<body>Fish are worth<br>150 points.<br><br>A builder<br/>is lost.</body>"
    text = html_to_text(html)
    assert text == "Fish are worth 150 points.\n\nA builder is lost.\n"
