"""Seeded faults of Asteroids: each mod breaks one rule of specs/asteroids.yaml (loaded by path).

Each fault changes one field of ``AsteroidsConstants`` (data, no game code): a number the
cartridge uses set to a wrong value, so the audit must tell the changed game from ALE's."""

from alignment.audit.faults import Fault
from jaxtari.games.asteroids import constants as k
from jaxtari.mods import InternalMod

# points by size bits (large, large, medium, small), BCD tens: 20, 20, 50, 100 in the cartridge
LARGE_30 = (0x03, 0x03, 0x05, 0x10)
MEDIUM_40 = (0x02, 0x02, 0x04, 0x10)
SMALL_50 = (0x02, 0x02, 0x05, 0x05)
# a shot's range by heading (4 bits): four steps longer, and about half
LONG_SHOTS = tuple(min(r + 4, 15) for r in k.SHOT_RANGE)
SHORT_SHOTS = tuple(max(r // 2, 1) for r in k.SHOT_RANGE)
WEAK_THRUST = tuple(t // 2 for t in k.THRUST)

FAULTS = [
    Fault(InternalMod("large_worth_30", "a large asteroid scores 30, not 20",
                      constants={"points_bcd": LARGE_30}), "scoring.score-points-destroying-asteroids"),
    Fault(InternalMod("medium_worth_40", "a medium asteroid scores 40, not 50",
                      constants={"points_bcd": MEDIUM_40}), "scoring.medium-after-large"),
    Fault(InternalMod("small_worth_50", "a small asteroid scores 50, not 100",
                      constants={"points_bcd": SMALL_50}), "scoring.smaller-asteroid-more-points"),
    Fault(InternalMod("turns_reversed", "LEFT turns the ship clockwise and RIGHT anticlockwise",
                      constants={"left_turn": k.RIGHT_TURN, "right_turn": k.LEFT_TURN}),
          "action.control-spaceship-asteroid-field"),
    Fault(InternalMod("slow_turn", "the ship turns once every 8 frames, not 4",
                      constants={"rotation_period": 2 * k.ROTATION_PERIOD}),
          "action.control-spaceship-asteroid-field"),
    Fault(InternalMod("three_lives", "a game starts with 3 lives, not 4",
                      constants={"start_lives": k.START_LIVES - 1}), "lives.start-four"),
    Fault(InternalMod("weak_thrust", "thrust adds half the cartridge's velocity",
                      constants={"thrust": WEAK_THRUST}), "physics.thrust"),
    Fault(InternalMod("long_shots", "a shot flies four range steps further",
                      constants={"shot_range": LONG_SHOTS}), "timing.shot-range"),
    Fault(InternalMod("short_shots", "a shot flies about half its range",
                      constants={"shot_range": SHORT_SHOTS}), "timing.shot-range"),
    Fault(InternalMod("no_warp", "DOWN never takes the ship into hyperspace",
                      constants={"hyperspace": False}), "action.hyperspace"),
    Fault(InternalMod("long_hyperspace", "a ship in hyperspace stays away twice as long",
                      constants={"hyperspace_time": 2 * k.HYPERSPACE_TIME}),
          "timing.hyperspace-return"),
    Fault(InternalMod("bonus_every_10000", "a bonus life only at multiples of 10,000 points",
                      constants={"bonus_thousands_digits": (0x0, 0x0)}), "lives.bonus-every-5000"),
    Fault(InternalMod("bigger_waves_late", "waves of 3 a list from 2,000 points, not 1,000",
                      constants={"wave_more_from": k.WAVE_MORE_FROM + 1}),
          "spawning.wave-size-by-score"),
    Fault(InternalMod("half_speed_field", "the asteroids drift at half speed",
                      constants={"asteroid_move_period": 2}), "physics.asteroids-drift"),
]
