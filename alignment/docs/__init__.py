"""Source documents of a game: fetched over HTTP into a cache, or read from an offline corpus.

- :mod:`alignment.docs.document`: :class:`Document` (id, url, retrieval date, sha256, text).
- :mod:`alignment.docs.text`: HTML / Markdown / plain text to clean text with stable offsets.
- :mod:`alignment.docs.fetch`: HTTP with retries, timeouts and a size cap.
- :mod:`alignment.docs.cache`: the on-disk cache keyed by URL.
- :mod:`alignment.docs.corpus`: an offline corpus directory (``--docs DIR`` / ``JAXTARI_ALIGN_DOCS``)
  and :func:`load_documents`, which picks between the two.
"""

from alignment.docs.document import Document, sha256_text

__all__ = ["Document", "sha256_text"]
