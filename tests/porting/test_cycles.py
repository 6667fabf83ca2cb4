"""The 6507 cycle tracer (alignment/porting/cycles.py).

Hand-assembled programs whose cycle counts were worked out by hand from the MOS 6502 timing
tables (base cycles, +1 for an indexed read across a page, +1 for a taken branch, +2 when it lands
on another page), then ALE itself: from ALE's state after step t, the tracer's frame t+1 must
leave every RAM byte as ALE does after step t+1 and take ALE's cycle count for the step."""

import pytest

from alignment import deepplay
from alignment.porting import cycles
from alignment.reference.games.kangaroo import overscan

BANK1 = 4096  # offset of bank 1 ($F000-$FFFF when selected) in the 8K image


def _rom(program: dict[int, bytes], *, bank0: dict[int, bytes] | None = None) -> bytes:
    """An 8K F8 image of NOPs with ``program`` (address in bank 1 -> bytes) placed in it."""
    image = bytearray(b"\xEA" * 8192)
    for bank, parts in ((1, program), (0, bank0 or {})):
        for addr, code in parts.items():
            at = bank * 4096 + (addr & 0x0FFF)
            image[at:at + len(code)] = code
    return bytes(image)


def _machine(program, *, pc=0xF000, **kw):
    return cycles.Machine.bare(_rom(program, **kw), pc=pc)


def test_load_store_and_read_modify_write_timings():
    # LDA #1 (2), STA $80 (3), LDX $80 (3), INX (2), STX $0081 (4), INC $0081 (6), NOP (2)
    m = _machine({0xF000: bytes.fromhex("a901 8580 a680 e8 8e8100 ee8100 ea")})
    assert m.run(7) == 22
    assert m.ram[0] == 1 and m.ram[1] == 3 and m.x == 2


def test_indexed_reads_pay_for_a_page_crossing_and_writes_do_not():
    # LDX #$FF (2); LDA $F001,X -> $F100, crosses (4+1); LDA $F000,X -> $F0FF (4);
    # STA $F001,X: a write, no penalty (5)
    m = _machine({0xF000: bytes.fromhex("a2ff bd01f0 bd00f0 9d01f0")})
    assert m.run(4) == 16
    # pointer $F0F8 at $80: LDY #$10 (2), LDA ($80),Y -> $F108 crosses (5+1); LDY #$07 (2),
    # LDA ($80),Y -> $F0FF (5); after LDA #$F8 (2), STA $80 (3), LDA #$F0 (2), STA $81 (3)
    m = _machine({0xF000: bytes.fromhex("a9f8 8580 a9f0 8581 a010 b180 a007 b180")})
    assert m.run(4) == 10
    assert m.run(2) == 8
    assert m.run(2) == 7


@pytest.mark.parametrize("at, code, expected", [
    (0xF000, "a200 f000", 2 + 3),  # BEQ taken to the next instruction: same page, +1
    (0xF000, "a200 d000", 2 + 2),  # BNE not taken
    (0xF0EE, "a200 f020", 2 + 4),  # BEQ from $F0F2 (after it) to $F112: another page, +2
    (0xF100, "a200 f0f6", 2 + 4),  # BEQ back from $F104 to $F0FA: another page, +2
    (0xF100, "a201 d0fc", 2 + 3),  # BNE back from $F104 to $F100: same page, +1
])
def test_branch_timings(at, code, expected):
    m = _machine({at: bytes.fromhex(code)}, pc=at)
    assert m.run(2) == expected


def test_jsr_rts_and_the_stack_in_riot_ram():
    # JSR $F010 (6) -> RTS (6) -> NOP at $F003 (2)
    m = _machine({0xF000: bytes.fromhex("2010f0 ea"), 0xF010: bytes.fromhex("60")})
    assert m.run(3) == 14
    assert m.pc == 0xF004
    assert (m.ram[0x7F], m.ram[0x7E]) == (0xF0, 0x02)  # the return address - 1, high byte first


def test_brk_and_rti():
    # BRK (7) through the vector at $FFFE to RTI (6): back after BRK's padding byte
    m = _machine({0xF000: bytes.fromhex("00 ff ea"), 0xF020: bytes.fromhex("40"),
                  0xFFFE: bytes.fromhex("20f0")})
    assert m.run(2) == 13
    assert m.pc == 0xF002


def test_wsync_halts_to_the_end_of_the_line():
    # LDA #0 (2), STA WSYNC (3): at cycle 5, the CPU waits to 76; NOP (2)
    m = _machine({0xF000: bytes.fromhex("a900 8502 ea")})
    assert m.run(3) == 76 + 2


def test_riot_timer_counts_in_its_interval():
    # LDA #2 (2), STA TIM8T (4): set at cycle 6; LDA INTIM (4) reads at cycle 10, 3 cycles
    # into the first 8-cycle interval: 1
    m = _machine({0xF000: bytes.fromhex("a902 8d9502 ad8402")})
    assert m.run(3) == 10
    assert m.a == 1 and (m.timer_set_at, m.shift, m.timer) == (6, 3, 2)


def test_f8_hotspot_switches_the_bank_the_next_fetch_comes_from():
    # LDA $1FF8 (4) selects bank 0: the next instruction comes from bank 0's $F003
    m = _machine({0xF000: bytes.fromhex("adf81f"), 0xF003: bytes.fromhex("a917")},
                 bank0={0xF003: bytes.fromhex("a942")})
    assert m.run(2) == 6
    assert m.bank == 0 and m.a == 0x42


def test_decimal_adc():
    # SED, LDA #$19, CLC, ADC #$28: 47 in BCD, 2 cycles each
    m = _machine({0xF000: bytes.fromhex("f8 a919 18 6928")})
    assert m.run(4) == 8
    assert m.a == 0x47 and not m.f["C"]


def test_collision_candidates_cover_the_bits_read():
    # CXM1FB (5) is bits 10 (D7) and 11 (D6) of Stella's word, CXPPMM (7) bits 13 and 14,
    # CXBLPF (6) bit 12 alone; INPT4 (12) is no collision
    words = cycles.collision_words([(0, 0, 5), (0, 0, 12), (0, 0, 5)])
    assert sorted(words) == [0, 1 << 10, 1 << 11, 3 << 10]
    assert sorted(cycles.collision_words([(0, 0, 6), (0, 0, 7)])) == [
        0, 1 << 12, 1 << 13, 3 << 12, 1 << 14, 5 << 12, 6 << 12, 7 << 12]
    assert cycles.collision_words([]) == [0]


def test_bad_input_is_refused_by_name():
    with pytest.raises(cycles.StateFormatError, match="no System record"):
        cycles.parse_ale_state(b"not an ALE state")
    with pytest.raises(ValueError, match="unknown joystick action 'JUMP'"):
        cycles.Joystick.of_action("jump")
    with pytest.raises(ValueError, match="8192 bytes"):
        cycles.Machine.bare(bytes(4096), pc=0xF000)
    m = _machine({0xF000: bytes.fromhex("02")})  # an undocumented opcode (a 6502 jam)
    with pytest.raises(cycles.TracerError, match="0x02 at 0xf000"):
        m.run(1)


# ---- against ALE ------------------------------------------------------------------------------
ROM = "kangaroo"


def _compare(actions, frames, start=0):
    """Replay ``actions`` on ALE; for each step in ``frames`` run the tracer from ALE's state
    before it and compare with ALE's state after it. Returns the mismatches."""
    rom = cycles.rom_bytes(ROM)
    g = deepplay.Lookahead(ROM)
    before = cycles.parse_ale_state(g.raw.cloneState())
    bad = []
    for t in range(start, max(frames) + 1):
        a = int(actions[t])
        g.raw.act(g.actions[a])
        after = cycles.parse_ale_state(g.raw.cloneState())
        if t in frames:
            fr = cycles.Machine(rom, before).run_frame(cycles.Joystick.of_action(g.names[a]))
            if fr.ram != after.ram or fr.cycles != after.cycles:
                bad.append((t, g.names[a], fr.cycles, after.cycles))
        before = after
    return bad


def test_stored_kangaroo_frames_match_ale_ram_and_cycles():
    doc, actions = deepplay.load_actions("tests/data/deep/kangaroo-s0.json")
    assert _compare(actions, set(range(300))) == []


def test_kangaroo_overrun_frames_match_ale():
    """Frame 11,288 of the s7 recording, each action family (NOTES.md: DOWN overruns the
    overscan's timer by 10 cycles, UP by 3; NOOP does not), then the empty step after DOWN."""
    doc, actions = deepplay.load_actions("tests/data/deep-divergent/kangaroo-s7-overrun.json")
    rom = cycles.rom_bytes(ROM)
    g = deepplay.Lookahead(ROM)
    t = doc["overrun_frame"] - 1
    for a in actions[:t]:
        g.raw.act(g.actions[int(a)])
    start = g.raw.cloneState()
    seen = {}
    for name in ("DOWN", "UP", "UPLEFT", "UPRIGHT", "NOOP", "FIRE"):
        g.raw.restoreState(start)
        g.raw.act(g.actions[g.names.index(name)])
        after = cycles.parse_ale_state(g.raw.cloneState())
        fr = cycles.frame_after(rom, start, name, trace_pcs=True)
        assert (fr.ram, fr.cycles) == (after.ram, after.cycles), name
        seen[name] = (fr.cycles, fr.ended_by)
        # the overscan's logic from its timer write to the wait loop: over the budget exactly
        # when ALE's RIOT saw a read after the timer ran out, at the cycle the rule says
        profile = overscan.overscan_cycles(fr)
        timer_set = fr.timer_writes[-1][0]
        assert after.timer_set_at == timer_set
        assert profile["overran"] == after.timer_read_after_interrupt, name
        if profile["overran"]:
            assert after.interrupt_reset_at == timer_set + profile["u"] + 4
        if name == "DOWN":
            # the empty step: only the next VSYNC, no RAM byte changed
            empty = cycles.frame_after(rom, g.raw.cloneState(), "DOWN")
            g.raw.act(g.actions[g.names.index("DOWN")])
            assert empty.cycles == cycles.parse_ale_state(g.raw.cloneState()).cycles < 300
            assert empty.ram == fr.ram
    assert seen["DOWN"] == (35486, "overlong")
    assert seen["NOOP"] == (19912, "vsync")


def test_a_collision_the_picture_latched_is_read_from_the_latches_given():
    """Frame 5,691 of kangaroo-s0: the overscan's BIT CXPPMM reads a missile-missile collision
    the picture latched (D6), then CXCLR clears it, so ALE's states before and after the step both
    hold 0. The tracer cannot draw: it matches ALE only given that latch."""
    doc, actions = deepplay.load_actions("tests/data/deep/kangaroo-s0.json")
    rom = cycles.rom_bytes(ROM)
    g = deepplay.Lookahead(ROM)
    t = 5691
    for a in actions[:t]:
        g.raw.act(g.actions[int(a)])
    start = g.raw.cloneState()
    name = g.names[int(actions[t])]
    g.raw.act(g.actions[int(actions[t])])
    after = cycles.parse_ale_state(g.raw.cloneState())
    assert cycles.parse_ale_state(start).collision == after.collision == 0
    unlatched = cycles.frame_after(rom, start, name)
    assert unlatched.ram != after.ram
    cxppmm_d6 = 1 << 14
    latched = cycles.frame_after(rom, start, name, latches=cxppmm_d6)
    assert (latched.ram, latched.cycles) == (after.ram, after.cycles)
    assert cxppmm_d6 in cycles.collision_words(unlatched.tia_reads)


@pytest.mark.slow
def test_a_whole_stored_kangaroo_game_matches_ale():
    """Every step of kangaroo-cycle (6,224 frames, two rounds): no collision the picture latched
    is read in it, so every frame is exact from ALE's state alone."""
    doc, actions = deepplay.load_actions("tests/data/deep/kangaroo-cycle.json")
    assert _compare(actions, set(range(len(actions)))) == []
