"""One home for turning numpy/JAX values into plain Python data (for JSON, YAML and messages).

Reports, sessions and specs hold plain data only. The options say what each kind of file wants:
a playtest session stores whole floats as ints (a recorded score 3.0 reads back as 3), a stress
report stores a missing statistic (NaN) as ``null`` because strict JSON has no NaN.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np


def scalar(value: Any, *, whole_floats_as_int: bool = False) -> bool | int | float:
    """A 0-d value (numpy or Python) as ``bool``, ``int`` or ``float``."""
    a = np.asarray(value)
    if a.dtype == np.bool_:
        return bool(a)
    if np.issubdtype(a.dtype, np.integer):
        return int(a)
    f = float(a)
    return int(f) if whole_floats_as_int and f.is_integer() else f


def to_python(value: Any) -> Any:
    """A scalar as ``bool``/``int``/``float``; an array stays a numpy array (signal values)."""
    a = np.asarray(value)
    return scalar(a) if a.ndim == 0 else a


def finite_or_none(value: Any) -> float | None:
    """A number as ``float``, or ``None`` when it is NaN or infinite (JSON has neither)."""
    f = float(value)
    return f if math.isfinite(f) else None


def plain(value: Any, *, whole_floats_as_int: bool = False, nonfinite_as_none: bool = False) -> Any:
    """``value`` with every numpy/JAX number and array turned into Python numbers and lists,
    recursively through mappings (keys as strings), lists and tuples. Strings, ``None`` and
    objects that are not numbers pass through unchanged."""
    opts = {"whole_floats_as_int": whole_floats_as_int, "nonfinite_as_none": nonfinite_as_none}
    if isinstance(value, Mapping):
        return {str(k): plain(v, **opts) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v, **opts) for v in value]
    if value is None or isinstance(value, (str, bytes)):
        return value
    a = np.asarray(value)
    if a.ndim:
        return [plain(v, **opts) for v in a.tolist()]
    if a.dtype == np.object_:
        return a.item()
    if np.issubdtype(a.dtype, np.floating) and nonfinite_as_none and not math.isfinite(float(a)):
        return None
    if a.dtype == np.bool_ or np.issubdtype(a.dtype, np.number):
        return scalar(a, whole_floats_as_int=whole_floats_as_int)
    return a.item()


def strict_json(value: Any) -> Any:
    """``value`` as strict JSON data: the reports' rule (stress, robustness), where a statistic that
    does not exist (NaN, infinite) is ``null``, since strict JSON has no NaN."""
    return plain(value, nonfinite_as_none=True)


def whole_number(value: Any, what: str, *, hint: str, error: type[Exception] = ValueError) -> int:
    """``value`` as an int when it is a whole number (an int, a numpy integer, a float with no
    fraction, or a 0-d array of one), else ``error`` naming ``what`` and ending with ``hint``: the
    one check of every number the backends take (actions, frame counts, seeds, RAM bytes), so 1.7
    is refused, never truncated to 1, and NaN or a bool never becomes an action."""
    if getattr(value, "shape", None) == () and hasattr(value, "dtype"):  # a 0-d numpy/JAX array
        value = np.asarray(value).item()
    if isinstance(value, (bool, np.bool_)):
        raise error(f"{what} {value!r} is a bool; {hint}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value) or not float(value).is_integer():
            raise error(f"{what} {value!r} is not a whole number; {hint}")
        return int(value)
    raise error(f"{what} {value!r} is a {type(value).__name__}, not a number; {hint}")
