"""A cycle-exact 6507 tracer of one ALE frame, started from ALE's own serialized state.

Why: some divergences are a matter of CPU cycles (Kangaroo's overscan overrunning its RIOT timer,
issue 50), and a cycle model in a JAX game needs the cost of each of the cartridge's branches on
ALE's ROM. This module runs one emulator frame the way ALE's Stella core does and says where the
cycles went:

- the 6507 with the documented 6502 timings: each opcode's base cycles, +1 for an indexed read
  crossing a page, +1 for a taken branch and +2 when it lands on another page; ALE's core adds an
  instruction's base cycles before it makes the instruction's accesses, so a read or write sees
  the cycle count at the instruction's end (a read of the RIOT timer subtracts one, as ALE's
  M6532 does);
- F8 bank switching (an access to $xFF8 / $xFF9 selects bank 0 / 1 of the 8K image);
- 128 bytes of RIOT RAM (the stack lives there), the RIOT timer with ALE's M6532 arithmetic (its
  wrap past 0 and the "read after interrupt" re-base), SWCHA / SWCHB / INPT4 from the joystick
  and the console's default switches;
- the TIA: WSYNC halts to the end of the 76-cycle line counted from the frame's start, VSYNC ends
  the frame where ALE ends it (VSYNC cleared at least one line after it was set), and any TIA
  write more than 290 lines into the frame ends it too (ALE's cap for a frame without VSYNC);
  collision reads return values given by the caller; other TIA writes draw nothing here.

The start is ALE's state after a step (:func:`parse_ale_state` reads ale-py's pickled
``ALEState``: the Stella ``System``, ``M6502Low``, ``M6532``, ``TIA`` and ``CartridgeF8``
records), so frame t+1 can be run from ALE's state after step t and compared with ALE after step
t+1. Facts on the format and on ALE's emulation come from the public ALE sources (Stella 2.x
core: System, M6502Low, M6532, TIA, CartF8, Serializer).
"""

from __future__ import annotations

import dataclasses
import pickle
from typing import Optional

from jaxtari.env import ACTION_IDS

# ---- ALE's serialized state -------------------------------------------------------------------
_TRUE, _FALSE = 0xFAB1FAB2, 0xBAD1BAD2  # Stella's Serializer writes a bool as one of these ints
CYCLES_PER_LINE = 76
CLOCKS_PER_LINE = 228
MAX_LINES = 290  # ALE's TIA ends a frame at a write past this many lines without VSYNC
_INSTRUCTIONS_PER_UPDATE = 25000  # ALE's TIA::update runs at most this many instructions


class StateFormatError(ValueError):
    """ALE's serialized state is not in the layout this parser reads (another ale-py, a
    cartridge that is not F8)."""


class TracerError(RuntimeError):
    """The program did something the tracer does not emulate (an opcode outside the documented
    6502 set, a frame ALE would split across steps)."""


@dataclasses.dataclass
class AleState:
    """The parts of ALE's serialized state a frame's CPU needs, as ALE saved them."""

    cycles: int  # System: CPU cycles since the frame started (ALE restarts them every frame)
    a: int
    x: int
    y: int
    sp: int
    pc: int
    flags: dict  # N V B D I Z C as bools (Z, not Stella's stored notZ)
    ram: bytes  # 128 bytes
    timer: int  # M6532: the value written to the timer
    timer_shift: int  # 0, 3, 6 or 10 (TIM1T, TIM8T, TIM64T, T1024T)
    timer_set_at: int  # System cycle of that write
    interrupt_reset_at: int  # System cycle of the first read after the timer ran out
    timer_read_after_interrupt: bool
    clock_frame_started: int  # TIA: colour clock (3 a CPU cycle) the frame began at
    vsync_finish_clock: int
    vsync: int
    collision: int  # TIA's 15 collision latches as one word (Stella's bit order)
    bank: int  # CartridgeF8: the bank selected


def _record(blob: bytes, name: str) -> int:
    tag = len(name).to_bytes(4, "little") + name.encode()
    at = blob.find(tag)
    if at < 0 or blob.find(tag, at + 1) >= 0:
        raise StateFormatError(
            f"ALE's serialized state has {'no' if at < 0 else 'more than one'} {name} record: "
            f"this parser reads ale-py 0.8-0.12's Stella layout and F8 (8K) cartridges")
    return at + len(tag)


def _ints(blob: bytes, at: int, n: int) -> list[int]:
    return [int.from_bytes(blob[at + 4 * i:at + 4 * i + 4], "little") for i in range(n)]


def _bool(v: int, what: str) -> bool:
    if v not in (_TRUE, _FALSE):
        raise StateFormatError(f"ALE's serialized state: {what} is {v:#x}, not a Stella bool")
    return v == _TRUE


def _signed(v: int) -> int:
    return v - (1 << 32) if v & 0x80000000 else v


def parse_ale_state(state) -> AleState:
    """Read an ``ale_py.ALEState`` (or its pickle bytes) into an :class:`AleState`."""
    blob = state if isinstance(state, (bytes, bytearray)) else pickle.dumps(state)
    cycles = _ints(blob, _record(blob, "System"), 1)[0]
    cpu = _ints(blob, _record(blob, "M6502Low"), 13)
    names = "NVBDIZC"
    flags = {k: _bool(v, f"M6502Low flag {k}") for k, v in zip(names, cpu[6:13])}
    flags["Z"] = not flags["Z"]  # Stella stores notZ
    at = _record(blob, "M6532")
    riot = _ints(blob, at, 1 + 128 + 5)
    if riot[0] != 128:
        raise StateFormatError(f"ALE's M6532 record holds {riot[0]} RAM bytes, not 128")
    tia = _ints(blob, _record(blob, "TIA"), 41)
    bank = _ints(blob, _record(blob, "CartridgeF8"), 1)[0]
    return AleState(
        cycles=cycles, a=cpu[0], x=cpu[1], y=cpu[2], sp=cpu[3], pc=cpu[5], flags=flags,
        ram=bytes(v & 0xFF for v in riot[1:129]), timer=riot[129], timer_shift=riot[130],
        timer_set_at=riot[131], interrupt_reset_at=riot[132],
        timer_read_after_interrupt=_bool(riot[133], "M6532 timer read after interrupt"),
        clock_frame_started=_signed(tia[0]), vsync_finish_clock=_signed(tia[7]), vsync=tia[9],
        collision=tia[40], bank=bank)


# ---- the 6502 instruction set -----------------------------------------------------------------
# (mnemonic, addressing mode, base cycles) of the 151 documented opcodes, from the MOS 6502
# programming manual's tables; indexed reads (abx, aby, izy) add one cycle across a page.
_OPS = {
    0x69: ("ADC", "imm", 2), 0x65: ("ADC", "zp", 3), 0x75: ("ADC", "zpx", 4),
    0x6D: ("ADC", "abs", 4), 0x7D: ("ADC", "abx", 4), 0x79: ("ADC", "aby", 4),
    0x61: ("ADC", "izx", 6), 0x71: ("ADC", "izy", 5),
    0x29: ("AND", "imm", 2), 0x25: ("AND", "zp", 3), 0x35: ("AND", "zpx", 4),
    0x2D: ("AND", "abs", 4), 0x3D: ("AND", "abx", 4), 0x39: ("AND", "aby", 4),
    0x21: ("AND", "izx", 6), 0x31: ("AND", "izy", 5),
    0x0A: ("ASL", "acc", 2), 0x06: ("ASL", "zp", 5), 0x16: ("ASL", "zpx", 6),
    0x0E: ("ASL", "abs", 6), 0x1E: ("ASL", "abx", 7),
    0x90: ("BCC", "rel", 2), 0xB0: ("BCS", "rel", 2), 0xF0: ("BEQ", "rel", 2),
    0x30: ("BMI", "rel", 2), 0xD0: ("BNE", "rel", 2), 0x10: ("BPL", "rel", 2),
    0x50: ("BVC", "rel", 2), 0x70: ("BVS", "rel", 2),
    0x24: ("BIT", "zp", 3), 0x2C: ("BIT", "abs", 4),
    0x00: ("BRK", "imp", 7),
    0x18: ("CLC", "imp", 2), 0xD8: ("CLD", "imp", 2), 0x58: ("CLI", "imp", 2),
    0xB8: ("CLV", "imp", 2),
    0xC9: ("CMP", "imm", 2), 0xC5: ("CMP", "zp", 3), 0xD5: ("CMP", "zpx", 4),
    0xCD: ("CMP", "abs", 4), 0xDD: ("CMP", "abx", 4), 0xD9: ("CMP", "aby", 4),
    0xC1: ("CMP", "izx", 6), 0xD1: ("CMP", "izy", 5),
    0xE0: ("CPX", "imm", 2), 0xE4: ("CPX", "zp", 3), 0xEC: ("CPX", "abs", 4),
    0xC0: ("CPY", "imm", 2), 0xC4: ("CPY", "zp", 3), 0xCC: ("CPY", "abs", 4),
    0xC6: ("DEC", "zp", 5), 0xD6: ("DEC", "zpx", 6), 0xCE: ("DEC", "abs", 6),
    0xDE: ("DEC", "abx", 7),
    0xCA: ("DEX", "imp", 2), 0x88: ("DEY", "imp", 2),
    0x49: ("EOR", "imm", 2), 0x45: ("EOR", "zp", 3), 0x55: ("EOR", "zpx", 4),
    0x4D: ("EOR", "abs", 4), 0x5D: ("EOR", "abx", 4), 0x59: ("EOR", "aby", 4),
    0x41: ("EOR", "izx", 6), 0x51: ("EOR", "izy", 5),
    0xE6: ("INC", "zp", 5), 0xF6: ("INC", "zpx", 6), 0xEE: ("INC", "abs", 6),
    0xFE: ("INC", "abx", 7),
    0xE8: ("INX", "imp", 2), 0xC8: ("INY", "imp", 2),
    0x4C: ("JMP", "abs", 3), 0x6C: ("JMP", "ind", 5), 0x20: ("JSR", "abs", 6),
    0xA9: ("LDA", "imm", 2), 0xA5: ("LDA", "zp", 3), 0xB5: ("LDA", "zpx", 4),
    0xAD: ("LDA", "abs", 4), 0xBD: ("LDA", "abx", 4), 0xB9: ("LDA", "aby", 4),
    0xA1: ("LDA", "izx", 6), 0xB1: ("LDA", "izy", 5),
    0xA2: ("LDX", "imm", 2), 0xA6: ("LDX", "zp", 3), 0xB6: ("LDX", "zpy", 4),
    0xAE: ("LDX", "abs", 4), 0xBE: ("LDX", "aby", 4),
    0xA0: ("LDY", "imm", 2), 0xA4: ("LDY", "zp", 3), 0xB4: ("LDY", "zpx", 4),
    0xAC: ("LDY", "abs", 4), 0xBC: ("LDY", "abx", 4),
    0x4A: ("LSR", "acc", 2), 0x46: ("LSR", "zp", 5), 0x56: ("LSR", "zpx", 6),
    0x4E: ("LSR", "abs", 6), 0x5E: ("LSR", "abx", 7),
    0xEA: ("NOP", "imp", 2),
    0x09: ("ORA", "imm", 2), 0x05: ("ORA", "zp", 3), 0x15: ("ORA", "zpx", 4),
    0x0D: ("ORA", "abs", 4), 0x1D: ("ORA", "abx", 4), 0x19: ("ORA", "aby", 4),
    0x01: ("ORA", "izx", 6), 0x11: ("ORA", "izy", 5),
    0x48: ("PHA", "imp", 3), 0x08: ("PHP", "imp", 3), 0x68: ("PLA", "imp", 4),
    0x28: ("PLP", "imp", 4),
    0x2A: ("ROL", "acc", 2), 0x26: ("ROL", "zp", 5), 0x36: ("ROL", "zpx", 6),
    0x2E: ("ROL", "abs", 6), 0x3E: ("ROL", "abx", 7),
    0x6A: ("ROR", "acc", 2), 0x66: ("ROR", "zp", 5), 0x76: ("ROR", "zpx", 6),
    0x6E: ("ROR", "abs", 6), 0x7E: ("ROR", "abx", 7),
    0x40: ("RTI", "imp", 6), 0x60: ("RTS", "imp", 6),
    0xE9: ("SBC", "imm", 2), 0xE5: ("SBC", "zp", 3), 0xF5: ("SBC", "zpx", 4),
    0xED: ("SBC", "abs", 4), 0xFD: ("SBC", "abx", 4), 0xF9: ("SBC", "aby", 4),
    0xE1: ("SBC", "izx", 6), 0xF1: ("SBC", "izy", 5),
    0x38: ("SEC", "imp", 2), 0xF8: ("SED", "imp", 2), 0x78: ("SEI", "imp", 2),
    0x85: ("STA", "zp", 3), 0x95: ("STA", "zpx", 4), 0x8D: ("STA", "abs", 4),
    0x9D: ("STA", "abx", 5), 0x99: ("STA", "aby", 5), 0x81: ("STA", "izx", 6),
    0x91: ("STA", "izy", 6),
    0x86: ("STX", "zp", 3), 0x96: ("STX", "zpy", 4), 0x8E: ("STX", "abs", 4),
    0x84: ("STY", "zp", 3), 0x94: ("STY", "zpx", 4), 0x8C: ("STY", "abs", 4),
    0xAA: ("TAX", "imp", 2), 0xA8: ("TAY", "imp", 2), 0xBA: ("TSX", "imp", 2),
    0x8A: ("TXA", "imp", 2), 0x9A: ("TXS", "imp", 2), 0x98: ("TYA", "imp", 2),
}
# instructions that only read their operand: the ones an indexed page crossing slows down
_READS = {"ADC", "AND", "BIT", "CMP", "CPX", "CPY", "EOR", "LDA", "LDX", "LDY", "ORA", "SBC"}
_WRITES = {"STA", "STX", "STY"}
_BRANCH_FLAG = {"BCC": ("C", False), "BCS": ("C", True), "BEQ": ("Z", True),
                "BNE": ("Z", False), "BMI": ("N", True), "BPL": ("N", False),
                "BVC": ("V", False), "BVS": ("V", True)}

# ---- the console's registers (Stella's address decoding) -------------------------------------
_TIA_VSYNC, _TIA_WSYNC, _TIA_CXCLR = 0x00, 0x02, 0x2C
_TIA_INPT4 = 0x0C
_RIOT_SWCHA, _RIOT_SWCHB = 0, 2
_SWCHB_DEFAULT = 0x3F  # both difficulty switches B (bits 6, 7 clear), colour, no reset/select
_COLLISION_BITS = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, None), (13, 14)]
_HOTSPOT_BANK = {0x0FF8: 0, 0x0FF9: 1}  # F8 bank switching
_MASK32 = 0xFFFFFFFF


@dataclasses.dataclass(frozen=True)
class Joystick:
    up: bool = False
    down: bool = False
    left: bool = False
    right: bool = False
    fire: bool = False

    @classmethod
    def of_action(cls, name: str) -> "Joystick":
        """From an ALE action name (``"UPLEFTFIRE"``, ``"NOOP"``...)."""
        name = name.upper()
        if name not in ACTION_IDS:
            raise ValueError(f"unknown joystick action {name!r}: give an ALE action name such as "
                             f"'UPLEFTFIRE' or 'NOOP'")
        return cls("UP" in name, "DOWN" in name, "LEFT" in name, "RIGHT" in name, "FIRE" in name)

    @property
    def swcha(self) -> int:
        # left joystick in the high nibble, a pin low when pressed; the right port idles high
        return (0x0F | (0 if self.up else 0x10) | (0 if self.down else 0x20)
                | (0 if self.left else 0x40) | (0 if self.right else 0x80))


@dataclasses.dataclass
class Frame:
    """What one frame did: its cycles (ALE's per-step count), the RAM after it, why it ended,
    and the trace asked for."""

    cycles: int
    ram: bytes
    ended_by: str  # "vsync" or "overlong" (a TIA write past 290 lines)
    calls: list  # (cycle after, bank, pc after, kind, stack depth) of each JSR/BRK/RTS/RTI
    timer_writes: list  # (cycle, register shift, value)
    intim_reads: list  # (cycle, value) of the timer reads
    tia_reads: list  # (cycle, pc, TIA register) of every TIA read
    pcs: Optional[list]  # (cycle at the instruction's start, bank, pc) when traced


class Machine:
    """A 6507 + RIOT + F8 cartridge + the TIA's timing, set to ALE's state after a step."""

    def __init__(self, rom: bytes, state: AleState):
        if len(rom) != 8192:
            raise ValueError(f"an F8 cartridge is 8192 bytes; this ROM is {len(rom)}")
        self.rom = bytes(rom)
        self.bank = state.bank
        self.ram = bytearray(state.ram)
        self.a, self.x, self.y, self.sp, self.pc = state.a, state.x, state.y, state.sp, state.pc
        self.f = dict(state.flags)
        self.cycles = state.cycles
        self.timer = state.timer
        self.shift = state.timer_shift
        self.timer_set_at = state.timer_set_at
        self.int_reset_at = state.interrupt_reset_at
        self.read_after_int = state.timer_read_after_interrupt
        self.clock_started = state.clock_frame_started
        self.vsync_finish = state.vsync_finish_clock
        self.collision = state.collision
        self.bus = 0  # the last byte on the data bus: the low bits of a TIA read
        self.joystick = Joystick()
        self.latches: Optional[int] = None

    @classmethod
    def bare(cls, rom: bytes, *, pc: int, bank: int = 1) -> "Machine":
        """A machine at ``pc`` with cleared registers, RAM and latches, the timer stopped long
        ago: for running small hand-written programs."""
        flags = dict.fromkeys("NVBDIZC", False)
        state = AleState(cycles=0, a=0, x=0, y=0, sp=0xFF, pc=pc, flags=flags, ram=bytes(128),
                         timer=0, timer_shift=0, timer_set_at=0, interrupt_reset_at=0,
                         timer_read_after_interrupt=True, clock_frame_started=0,
                         vsync_finish_clock=0x7FFFFFFF, vsync=0, collision=0, bank=bank)
        machine = cls(rom, state)
        machine._reset_logs()
        return machine

    def _reset_logs(self) -> None:
        self._calls, self._timer_writes, self._intim, self._tia_reads = [], [], [], []
        self._stop = None

    def run(self, instructions: int) -> int:
        """Run ``instructions`` instructions from where the machine is; the cycles they took."""
        start = self.cycles
        for _ in range(instructions):
            self.step()
        return self.cycles - start

    # ---- memory -----------------------------------------------------------------------------
    def peek(self, addr: int) -> int:
        addr &= 0x1FFF
        if addr & 0x1000:
            self.bank = _HOTSPOT_BANK.get(addr & 0x0FFF, self.bank)
            v = self.rom[self.bank * 4096 + (addr & 0x0FFF)]
        elif addr & 0x80:
            v = self.ram[addr & 0x7F] if not addr & 0x200 else self._riot_read(addr)
        else:
            v = self._tia_read(addr)
        self.bus = v
        return v

    def poke(self, addr: int, v: int) -> None:
        addr &= 0x1FFF
        self.bus = v
        if addr & 0x1000:
            self.bank = _HOTSPOT_BANK.get(addr & 0x0FFF, self.bank)
        elif addr & 0x80:
            if not addr & 0x200:
                self.ram[addr & 0x7F] = v
            else:
                self._riot_write(addr, v)
        else:
            self._tia_write(addr & 0x3F, v)

    def _riot_read(self, addr: int) -> int:
        reg = addr & 7
        if reg == _RIOT_SWCHA:
            return self.joystick.swcha
        if reg == _RIOT_SWCHB:
            return _SWCHB_DEFAULT
        if reg in (1, 3):
            return 0  # the data direction registers, never written by the games traced
        now = (self.cycles - 1) & _MASK32
        delta = (now - self.timer_set_at) & _MASK32
        timer = self.timer - (delta >> self.shift) - 1
        if reg in (5, 7):  # the interrupt flag
            return 0 if timer >= 0 or self.read_after_int else 0x80
        if timer < 0:
            # ALE's M6532: past 0 the timer counts single cycles; the first read 2+ cycles after
            # it ran out puts it back on its interval, down from the wrapped value
            timer = (self.timer << self.shift) - delta - 1
            if timer <= -2 and not self.read_after_int:
                self.read_after_int = True
                self.int_reset_at = self.cycles
            if self.read_after_int:
                offset = _signed((self.int_reset_at - (self.timer_set_at
                                                       + (self.timer << self.shift))) & _MASK32)
                timer = self.timer - (delta >> self.shift) - offset
        v = timer & 0xFF
        self._intim.append((self.cycles, v))
        return v

    def _riot_write(self, addr: int, v: int) -> None:
        if addr & 7 < 4:
            return  # ports and their data direction: nothing the frame's timing depends on
        if addr & 0x14 == 0x14:
            self.timer, self.shift = v, (0, 3, 6, 10)[addr & 3]
            self.timer_set_at = self.cycles
            self.read_after_int = False
            self._timer_writes.append((self.cycles, self.shift, v))

    def _tia_read(self, addr: int) -> int:
        reg = addr & 0x0F
        noise = self.bus & 0x3F
        self._tia_reads.append((self.cycles, self._pc0, reg))
        if reg < 8:
            return self._collision_bits(reg) | noise
        if reg == _TIA_INPT4:
            return noise if self.joystick.fire else 0x80 | noise
        if reg == 0x0D:
            return 0x80 | noise  # the right port's fire button, never pressed
        return noise

    def _collision_bits(self, reg: int) -> int:
        # Stella keeps the latches as one word, two bits a register from CXM0P up (bit 2*reg
        # -> D7, 2*reg+1 -> D6), except CXBLPF, one bit (12), so CXPPMM's are bits 13 and 14
        lo, hi = _COLLISION_BITS[reg]
        word = self.collision if self.latches is None else self.latches
        return (0x80 if word >> lo & 1 else 0) | (0x40 if hi is not None and word >> hi & 1 else 0)

    def _tia_write(self, reg: int, v: int) -> None:
        clock = self.cycles * 3
        if (clock - self.clock_started) // CLOCKS_PER_LINE > MAX_LINES:
            self._stop = "overlong"
        if reg == _TIA_VSYNC:
            if v & 2:
                self.vsync_finish = clock + CLOCKS_PER_LINE
            elif clock >= self.vsync_finish:
                self.vsync_finish = 0x7FFFFFFF
                self._stop = "vsync"
        elif reg == _TIA_WSYNC:
            # the C expression: unsigned cycles minus the (truncated) frame start in cycles
            start = -((-self.clock_started) // 3) if self.clock_started < 0 else (
                self.clock_started // 3)
            left = CYCLES_PER_LINE - ((self.cycles - start) & _MASK32) % CYCLES_PER_LINE
            if left < CYCLES_PER_LINE:
                self.cycles += left
        elif reg == _TIA_CXCLR:
            self.collision = 0

    # ---- the CPU -----------------------------------------------------------------------------
    def _push(self, v: int) -> None:
        self.poke(0x100 + self.sp, v)
        self.sp = (self.sp - 1) & 0xFF

    def _pull(self) -> int:
        self.sp = (self.sp + 1) & 0xFF
        return self.peek(0x100 + self.sp)

    def _ps(self) -> int:
        f = self.f
        return (0x20 | f["N"] << 7 | f["V"] << 6 | f["B"] << 4 | f["D"] << 3 | f["I"] << 2
                | f["Z"] << 1 | f["C"])

    def _set_ps(self, p: int) -> None:
        self.f.update(N=bool(p & 0x80), V=bool(p & 0x40), B=True, D=bool(p & 8),
                      I=bool(p & 4), Z=bool(p & 2), C=bool(p & 1))

    def _nz(self, v: int) -> int:
        self.f["N"], self.f["Z"] = bool(v & 0x80), v == 0
        return v

    def _address(self, mode: str, name: str) -> int:
        pc = self.pc
        if mode in ("abs", "abx", "aby", "ind"):
            base = self.peek(pc) | self.peek(pc + 1) << 8
            self.pc = (pc + 2) & 0xFFFF
            if mode == "abs":
                return base
            if mode == "ind":  # the 6502 does not carry into the pointer's high byte
                hi = (base & 0xFF00) | ((base + 1) & 0xFF)
                return self.peek(base) | self.peek(hi) << 8
            index = self.x if mode == "abx" else self.y
            target = (base + index) & 0xFFFF
            if name in _READS and (base ^ target) & 0xFF00:
                self.cycles += 1
            return target
        self.pc = (pc + 1) & 0xFFFF
        operand = self.peek(pc)
        if mode == "zp":
            return operand
        if mode == "zpx":
            return (operand + self.x) & 0xFF
        if mode == "zpy":
            return (operand + self.y) & 0xFF
        if mode == "izx":
            p = (operand + self.x) & 0xFF
            return self.peek(p) | self.peek((p + 1) & 0xFF) << 8
        if mode == "izy":
            base = self.peek(operand) | self.peek((operand + 1) & 0xFF) << 8
            target = (base + self.y) & 0xFFFF
            if name in _READS and (base ^ target) & 0xFF00:
                self.cycles += 1
            return target
        raise AssertionError(mode)

    def step(self) -> None:
        """One instruction."""
        self._pc0 = self.pc
        op = self.peek(self.pc)
        if op not in _OPS:
            raise TracerError(f"opcode {op:#04x} at {self.pc:#06x} (bank {self.bank}) is not a "
                              f"documented 6502 opcode; the tracer emulates those only")
        name, mode, base = _OPS[op]
        self.pc = (self.pc + 1) & 0xFFFF
        self.cycles += base
        f = self.f
        if mode == "imp":
            self._implied(name)
            return
        if mode == "acc":
            self.a = self._shift(name, self.a)
            return
        if mode == "rel":
            offset = self.peek(self.pc)
            self.pc = (self.pc + 1) & 0xFFFF
            flag, want = _BRANCH_FLAG[name]
            if f[flag] == want:
                target = (self.pc + (offset - 256 if offset & 0x80 else offset)) & 0xFFFF
                self.cycles += 2 if (target ^ self.pc) & 0xFF00 else 1
                self.pc = target
            return
        if mode == "imm":
            self.pc = (self.pc + 1) & 0xFFFF
            self._read_op(name, self.peek(self.pc - 1))
            return
        addr = self._address(mode, name)
        if name == "JMP":
            self.pc = addr
        elif name == "JSR":
            ret = (self.pc - 1) & 0xFFFF
            self._push(ret >> 8)
            self._push(ret & 0xFF)
            self.pc = addr
            self._calls.append((self.cycles, self.bank, addr, "jsr", self._depth()))
        elif name in _WRITES:
            self.poke(addr, {"STA": self.a, "STX": self.x, "STY": self.y}[name])
        elif name in _READS:
            self._read_op(name, self.peek(addr))
        else:  # read-modify-write
            v = self.peek(addr)
            if name == "INC":
                v = self._nz((v + 1) & 0xFF)
            elif name == "DEC":
                v = self._nz((v - 1) & 0xFF)
            else:
                v = self._shift(name, v)
            self.poke(addr, v)

    def _depth(self) -> int:
        return (0xFF - self.sp) // 2

    def _shift(self, name: str, v: int) -> int:
        f = self.f
        if name == "ASL":
            f["C"], v = bool(v & 0x80), (v << 1) & 0xFF
        elif name == "LSR":
            f["C"], v = bool(v & 1), v >> 1
        elif name == "ROL":
            f["C"], v = bool(v & 0x80), ((v << 1) | f["C"]) & 0xFF
        elif name == "ROR":
            f["C"], v = bool(v & 1), (v >> 1) | (0x80 if f["C"] else 0)
        return self._nz(v)

    def _read_op(self, name: str, v: int) -> None:
        f = self.f
        if name == "LDA":
            self.a = self._nz(v)
        elif name == "LDX":
            self.x = self._nz(v)
        elif name == "LDY":
            self.y = self._nz(v)
        elif name == "AND":
            self.a = self._nz(self.a & v)
        elif name == "ORA":
            self.a = self._nz(self.a | v)
        elif name == "EOR":
            self.a = self._nz(self.a ^ v)
        elif name == "BIT":
            f["N"], f["V"], f["Z"] = bool(v & 0x80), bool(v & 0x40), (self.a & v) == 0
        elif name in ("CMP", "CPX", "CPY"):
            reg = {"CMP": self.a, "CPX": self.x, "CPY": self.y}[name]
            f["C"] = reg >= v
            self._nz((reg - v) & 0xFF)
        elif name == "ADC":
            self._adc(v)
        elif name == "SBC":
            self._sbc(v)

    def _adc(self, v: int) -> None:
        f, a = self.f, self.a
        if not f["D"]:
            s = a + v + f["C"]
            f["V"] = bool(~(a ^ v) & (a ^ s) & 0x80)
            f["C"] = s > 0xFF
            self.a = self._nz(s & 0xFF)
        else:  # ALE's core: through decimal values (valid BCD operands)
            s = _bcd(a) + _bcd(v) + f["C"]
            f["C"] = s > 99
            self.a = self._nz(_to_bcd(s & 0xFF))
            f["V"] = bool((a ^ self.a) & 0x80 and (self.a ^ v) & 0x80)

    def _sbc(self, v: int) -> None:
        f, a = self.f, self.a
        if not f["D"]:
            self._adc(v ^ 0xFF)
        else:
            d = _bcd(a) - _bcd(v) - (0 if f["C"] else 1)
            if d < 0:
                d += 100
            self.a = self._nz(_to_bcd(d))
            f["C"] = a >= v + (0 if f["C"] else 1)
            f["V"] = bool((a ^ self.a) & 0x80 and (self.a ^ v) & 0x80)

    def _implied(self, name: str) -> None:
        f = self.f
        if name in ("CLC", "SEC"):
            f["C"] = name == "SEC"
        elif name in ("CLD", "SED"):
            f["D"] = name == "SED"
        elif name in ("CLI", "SEI"):
            f["I"] = name == "SEI"
        elif name == "CLV":
            f["V"] = False
        elif name == "TAX":
            self.x = self._nz(self.a)
        elif name == "TAY":
            self.y = self._nz(self.a)
        elif name == "TXA":
            self.a = self._nz(self.x)
        elif name == "TYA":
            self.a = self._nz(self.y)
        elif name == "TSX":
            self.x = self._nz(self.sp)
        elif name == "TXS":
            self.sp = self.x
        elif name == "INX":
            self.x = self._nz((self.x + 1) & 0xFF)
        elif name == "INY":
            self.y = self._nz((self.y + 1) & 0xFF)
        elif name == "DEX":
            self.x = self._nz((self.x - 1) & 0xFF)
        elif name == "DEY":
            self.y = self._nz((self.y - 1) & 0xFF)
        elif name == "PHA":
            self._push(self.a)
        elif name == "PHP":
            self._push(self._ps())
        elif name == "PLA":
            self.a = self._nz(self._pull())
        elif name == "PLP":
            self._set_ps(self._pull())
        elif name == "RTS":
            lo = self._pull()
            self.pc = ((self._pull() << 8 | lo) + 1) & 0xFFFF
            self._calls.append((self.cycles, self.bank, self.pc, "rts", self._depth()))
        elif name == "RTI":
            self._set_ps(self._pull())
            lo = self._pull()
            self.pc = self._pull() << 8 | lo
            self._calls.append((self.cycles, self.bank, self.pc, "rti", self._depth()))
        elif name == "BRK":
            self.peek(self.pc)  # the padding byte after BRK
            self.pc = (self.pc + 1) & 0xFFFF
            f["B"] = True
            self._push(self.pc >> 8)
            self._push(self.pc & 0xFF)
            self._push(self._ps())
            f["I"] = True
            self.pc = self.peek(0xFFFE) | self.peek(0xFFFF) << 8
            self._calls.append((self.cycles, self.bank, self.pc, "brk", self._depth()))
        # NOP: nothing

    # ---- a frame -----------------------------------------------------------------------------
    def run_frame(self, joystick: Joystick, *, latches: Optional[int] = None,
                  trace_pcs: bool = False) -> Frame:
        """One ALE step: restart the frame's cycle count as ALE's TIA does, then run until ALE
        would end the step.

        The tracer draws nothing, so it cannot set collision latches. A collision read returns
        ``latches`` (Stella's latch word, e.g. :attr:`AleState.collision` of ALE's state after
        the step: right for reads made after the picture, when no CXCLR follows them) or, when
        None, the start state's latches as CXCLR leaves them (right when this frame's picture
        adds no collision)."""
        self.joystick = joystick
        self.latches = latches
        self._reset_logs()
        pcs = [] if trace_pcs else None
        # TIA::startFrame: the clocks already into the current line carry over into the frame
        clocks = ((self.cycles * 3 - self.clock_started) & _MASK32) % CLOCKS_PER_LINE
        self.timer_set_at = (self.timer_set_at - self.cycles) & _MASK32
        self.int_reset_at = (self.int_reset_at - self.cycles) & _MASK32
        self.vsync_finish -= self.cycles * 3
        self.cycles = 0
        self.clock_started = -clocks
        for _ in range(_INSTRUCTIONS_PER_UPDATE):
            if pcs is not None:
                pcs.append((self.cycles, self.bank, self.pc))
            self.step()
            if self._stop:
                break
        else:
            raise TracerError(f"the frame ran {_INSTRUCTIONS_PER_UPDATE} instructions without "
                              f"ending: ALE would split it across steps, which is not emulated")
        return Frame(self.cycles, bytes(self.ram), self._stop, self._calls, self._timer_writes,
                     self._intim, self._tia_reads, pcs)


_FORMAT = {"imp": "", "acc": " A", "imm": " #${:02X}", "zp": " ${:02X}", "zpx": " ${:02X},X",
           "zpy": " ${:02X},Y", "abs": " ${:04X}", "abx": " ${:04X},X", "aby": " ${:04X},Y",
           "ind": " (${:04X})", "izx": " (${:02X},X)", "izy": " (${:02X}),Y", "rel": " ${:04X}"}
_LENGTH = {"imp": 1, "acc": 1, "abs": 3, "abx": 3, "aby": 3, "ind": 3}


def disassemble(rom: bytes, bank: int, pc: int) -> tuple[str, int]:
    """The instruction at ``pc`` of ``bank`` as text, and its length in bytes."""
    at = bank * 4096 + (pc & 0x0FFF)
    op = rom[at]
    if op not in _OPS:
        return f".byte ${op:02X}", 1
    name, mode, _ = _OPS[op]
    n = _LENGTH.get(mode, 2)
    arg = rom[at + 1] | (rom[at + 2] << 8 if n == 3 else 0) if n > 1 else 0
    if mode == "rel":
        arg = (pc + 2 + (arg - 256 if arg & 0x80 else arg)) & 0xFFFF
    return name + _FORMAT[mode].format(arg), n


def _bcd(v: int) -> int:
    return (v >> 4) * 10 + (v & 0x0F)


def _to_bcd(v: int) -> int:
    return ((v % 100) // 10) << 4 | v % 10


def segment_cycles(frame: Frame, anchors: dict, *, bank: int, start: int, end: int) -> dict:
    """The cycles a traced frame (``trace_pcs=True``) spent in each segment of its code between
    cycles ``start`` and ``end``: a segment runs from an anchor (a ``bank`` address named in
    ``anchors``) to the next anchor passed, subroutines and interrupts included. Cycles before
    the first anchor go to ``"(before)"``."""
    if frame.pcs is None:
        raise ValueError("segment_cycles needs a frame run with trace_pcs=True")
    out: dict = {}
    current = "(before)"
    pcs = frame.pcs + [(frame.cycles, None, None)]
    for (c, b, pc), (c_next, _, _) in zip(pcs, pcs[1:]):
        if c >= end:
            break
        if b == bank and pc in anchors:
            current = anchors[pc]
        if c >= start:
            out[current] = out.get(current, 0) + c_next - c
    return out


def collision_words(tia_reads) -> list[int]:
    """Every latch word that differs in the collision bits a frame read (``Frame.tia_reads``):
    the candidates for the latches the picture set, which the tracer cannot draw."""
    bits = sorted({b for _, _, reg in tia_reads if reg < 8
                   for b in _COLLISION_BITS[reg] if b is not None})
    return [sum(1 << b for i, b in enumerate(bits) if n >> i & 1) for n in range(1 << len(bits))]


def rom_bytes(rom: str) -> bytes:
    """The cartridge image ale-py ships for a ROM slug."""
    from ale_py import roms

    path = roms.get_rom_path(rom)
    if path is None:
        raise ValueError(f"unknown ROM {rom!r}: give an ale-py ROM slug such as 'kangaroo'")
    with open(path, "rb") as fh:
        return fh.read()


def frame_after(rom: bytes, state, action: str, **kw) -> Frame:
    """Run the frame that follows ALE's ``state`` (an ``ALEState`` or :class:`AleState`) under
    ALE action ``action`` (its name)."""
    parsed = state if isinstance(state, AleState) else parse_ale_state(state)
    return Machine(rom, parsed).run_frame(Joystick.of_action(action), **kw)
