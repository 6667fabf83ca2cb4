"""HTTP retrieval of source pages: retries with backoff, timeouts, and a size cap.

Transient failures (connection errors, timeouts, HTTP 5xx and 429) are retried with exponential
backoff; any other 4xx fails at once. A body larger than ``max_bytes`` is refused while it streams,
so a wrong URL cannot fill the disk. The caller owns caching (:mod:`alignment.docs.cache`).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Callable, Optional

import httpx

DEFAULT_TIMEOUT_S = 20.0
DEFAULT_RETRIES = 3
DEFAULT_BACKOFF_S = 1.0
# A documentation page is tens of kB; the offline extractor's time grows with the text, so a larger
# file is a wrong file, refused before any work (offline corpus files and fetched pages alike).
DEFAULT_MAX_BYTES = 1024 * 1024
USER_AGENT = "jaxtari-align (documentation fetcher; +https://ale.farama.org)"

RETRY_STATUS = frozenset({429, 500, 502, 503, 504})


class FetchError(RuntimeError):
    """A page that could not be retrieved; the message names the URL and the cause."""

    def __init__(self, url: str, problem: str, *, status: Optional[int] = None) -> None:
        super().__init__(f"could not fetch {url}: {problem}")
        self.url = url
        self.status = status


@dataclasses.dataclass(frozen=True)
class Fetched:
    url: str  # the final URL after redirects
    body: bytes
    content_type: str
    charset: Optional[str]


def _read_capped(response: httpx.Response, url: str, max_bytes: int) -> bytes:
    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise FetchError(url, f"body of {int(declared)} bytes is over the {max_bytes}-byte cap")
    chunks, size = [], 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise FetchError(url, f"body is over the {max_bytes}-byte cap (stopped reading)")
        chunks.append(chunk)
    return b"".join(chunks)


def fetch(
    url: str,
    *,
    client: Optional[httpx.Client] = None,
    retries: int = DEFAULT_RETRIES,
    backoff_s: float = DEFAULT_BACKOFF_S,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    max_bytes: int = DEFAULT_MAX_BYTES,
    sleep: Optional[Callable[[float], None]] = None,
) -> Fetched:
    """GET ``url`` with retries; raise :class:`FetchError` when it cannot be had."""
    own = client is None
    client = client or httpx.Client(
        timeout=timeout_s, follow_redirects=True, headers={"User-Agent": USER_AGENT}
    )
    last = "no attempt made"
    try:
        for attempt in range(retries + 1):
            if attempt:
                (sleep or time.sleep)(backoff_s * 2 ** (attempt - 1))
            try:
                with client.stream("GET", url, timeout=timeout_s) as response:
                    if response.status_code in RETRY_STATUS:
                        last = f"HTTP {response.status_code}"
                        continue
                    if response.status_code >= 400:
                        raise FetchError(url, f"HTTP {response.status_code}",
                                         status=response.status_code)
                    body = _read_capped(response, url, max_bytes)
                    ctype = response.headers.get("content-type", "")
                    return Fetched(
                        url=str(response.url), body=body,
                        content_type=ctype.split(";")[0].strip().lower(),
                        charset=response.charset_encoding,
                    )
            except httpx.TimeoutException:
                last = f"timed out after {timeout_s:g} s"
            except httpx.TransportError as err:
                last = f"{type(err).__name__}: {err}"
        raise FetchError(url, f"gave up after {retries + 1} attempts (last: {last})")
    finally:
        if own:
            client.close()
