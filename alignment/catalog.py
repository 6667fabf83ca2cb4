"""The catalog: per game, where its ground truth lives and the signals both backends report.

A :class:`GameEntry` names the ALE id, the ROM, the Farama documentation page, the AtariAge manual and
the minimal action set of a game, and lists its :class:`Signal`\\ s. Every game reports the four core
signals ``score`` (rewards summed since reset), ``lives``, ``terminated`` and ``frame`` (emulator frames
since reset); on the ALE side those come from the emulator itself (``AleGame``), on the JAX side from
``game.score``/``game.lives``/``game.is_terminal`` and ``state.frame``. Per-game signals are decoded
from the 128 bytes of console RAM on the ALE side (``Signal.ale(ram)``) and read from the JAX state
through ``game.signals(state)[name]`` on the other. Units are ALE screen pixels (x 0..159, y 0..209,
top-left corner of the object's bounding box) unless a signal says otherwise.

Each RAM address says where the fact came from: OCAtari's per-game extractors (k4ntz/OC_Atari, as
collected in /work/shared/facts/ale-ram.md) or "measured here" (ale-py 0.12.1, by diffing RAM and
screen; the tests in tests/reference/ re-check every one on the emulator).

Adding a game is adding one entry to :data:`CATALOG`.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Mapping

import numpy as np

CORE_SIGNALS = ("score", "lives", "terminated", "frame")


class UnknownCatalogGame(ValueError):
    """A game name that is not in the catalog."""


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


@dataclasses.dataclass(frozen=True)
class GameEntry:
    name: str  # canonical name, as jaxtari.make takes it
    ale_id: str  # gymnasium id, e.g. "ALE/Pong-v5"
    rom: str  # ale_py.roms name
    farama_slug: str  # /work/shared/docs/farama/<slug>.md, https://ale.farama.org/environments/<slug>/
    manual_url: str  # the AtariAge manual the Farama page links to
    minimal_actions: tuple[str, ...]  # ALE action names of the minimal set, in ALE's order
    signals: Mapping[str, Signal]
    jax_game: str | None  # name for jaxtari.make, or None when no JAX game is planned yet
    notes: str = ""
    # the `scripted` policy of `jaxtari-align compare`: (action name, agent steps) pairs, looped
    script: tuple[tuple[str, int], ...] = (("NOOP", 1),)

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
        return {k: _to_python(s.jax(game, state)) for k, s in self.signals.items()}

    def jax_available(self) -> tuple[bool, str]:
        """Whether the JAX game exists and imports; the reason when it does not."""
        if self.jax_game is None:
            return False, f"{self.name} has no JAX game in jaxtari yet (catalog entry only)"
        try:
            import jaxtari

            if self.jax_game not in jaxtari.list_games():
                return False, f"{self.name} is not registered in jaxtari (jaxtari.list_games())"
            jaxtari.game_class(self.jax_game)
        except ImportError as exc:
            return False, f"the JAX game {self.jax_game!r} does not exist yet ({exc})"
        except Exception as exc:  # a half-written game module: report it, do not crash
            return False, f"the JAX game {self.jax_game!r} failed to import: {type(exc).__name__}: {exc}"
        return True, ""


def _to_python(v):
    a = np.asarray(v)
    if a.ndim == 0:
        if a.dtype == np.bool_:
            return bool(a)
        if np.issubdtype(a.dtype, np.integer):
            return int(a)
        return float(a)
    return a


# ---- RAM decoding helpers --------------------------------------------------------------------
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


def _ram(i: int, offset: int = 0) -> Callable[[np.ndarray], int]:
    return lambda ram: int(ram[i]) + offset


def _jax_signal(name: str) -> Callable[[Any, Any], Any]:
    return lambda game, state: game.signals(state)[name]


def _core_signals() -> dict[str, Signal]:
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


def _entry(name, ale_id, rom, slug, manual, actions, game_signals, jax_game, notes="", script=None):
    signals = _core_signals()
    for s in game_signals:
        signals[s.name] = s
    script = tuple(script) if script else (("NOOP", 1),)
    return GameEntry(name, ale_id, rom, slug, manual, tuple(actions), signals, jax_game, notes, script)


OCATARI = "OCAtari's extractor (k4ntz/OC_Atari), /work/shared/facts/ale-ram.md"
MEASURED = "measured here on ale-py 0.12.1 RAM"


# ---- Pong --------------------------------------------------------------------------------------
def _pong() -> GameEntry:
    px = 2  # positions: up to 2 px (a sub-frame of paddle/ball motion) still counts as agreement
    sig = [
        Signal("player_y", _ram(51, -13), _jax_signal("player_y"), px, "px",
               f"ram[51]-13, {OCATARI}", description="right (green) paddle, top y; x=140"),
        Signal("enemy_y", _ram(50, -15), _jax_signal("enemy_y"), px, "px",
               f"ram[50]-15, {OCATARI}", description="left (orange) paddle, top y; x=16"),
        Signal("ball_x", _ram(49, -49), _jax_signal("ball_x"), px, "px",
               f"ram[49]-49, {OCATARI}", description="ball left x"),
        Signal("ball_y", _ram(54, -14), _jax_signal("ball_y"), px, "px",
               f"ram[54]-14, {OCATARI}", description="ball top y"),
        Signal("player_score", _ram(14), _jax_signal("player_score"), 0, "points",
               f"ram[14], {OCATARI}", description="points won by the agent"),
        Signal("enemy_score", _ram(13), _jax_signal("enemy_score"), 0, "points",
               f"ram[13], {OCATARI}", description="points won by the computer"),
    ]
    return _entry(
        "pong", "ALE/Pong-v5", "pong", "pong",
        "https://atariage.com/manual_html_page.php?SoftwareLabelID=587",
        ("NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE"), sig, "pong",
        notes="score = player_score - enemy_score = the summed ALE reward; no lives (ALE lives() is 0).",
        script=(("RIGHTFIRE", 6), ("NOOP", 2), ("LEFTFIRE", 6), ("NOOP", 2)),  # sweep the paddle
    )


# ---- Freeway -----------------------------------------------------------------------------------
FREEWAY_GAME_FRAMES = 8192  # measured here: game over after 32 x 256 frames (ram[105] reaches 32)


FREEWAY_CHICKEN_Y0 = 193  # screen top y of the chicken = 193 - ram[14] (measured here on the screen)
FREEWAY_CAR_X_OFFSET = 3  # screen left x of a car = ram - 3 (measured here; -2 on some frames)


def _freeway_chicken_y(ram) -> int:
    return FREEWAY_CHICKEN_Y0 - int(ram[14])


def _freeway_car_x(ram) -> np.ndarray:
    # ram[108..117] hold the cars bottom lane first (measured here against the screen); the signal
    # lists lanes top to bottom.
    return np.asarray(ram[117:107:-1], dtype=np.int32) - FREEWAY_CAR_X_OFFSET


def _freeway_timer(ram) -> int:
    # ram[105] counts 256-frame periods, ram[1] the frames within one (both measured here).
    return FREEWAY_GAME_FRAMES - (int(ram[105]) * 256 + int(ram[1]))


def _freeway() -> GameEntry:
    sig = [
        Signal("chicken_y", _freeway_chicken_y, _jax_signal("chicken_y"), 0, "px",
               f"193 - ram[14]; ram[14] from {OCATARI}, the offset {MEASURED} against the screen "
               f"(ram[14] is 6 at the kerb, grows while UP is held, back to 6 after a crossing)",
               description="the agent's (left, x=44) chicken, top y: 187 at the start, smaller "
                           "further up the road"),
        Signal("car_x", _freeway_car_x, _jax_signal("car_x"), 0, "px",
               f"ram[117..108] - 3; addresses from {OCATARI}, lane order and offset {MEASURED} "
               f"(the picture lags the RAM by up to 1 px; the signal is the RAM)", shape=(10,),
               description="left x of the car in each lane, lanes top to bottom (car tops at "
                           "y = 27 + 16 i); "
                           "the top five drive left, the bottom five right"),
        Signal("player_score", lambda ram: bcd(ram[103]), _jax_signal("player_score"), 0, "points",
               f"BCD ram[103], {OCATARI}", description="crossings made by the agent's chicken"),
        Signal("timer", _freeway_timer, _jax_signal("timer"), 0, "frames",
               f"8192 - (256*ram[105] + ram[1]), {MEASURED}",
               description="frames left until the game ends (8192 at reset, 0 at game over)"),
    ]
    return _entry(
        "freeway", "ALE/Freeway-v5", "freeway", "freeway",
        "https://atariage.com/manual_html_page.php?SoftwareLabelID=192",
        ("NOOP", "UP", "DOWN"), sig, "freeway",
        notes="no lives (ALE lives() is 0); the game ends after 8192 frames (2 min 16.5 s).",
        script=(("UP", 12), ("NOOP", 3)),  # walk up, pausing now and then
    )


# ---- Frostbite ---------------------------------------------------------------------------------
FROSTBITE_NO_BEAR = 140  # ram[104] value when no bear is on the shore (OCAtari's extractor)


def _frostbite() -> GameEntry:
    px = 2
    sig = [
        Signal("player_x", _ram(102), _jax_signal("player_x"), px, "px",
               f"ram[102], {OCATARI}", description="Frostbite Bailey, left x (8x18 px)"),
        Signal("player_y", _ram(100, 29), _jax_signal("player_y"), px, "px",
               f"ram[100]+29, {OCATARI}", description="Frostbite Bailey, top y"),
        Signal("row", _ram(57), _jax_signal("row"), 0, "row",
               f"ram[57], {OCATARI}", description="255 on the shore, 3..0 for the floe rows top to bottom"),
        Signal("level", _ram(75, 1), _jax_signal("level"), 0, "level",
               f"ram[75]+1, {MEASURED}: ram[75] is 0 at reset and a written value stays and brings "
               f"the level's enemies (3 -> the bear, which the manual puts at level 4); ram[70], "
               f"named in /work/shared/facts/ale-ram.md, does not keep a written value",
               description="1-based level"),
        Signal("igloo_blocks", lambda ram: 0 if ram[77] == 255 else int(ram[77]) + 1,
               _jax_signal("igloo_blocks"), 0, "blocks",
               f"ram[77] (255 none, k -> k+1 blocks), {OCATARI}",
               description="igloo blocks built, 0..16 (16 = complete, door open)"),
        Signal("temperature", lambda ram: bcd(ram[101]), _jax_signal("temperature"), 0, "degrees",
               f"BCD ram[101], {OCATARI}", description="45 at the start of a life, counts down"),
        Signal("floe_x", lambda ram: np.asarray(ram[31:35], np.int32), _jax_signal("floe_x"), px,
               "px", f"ram[31..34], {OCATARI}", shape=(4,),
               description="left x of each floe row, indexed by row number as `row` is (index 0 "
                           "the bottom row at y = 174, index 3 the top row at y = 96: y = 174 - 26 i)"),
        Signal("floe_white", lambda ram: np.asarray(ram[43:47] == 12), _jax_signal("floe_white"), 0,
               "bool", f"ram[43..46] == 12, {OCATARI}", shape=(4,),
               description="whether each floe row is still white (not yet jumped on), indexed by row "
                           "number (0 bottom .. 3 top); all four turn white again once all are blue"),
        Signal("enemy_x", lambda ram: np.asarray(ram[84:88], np.int32), _jax_signal("enemy_x"), px,
               "px", f"ram[84..87], {OCATARI}", shape=(4,),
               description="left x of each row's enemy, indexed by row number (0 bottom .. 3 top)"),
        Signal("bear_x",
               lambda ram: -1 if ram[104] == FROSTBITE_NO_BEAR else int(ram[104]) + 3,
               _jax_signal("bear_x"), px, "px",
               f"ram[104]+3, absent when ram[104] == 140, {OCATARI}",
               description="polar bear left x; -1 when there is no bear (levels without one)"),
    ]
    return _entry(
        "frostbite", "ALE/Frostbite-v5", "frostbite", "frostbite",
        "https://atariage.com/manual_html_page.php?SoftwareLabelID=199",
        ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT",
         "DOWNLEFT", "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE", "UPLEFTFIRE",
         "DOWNRIGHTFIRE", "DOWNLEFTFIRE"),
        sig, "frostbite",
        notes="lives: ALE lives() = ram[76]+1 while alive; score = BCD ram[72..74] = summed reward.",
        script=(("DOWN", 10), ("UP", 10), ("RIGHT", 3), ("LEFT", 3)),  # hop over the floes and back
    )


CATALOG: dict[str, GameEntry] = {e.name: e for e in (_pong(), _freeway(), _frostbite())}


def canonical(name: str) -> str:
    """``"Pong"``, ``"pong"``, ``"ALE/Pong-v5"`` -> ``"pong"``; raises :class:`UnknownCatalogGame`."""
    if not isinstance(name, str):
        raise UnknownCatalogGame(f"a game name is a string, got {name!r}")
    s = re.sub(r"^ALE/", "", name.strip(), flags=re.IGNORECASE)
    s = re.sub(r"-v\d+$", "", s)
    key = re.sub(r"[^a-z0-9]", "", s.lower())
    for canon, e in CATALOG.items():
        if key in {re.sub(r"[^a-z0-9]", "", canon), re.sub(r"[^a-z0-9]", "", e.rom)}:
            return canon
    raise UnknownCatalogGame(
        f"unknown game {name!r}; games in the catalog: {', '.join(list_catalog())}"
    )


def entry(name: str) -> GameEntry:
    """The catalog entry of a game (any spelling :func:`canonical` accepts)."""
    return CATALOG[canonical(name)]


def list_catalog() -> list[str]:
    return sorted(CATALOG)
