"""HTTP retrieval and the cache, against a respx-mocked transport (never the network)."""

from __future__ import annotations

import json

import httpx
import pytest
import respx

from alignment.docs.cache import DocCache
from alignment.docs.corpus import load_documents
from alignment.docs.fetch import FetchError, fetch
from alignment.spec.offline import extract

URL = "https://ale.farama.org/environments/pong/"
MANUAL = "https://atariage.com/manual_html_page.php?SoftwareLabelID=587"


def no_sleep(_seconds: float) -> None:
    pass


@respx.mock
def test_retries_on_5xx_then_succeeds():
    route = respx.get(URL).mock(side_effect=[
        httpx.Response(503), httpx.Response(502),
        httpx.Response(200, text="<p>ok</p>", headers={"content-type": "text/html; charset=utf-8"}),
    ])
    waits: list[float] = []
    got = fetch(URL, retries=3, backoff_s=0.5, sleep=waits.append)
    assert got.body == b"<p>ok</p>" and got.content_type == "text/html" and got.charset == "utf-8"
    assert route.call_count == 3
    assert waits == [0.5, 1.0]  # exponential backoff between attempts


@respx.mock
def test_gives_up_after_the_retries():
    route = respx.get(URL).mock(return_value=httpx.Response(500))
    with pytest.raises(FetchError, match=r"gave up after 3 attempts \(last: HTTP 500\)"):
        fetch(URL, retries=2, sleep=no_sleep)
    assert route.call_count == 3


@respx.mock
def test_transport_errors_are_retried():
    route = respx.get(URL).mock(side_effect=[httpx.ConnectError("refused"),
                                             httpx.Response(200, text="fine")])
    assert fetch(URL, retries=1, sleep=no_sleep).body == b"fine"
    assert route.call_count == 2


@respx.mock
def test_client_errors_are_not_retried():
    route = respx.get(URL).mock(return_value=httpx.Response(404))
    with pytest.raises(FetchError, match="HTTP 404") as err:
        fetch(URL, retries=3, sleep=no_sleep)
    assert err.value.status == 404 and route.call_count == 1


@respx.mock
def test_size_cap_by_declared_length_and_while_streaming():
    respx.get(URL).mock(return_value=httpx.Response(200, content=b"x" * 5000))
    with pytest.raises(FetchError, match="over the 1000-byte cap"):
        fetch(URL, max_bytes=1000, sleep=no_sleep)

    def chunks():  # no content-length header: the cap must hold while streaming
        for _ in range(10):
            yield b"y" * 400

    respx.get(MANUAL).mock(return_value=httpx.Response(200, content=chunks()))
    with pytest.raises(FetchError, match="stopped reading"):
        fetch(MANUAL, max_bytes=1000, sleep=no_sleep)


def test_cache_round_trip_and_corruption(tmp_path):
    cache = DocCache(tmp_path)
    assert cache.get(URL) is None
    entry = cache.put(URL, b"<p>page</p>", content_type="text/html", retrieved="2026-01-02")
    again = cache.get(URL)
    assert again == entry and again.retrieved == "2026-01-02"
    meta = json.loads((cache.dir / f"{cache.key(URL)}.json").read_text())
    assert meta["url"] == URL and len(meta["sha256"]) == 64
    (cache.dir / f"{cache.key(URL)}.body").write_bytes(b"tampered")
    assert cache.get(URL) is None  # a body that no longer matches its sha is not trusted
    assert not list(cache.dir.glob("*.tmp"))


FARAMA_HTML = """<html><body><article>
<h1>Pong</h1>
<table><tr><td>Make</td><td>gymnasium.make("ALE/Pong-v5")</td></tr>
<tr><td>Action Space</td><td>Discrete(3)</td></tr>
<tr><td>Observation Space</td><td>Box(0, 255, (210, 160, 3), uint8)</td></tr></table>
<h2>Description</h2>
<p>The agent works the right paddle against the console.</p>
<p>Manual: <a href="https://atariage.com/manual_html_page.php?SoftwareLabelID=587">AtariAge</a></p>
<h2>Actions</h2>
<table><tr><th>Index</th><th>Action</th></tr><tr><td>0</td><td>NOOP</td></tr>
<tr><td>1</td><td>RIGHT</td></tr><tr><td>2</td><td>LEFT</td></tr></table>
<h2>Variants</h2>
<table><tr><th>Env-id</th><th>obs_type=</th><th>frameskip=</th><th>repeat_action_probability=</th></tr>
<tr><td>ALE/Pong-v5</td><td>rgb</td><td>4</td><td>0.25</td></tr></table>
<h2>Difficulty and modes</h2>
<table><tr><th>Available Modes</th><th>Default Mode</th><th>Available Difficulties</th>
<th>Default Difficulty</th></tr><tr><td>[0, 1]</td><td>0</td><td>[0, ..., 3]</td><td>0</td></tr></table>
</article></body></html>"""

MANUAL_HTML = """<html><body><h1>PONG GAME</h1><h2>SCORING</h2>
<p>A player wins a game by scoring 21 points first. Each missed ball gives one point to the
other side.</p></body></html>"""


@respx.mock
def test_load_documents_over_http_uses_the_cache(tmp_path):
    farama = respx.get(URL).mock(return_value=httpx.Response(
        200, text=FARAMA_HTML, headers={"content-type": "text/html"}))
    manual = respx.get(MANUAL).mock(return_value=httpx.Response(
        200, content=MANUAL_HTML.encode("cp1252"), headers={"content-type": "text/html"}))
    cache = DocCache(tmp_path)
    first = load_documents("Pong", cache=cache)
    assert [d.id for d in first.documents] == ["farama/pong", "manual/pong"] and not first.missing
    assert first.documents[1].url == MANUAL
    second = load_documents("ALE/Pong-v5", cache=cache)
    assert farama.call_count == 1 and manual.call_count == 1  # second load: cache hits only
    assert [d.sha256 for d in second.documents] == [d.sha256 for d in first.documents]

    spec = extract("pong", second.documents)
    assert spec.actions == ["NOOP", "RIGHT", "LEFT"]
    assert spec.flavors.difficulties == [0, 1, 2, 3]
    win = [r for r in spec.rules if r.category == "termination"]
    assert win and win[0].parameters["points"].value == 21
    docs = second.by_id()
    for rule in spec.rules:  # every span is real text of the rendered page
        assert rule.source.text(docs)


@respx.mock
def test_missing_manual_is_a_message_not_an_error(tmp_path):
    respx.get(URL).mock(return_value=httpx.Response(200, text=FARAMA_HTML))
    respx.get(MANUAL).mock(return_value=httpx.Response(404))
    loaded = load_documents("pong", cache=DocCache(tmp_path))
    assert [d.id for d in loaded.documents] == ["farama/pong"]
    assert len(loaded.missing) == 1 and "HTTP 404" in loaded.missing[0]
    assert "Farama page only" in loaded.missing[0]


@respx.mock
def test_unreachable_farama_page_suggests_a_corpus(tmp_path, monkeypatch):
    monkeypatch.setattr("alignment.docs.fetch.time.sleep", no_sleep)
    respx.get(URL).mock(return_value=httpx.Response(503))
    loaded = load_documents("pong", cache=DocCache(tmp_path))
    assert loaded.documents == [] and "--docs DIR" in loaded.missing[0]
