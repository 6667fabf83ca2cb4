"""The on-disk cache of fetched pages, keyed by URL.

Each entry is two files named by the sha256 of the URL: ``<key>.body`` (the raw bytes) and
``<key>.json`` (URL, retrieval date, sha256 of the body, content type, charset). An entry whose body
no longer hashes to its recorded sha256 is treated as absent (and re-fetched), never trusted.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import json
import os
from pathlib import Path
from typing import Optional

import platformdirs

from alignment import atomic

APP_NAME = "jaxtari-align"


def default_cache_dir() -> Path:
    """``$JAXTARI_ALIGN_CACHE`` or the platform's user cache dir, e.g. ~/.cache/jaxtari-align."""
    env = os.environ.get("JAXTARI_ALIGN_CACHE")
    return Path(env) if env else Path(platformdirs.user_cache_dir(APP_NAME))


@dataclasses.dataclass(frozen=True)
class CacheEntry:
    url: str
    retrieved: str  # ISO date
    sha256: str  # of body
    content_type: str
    charset: Optional[str]
    body: bytes


class DocCache:
    """Fetched pages under ``root/docs``."""

    def __init__(self, root: Optional[Path] = None) -> None:
        self.dir = Path(root if root is not None else default_cache_dir()) / "docs"

    @staticmethod
    def key(url: str) -> str:
        return hashlib.sha256(url.encode("utf-8")).hexdigest()

    def _paths(self, url: str) -> tuple[Path, Path]:
        k = self.key(url)
        return self.dir / f"{k}.json", self.dir / f"{k}.body"

    def get(self, url: str) -> Optional[CacheEntry]:
        meta_path, body_path = self._paths(url)
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
            body = body_path.read_bytes()
        except (OSError, ValueError):
            return None
        if meta.get("url") != url or hashlib.sha256(body).hexdigest() != meta.get("sha256"):
            return None
        return CacheEntry(
            url=url, retrieved=str(meta.get("retrieved", "")), sha256=meta["sha256"],
            content_type=str(meta.get("content_type", "")), charset=meta.get("charset"), body=body,
        )

    def put(self, url: str, body: bytes, *, content_type: str = "", charset: Optional[str] = None,
            retrieved: Optional[str] = None) -> CacheEntry:
        entry = CacheEntry(
            url=url, retrieved=retrieved or _dt.date.today().isoformat(),
            sha256=hashlib.sha256(body).hexdigest(), content_type=content_type, charset=charset,
            body=body,
        )
        meta_path, body_path = self._paths(url)
        atomic.write_bytes(body_path, body)
        meta = {k: v for k, v in dataclasses.asdict(entry).items() if k != "body"}
        atomic.write_bytes(meta_path, (json.dumps(meta, indent=2) + "\n").encode("utf-8"))
        return entry
