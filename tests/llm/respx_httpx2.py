"""respx for ``httpx2``: lets ``respx.mock(using="httpx2")`` intercept the official SDKs' traffic.

The ``anthropic`` (2.x) and ``openai`` (3.x) SDKs installed here send their requests through
``httpx2``, a separate package from ``httpx``; respx only patches ``httpx`` and ``httpcore``, so
without this module a mocked test would silently try the network. Importing it registers a respx
mocker named ``"httpx2"`` that replaces the transport of every ``httpx2.Client``: each request is
converted to an ``httpx.Request``, resolved by the active respx router (which records the call and
applies ``assert_all_mocked``) and the ``httpx.Response`` it returns is converted back. Everything
above the transport - the SDK's client, headers, retries, response parsing - is the real code.
"""

from __future__ import annotations

import httpx
import httpx2
from respx.mocks import Mocker

__all__ = ["HTTPX2Mocker", "USING"]

USING = "httpx2"


def _to_httpx(request: httpx2.Request) -> httpx.Request:
    return httpx.Request(
        request.method,
        str(request.url),
        headers=list(request.headers.multi_items()),
        content=request.content,
    )


def _to_httpx2(response: httpx.Response, request: httpx2.Request) -> httpx2.Response:
    # respx responses are in memory; drop content-encoding/length so httpx2 takes the bytes as they are
    headers = [
        (k, v) for k, v in response.headers.multi_items()
        if k.lower() not in ("content-encoding", "content-length")
    ]
    return httpx2.Response(
        response.status_code, headers=headers, content=response.content, request=request
    )


class HTTPX2Mocker(Mocker):
    """respx mocker patching ``httpx2.Client._transport_for_url`` (sync clients only)."""

    name = USING
    targets = ["httpx2._client.Client"]
    target_methods = ["_transport_for_url"]

    @classmethod
    def mock(cls, spec):
        def _transport_for_url(self, *args, **kwargs):
            def handle(request: httpx2.Request) -> httpx2.Response:
                return _to_httpx2(cls.handler(_to_httpx(request)), request)

            return httpx2.MockTransport(handle)

        return _transport_for_url
