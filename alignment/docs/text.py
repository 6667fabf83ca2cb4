"""Source bytes to clean text, and the section structure of that text.

Every document is reduced to one normalised text in a Markdown-like shape: headings as ``#`` lines,
tables as ``| a | b |`` rows, list items as ``- `` lines, paragraphs separated by blank lines. HTML
(a fetched Farama or AtariAge page) is rendered into that shape with BeautifulSoup; Markdown and plain
text (an offline corpus) are passed through with light normalisation only, so that a span in the
document is the source's own words. Spans are offsets into the normalised text, which is what a
:class:`~alignment.docs.document.Document` stores, so they are stable.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterator, Optional

from bs4 import BeautifulSoup, NavigableString, Tag


class DocumentError(ValueError):
    """A document that cannot be read or parsed; the message names the document and where."""

    def __init__(self, document: str, problem: str, *, line: Optional[int] = None,
                 hint: str = "") -> None:
        where = f" (line {line})" if line is not None else ""
        message = f"document {document!r}{where}: {problem}"
        if hint:
            message += f"; {hint}"
        super().__init__(message)
        self.document = document
        self.line = line
        self.problem = problem
        self.hint = hint


# --------------------------------------------------------------------------------------------------
# Bytes to str


def decode_bytes(data: bytes, document: str, *, charset: Optional[str] = None,
                 html: bool = False) -> str:
    """Decode a document's bytes; binary or undecodable input is a :class:`DocumentError`."""
    if not data.strip():
        raise DocumentError(document, "is empty", hint="re-fetch it or fix the corpus file")
    head = data[:2048]
    if head.startswith(b"%PDF"):
        raise DocumentError(
            document, "is a PDF, not text",
            hint="use its text transcription (.txt) or the HTML page instead",
        )
    if b"\x00" in head:
        raise DocumentError(document, "looks binary (contains NUL bytes)",
                            hint="point at a text, Markdown or HTML file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        # HTML pages may declare another charset (AtariAge pages are often windows-1252).
        for enc in ([charset] if charset else []) + (["cp1252"] if html else []):
            try:
                return data.decode(enc)
            except (LookupError, UnicodeDecodeError):
                continue
        line = data.count(b"\n", 0, err.start) + 1
        raise DocumentError(
            document, f"is not valid UTF-8 (byte {err.start})", line=line,
            hint="re-save the file as UTF-8",
        ) from None


# --------------------------------------------------------------------------------------------------
# Normalisation of text and Markdown

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TRAILING_WS = re.compile(r"[ \t]+\n")
_MANY_BLANKS = re.compile(r"\n{3,}")


def normalize_text(text: str) -> str:
    """Light normalisation kept by Markdown and plain text: line ends, tabs, stray controls."""
    text = text.replace("\ufeff", "").replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\t", "    ").replace("\u00a0", " ")
    text = _CONTROL.sub("", text)
    text = _TRAILING_WS.sub("\n", text + "\n")
    text = _MANY_BLANKS.sub("\n\n", text)
    return text.strip("\n") + "\n"


# --------------------------------------------------------------------------------------------------
# HTML to text

_DROP_TAGS = ("script", "style", "noscript", "nav", "header", "footer", "aside", "form", "button",
              "svg", "iframe", "template")
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCKS = {"p", "div", "section", "article", "main", "blockquote", "figure", "figcaption", "dl",
           "dt", "dd", "center", "body", "html", "font", "tbody", "thead"}
_INLINE_WS = re.compile(r"\s+")
_HEADERLINK = "\u00b6"  # the pilcrow Sphinx appends to headings
_BR = "\x00"  # stands for <br> until a block is flushed (a stray NUL would act as one)


def _inline(node: Tag | NavigableString) -> str:
    if isinstance(node, NavigableString):
        return str(node)
    parts = []
    for child in node.children:
        if isinstance(child, Tag) and child.name == "br":
            parts.append(" ")
        else:
            parts.append(_inline(child))
    return "".join(parts)


def _clean_inline(s: str) -> str:
    return _INLINE_WS.sub(" ", s.replace(_HEADERLINK, "")).strip()


def _table_rows(table: Tag) -> list[list[str]]:
    rows = []
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue
        cells = [_clean_inline(_inline(c)).replace("|", "/") for c in tr.find_all(["th", "td"])
                 if c.find_parent("tr") is tr]
        if any(cells):
            rows.append(cells)
    return rows


_LAYOUT_CELL_CHARS = 200  # a data cell holds a word or a number, not a paragraph


def _is_layout_table(table: Tag) -> bool:
    """A table used for page layout (cells holding paragraphs, headings or other tables)."""
    for cell in table.find_all(["td", "th"]):
        if cell.find_parent("table") is not table:
            continue
        if cell.find(["p", "div", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre"]):
            return True
        if len(cell.find_all("br")) > 1 or len(cell.get_text()) > _LAYOUT_CELL_CHARS:
            return True
    return False


def _render_table(table: Tag) -> str:
    rows = _table_rows(table)
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join(["---"] * width) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)


def _blocks(node: Tag) -> Iterator[str]:
    """Yield the text blocks of an element, in document order."""
    pending: list[str] = []

    def flush() -> Iterator[str]:
        joined = "".join(pending)
        pending.clear()
        # two line breaks in a row end a paragraph; a single one is just a wrapped line
        for part in re.split(rf"{_BR}\s*(?:{_BR}\s*)+", joined):
            text = _clean_inline(part.replace(_BR, " "))
            if text:
                yield text

    for child in node.children:
        if isinstance(child, NavigableString):
            if type(child) is NavigableString:  # skip comments, doctypes, CDATA
                pending.append(str(child))
            continue
        if not isinstance(child, Tag):
            continue
        name = (child.name or "").lower()
        if name in _DROP_TAGS:
            continue
        if name in _HEADINGS:
            yield from flush()
            text = _clean_inline(_inline(child))
            if text:
                yield "#" * _HEADINGS[name] + " " + text
        elif name == "table":
            yield from flush()
            if _is_layout_table(child):  # old pages lay out whole manuals in table cells
                for cell in child.find_all(["td", "th"]):
                    if cell.find_parent("table") is child:
                        yield from _blocks(cell)
                continue
            rendered = _render_table(child)
            if rendered:
                yield rendered
        elif name in ("ul", "ol"):
            yield from flush()
            items = []
            for li in child.find_all("li"):
                if li.find_parent(["ul", "ol"]) is child:
                    text = _clean_inline(_inline(li))
                    if text:
                        items.append("- " + text)
            if items:
                yield "\n".join(items)
        elif name == "pre":
            yield from flush()
            text = child.get_text()
            if text.strip():
                yield "\n".join(line.rstrip() for line in text.strip("\n").splitlines())
        elif name == "br":
            pending.append(_BR)
        elif name == "hr":
            yield from flush()
        elif name in _BLOCKS or name == "li" or child.find(
            list(_HEADINGS) + ["table", "p", "div", "ul", "ol", "pre"]
        ):
            yield from flush()
            yield from _blocks(child)
        else:
            pending.append(_inline(child))
    yield from flush()


def html_to_text(html: str) -> str:
    """Render an HTML page to clean text: headings, paragraphs, lists and tables kept."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(_DROP_TAGS):
        tag.decompose()
    root = (
        soup.find("article")
        or soup.find(attrs={"role": "main"})
        or soup.find("main")
        or soup.body
        or soup
    )
    text = "\n\n".join(_blocks(root))
    return normalize_text(text) if text.strip() else ""


def html_links(html: str) -> list[str]:
    """Every href of the page, in order (used to find a Farama page's AtariAge link)."""
    soup = BeautifulSoup(html, "html.parser")
    return [a["href"] for a in soup.find_all("a", href=True)]


# --------------------------------------------------------------------------------------------------
# Structure: sections, lines, tables


@dataclasses.dataclass(frozen=True)
class Section:
    """A heading and the span of text under it (up to the next heading of any level)."""

    title: str
    level: int
    start: int  # offset of the heading line (or 0 for the preamble)
    body_start: int
    end: int


_MD_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)


def _is_caps_heading(line: str) -> bool:
    """A plain-text manual heading: a short line in capitals (``IGLOO CONSTRUCTION``)."""
    s = line.strip()
    if not (3 <= len(s) <= 60) or s.startswith(("*", "-", "|")) or re.search(r"\S {3,}\S", s):
        return False  # (wide gaps: the header row of a text table, not a heading)
    letters = [c for c in s if c.isalpha()]
    if len(letters) < 3 or s.endswith((".", ",", ";", ":")):
        return False
    upper = sum(c.isupper() for c in letters)
    return upper / len(letters) > 0.85 and not re.search(r"\d{2,}", s)


def sections(text: str) -> list[Section]:
    """The sections of a normalised text: Markdown ``#`` headings, else capitalised lines."""
    heads: list[tuple[int, int, int, str]] = []  # (start, body_start, level, title)
    in_fence = False
    offset = 0
    md = bool(_MD_HEADING.search(text))
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        elif not in_fence:
            m = _MD_HEADING.match(line.rstrip("\n"))
            if m:
                heads.append((offset, offset + len(line), len(m.group(1)), m.group(2).strip()))
            elif not md and _is_caps_heading(line):
                heads.append((offset, offset + len(line), 1, stripped))
        offset += len(line)
    out: list[Section] = []
    first = heads[0][0] if heads else len(text)
    if first > 0:
        out.append(Section("", 0, 0, 0, first))
    for i, (start, body, level, title) in enumerate(heads):
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        out.append(Section(title, level, start, body, end))
    return out


def lines_with_offsets(text: str, start: int = 0, end: Optional[int] = None) -> Iterator[tuple[int, str]]:
    """(offset, line without its newline) for each line in ``text[start:end]``."""
    end = len(text) if end is None else end
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        yield pos, text[pos:stop]
        pos = stop + 1


@dataclasses.dataclass(frozen=True)
class TableRow:
    start: int
    end: int
    cells: tuple[str, ...]
    line: int


def pipe_tables(text: str, start: int = 0, end: Optional[int] = None) -> list[list[TableRow]]:
    """The ``| a | b |`` tables in a range; each is its list of rows (separator rows dropped)."""
    tables: list[list[TableRow]] = []
    current: list[TableRow] = []
    line_no = text.count("\n", 0, start)  # counted once, then line by line (not from 0 per row)
    for off, line in lines_with_offsets(text, start, end):
        line_no += 1
        s = line.strip()
        if s.startswith("|") and s.endswith("|") and len(s) > 1:
            cells = tuple(c.strip() for c in s[1:-1].split("|"))
            if not all(re.fullmatch(r":?-{3,}:?", c) for c in cells if c) or not any(cells):
                lead = len(line) - len(line.lstrip())
                current.append(TableRow(off + lead, off + lead + len(s), cells, line_no))
        else:
            if current:
                tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables
