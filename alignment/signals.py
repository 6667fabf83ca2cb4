"""What the catalog is made of: a :class:`Signal` both backends report, and a game's :class:`GameEntry`.

Every game reports the four core signals ``score`` (rewards summed since reset), ``lives``,
``terminated`` and ``frame`` (emulator frames since reset); on the ALE side those come from the
emulator itself (``AleGame``), on the JAX side from ``game.score``/``game.lives``/``game.is_terminal``
and ``state.frame``. A game's own signals are decoded from the 128 bytes of console RAM on the ALE
side (``Signal.ale(ram)``, written in the game's ground-truth module
``alignment/reference/games/<game>/``) and read from the JAX state through
``game.signals(state)[name]`` on the other. Units are ALE screen pixels (x 0..159, y 0..209, top-left
corner of the object's bounding box) unless a signal says otherwise.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Optional, Sequence

import numpy as np

from alignment.plain import to_python
from alignment.plugin import (
    DeepPlayer, DeepStart, ObservationFields, PlannerGoal, PlannerObjective, SavePointTarget,
    ScriptedPolicy,
)

CORE_SIGNALS = ("score", "lives", "terminated", "frame")

# How a ground-truth module cites where a RAM fact came from (both public):
OCATARI = "OCAtari's RAM extractor for this game (k4ntz/OC_Atari, ocatari/ram/)"
MEASURED = "measured here on ale-py 0.12.1 by diffing RAM and screen"


@dataclasses.dataclass(frozen=True)
class Signal:
    """One named quantity both backends report.

    ``ale``: ``ram (np.uint8[128]) -> value`` for a per-game signal; ``None`` for a core signal (the
    emulator reports it). ``jax``: ``(game, state) -> value``. ``tolerance``: the largest absolute
    difference still counted as agreement (0: exact). ``shape``: ``()`` for a scalar, ``(n,)`` for a
    fixed-size vector (one entry per object slot). ``source``: where the RAM fact came from.
    """

    name: str
    ale: Callable[[np.ndarray], Any] | None
    jax: Callable[[Any, Any], Any]
    tolerance: float
    unit: str
    source: str
    shape: tuple[int, ...] = ()
    description: str = ""

    def within(self, ale_value, jax_value) -> bool:
        """Whether two values of this signal agree (every element within the tolerance)."""
        a = np.asarray(ale_value, dtype=np.float64)
        b = np.asarray(jax_value, dtype=np.float64)
        if a.shape != b.shape:
            return False
        return bool(np.all(np.abs(a - b) <= self.tolerance))


WHEN = ("frame", "reset")  # when a RamWrite applies: after reset and every frame, or after reset only
WHOLE_BYTE = 0xFF  # a RamWrite's mask when it sets the whole byte


@dataclasses.dataclass(frozen=True)
class RamWrite:
    """One byte the ALE backend writes into the console RAM: the ALE side of a JAX mod, as data.

    ``when``: ``"frame"`` (after reset and after every emulator frame) or ``"reset"`` (once, right
    after reset). ``if_ram``: ``(address, value)``: write only while that RAM byte holds that value
    (read before this frame's writes); None: unconditionally. ``mask``: the bits written (the
    byte's other bits keep what the cartridge put there), so a write can set or clear one flag
    bit of a byte the cartridge packs several things into; ``value`` names no bit outside it."""

    address: int  # 0..127
    value: int  # 0..255
    when: str = "frame"
    if_ram: Optional[tuple[int, int]] = None
    mask: int = WHOLE_BYTE

    def __post_init__(self):
        for name in ("address", "value", "mask"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise ValueError(f"a RAM write's {name} is a whole number; got {name}={v!r}")
        if not (0 <= self.address < 128 and 0 <= self.value <= 255):
            raise ValueError(f"a RAM write is address 0..127, value 0..255; got {self}")
        if self.when not in WHEN:
            raise ValueError(f"a RAM write applies when {' or '.join(WHEN)}; got when={self.when!r}")
        if self.if_ram is not None:
            a, v = self.if_ram
            if not (0 <= a < 128 and 0 <= v <= 255):
                raise ValueError(f"a RAM write's condition is (address 0..127, value 0..255); got "
                                 f"if_ram={self.if_ram}")
        if not 1 <= self.mask <= WHOLE_BYTE:
            raise ValueError(f"a RAM write's mask is the bits it writes, 1..255 (255: the whole "
                             f"byte); got mask={self.mask}")
        if self.value & ~self.mask:
            raise ValueError(f"a RAM write's value {self.value:#04x} sets bits outside its mask "
                             f"{self.mask:#04x} (address {self.address}); give the value of the "
                             f"masked bits only, e.g. value={self.value & self.mask:#04x}")

    def applies(self, event: str, ram) -> bool:
        """Whether this write happens at ``event`` (``"reset"`` or ``"frame"``) given the RAM."""
        if self.when == "reset" and event != "reset":
            return False
        return self.if_ram is None or int(ram[self.if_ram[0]]) == self.if_ram[1]

    def written(self, byte: int) -> int:
        """What the byte becomes: the masked bits set to ``value``, the others kept."""
        return (int(byte) & ~self.mask & WHOLE_BYTE) | self.value

    def to_dict(self) -> dict:
        """As data; ``mask`` only where it is not the whole byte (older reports have none)."""
        d = dataclasses.asdict(self)
        if self.mask == WHOLE_BYTE:
            del d["mask"]
        return d


@dataclasses.dataclass(frozen=True)
class AleCounterpart:
    """A JAX mod's counterpart on the real game: RAM writes (data, never code) and the measured
    verdict of whether the two modified games are the same.

    ``exact``: True when the modified ALE game equals the JAX mod on every catalog signal and the
    reward, every frame, over the whole games of ``measured``; False when it does not (``differs``
    says what); None when not measured yet. ``measured``: how (games, policy, frames, the test)."""

    writes: tuple[RamWrite, ...]
    exact: Optional[bool] = None
    measured: str = ""
    differs: str = ""

    def __post_init__(self):
        # no writes: the real game already plays this way (a JAX mod that mimics ALE)
        object.__setattr__(self, "writes", tuple(self.writes))
        if self.exact is not None and not self.measured:
            raise ValueError("a counterpart marked exact or not says how it was measured")
        if self.exact is False and not self.differs:
            raise ValueError("a counterpart marked not exact says what differs")

    def to_dict(self) -> dict:
        return {"writes": [w.to_dict() for w in self.writes], "exact": self.exact,
                "measured": self.measured, "differs": self.differs}


class RamWriteConflict(ValueError):
    """Two mods whose ALE counterparts write the same RAM byte."""


def merge_ram_writes(game: str, counterparts: Mapping[str, "AleCounterpart"]) -> tuple[RamWrite, ...]:
    """The RAM writes of several mods' counterparts together, refusing two mods that write one
    bit of a byte (as :func:`jaxtari.mods.apply_internal` refuses two mods setting one constant);
    masked writes of different bits of one byte go together."""
    owner: dict[int, list[tuple[str, int]]] = {}  # address -> (mod, mask) of each write so far
    out: list[RamWrite] = []
    for name, cp in counterparts.items():
        for w in cp.writes:
            for other, mask in owner.get(w.address, ()):
                if other != name and mask & w.mask:
                    bits = "" if mask & w.mask == WHOLE_BYTE else f" (bits {mask & w.mask:#04x})"
                    raise RamWriteConflict(
                        f"{game}: mods {other!r} and {name!r} both write RAM byte {w.address}"
                        f"{bits} on ALE; use one of them")
            owner.setdefault(w.address, []).append((name, w.mask))
            out.append(w)
    return tuple(out)


def apply_ram_writes(writes, event: str, ram, set_ram: Callable[[int, int], None]) -> None:
    """Apply the writes due at ``event`` (``"reset"``/``"frame"``); conditions read ``ram``, the
    console RAM as it was before any of them; a masked write keeps the bits outside its mask as
    the byte holds them after the writes before it."""
    before = np.array(ram, np.uint8)
    now = before.copy()
    for w in writes:
        if w.applies(event, before):
            now[w.address] = w.written(now[w.address])
            set_ram(w.address, int(now[w.address]))


@dataclasses.dataclass(frozen=True)
class Poke:
    """A quantity a probe may set directly (a "poke"): the same game state written on both sides.

    ``ram(value)`` gives the bytes to write into ALE's console RAM (``{address: byte}``) and
    ``jax(state, value)`` the JAX state with the matching fields replaced; a ground-truth module
    lists a quantity only when both give the same game from there on (checked by a test that pokes,
    plays on both backends and compares every signal and the screen). ``low``..``high``: the values
    accepted. ``first_frame``..``last_frame`` (frames since reset; None: no end): when a write is
    the same game on both (0..0: only before the first frame, for a quantity the cartridge derives
    other state from when a level starts). ``score``: the value is the game's score, which ALE pays out as the reward
    of the frame after a RAM write; the ALE backend counts it as the score instead.
    """

    name: str
    low: int
    high: int
    ram: Callable[[int], Mapping[int, int]]
    jax: Callable[[Any, int], Any]
    source: str
    description: str = ""
    first_frame: int = 0
    last_frame: Optional[int] = None
    score: bool = False

    def check(self, value) -> int:
        """``value`` as an int within ``low..high``; ValueError saying the range otherwise."""
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"poke {self.name}: the value must be an integer {self.low}..{self.high}, "
                             f"got {value!r}")
        if not self.low <= int(value) <= self.high:
            raise ValueError(f"poke {self.name}: {value} is out of range; {self.name} takes "
                             f"{self.low}..{self.high}")
        return int(value)

    def when_problem(self, frame: int) -> Optional[str]:
        """Why the quantity cannot be written ``frame`` frames after reset (None: it can)."""
        if frame < self.first_frame or (self.last_frame is not None and frame > self.last_frame):
            when = ("only before the first frame (at reset)" if self.last_frame == 0 else
                    f"only from frame {self.first_frame} on" if self.last_frame is None else
                    f"only at frames {self.first_frame}..{self.last_frame}")
            return (f"poke {self.name} is written {when}, not at frame {frame}: "
                    f"{self.description}")
        return None


@dataclasses.dataclass(frozen=True)
class KnownEnd:
    """An episode end where a JAX game knowingly parts from ALE, declared as data by its plug-in.

    On the frame the JAX game first reports ``terminated`` while ALE does not, and ``marker`` (a
    catalog signal compared on every frame like any other, so equal on both sides up to and on
    that frame) is non-zero on both, the comparison of the two games ends: the ``differs`` signals
    (and "screen" when listed) are not compared on that frame, every other one is, and nothing
    after it is. Anywhere else the same difference is a divergence. ``removed_by``: the registered
    JAX mod that plays ALE's end instead; ``why``: what differs and the measurement (the game's
    docstring says the same)."""

    name: str
    marker: str
    differs: tuple[str, ...]
    removed_by: Optional[str]
    why: str


@dataclasses.dataclass(frozen=True)
class GameEntry:
    name: str  # canonical name, as jaxtari.make takes it
    ale_id: str  # gymnasium id, e.g. "ALE/Pong-v5"
    rom: str  # ale_py.roms name
    farama_slug: str  # https://ale.farama.org/environments/<slug>/
    manual_url: str  # the AtariAge manual the Farama page links to
    minimal_actions: tuple[str, ...]  # ALE action names of the minimal set, in ALE's order
    signals: Mapping[str, Signal]
    jax_game: str | None  # name for jaxtari.make, or None when no JAX game is planned yet
    notes: str = ""
    # the `scripted` policy of `jaxtari-align compare`: (action name, agent steps) pairs, looped
    script: tuple[tuple[str, int], ...] = (("NOOP", 1),)
    # JAX mods (by registered name) with an ALE counterpart: the RAM writes that make it, measured
    ale_mods: Mapping[str, AleCounterpart] = dataclasses.field(default_factory=dict)
    # quantities a probe may set on both backends (see Poke), by name
    pokes: Mapping[str, Poke] = dataclasses.field(default_factory=dict)
    # JAX mods (by registered name) without one: why RAM writes cannot express them
    jax_only_mods: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # the parts of the plug-in that are code (types in alignment.plugin), each used by one stage:
    # the JAX state fields the observation reads, decoded from RAM (alignment.reference.features)
    observation_fields: Optional[ObservationFields] = None
    # save points the beam search can find, by name (alignment.audit.savepoints)
    save_point_targets: Mapping[str, SavePointTarget] = dataclasses.field(default_factory=dict)
    # the playtest's scripted player (alignment.playtest.scripted)
    scripted_player: Optional[ScriptedPolicy] = None
    # the ALE lookahead player whose recorded games are replayed on both sides (alignment.deepplay)
    deep_player: Optional[DeepPlayer] = None
    # a playtest control -> the control it stands for in this game (the window's keys)
    control_aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # where the JAX game's episode knowingly ends otherwise than ALE's (see KnownEnd)
    known_ends: tuple[KnownEnd, ...] = ()
    # what a strong player reaches, reported by the audit's exploration as reached or not, and the
    # value that pulls its planner there (alignment.audit.explore, alignment.audit.planner)
    planner_goals: tuple[PlannerGoal, ...] = ()
    planner_objective: Optional[PlannerObjective] = None
    # deep situations made with the pokes, the exploration's starts (alignment.audit.explore)
    deep_starts: tuple[DeepStart, ...] = ()

    @property
    def farama_url(self) -> str:
        return f"https://ale.farama.org/environments/{self.farama_slug}/"

    @property
    def ram_signals(self) -> dict[str, Signal]:
        return {k: s for k, s in self.signals.items() if s.ale is not None}

    def ale_signals(self, ram) -> dict[str, Any]:
        """The game's own signals decoded from a RAM snapshot (the core signals need the emulator,
        see ``AleGame.signals``)."""
        ram = np.asarray(ram, dtype=np.uint8)
        if ram.shape != (128,):
            raise ValueError(f"a RAM snapshot is 128 bytes, got shape {ram.shape}")
        return {k: s.ale(ram) for k, s in self.ram_signals.items()}

    def jax_signals(self, game, state) -> dict[str, Any]:
        """Every signal of this entry read from a JAX state, as numpy values."""
        return {k: to_python(s.jax(game, state)) for k, s in self.signals.items()}

    def jax_available(self) -> tuple[bool, str]:
        """Whether the JAX game exists and imports; the reason when it does not."""
        if self.jax_game is None:
            return False, f"{self.name} has no JAX game in jaxtari yet (catalog entry only)"
        try:
            import jaxtari

            if self.jax_game not in jaxtari.list_games():
                return False, f"{self.name} is not registered in jaxtari (jaxtari.list_games())"
            jaxtari.game_class(self.jax_game)
        except Exception as exc:  # a half-written game module: report it, do not crash
            return False, f"the JAX game {self.jax_game!r} failed to import: {type(exc).__name__}: {exc}"
        return True, ""


# ---- for the ground-truth modules --------------------------------------------------------------
def bcd(byte) -> int:
    """Two binary-coded-decimal digits in one byte (0x45 -> 45)."""
    b = int(byte)
    return (b >> 4) * 10 + (b & 0x0F)


def bcd_number(ram, addresses) -> int:
    """A decimal number stored as BCD bytes, most significant first."""
    n = 0
    for a in addresses:
        n = n * 100 + bcd(ram[a])
    return n


def bcd_bytes(value: int, addresses) -> dict[int, int]:
    """The RAM writes storing ``value`` as BCD bytes at ``addresses``, most significant first
    (the inverse of :func:`bcd_number`)."""
    out, v = {}, int(value)
    for a in reversed(tuple(addresses)):
        out[a] = ((v % 100 // 10) << 4) | (v % 10)
        v //= 100
    return dict(sorted(out.items()))


def ram_byte(address: int, offset: int = 0) -> Callable[[np.ndarray], int]:
    """The extractor ``ram[address] + offset``."""
    return lambda ram: int(ram[address]) + offset


def jax_signal(name: str) -> Callable[[Any, Any], Any]:
    """The JAX side of a per-game signal: ``game.signals(state)[name]``."""
    return lambda game, state: game.signals(state)[name]


def core_signals() -> dict[str, Signal]:
    emu = "the emulator (ALEInterface: summed act() rewards, lives(), game_over(), frames since reset)"
    return {
        "score": Signal("score", None, lambda g, s: g.score(s), 0, "points", emu,
                        description="rewards summed since reset"),
        "lives": Signal("lives", None, lambda g, s: g.lives(s), 0, "lives", emu,
                        description="ALE's lives() (0 for games without lives)"),
        "terminated": Signal("terminated", None, lambda g, s: g.is_terminal(s), 0, "bool", emu,
                             description="game over"),
        "frame": Signal("frame", None, lambda g, s: s.frame, 0, "frames", emu,
                        description="emulator frames since reset"),
    }


def make_entry(name: str, ale_id: str, *, manual_url: str, minimal_actions, signals,
               jax_game: str | None, rom: str | None = None, farama_slug: str | None = None,
               notes: str = "", script=None, ale_mods=None, pokes=(), jax_only_mods=None,
               observation_fields: Optional[ObservationFields] = None,
               save_point_targets: Optional[Mapping[str, SavePointTarget]] = None,
               scripted_player: Optional[ScriptedPolicy] = None,
               deep_player: Optional[DeepPlayer] = None,
               control_aliases: Optional[Mapping[str, str]] = None,
               known_ends: Sequence[KnownEnd] = (),
               planner_goals: Sequence[PlannerGoal] = (),
               planner_objective: Optional[PlannerObjective] = None,
               deep_starts: Sequence[DeepStart] = ()) -> GameEntry:
    """A game's entry: the core signals first, then the game's own (in the order given)."""
    all_signals = core_signals()
    for s in signals:
        all_signals[s.name] = s
    names = [g.name for g in planner_goals]
    if len(set(names)) != len(names):
        raise ValueError(f"{name}: planner goals need distinct names; got {names}")
    starts = [d.name for d in deep_starts]
    if len(set(starts)) != len(starts):
        raise ValueError(f"{name}: deep starts need distinct names; got {starts}")
    for d in deep_starts:
        unknown = [k for step in d.steps if isinstance(step, Mapping) for k in step
                   if k not in {p.name for p in pokes}]
        if unknown:
            raise ValueError(f"{name}: deep start {d.name!r} writes {unknown}: not pokes of the "
                             f"game")
    for end in known_ends:
        unknown = [k for k in (end.marker, *end.differs) if k not in all_signals and k != "screen"]
        if unknown or end.marker in end.differs:
            raise ValueError(f"{name}: known end {end.name!r} names {unknown or [end.marker]}: its "
                             f"marker must be a catalog signal compared on that frame, and what "
                             f"differs catalog signals or 'screen'")
    return GameEntry(name, ale_id, rom or name, farama_slug or name, manual_url,
                     tuple(minimal_actions), all_signals, jax_game, notes,
                     tuple(script) if script else (("NOOP", 1),),
                     {k: v if isinstance(v, AleCounterpart) else AleCounterpart(tuple(v))
                      for k, v in (ale_mods or {}).items()},
                     {p.name: p for p in pokes}, dict(jax_only_mods or {}),
                     observation_fields=observation_fields,
                     save_point_targets=dict(save_point_targets or {}),
                     scripted_player=scripted_player, deep_player=deep_player,
                     control_aliases=dict(control_aliases or {}),
                     known_ends=tuple(known_ends), planner_goals=tuple(planner_goals),
                     planner_objective=planner_objective, deep_starts=tuple(deep_starts))
