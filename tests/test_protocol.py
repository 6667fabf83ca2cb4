"""One home for the ALE v5 protocol's numbers (``jaxtari.protocol.V5``) and one grey function
(``jaxtari.render.gray``): the numbers are ale-py's own, and no other module of the library or the
pipeline writes them again (their docs may mention them; their code reads ``V5``)."""

from __future__ import annotations

import ast
from pathlib import Path

import gymnasium
import jax
import numpy as np
import pytest

from jaxtari import render
from jaxtari.atari.palette import PALETTE
from jaxtari.protocol import V5

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "jaxtari" / "protocol.py"
SCANNED = ("jaxtari", "alignment")

# A name that holds one of the protocol's numbers, by what it names; a literal bound to such a name
# that equals the v5 value is the number written again.
KINDS = (
    (("frameskip", "frame_skip"), V5.frameskip),
    (("sticky", "repeat_action"), V5.repeat_action_probability),
    (("frames",), V5.max_num_frames_per_episode),
    (("steps",), V5.max_agent_steps),
)
# Numbers no other code has a reason to write: the cap, in frames and in agent steps.
CAPS = (V5.max_num_frames_per_episode, V5.max_agent_steps)


def test_v5_is_ale_pys_v5():
    import ale_py

    gymnasium.register_envs(ale_py)
    kwargs = gymnasium.spec("ALE/Breakout-v5").kwargs
    assert kwargs["frameskip"] == V5.frameskip
    assert kwargs["repeat_action_probability"] == V5.repeat_action_probability
    assert kwargs["full_action_space"] == V5.full_action_space
    assert kwargs["max_num_frames_per_episode"] == V5.max_num_frames_per_episode
    assert V5.max_agent_steps == 27_000 and V5.noop_max == 0


def _literal(node):
    """The number a literal (or a call like ``typer.Option(4, ...)`` defaulting to one) holds."""
    if isinstance(node, ast.Call) and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    return None


def _redefines(name: str | None, value) -> bool:
    if name is None or value is None:
        return False
    name = name.lower()
    return any(any(word in name for word in words) and value == number for words, number in KINDS)


def redefinitions(source: str) -> list[tuple[int, str]]:
    """(line, what) for each v5 number ``source`` writes as code."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and type(node.value) is int and node.value in CAPS:
            found.append((node.lineno, f"the literal {node.value:_}"))
        pairs = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            positional = a.posonlyargs + a.args
            pairs += zip([p.arg for p in positional[len(positional) - len(a.defaults):]], a.defaults)
            pairs += [(p.arg, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
        elif isinstance(node, ast.Call):
            pairs += [(k.arg, k.value) for k in node.keywords]
        elif isinstance(node, ast.Assign):
            pairs += [(t.id, node.value) for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            pairs.append((node.target.id, node.value))
        elif isinstance(node, ast.Dict):
            pairs += [(k.value, v) for k, v in zip(node.keys, node.values)
                      if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        found += [(value.lineno, f"{name} = {_literal(value)!r}") for name, value in pairs
                  if _redefines(name, _literal(value))]
    return sorted(set(found))


def test_the_checker_finds_each_way_of_writing_them():
    source = "\n".join([
        "FRAMESKIP = 4",
        "def f(frameskip: int = 4, *, sticky=0.25): ...",
        "g(frame_skip=4, repeat_action_probability=0.25)",
        "opt = dict(max_episode_steps=27_000)",
        "kwargs = {'max_num_frames_per_episode': 108000}",
        "def h(frameskip: int = typer.Option(4, min=1)): ...",
        "class S:\n    sticky_prob: float = 0.25",
        "limit = Field(le=108_000)",
    ])
    lines = {line for line, _ in redefinitions(source)}
    assert lines == set(range(1, 10)) - {7}, redefinitions(source)
    # other values are a deliberate other protocol, and other names are other numbers
    assert redefinitions("g(frameskip=1, sticky=0.0)\nSTACK = 4\nalpha = 0.25") == []


def test_the_v5_numbers_are_defined_once():
    offenders = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == HOME:
                continue
            offenders += [f"{path.relative_to(ROOT)}:{line}: {what}"
                          for line, what in redefinitions(path.read_text(encoding="utf-8"))]
    assert offenders == [], "import jaxtari.protocol.V5 instead of writing its numbers:\n" \
        + "\n".join(offenders)
    home = redefinitions(HOME.read_text())
    assert sorted(what for _, what in home) == [
        "frameskip = 4", "max_num_frames_per_episode = 108000", "repeat_action_probability = 0.25",
        "the literal 108_000"], home


def test_one_grey_function():
    """No module but jaxtari/render.py holds ALE's grey weights."""
    offenders = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "jaxtari" / "render.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and node.value in (0.299, 0.587, 0.114, 299, 587):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def _every_colour(chunk: int):
    for start in range(0, 1 << 24, chunk):
        i = np.arange(start, start + chunk, dtype=np.uint32)
        yield np.stack([(i >> 16) & 255, (i >> 8) & 255, i & 255], -1).astype(np.uint8)


@pytest.mark.parametrize("chunk", [1 << 22])
def test_gray_is_the_same_bits_in_numpy_and_in_xla(chunk):
    traced = jax.jit(render.gray)
    for rgb in _every_colour(chunk):
        here = render.gray(rgb)
        assert isinstance(here, np.ndarray) and here.dtype == np.uint8
        np.testing.assert_array_equal(np.asarray(traced(rgb)), here)
        # round(0.299 r + 0.587 g + 0.114 b), ties to even: only a tie can sit within 1e-9 of .5
        exact = (rgb.astype(np.int64) * np.array([299, 587, 114])).sum(-1) / 1000
        off_tie = np.abs(exact % 1 - 0.5) > 1e-9
        np.testing.assert_array_equal(here[off_tie], np.round(exact[off_tie]).astype(np.uint8))


def test_the_palettes_grey_is_the_one_every_path_draws():
    grey = render.gray(PALETTE)
    np.testing.assert_array_equal(render.colour_for(render.SMALL_GRAY, PALETTE), grey)
    np.testing.assert_array_equal(jax.jit(lambda c: render.colour_for(render.SMALL_GRAY, c))(PALETTE),
                                  grey)
    # the float forms the renderer and the drop-in used before: the same levels on every colour a
    # cartridge can show (they part only on exact .5 ties, which no palette row is)
    np.testing.assert_array_equal(np.round(PALETTE.astype(np.float64) @ [0.299, 0.587, 0.114]),
                                  grey)
