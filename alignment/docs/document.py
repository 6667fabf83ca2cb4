"""A source document: the exact text a spec's rules point into.

Every span a rule cites is a pair of character offsets into :attr:`Document.text` (Python ``str``
indices, i.e. Unicode code points), so the same document always yields the same offsets. The text is
fixed once the document is built; its sha256 identifies it in a spec's ``sources``.
"""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

DocumentKind = Literal["farama", "manual"]


def sha256_text(text: str) -> str:
    """The hex sha256 of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Document(BaseModel):
    """One cleaned source text (a Farama ALE page or an AtariAge manual)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(description="stable document id, e.g. 'farama/frostbite' or 'manual/frostbite'")
    kind: DocumentKind
    game: str = Field(description="canonical game slug, e.g. 'frostbite'")
    url: str = Field(description="where the original lives (the page's public URL)")
    retrieved: str = Field(description="ISO date the text was retrieved or copied")
    text: str
    sha256: str = Field(default="", description="sha256 of text; filled in when omitted")
    origin: str = Field(default="", description="where this copy came from: a cache file, a corpus file")

    @model_validator(mode="before")
    @classmethod
    def _fill_sha(cls, data: object) -> object:
        if isinstance(data, dict) and not data.get("sha256") and isinstance(data.get("text"), str):
            data = {**data, "sha256": sha256_text(data["text"])}
        return data

    @model_validator(mode="after")
    def _check_sha(self) -> "Document":
        if self.sha256 != sha256_text(self.text):
            raise ValueError(
                f"document {self.id!r}: stored sha256 {self.sha256[:12]}... does not match its text; "
                "the text was changed after it was hashed - rebuild the document from its source"
            )
        return self

    def span(self, start: int, end: int) -> str:
        """The text between two offsets, checked to lie inside the document."""
        if not (0 <= start < end <= len(self.text)):
            raise ValueError(
                f"span [{start}, {end}) is outside document {self.id!r} (length {len(self.text)})"
            )
        return self.text[start:end]

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset, for error messages."""
        line = self.text.count("\n", 0, offset) + 1
        col = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return line, col
