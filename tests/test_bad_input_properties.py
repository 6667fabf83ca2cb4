"""Property suites over the newer surfaces' files and values (issue 33): whatever hypothesis draws,
the outcome is the module's own error naming the input, or the correct result — never another
exception, a hang, or a silently changed value.

Drawn: session files (one field of one record replaced by an arbitrary value, or removed), fault
files (arbitrary text and broken snippets), stress checkpoints (a byte changed or the file cut),
states passed to ``step`` (one field replaced by an arbitrary value), spec files (a line repeated).
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
FILES = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow])
_ANY = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12),
                 st.lists(st.one_of(st.integers(), st.floats()), max_size=3),
                 st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


# ---- session files ---------------------------------------------------------------------------------

def _pong_records() -> list[dict]:
    path = sorted((REPO / "playtest" / "pong").glob("*.jsonl.gz"))[0]
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    return [json.loads(line) for line in lines[:40]] + [json.loads(lines[-1])]


RECORDS = _pong_records()


def _fields(rec: dict, prefix=()):
    for k, v in rec.items():
        if k in ("type", "schema"):
            continue
        yield prefix + (k,)
        if isinstance(v, dict):
            yield from _fields(v, prefix + (k,))


def _finite(x) -> bool:
    if isinstance(x, bool) or isinstance(x, int):
        return True
    if isinstance(x, float):
        return math.isfinite(x)
    return isinstance(x, list) and all(_finite(v) for v in x)


@FILES
@given(data=st.data())
def test_any_damaged_session_record_is_refused_or_cut_with_its_line(tmp_path_factory, data):
    from alignment.playtest.session import SessionError, read_session

    records = [json.loads(json.dumps(r)) for r in RECORDS]
    i = data.draw(st.integers(0, len(records) - 1), label="record")
    path_in = data.draw(st.sampled_from(list(_fields(records[i]))), label="field")
    target = records[i]
    for k in path_in[:-1]:
        target = target[k]
    if data.draw(st.booleans(), label="remove"):
        del target[path_in[-1]]
    else:
        target[path_in[-1]] = data.draw(_ANY, label="value")
    root = tmp_path_factory.mktemp("s") / "pong"
    root.mkdir()
    path = root / "s.jsonl.gz"
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode()))
    try:
        s = read_session(path)
    except SessionError as err:
        assert str(path) in str(err) and i == 0  # only a bad header refuses the whole file
        return
    if s.problem is not None:
        assert str(path) in str(s.problem) and s.problem.line <= i + 1
    header = s.header
    for f in s.frames:  # whatever was kept is what the recorder could have written
        assert isinstance(f["action"], int) and 0 <= f["action"] < len(header["actions"])
        for side in ("ale", "jax"):
            assert all(_finite(f[side][k]) for k in header["signals"])
    assert header["signals"] and all(isinstance(x, str) for x in header["signals"])


# ---- fault files ------------------------------------------------------------------------------------

_SNIPPETS = ["FAULTS = [\n", "FAULTS = None\n", "FAULTS = [1, 2]\n", "raise ValueError('x')\n",
             "import sys\nsys.exit(0)\n", "FAULTS = []\n", "def f(:\n", "\x00", "FAULTS = ()\n",
             "from alignment.audit.faults import Fault\nFAULTS = [Fault(None, 'r')]\n"]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.sampled_from(_SNIPPETS),
                      st.lists(st.sampled_from(_SNIPPETS), min_size=1, max_size=3).map("".join),
                      st.text(max_size=200)))
def test_any_fault_file_is_loaded_or_refused_by_name(tmp_path_factory, text):
    from alignment.audit.faults import Fault, FaultSetError, load_faults

    folder = tmp_path_factory.mktemp("faults")
    (folder / "pong.py").write_text(text, encoding="utf-8", errors="surrogatepass") \
        if "\ud800" not in text else (folder / "pong.py").write_bytes(b"\xff")
    try:
        faults = load_faults("pong", folder)
    except FaultSetError as err:
        assert "pong.py" in str(err)
        return
    assert isinstance(faults, list) and all(isinstance(f, Fault) for f in faults)


# ---- stress checkpoints -------------------------------------------------------------------------------


@FILES
@given(data=st.data())
def test_a_changed_or_cut_checkpoint_is_never_read_as_another(tmp_path_factory, data):
    import numpy as np

    from alignment.learning import checkpoints as ckpts

    root = tmp_path_factory.mktemp("ck")
    history = [{"interval": 0, "steps": 1024, "return": 0.89, "episodes": 2, "losses": [0.1]}]
    ck = ckpts.Checkpoint(1, [np.arange(6, dtype=np.float32)], history, b"emu", 2.0)
    path = ckpts.save(root, "ale", 0, ck)
    blob = bytearray(path.read_bytes())
    if data.draw(st.booleans(), label="cut"):
        blob = blob[:data.draw(st.integers(0, len(blob) - 1), label="length")]
    else:
        at = data.draw(st.integers(0, len(blob) - 1), label="at")
        new = data.draw(st.integers(0, 255).filter(lambda b: b != blob[at]), label="byte")
        blob[at] = new
    path.write_bytes(bytes(blob))
    try:
        got = ckpts.load(path)
    except ckpts.CorruptCheckpoint as err:
        assert str(path) in str(err)
        return
    except (OSError, ValueError, KeyError):
        return  # what ckpts.latest turns into a note and a restart
    # a change the checksum cannot see must not change what is read (e.g. JSON whitespace)
    assert got.history == history and got.interval == 1 and got.env_blob == b"emu"
    np.testing.assert_array_equal(got.leaves[0], ck.leaves[0])


# ---- states passed to step ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pong():
    import jax

    import jaxtari

    game = jaxtari.make("pong")
    return game, game.reset(jax.random.key(0))[1]


_STATE_VALUES = st.one_of(st.integers(-2**63, 2**63), st.floats(), st.booleans(), st.none(),
                          st.text(max_size=3))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["ball_x", "player_y", "enemy_score", "countdown"]),
       value=_STATE_VALUES)
def test_any_value_in_a_state_is_refused_or_held_exactly(pong, field, value):
    import numpy as np

    from jaxtari.env import InvalidStateError

    game, state = pong
    bad = state.replace(**{field: value})
    try:
        game.check_state(bad)
    except InvalidStateError as err:
        assert field in str(err)
        return
    # accepted: the value is one its int32 field holds exactly
    assert isinstance(value, (int, float)) and not isinstance(value, bool) or isinstance(value, bool)
    held = np.asarray(value, np.int32)
    assert float(held) == float(value)


# ---- spec files ----------------------------------------------------------------------------------------


SPEC_LINES = (REPO / "specs" / "pong.yaml").read_text("utf-8").splitlines()
TOP_KEYS = [i for i, line in enumerate(SPEC_LINES) if line and line[0].isalpha() and ":" in line]


@settings(max_examples=30, deadline=None)
@given(i=st.sampled_from(TOP_KEYS))
def test_any_top_level_key_given_twice_is_named_with_both_lines(i):
    from alignment.spec.store import SpecFileError, parse_yaml

    key = SPEC_LINES[i].split(":")[0]
    text = "\n".join(SPEC_LINES + [f"{key}: null"]) + "\n"
    with pytest.raises(SpecFileError, match=f"the key '{key}' appears twice \\(lines {i + 1} and "
                                            f"{len(SPEC_LINES) + 1}\\)"):
        parse_yaml(text)
