"""Seaquest's RAM on the emulator: the signals read from it and the pokes written into it.

Addresses: the public commented disassembly of the cartridge (DNSDEBRO/Disassemblies,
Atari2600/Seaquest/seaquest.asm: its zero-page variable list), held once in the JAX side's
constants (``jaxtari.games.seaquest.constants``, the ``RAM_*`` names); screen offsets measured here on
ale-py 0.12.1 (the player's sub drawn from x = ram[70], its top line at ram[97] + 33). ALE reads the
score from ram[56..58] (BCD) and lives() = ram[59] + 1; tests/games/test_seaquest_ram.py re-checks
each on the emulator.
"""

from __future__ import annotations

import numpy as np

from alignment.signals import MEASURED, AleCounterpart, Poke, RamWrite, Signal, bcd_bytes, jax_signal

from jaxtari.games.seaquest import constants as k

DISASSEMBLY = ("the public commented disassembly (DNSDEBRO/Disassemblies, "
               "Atari2600/Seaquest/seaquest.asm)")
LANES_TOP_FIRST = tuple(range(k.NUM_LANES - 1, -1, -1))  # lane 3 is the top lane


def _lanes(ram, base):
    return np.asarray([int(ram[base + lane]) for lane in LANES_TOP_FIRST], np.int64)


def score(ram) -> int:
    """The BCD score of ram[56..58] as a number."""
    return int("".join(f"{int(ram[k.RAM_SCORE + i]):02x}" for i in range(3)))


def lane_kinds(ram) -> np.ndarray:
    """Per lane, top first: 1 for an enemy sub's lane, 0 for a killer shark's."""
    return (_lanes(ram, k.RAM_ATTRIBUTES) & k.ATTR_SUB != 0).astype(np.int64)


def lane_copies(ram) -> np.ndarray:
    """Per lane, top first: how many of the group's (up to three) copies are alive."""
    return np.asarray([bin(int(v) & 7).count("1") for v in _lanes(ram, k.RAM_PATTERN)], np.int64)


def lane_divers(ram) -> np.ndarray:
    """Per lane, top first: the diver's x in a shark lane with a diver swimming, else 0."""
    x, kind = _lanes(ram, k.RAM_MISSILE_X), lane_kinds(ram)
    swimming = _lanes(ram, k.RAM_DIVER_STATE) == k.DIVER_SWIMMING
    return np.where((kind == 0) & swimming, x, 0)


def lane_missiles(ram) -> np.ndarray:
    """Per lane, top first: the enemy missile's x in a sub lane (0: none)."""
    return np.where(lane_kinds(ram) == 1, _lanes(ram, k.RAM_MISSILE_X), 0)


def signals() -> list[Signal]:
    src = f"{DISASSEMBLY}; {MEASURED}"
    byte = lambda a: (lambda ram: int(ram[a]))  # noqa: E731
    return [
        Signal("player_x", byte(k.RAM_SUB_X), jax_signal("player_x"), 0, "px",
               f"ram[{k.RAM_SUB_X}] (seaquestSubHorizPos), {src}",
               description="the sub's left x (16 px wide); 21..134"),
        Signal("player_y", lambda ram: int(ram[k.RAM_SUB_Y]) + k.SUB_TOP_OFFSET,
               jax_signal("player_y"), 0, "px",
               f"ram[{k.RAM_SUB_Y}] + {k.SUB_TOP_OFFSET} (seaquestSubVertPos), {src}",
               description="the sub's top line; 46 on the surface, 141 at the bottom"),
        Signal("player_facing_left", lambda ram: int(ram[k.RAM_SUB_DIRECTION] == k.REFLECT),
               jax_signal("player_facing_left"), 0, "bool",
               f"ram[{k.RAM_SUB_DIRECTION}] == 8 (seaquestSubHorizDir), {src}"),
        Signal("oxygen", byte(k.RAM_OXYGEN), jax_signal("oxygen"), 0, "units",
               f"ram[{k.RAM_OXYGEN}] (oxygenValue), {src}", description="0..64"),
        Signal("divers_carried", byte(k.RAM_DIVERS), jax_signal("divers_carried"), 0, "divers",
               f"ram[{k.RAM_DIVERS}] (retrievedDivers), {src}", description="0..6"),
        Signal("torpedo_x", byte(k.RAM_TORPEDO_X), jax_signal("torpedo_x"), 0, "px",
               f"ram[{k.RAM_TORPEDO_X}] (torpedoHorizPos), {src}", description="0: none"),
        Signal("enemy_x", lambda ram: _lanes(ram, k.RAM_OBSTACLE_X), jax_signal("enemy_x"), 0,
               "px", f"ram[30..33] (obstacleHorizPos), {src}", shape=(k.NUM_LANES,),
               description="each lane's group x, top lane first (>= 160: off screen)"),
        Signal("enemy_is_sub", lane_kinds, jax_signal("enemy_is_sub"), 0, "bool",
               f"ram[89..92] bit 2 (obstacleAttributes), {src}", shape=(k.NUM_LANES,)),
        Signal("enemy_copies", lane_copies, jax_signal("enemy_copies"), 0, "enemies",
               f"ram[36..39] bits 0-2 (obstaclePatternIndex), {src}", shape=(k.NUM_LANES,)),
        Signal("diver_x", lane_divers, jax_signal("diver_x"), 0, "px",
               f"ram[71..74] where ram[113..116] == 1 (diverHorizPos, diverArray), {src}",
               shape=(k.NUM_LANES,)),
        Signal("enemy_missile_x", lane_missiles, jax_signal("enemy_missile_x"), 0, "px",
               f"ram[71..74] in sub lanes (enemySubTorpedoHorizPos), {src}",
               shape=(k.NUM_LANES,)),
        Signal("patrol_x", byte(k.RAM_PATROL_X), jax_signal("patrol_x"), 0, "px",
               f"ram[{k.RAM_PATROL_X}] (enemyPatrolSubHorizPos), {src}",
               description="the surface patrol sub (level 2 on); 0: none"),
        Signal("level", byte(k.RAM_LEVEL), jax_signal("level"), 0, "waves",
               f"ram[{k.RAM_LEVEL}] (currentLevel), {src}",
               description="surfacings with six divers so far"),
    ]


def _replace(**fields):
    def write(state, value):
        import jax.numpy as jnp

        return state.replace(**{f: jnp.int32(value) for f in fields})
    return write


def pokes() -> list[Poke]:
    return [
        Poke("score", 0, 999_999, lambda v: bcd_bytes(v, range(k.RAM_SCORE, k.RAM_SCORE + 3)),
             _replace(score=None), f"BCD ram[56..58] (playerScore), {DISASSEMBLY}", score=True,
             description="the score (a bonus sub every 10,000 points)"),
        Poke("divers", 0, k.MAX_DIVERS, lambda v: {k.RAM_DIVERS: int(v)},
             _replace(divers=None), f"ram[{k.RAM_DIVERS}] (retrievedDivers), {DISASSEMBLY}",
             description="divers carried (six: surfacing pays the bonus and starts the next wave)"),
        Poke("oxygen", 1, k.OXYGEN_MAX, lambda v: {k.RAM_OXYGEN: int(v)},
             _replace(oxygen=None), f"ram[{k.RAM_OXYGEN}] (oxygenValue), {DISASSEMBLY}",
             first_frame=130, description="oxygen left, written once the opening refill is over"),
        Poke("reserve_subs", 0, k.MAX_RESERVE_SUBS, lambda v: {k.RAM_RESERVE_SUBS: int(v)},
             _replace(reserve_subs=None),
             f"ram[{k.RAM_RESERVE_SUBS}] (the reserve subs; ALE's lives() = it + 1), {DISASSEMBLY}",
             description="the subs waiting on the horizon (six at most)"),
        Poke("wave", 0, 20, lambda v: {k.RAM_LEVEL: int(v), k.RAM_DIFFICULTY: int(v)},
             _replace(level=None, difficulty=None),
             f"ram[{k.RAM_LEVEL}] and ram[{k.RAM_DIFFICULTY}] (currentLevel, levelDifficulty), "
             f"{DISASSEMBLY}", last_frame=0,
             description="the wave: points per enemy, the patrol sub, speeds and patterns"),
    ]


# The JAX state mirrors these RAM bytes (state field -> addresses, lanes bottom first): compared
# byte for byte in tests/games/test_seaquest_logic.py. Not mirrored: the kernel's pointers and
# temporaries (ram[18..29], ram[98..101]), the game colours (ram[5..17]: derived each frame)
# and the two-player reserve bytes (ram[63..69]).
STATE_BYTES = {
    "frame_count": (k.RAM_FRAME_COUNT,), "random": (k.RAM_RANDOM,),
    "color_cycle": (k.RAM_COLOR_CYCLE,), "game_over": (k.RAM_GAME_OVER,),
    "obstacle_x": tuple(range(k.RAM_OBSTACLE_X, k.RAM_OBSTACLE_X + 4)),
    "pattern": tuple(range(k.RAM_PATTERN, k.RAM_PATTERN + 4)),
    "nusiz_index": tuple(range(k.RAM_NUSIZ_INDEX, k.RAM_NUSIZ_INDEX + 4)),
    "obstacle_colours": tuple(range(k.RAM_OBSTACLE_COLOURS, k.RAM_OBSTACLE_COLOURS + 4)),
    "hit_lanes": tuple(range(k.RAM_COLLISIONS, k.RAM_COLLISIONS + 4)),
    "torpedo_lane": (k.RAM_COLLISIONS + 4,), "sub_lane": (k.RAM_COLLISIONS + 5,),
    "ball_lane": (k.RAM_COLLISIONS + 6,), "reserve_subs": (k.RAM_RESERVE_SUBS,),
    "level": (k.RAM_LEVEL,), "difficulty": (k.RAM_DIFFICULTY,), "divers": (k.RAM_DIVERS,),
    "sub_x": (k.RAM_SUB_X,), "missile_x": tuple(range(k.RAM_MISSILE_X, k.RAM_MISSILE_X + 4)),
    "point_value": (k.RAM_POINT_VALUE,),
    "fractions": tuple(range(k.RAM_FRACTIONS, k.RAM_FRACTIONS + 3)),
    "sub_direction": (k.RAM_SUB_DIRECTION,), "torpedo_direction": (k.RAM_TORPEDO_DIRECTION,),
    "attributes": tuple(range(k.RAM_ATTRIBUTES, k.RAM_ATTRIBUTES + 4)),
    "shark_float": (k.RAM_SHARK_FLOAT,), "obstacle_animation": (k.RAM_OBSTACLE_ANIMATION,),
    "sub_animation": (k.RAM_SUB_ANIMATION,), "sub_y": (k.RAM_SUB_Y,), "oxygen": (k.RAM_OXYGEN,),
    "torpedo_x": (k.RAM_TORPEDO_X,), "game_state": (k.RAM_GAME_STATE,), "death": (k.RAM_DEATH,),
    "sound_pickup": (k.RAM_SOUND_PICKUP,), "sound_shark": (k.RAM_SOUND_SHARK,),
    "sound_sub": (k.RAM_SOUND_SUB,), "sound_torpedo": (k.RAM_SOUND_TORPEDO,),
    "diver_state": tuple(range(k.RAM_DIVER_STATE, k.RAM_DIVER_STATE + 4)),
    "patrol_x": (k.RAM_PATROL_X,), "oxygen_warning": (k.RAM_OXYGEN_WARNING,),
    "speed_value": (k.RAM_SPEED_VALUE,),
}


def state_differences(state, ram, skip=()) -> dict[str, tuple]:
    """{field: (jax bytes, ALE bytes)} for every mirrored field that differs (and the score)."""
    ram = np.asarray(ram)
    out = {}
    for field, addresses in STATE_BYTES.items():
        if field in skip:
            continue
        mine = (np.atleast_1d(np.asarray(getattr(state, field))).astype(np.int64) & 0xFF).tolist()
        theirs = [int(ram[a]) for a in addresses]
        if mine != theirs:
            out[field] = (mine, theirs)
    if int(state.score) != score(ram):
        out["score"] = (int(state.score), score(ram))
    if "patrol_hit" not in skip and bool(state.patrol_hit) != bool(ram[k.RAM_PATROL_HIT] & 0x80):
        out["patrol_hit"] = (bool(state.patrol_hit), int(ram[k.RAM_PATROL_HIT]))
    return out


# The state fields Seaquest.objects reads: each is its RAM bytes (STATE_BYTES), so the RAM
# decoding of the object features is exact (tests/reference/test_features.py).
OBSERVED_FIELDS = ("game_over", "attributes", "nusiz_index", "obstacle_x", "missile_x",
                   "diver_state", "sub_x", "sub_y", "death", "oxygen", "divers",
                   "sub_direction", "torpedo_x", "patrol_x")


def observation_fields(rams: np.ndarray) -> dict[str, np.ndarray]:
    """The JAX state fields ``Seaquest.observation`` reads, for a batch of RAM snapshots (N, 128)
    (see alignment.reference.features)."""
    r = np.asarray(rams).astype(np.int32)
    out = {}
    for field in OBSERVED_FIELDS:
        addresses = list(STATE_BYTES[field])
        out[field] = r[:, addresses] if len(addresses) > 1 else r[:, addresses[0]]
    return out


# The lanes' colour bytes are RAM the picture reads (the overscan rewrites them each frame, the
# write after it lands before the next picture): holding them at the subs' grey draws every enemy
# grey, as the JAX mod does.
ALE_MODS = {
    "grey_enemies": AleCounterpart(
        tuple(RamWrite(a, k.ENEMY_SUB_COLOUR)
              for a in range(k.RAM_OBSTACLE_COLOURS, k.RAM_OBSTACLE_COLOURS + k.NUM_LANES)),
        exact=True,
        measured="python -m alignment.counterparts seaquest grey_enemies --games 2 (2026-12-05, "
                 "ale-py 0.12.1): 2 whole games of random held actions, 4,338 frames, every catalog "
                 "signal and the reward equal every frame; the 210x160 screens equal on every frame "
                 "of a whole random game (seed 0, 1,237 frames; 92 of them differ from the "
                 "unmodified game's)"),
}
# RAM cannot express these as one set of writes (jaxtari/games/seaquest/mods.py says why).
JAX_ONLY_MODS = {
    "no_enemy_missiles": "ram[71..74] is a diver's x in shark lanes and a missile's x in sub lanes: "
                         "holding it at 0 needs a condition on the lane's kind (ram[89..92] bit 2, "
                         "whose animation bits change), where a RAM write has one byte's value",
    "endless_oxygen": "holding ram[102] at 64 would refill at once after a lost sub; it needs two "
                      "conditions (ram[104] == 0 and ram[105] == 0), where a RAM write has one",
    "swapped_enemies": "the kernel sets each lane's graphic pointer (ram[18..19], shared with the "
                       "score's digit pointers) from the lane's kind bit while it draws, after "
                       "any write between frames: measured, holding ram[18] at the enemy sub's "
                       "rows (0xA4), and ram[19] at their page too, changed no screen and no "
                       "other byte over 2 whole random games (seeds 0 and 1, 6,138 frames, "
                       "ale-py 0.12.1); the kind bit itself (ram[89..92] bit 2) is the game's "
                       "(the lane_kinds signal, which lanes fire missiles or carry divers), so "
                       "writing it changes the game, not only the picture",
    "rectangles": "the objects' shapes are ROM rows the kernel reads through pointers it sets "
                  "while it draws (see swapped_enemies), so no RAM write draws a rectangle; "
                  "the colour-only counterpart that RAM can express is grey_enemies (the "
                  "lanes' colour bytes, ram[44..47]): the enemies in one colour, their shapes "
                  "the ROM's",
}
