"""Where a game's documents come from: an offline corpus directory, or HTTP through the cache.

An offline corpus (``--docs DIR`` or ``$JAXTARI_ALIGN_DOCS``) is laid out like ``../shared/docs``:

    farama/<slug>.md      the Farama ALE page (Markdown source; .html or .txt also read)
    atariage/<slug>.txt   the AtariAge manual (text transcription; .html or .md also read)
    SOURCES.md            optional: a table naming each file's original URL and provenance

File names are matched to games loosely (``river_raid.md`` is the page of ``riverraid``). Without a
corpus the Farama page is fetched from ale.farama.org and the manual from the AtariAge link on it,
both through :class:`~alignment.docs.cache.DocCache`.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from typing import Optional

import httpx

from alignment import gamenames
from alignment.docs.cache import DocCache
from alignment.docs.document import Document, DocumentKind
from alignment.docs.fetch import DEFAULT_MAX_BYTES, FetchError, fetch
from alignment.docs.identity import check_document_game
from alignment.docs.text import DocumentError, decode_bytes, html_links, html_to_text, normalize_text

DOCS_ENV = "JAXTARI_ALIGN_DOCS"
CORPUS_RETRIEVED = "corpus"

_KIND_DIRS: dict[str, tuple[str, ...]] = {"farama": ("farama",), "manual": ("atariage", "manual")}
_KIND_SUFFIXES: dict[str, tuple[str, ...]] = {
    "farama": (".md", ".html", ".htm", ".txt"),
    "manual": (".txt", ".html", ".htm", ".md"),
}
_HTML_START = re.compile(r"\s*<(?:!doctype\s+html|html)[\s>]", re.I)
_ATARIAGE_URL = re.compile(r"https?://(?:www\.)?atariage\.com/[^\s)\]'\"<>]+")


class CorpusError(ValueError):
    """A corpus directory that does not exist or cannot be used."""


@dataclasses.dataclass
class LoadedDocuments:
    """The documents found for a game, and a message for each one that is missing."""

    game: str
    documents: list[Document]
    missing: list[str]

    def by_id(self) -> dict[str, Document]:
        return {d.id: d for d in self.documents}

    def get(self, kind: DocumentKind) -> Optional[Document]:
        return next((d for d in self.documents if d.kind == kind), None)


def document_id(kind: DocumentKind, slug: str) -> str:
    return f"{kind}/{slug}"


def text_from_bytes(data: bytes, doc_id: str, *, suffix: str = "", content_type: str = "",
                    charset: Optional[str] = None) -> str:
    """Clean text from a document's bytes: HTML rendered, Markdown/text lightly normalised."""
    is_html = suffix.lower() in (".html", ".htm") or "html" in content_type
    raw = decode_bytes(data, doc_id, charset=charset, html=is_html)
    if not is_html and _HTML_START.match(raw[:500]):
        is_html = True
    text = html_to_text(raw) if is_html else normalize_text(raw)
    if not text.strip():
        raise DocumentError(doc_id, "has no readable text after cleaning",
                            hint="check that it is the right page")
    return text


def resolve_docs_dir(docs_dir: Optional[os.PathLike | str] = None) -> Optional[Path]:
    """The corpus directory from ``--docs`` or ``$JAXTARI_ALIGN_DOCS``, checked; None for HTTP."""
    chosen = docs_dir if docs_dir not in (None, "") else os.environ.get(DOCS_ENV) or None
    if chosen is None:
        return None
    path = Path(chosen).expanduser()
    if not path.is_dir():
        origin = "--docs" if docs_dir not in (None, "") else f"${DOCS_ENV}"
        raise CorpusError(
            f"documents directory {str(path)!r} (from {origin}) does not exist or is not a "
            "directory; point it at a corpus with farama/ and atariage/ folders"
        )
    return path


class Corpus:
    """An offline documents directory."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._provenance = self._read_sources_table()

    def _read_sources_table(self) -> dict[str, tuple[str, str]]:
        """file -> (original URL, where the copy came from), from SOURCES.md when present."""
        path = self.root / "SOURCES.md"
        out: dict[str, tuple[str, str]] = {}
        if not path.is_file():
            return out
        try:
            text = path.read_text("utf-8", errors="replace")
        except OSError:
            return out
        header: list[str] = []
        for line in text.splitlines():
            s = line.strip()
            if not (s.startswith("|") and s.endswith("|")):
                header = []
                continue
            cells = [c.strip() for c in s[1:-1].split("|")]
            if not header:
                header = [c.lower() for c in cells]
                continue
            if all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                continue
            row = dict(zip(header, cells))
            if "file" in row:
                out[row["file"]] = (row.get("original url", ""), row.get("copy came from", ""))
        return out

    def find(self, kind: DocumentKind, slug: str) -> Optional[Path]:
        key = gamenames.file_key(slug)
        for sub in _KIND_DIRS[kind]:
            folder = self.root / sub
            if not folder.is_dir():
                continue
            for suffix in _KIND_SUFFIXES[kind]:
                exact = folder / f"{slug}{suffix}"
                if exact.is_file():
                    return exact
            for suffix in _KIND_SUFFIXES[kind]:
                for path in sorted(folder.glob(f"*{suffix}")):
                    if gamenames.file_key(path.stem) == key:
                        return path
        return None

    def load(self, kind: DocumentKind, slug: str, *, url_hint: str = "") -> Optional[Document]:
        path = self.find(kind, slug)
        if path is None:
            return None
        doc_id = document_id(kind, slug)
        try:
            size = path.stat().st_size
            if size > DEFAULT_MAX_BYTES:
                raise DocumentError(
                    doc_id, f"is {size:,} bytes ({path}), over the {DEFAULT_MAX_BYTES:,}-byte cap "
                    "for a documentation page", hint="point at the game's page or manual itself")
            data = path.read_bytes()
        except OSError as err:
            raise DocumentError(doc_id, f"cannot be read from {path}: {err.strerror}") from None
        try:
            text = text_from_bytes(data, doc_id, suffix=path.suffix)
        except DocumentError as err:
            raise DocumentError(doc_id, f"{err.problem} ({path})", line=err.line,
                                hint=err.hint) from None
        rel = path.relative_to(self.root).as_posix()
        original, copied = self._provenance.get(rel, ("", ""))
        url = original or url_hint or (gamenames.farama_url(slug) if kind == "farama" else "")
        origin = f"{rel} in an offline corpus" + (f" (copied from {copied})" if copied else "")
        doc = Document(id=doc_id, kind=kind, game=slug, url=url, retrieved=CORPUS_RETRIEVED,
                       text=text, origin=origin)
        check_document_game(doc, slug, where=str(path))
        return doc


def atariage_link(text: str) -> str:
    """The AtariAge manual URL linked from a Farama page, or ''."""
    m = _ATARIAGE_URL.search(text)
    return m.group(0).replace("&amp;", "&") if m else ""


def _fetch_document(kind: DocumentKind, slug: str, url: str, cache: DocCache,
                    client: Optional[httpx.Client]) -> tuple[Document, bytes, str]:
    entry = cache.get(url)
    if entry is None:
        got = fetch(url, client=client)
        entry = cache.put(url, got.body, content_type=got.content_type, charset=got.charset)
    doc_id = document_id(kind, slug)
    text = text_from_bytes(entry.body, doc_id, content_type=entry.content_type or "text/html",
                           charset=entry.charset)
    doc = Document(id=doc_id, kind=kind, game=slug, url=url, retrieved=entry.retrieved, text=text,
                   origin=f"fetched {entry.retrieved}, cache key {DocCache.key(url)[:16]}")
    check_document_game(doc, slug, where=url)
    return doc, entry.body, entry.content_type


def load_documents(game: str, *, docs_dir: Optional[os.PathLike | str] = None,
                   cache: Optional[DocCache] = None,
                   client: Optional[httpx.Client] = None) -> LoadedDocuments:
    """The Farama page and AtariAge manual of ``game`` (a canonical slug).

    A missing document is reported in ``missing`` (the spec is built from what exists); a document
    that exists but cannot be read raises :class:`DocumentError`.
    """
    slug = gamenames.resolve(game)
    root = resolve_docs_dir(docs_dir)
    documents: list[Document] = []
    missing: list[str] = []
    if root is not None:
        corpus = Corpus(root)
        farama = corpus.load("farama", slug)
        manual_url = atariage_link(farama.text) if farama else ""
        manual = corpus.load("manual", slug, url_hint=manual_url)
        if farama is None:
            missing.append(f"no Farama page for {slug} in {root}/farama/ (expected {slug}.md)")
        if manual is None:
            missing.append(f"no AtariAge manual for {slug} in {root}/atariage/ "
                           f"(expected {slug}.txt); rules come from the Farama page only")
        documents = [d for d in (farama, manual) if d is not None]
        return LoadedDocuments(slug, documents, missing)

    cache = cache or DocCache()
    try:
        farama, body, ctype = _fetch_document("farama", slug, gamenames.farama_url(slug), cache,
                                              client)
    except FetchError as err:
        missing.append(f"{err}; pass --docs DIR to use an offline corpus")
        return LoadedDocuments(slug, [], missing)
    documents.append(farama)
    page = body.decode("utf-8", "replace")
    links = html_links(page) if "html" in ctype or _HTML_START.match(page[:500]) else []
    manual_url = next((u for u in links if "atariage.com" in u), "") or atariage_link(farama.text)
    if not manual_url:
        missing.append(f"the Farama page of {slug} links no AtariAge manual; rules come from the "
                       "Farama page only")
    else:
        try:
            manual, _, _ = _fetch_document("manual", slug, manual_url, cache, client)
            documents.append(manual)
        except FetchError as err:
            missing.append(f"AtariAge manual: {err}; rules come from the Farama page only")
        except DocumentError as err:
            missing.append(f"AtariAge manual unusable: {err}; rules come from the Farama page only")
    return LoadedDocuments(slug, documents, missing)
