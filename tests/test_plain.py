"""The one converter to plain Python data (alignment/plain.py), with the rules each kind of file
relies on: sessions store whole floats as ints, strict-JSON reports store NaN/inf as null."""

import json
import math

import jax.numpy as jnp
import numpy as np

from alignment.plain import finite_or_none, plain, scalar, to_python


def test_scalars_keep_their_kind():
    assert scalar(np.bool_(True)) is True
    assert type(scalar(np.uint8(200))) is int and scalar(np.uint8(200)) == 200
    assert type(scalar(np.float32(3.0))) is float
    assert type(scalar(np.float32(3.0), whole_floats_as_int=True)) is int
    assert scalar(np.float64(2.5), whole_floats_as_int=True) == 2.5
    assert scalar(jnp.int32(-7)) == -7


def test_signal_values_stay_arrays():
    assert to_python(np.int16(4)) == 4 and type(to_python(np.int16(4))) is int
    out = to_python(jnp.arange(3))
    assert isinstance(out, np.ndarray) and out.tolist() == [0, 1, 2]


def test_finite_or_none():
    assert finite_or_none(np.float32(0.5)) == 0.5
    assert finite_or_none(float("nan")) is None and finite_or_none(-math.inf) is None


def test_session_values_whole_floats_as_ints_recursively():
    v = plain(np.array([[1.0, 2.5], [3.0, 4.0]], np.float32), whole_floats_as_int=True)
    assert v == [[1, 2.5], [3, 4]] and type(v[0][0]) is int
    assert math.isnan(plain(np.float64("nan"), whole_floats_as_int=True))


def test_strict_json_reports():
    doc = {"a": np.array([1.0, np.nan, np.inf]), 3: (np.int64(2), np.bool_(False)),
           "s": "text", "n": None, "f": 3.0, "j": jnp.float32(0.25)}
    out = plain(doc, nonfinite_as_none=True)
    assert out == {"a": [1.0, None, None], "3": [2, False], "s": "text", "n": None, "f": 3.0,
                   "j": 0.25}
    assert type(out["f"]) is float and type(out["3"][0]) is int
    json.dumps(out, allow_nan=False)
