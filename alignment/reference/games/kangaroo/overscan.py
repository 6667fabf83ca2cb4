"""The cycle budget of Kangaroo's overscan on ALE's ROM (issue 50), for the JAX game's cycle model.

Measured with the cycle tracer :mod:`alignment.porting.cycles` (exact against ALE: every RAM byte
and every step's cycle count, see NOTES.md "A step without logic after an overscan overrun").
Addresses are bank 1's, as ALE's ROM runs them (the public disassembly is of a hack that changed
bank 1). Bank 0 sets the overscan's timer (TIM64T = 34: 2,176 cycles), spends 18 cycles more and
jumps to bank 1's $F479; the overscan's logic then runs the segments below and ends in the wait
loop at $FA43 (``LDA INTIM / BNE``, 7 cycles a turn).

The overrun rule (ALE's M6532 arithmetic, checked on the 216 overrunning steps): with ``u`` the
cycles from the timer write to the first ``LDA INTIM`` of the wait loop, the loop reads the timer
at ``u + 3`` (after the instruction's 4 cycles, minus the one ALE's M6532 takes off). A read at
2,176 or later (cycles after the write) misses the timer's last 0: the frame overruns when
``u >= OVERRUN_FROM``, and ALE's "read after interrupt" cycle is ``u + 4`` (from u = 2,174; at
2,173 the first read finds 255 and the next, 7 cycles later, is the one).
"""

from __future__ import annotations

from alignment.porting import cycles

TIMER_BUDGET = 34 * 64  # the overscan's TIM64T value x its interval
OVERRUN_FROM = TIMER_BUDGET - 3  # u >= 2,173: the wait loop's first read finds the timer run out
BANK = 1

# where each segment of the overscan's logic starts (bank 1); what it reads, from the trace
SEGMENTS = {
    0xF479: "prelude",  # ram[41], ram[54], ram[57]: whether the monkeys think this frame
    0xF50A: "monkeys",  # ram[57] & 15 == 0: one BRK per slot 3..0, handler $FA74 on ram[4 + slot]
    0xF512: "no_think",  # the other frames' work in place of the monkeys'
    0xF524: "parity",  # ram[57] odd: the thrown apples' loop ($F52B) and CXPPMM ($F55F)
    0xF590: "glove",  # CXM1FB's D6 (BIT): a punch that landed
    0xF5A2: "cxclr",  # CXCLR, then ram[54] and ram[58]
    0xF5E4: "joystick",  # SWCHA, INPT4, ram[18] (the pose): which movement routine runs
    0xF60D: "facing",  # LEFT/RIGHT set the facing; DOWN ducks here ($FCA4, $FC99) to $F82C
    0xF673: "up_sideways",  # every other joystick: the UP family climbs/jumps, LEFT/RIGHT walk
    0xF82C: "rows",  # the floors' list ram[61..66] from the mother's row and the monkeys' rows
    0xF8D7: "list",  # one pass per list entry (5..0), through $F913
    0xF9CB: "end",  # ram[57] parity, then the wait loop
    0xFA43: "wait",  # LDA INTIM / BNE until the timer reads 0
}


def overscan_cycles(frame: cycles.Frame) -> dict:
    """The cycles a traced frame (``trace_pcs=True``) spent in each overscan segment, from the
    overscan's timer write to the wait loop's first read, with ``u`` (the logic's total, see the
    module docstring) and whether it overran."""
    writes = [c for c, shift, value in frame.timer_writes if (shift, value) == (6, 34)]
    if not writes:
        raise ValueError("the frame set no overscan timer (TIM64T 34): not a Kangaroo game frame")
    start = writes[-1]
    waits = [c for c, b, pc in frame.pcs if b == BANK and pc == 0xFA43 and c > start]
    if not waits:
        raise ValueError("the frame never reached the overscan's wait loop ($FA43)")
    out = cycles.segment_cycles(frame, SEGMENTS, bank=BANK, start=start, end=waits[0])
    u = waits[0] - start
    return {"segments": out, "u": u, "overran": u >= OVERRUN_FROM}
