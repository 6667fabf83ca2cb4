"""Shared by the draw tests: what the loop that writes a game's 84x84 picture reads, off the compiled
HLO of a scan (jax.jit(...).lower(...).compile().as_text())."""

from __future__ import annotations

import re

import jax

# a table of a line's columns or of the picture's pixels (what XLA moves out of a scan when it is
# computed from the column or row index alone)
TABLE = re.compile(r"(pred|u8|s32|u32)\[(1,)?(84,)?84\]")


def picture_operands(hlo: str):
    """(name, shape, defining op) of every operand of each fusion that writes an 84x84 picture."""
    found = []
    for line in re.findall(r"^\s*%[\w.-]+ = u8\[[0-9,]*84,84\]\S* fusion\((.*?)\), kind=", hlo, re.M):
        for name in re.findall(r"%([\w.-]+)", line):
            m = re.search(rf"^\s*%{re.escape(name)} = (\S+) ([\w-]+)", hlo, re.M)
            found.append((name,) + (m.groups() if m else ("?", "?")))
    return found


def carried_tables(render_gray84, states, advance, length=8):
    """The picture's operands of a table's shape that are not constants of the program (values
    carried through the loop: computed once outside it and loaded per pixel), when ``render_gray84``
    runs vmapped inside a ``lax.scan`` that moves ``states`` on by ``advance`` each trip."""
    def body(s, _):
        s = advance(s)
        return s, jax.vmap(render_gray84)(s)

    hlo = jax.jit(lambda s: jax.lax.scan(body, s, None, length=length)).lower(states).compile().as_text()
    operands = picture_operands(hlo)
    assert operands, "no fusion writes the 84x84 picture"
    return [(name, shape, op) for name, shape, op in operands
            if TABLE.match(shape) and op != "constant"]
