"""BeamRider's numbers, each with its source. "measured" is ale-py 0.12.1, sticky actions off, one
frame per act, mode 0, difficulty 0 (how: ports/beamrider/NOTES.md), re-checked by
tests/ports/test_beamrider_*.py; "ALE driver" is Farama-Foundation/Arcade-Learning-Environment,
src/ale/games/supported/BeamRider.cpp. Frames count ``act`` calls from reset (frame 0 first);
"logic frames" are the even ones, on which the cartridge reads the joystick and moves the ship and
its shot (the frame counter ram[1] steps on the odd ones)."""

from __future__ import annotations

import dataclasses

BYTE = 0xFF                # the cartridge's 8-bit arithmetic: every RAM value wraps at 256

# ---- the frame schedule ----------------------------------------------------------------------------
LOGIC_PERIOD = 2           # measured: the ship and its shot change only on even frames
COUNTER_PARITY = 1         # measured: ram[1] steps on odd frames (1 at reset, 2 after frame 1)
START_COUNT = 1            # measured: ram[1] at reset
# measured ram[2]: after every odd frame it shifts left one bit and takes in bit 7 xor bit 4 of
# its old value (the taps fitted on 600 steps of a NOOP game, then held on every frame of a
# whole random game: kills and deaths never step it otherwise); 2 at reset
START_RANDOM = 2
RANDOM_TAPS = 0x90

# ---- the grid's clock (ram[4] its speed, ram[24] its position) -------------------------------------
# measured (NOOP game and 4 random games, every frame up to the first lost ship): on each odd frame,
# after the counter steps, ram[24] moves by the speed ram[4] read as a signed byte in sixteenths:
# its high nibble (arithmetic shift) every time, and one more when the new count's low 4 bits,
# read backwards, fall below the speed's low nibble (a dither spreading the fraction over 16
# logic frames: speed 19 moves 1 + 3/16, the extra on counts 0, 8, 4 of each 16). ram[24] wraps at
# 32. The speed starts at 0, falls by 2 on every odd frame of the intro (the grid backs away,
# then comes on, slowing) and is set to 19 on the frame play starts (PLAY_PHASE_FRAME), where it
# stays up to the first lost ship.
START_GRID = 0
GRID_WRAP = 32
START_GRID_SPEED = 0
INTRO_SPEED_STEP = 2
PLAY_GRID_SPEED = 19
SPEED_FRACTION_BITS = 4

# ---- the sector's start (sector 1 from reset) ----------------------------------------------------
# measured: RIGHT, FIRE or UP held through the intro change nothing until these frames; ram[12]
# turns from 2 (intro) to 3 (play) after frame 235, the ship answers the joystick from frame 238
# and fires from frame 242 on (whatever is held earlier).
INTRO_PHASE, PLAY_PHASE = 2, 3
PLAY_PHASE_FRAME = 235
FIRST_MOVE_FRAME = 238
FIRST_SHOT_FRAME = 242

# ---- the saucers (sector 1; how each was measured: NOTES.md, "The saucers' paths") ----------------
# measured: the three slots appear on frame 237 (RAM after it), all alike at x 128 on the horizon,
# drifting left or right by the random number's top bit and counting down from 54 + its low nibble
# (ram[2] poked before that frame: every value's direction and count read back); before that the
# slots read kind 0, step 0, x 0, depth 255, parameter 0
SAUCER_SPAWN_FRAME = 237
SPAWN_X = 128
START_SAUCER_DEPTH = 255
HORIZON_RIGHT_BIT = 0x80
# measured: ram[6] is the count's base - 56 at reset, 2 less at each new wave (the spawn is the
# first: 54; the next 52)
START_COUNT_BASE = 56
COUNT_BASE_STEP = 2
HORIZON_COUNT_MASK = 0x0F
# measured (NOOP game and 12 random games): the waves' pacing. ram[8] is 0 and ram[16] 1 until the
# spawn, which starts wave 2 with the timer at 90; on each odd frame whose new count is a multiple
# of 8 (every 16 frames) the timer falls by one, or, when it reads 0 or below (as a signed byte),
# the next wave starts (timer 90 again, ram[16] + 1, ram[6] - 2); each kill takes 22 off the timer
# (so kills bring the next wave sooner). From wave 3 a dive starts at step 6 and aims two targets
# further, rides at step 7 and then climbs straight back (kind 1, step 8).
START_WAVE = 1
WAVE_TIMER = 90
TIMER_TICK_COUNTS = 8
KILL_TIMER_COST = 22
LONG_DIVE_WAVE = 3
STEP_LONG_ENTRY, STEP_LONG_RIDE, STEP_LONG_RETURN = 6, 7, 8
LONG_DIVE_REACH = 2
# measured (120 random games and 51 poked worlds, every frame of steps 9..12 fitted; the lockstep):
# from wave 4 a dive starts at step 9 aiming at the wave-2 target, enters at 17/16 (x; depth with
# the grid; x stops on the target), rides at step 10 to its mark (32 below the depth it arrived
# at, moving with the grid) at 28/16 as the wave-2 ride and one more when that leaves it short of
# the mark (44/16 in all on the way; 820 turns: 363 at 28/16, 457 at 44/16), then sweeps across
# three targets on the dive's side at step 11 (x 13/16, depth with the grid) and, on the target,
# climbs back as kind 1, step 12. Later waves' programs (steps 13..) follow.
SWEEP_WAVE = 4
STEP_SWEEP_ENTRY, STEP_SWEEP_RIDE, STEP_SWEEP_CROSS, STEP_SWEEP_RETURN = 9, 10, 11, 12
SWEEP_ENTRY_X_SPEED = 17
SWEEP_RIDE_EXTRA = 1
SWEEP_CROSS_X_SPEED = 13
SWEEP_REACH = 3
# measured (120 random games and 51 poked worlds, every frame of steps 13..16 fitted exactly): from
# wave 5 a dive starts at step 13 aiming one target beyond the wave-2 one, enters at 13/16 (depth
# with the grid), then (step 14) crosses one target back at 19/16 (depth with the grid), rides
# (step 15, mark 32 below, at 34/16 like wave 3's ride), crosses one target on again (step 16,
# 19/16) and climbs back (kind 1, step 17)
ZIGZAG_WAVE = 5
STEP_ZIG_ENTRY, STEP_ZIG_CROSS, STEP_ZIG_RIDE, STEP_ZAG_CROSS, STEP_ZIG_RETURN = 13, 14, 15, 16, 17
ZIGZAG_DIVE_REACH = 1
ZIG_ENTRY_X_SPEED = 13
ZIG_CROSS_X_SPEED = 19
# measured (the same games, every frame of steps 18..21 fitted exactly): from wave 6 a dive starts
# at step 18 aiming one target beyond the wave-2 one, enters at 13/16 like wave 5, then weaves
# without riding: one target back (step 19), one on (20), one back (21), each at 8/16 with the
# depth carried by the grid, and climbs back (kind 1, step 22)
WEAVE_WAVE = 6
STEP_WEAVE_ENTRY, STEP_WEAVE_BACK, STEP_WEAVE_ON, STEP_WEAVE_BACK_AGAIN, STEP_WEAVE_RETURN = 18, 19, 20, 21, 22
WEAVE_X_SPEED = 8
# measured (the 60 random games of NOTES.md "The enemies' shots": 72 wave-7 dives; every frame of
# steps 23..25 fitted: 1,202 entry, 2,081 of 2,083 ride and 708 cross moves): from wave 7 a dive
# starts at step 23 aiming at the wave-2 target, enters at 13/16 (depth with the grid); on the
# target, step 24 rides at 48/16 to a mark 64 below (moving with the grid); there, step 25 crosses
# one target on at 21/16 (depth with the grid) and on it climbs back (kind 1, step 26)
PLUNGE_WAVE = 7
STEP_PLUNGE_ENTRY, STEP_PLUNGE_RIDE, STEP_PLUNGE_CROSS, STEP_PLUNGE_RETURN = 23, 24, 25, 26
PLUNGE_ENTRY_X_SPEED = 13
PLUNGE_RIDE_LEAD = 64
PLUNGE_RIDE_DEPTH_SPEED = 48
PLUNGE_CROSS_X_SPEED = 21
PLUNGE_REACH = 1
# measured (40 random games with ram[16] poked to 7 before the spawn, so that wave 8 starts there,
# and 33 NOOP worlds likewise with ram[2] poked 0, 8, ..., 248: every odd frame of steps 27..32
# fitted - 9,359 entry, 7,232 ride, 1,328 back, 1,317 climb, 841 on and 747 back-again moves, and
# each turn; NOTES.md "Wave 8"): from wave 8 a dive starts at step 27 aiming two targets beyond
# the wave-2 one (as wave 3's), enters at 25/16 (depth with the grid); on the target, step 28
# rides at 48/16 to a mark 64 below, stopping on it, as wave 7's; there, step 29 crosses one
# target back at 29/16 (depth with the grid); on it, step 30 climbs at -29/16 (wave 2's climb) to
# a mark 32 above, moving with the grid, turning as wave 2's climb does; then step 31 crosses one
# target on and step 32 one back, both at 33/16 (depth with the grid), and it climbs back (kind 1,
# step 33)
SWITCHBACK_WAVE = 8
(STEP_SWITCH_ENTRY, STEP_SWITCH_RIDE, STEP_SWITCH_BACK, STEP_SWITCH_CLIMB, STEP_SWITCH_ON,
 STEP_SWITCH_BACK_AGAIN, STEP_SWITCH_RETURN) = 27, 28, 29, 30, 31, 32, 33
SWITCH_ENTRY_X_SPEED = 25
SWITCH_RIDE_LEAD = 64
SWITCH_RIDE_DEPTH_SPEED = 48
SWITCH_BACK_X_SPEED = 29
SWITCH_CLIMB_LEAD = 32
SWITCH_ON_X_SPEED = 33
SWITCH_BACK_REACH = -1         # the ride's end turns one target back, against the dive's side
SWITCH_ON_REACH = 1            # the climb's end turns one target on, the dive's side
# measured (the 60 random games: every odd frame of play with an empty slot, 1,655): it comes back
# on the horizon whenever 3 or more enemies are left in the sector (1,041 of 1,041) and never with
# 0..2 left (614 of 614; the other slots then held as many saucers as were left, or fewer)
RESPAWN_LEAST_LEFT = 3
# measured (51 poked worlds): each slot keeps to its own stretch of the horizon: drifting left below
# the left end it turns right, drifting right past the right end it turns left
HORIZON_LEFT_END = (28, 92, 170)
HORIZON_RIGHT_END = (85, 163, 227)
HORIZON_COUNT_RESTART = 5      # measured: a count that ends without a dive restarts at 5
DIVE_CLEARANCE_DEPTH = 64      # measured: no dive while another kind 4/5 slot is above this depth
#                                (as the slot sees it: a grid-carried one with this frame's carry; NOTES.md)
# measured: the x a dive heads for - the next one towards the centre (strictly), from these
SAUCER_TARGETS = (60, 94, 111, 128, 145, 162, 196)
CENTRE_X = 128
# measured speeds, sixteenths of a unit a logic frame (signed), with the grid clock's dither
ENTRY_X_SPEED = 15
RIDE_DEPTH_SPEED = 28
LONG_RIDE_DEPTH_SPEED = 34     # the wave-3 ride (step 7)
CROSS_X_SPEED = 22
CLIMB_DEPTH_SPEED = -29
TURN_DEPTH_SPEED = -13         # the depth's move on the frame a climb turns into the re-cross
RECROSS_X_SPEED = 17
RETURN_DEPTH_SPEED = -77
RIDE_LEAD = 32                 # measured: the ride's mark starts 32 below the depth
CLIMB_LEAD = 128               # measured: the climb's mark starts 128 above the depth
CLIMB_MEET = 2                 # measured: the climb ends once its mark is within 2 of the depth
BEAM_STEP = 17                 # measured: the re-cross goes one beam (17) back
CROSS_REACH = 2                # measured: the cross heads two targets on from the ridden beam
# measured (NOOP game, 51 poked worlds, 120 random games: 2,850 rides and climbs reaching their
# mark, 33 held; clone/restore pokes of the other slot's depth): the turn into a lateral move
# waits while another slot stands at the very depth this one arrives at (NOTES.md, "The blocked
# lateral move"); the ride or climb then goes on with its mark moved 32 on from that depth
BLOCK_LEAD = 32
HORIZON_DEPTH = 32             # measured: a climber above this depth is back on the horizon
# measured (60 random games, 85 saucers gone at the bottom, 181,432 even frames with a saucer;
# clone/restore pokes of a saucer's x 0..255 and depth 0..215 on random seed 0's frame 2,278,
# NOTES.md "A saucer at the bottom"): on an even frame a saucer (kinds 1, 4, 5) whose depth
# reaches the limit for its x is gone (kind 0, depth 255; the next odd frame brings it back on the
# horizon as an empty slot). The limit is 210 over the drawn beams and falls off towards the
# screen's edges (the beams spread with the perspective): below, per x at the left edge (x 0..77)
# and at the right edge (x 180..255); x 78..179 read 210 (x 122..130 lost the ship instead: taken
# as 210 like their neighbours). The game's saucers run x 60..196 (depths 173..210 there).
SAUCER_BOTTOM_DEPTH = 210
SAUCER_LEFT_EDGE_DEPTHS = (
    0, 0, 0, 0, 0, 0, 32, 32, 32, 32, 32, 32, 32, 35, 44, 48, 48, 53, 57, 60, 64, 68, 68, 71, 75,
    78, 81, 85, 88, 90, 93, 99, 101, 104, 106, 109, 114, 116, 118, 120, 122, 126, 128, 130, 135,
    137, 140, 142, 145, 147, 150, 151, 154, 158, 160, 163, 164, 166, 168, 170, 173, 176, 178, 180,
    182, 184, 186, 189, 191, 193, 195, 197, 198, 201, 203, 205, 207, 209)
SAUCER_RIGHT_EDGE_DEPTHS = (
    208, 206, 204, 203, 201, 198, 197, 195, 193, 190, 189, 186, 184, 182, 180, 178, 175, 173, 170,
    168, 166, 164, 162, 160, 158, 154, 151, 150, 147, 145, 142, 140, 137, 135, 134, 128, 126, 124,
    120, 118, 116, 114, 111, 109, 104, 101, 99, 93, 90, 88, 85, 81, 78, 78, 75, 71, 68, 64, 60, 57,
    57, 53, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 0)
SAUCER_BOTTOM_DEPTHS = (SAUCER_LEFT_EDGE_DEPTHS
                        + (SAUCER_BOTTOM_DEPTH,) * (256 - len(SAUCER_LEFT_EDGE_DEPTHS) - len(SAUCER_RIGHT_EDGE_DEPTHS))
                        + SAUCER_RIGHT_EDGE_DEPTHS)
# measured: the test waits for the next odd frame (the slot then goes straight back on the
# horizon instead of moving) when enough other objects stand above the saucer: the other slots
# (a tie counts for a higher slot), the enemies' entries after their fall and the ship's shot
# before its move (a tie counts), any kind, stray depths and the horizon's 0 included. Past the
# edge it waits with 4 above (6 of 6 in the 60 games, none with fewer; pokes on seed 0's frame
# 2,278); at 210 the games never had 5 above (16 gone with 2..4), and pokes put 5 there as with
# the shots (the three slots and two others).
SAUCER_EDGE_BUSY_OBJECTS = 4
SAUCER_BOTTOM_BUSY_OBJECTS = 5
# measured (40 random games, 283 kills): a shot in flight after its move hits a saucer within 6 of
# its beam in x and within 8 of its new y in depth (misses seen at 7 and 9; the lower end of the
# depth window is only bounded: hits seen to -8, none expected below -13); the slot then shows the
# explosion: kinds 6..11, a step each time the count turns odd (every 4 frames), its parameter
# counting 8 down to 0 and its depth rising 2 a logic frame; after 11 the slot is empty one logic
# frame, then back on the horizon at x 128 as at the sector's start (its step kept)
HIT_HALF_WIDTH = 6
HIT_BUSY = 3               # measured: no launch on the 3 logic frames after a hit (as after a dud)
HIT_HALF_DEPTH = 8
KIND_EXPLOSION_FIRST, KIND_EXPLOSION_LAST = 6, 11
EXPLOSION_COUNT = 8
EXPLOSION_RISE = 2
KIND_EMPTY, KIND_CLIMBER, KIND_HORIZON_LEFT, KIND_HORIZON_RIGHT = 0, 1, 2, 3
KIND_DIVE_LEFT, KIND_DIVE_RIGHT = 4, 5
STEP_ENTRY, STEP_RIDE, STEP_CROSS, STEP_CLIMB, STEP_RECROSS, STEP_RETURN = 0, 1, 2, 3, 4, 5

# ---- the enemies' shots (object table entries 3..6; NOTES.md "The enemies' shots") ----------------
# measured (60 random games, every frame of entries holding only shots fitted; a Python replay of
# these rules against ALE): a saucer fires on the odd frame its program leaves one of these steps
# (the end of a ride or of a crossing that leads into the next move: wave 3's 7, wave 4's 10 and
# 11, wave 5's 15 and 16, wave 6's 20 and 21, wave 7's 24 and 25, wave 8's 28 and 30 - its ride and
# its climb: 155 of 156 and 121 of 121 turns fired, no other wave-8 turn did), when it is then on a drawn
# beam (94..162) with its depth 96..198: the highest empty entry gets a shot (kind 2) on its x, 8
# below it. Not while another shot stands 0..5 below that depth (the cartridge then writes only a
# depth that is cleared on the next odd frame: no shot).
FIRING_STEPS = (7, 10, 11, 15, 16, 20, 21, 24, 25, 28, 30)
# measured (the same wave-8 games: 106 of 107, 138 of 138 and 85 of 85 turns at depth 96..198):
# wave 8's other turns - leaving the cross back (29), the cross on (31) and the cross back again
# (32) - write the depth 8 below into the highest empty entry (the x too, on a beam) but no kind:
# no shot, a stray depth that counts as an object in use until the next odd frame clears it
BLANK_FIRING_STEPS = (29, 31, 32)
SHOT_COUNT = 4
KIND_SHOT_A, KIND_SHOT_B = 2, 3     # the two pictures a shot alternates between
FIRE_MIN_DEPTH, FIRE_MAX_DEPTH = 96, 198
FIRE_DROP = 8                       # the shot starts this far below the saucer
FIRE_BLOCK_GAP = 5                  # no shot while another stands 0..5 below the new one
# measured (100 poked games, sector 2: 7 shots held back with a kind-24 object 5..8 above the new
# depth, one fired with it 9 above, one 11 above): nor while another object stands 1..8 above it
FIRE_BLOCK_ABOVE = 8
# measured: a shot falls at 22/16 a logic frame (the grid clock's dither, the count as it stands on
# the even frame; 36,000 moves, no exception) and its picture flips 2 <-> 3 on the even frames
# whose count is odd
ENEMY_SHOT_SPEED = 22
# measured: the speed is ram[7] (poked 22, 23, 26, 30, 40 before the spawn: every shot move of 3
# random games fit that speed and no other); the sector's end sets it to 21 + the new sector (its
# BCD digits), the sector counted up to 25 (sector poked 0..0x30, 0x50, 0x89 with one enemy left:
# 23, 24, ... 45 in sectors 2..24, 46 from 25 on); a poked sector leaves it as it was
SHOT_SPEED_BASE = 21
SHOT_SPEED_LAST_SECTOR = 25
# measured: a shot whose depth reaches 210 goes on that even frame, unless at least two other
# objects are in flight (other shots, the ship's shot before or after its move), then on the next
# odd frame (551 of 554 such frames; the 3 others are a lockstep stop)
SHOT_GONE_DEPTH = 210
SHOT_BUSY_OBJECTS = 2

# ---- the rejuvenator (object table entries 3..6; NOTES.md "The rejuvenator") --------------------------
# measured (60 random games: 40 arrivals predicted, no false alarm; clone/restore pokes of ram[2],
# ram[84], ram[16], ram[1], ram[13], the slots' and entries' depths and the sector on random seed
# 0's frame 2,336): on an even frame in play, after the shots fell, with ram[13]'s top bit set (it
# is cleared on the arrival and set again only when a life is taken), 1..9 enemies left (any wave,
# any sector), the count's bit 2 clear, the entry (count & 3) empty (kind 0), the random number
# reading xxx1x000 and no slot nor entry (any kind, stray depths too) at depth 1..63 after the
# fall, a rejuvenator enters that entry: kind 16, depth 32, on beam ((random >> 5) + 1) >> 1.
REJUVENATOR_DUE = 0x80
REJUVENATOR_MOST_LEFT = 9
REJUVENATOR_COUNT_BIT = 0x04
REJUVENATOR_RANDOM_MASK, REJUVENATOR_RANDOM_VALUE = 0x17, 0x10
REJUVENATOR_CLEAR_DEPTH = 64
REJUVENATOR_START_DEPTH = 32
KIND_REJUVENATOR = 16
REJUVENATOR_BEAM_SHIFT = 5   # the random number's top three bits, 0..7, halved (rounding up) to a beam
# measured (2,878 moves, no exception): it falls 30/16 a logic frame (the grid clock's dither, the
# count as it stands) and its picture is 16 + the number of these depths its new depth has reached;
# it leaves at depth 210 as a shot does (the same busy rule: 15 on the even frame, 3 on the odd one)
REJUVENATOR_SPEED = 30
REJUVENATOR_PICTURE_DEPTHS = (104, 144, 176)
# measured (300 poked games' sector-2 play, NOTES.md "Sector 2's kind-24 objects"): from sector 2
# on an even frame brings the kind-24 object into the entry count & 3 (its bit 2 clear, the entry
# empty) when the random number's low three bits read 001 and nothing stands at depth 1..63 (the
# rejuvenator's rules: 1,252 of 1,260 such frames; the other 8 the first even frame of play, before
# the spawn), at depth 32 on the rejuvenator's beam; it falls 35/16 an even frame with the dither
# (85,197 of 85,197 moves), its picture 24..27 stepping at the rejuvenator's depths
KIND_FALLER = 24
FALLER_FIRST_SECTOR = 2
FALLER_RANDOM_MASK, FALLER_RANDOM_VALUE = 0x07, 0x01
FALLER_SPEED = 35
# measured (60 random games: 13 shot down, every one with the lariat on its beam and its new y
# -1..7 from the rejuvenator's depth after the fall, none at 9..14): the ship's shot meets it as it
# meets a saucer (logic/hits.py's window), is gone, pays nothing and blocks launches for 3 logic
# frames as a hit does (seeds 24, 30: FIRE held on a beam); the entry turns debris, kind
# 1, 10 above the fallen depth (13 of 13), falling 67/16 a logic frame with the grid clock's
# dither (246 moves, no exception), gone at 210 as a shot (11 of 11 on the even frame)
KIND_DEBRIS = 1
DEBRIS_RISE = 10
DEBRIS_SPEED = 67
# measured (2 catches; pokes of its x and depth on random seed 57's frame 2,184): at depth 206 or
# more with the ship's x - its x in -5..3 (the loss window) it is caught: one more ship in reserve,
# no points, the entry emptied with its depth left (a stray depth, cleared on the next odd frame)

# ---- the sector's end (NOTES.md "The sector's end") --------------------------------------------------
# measured (17 games reaching it: random seed 14, and 16 random games with ram[84] poked to 1 and
# ram[13]'s top bit cleared before the spawn; NOTES.md): on the odd frame that leaves every slot empty with no enemy left (the last explosion's
# end) ram[12] turns 4. From then slot 0's x counts the sentinel's crossing 0..215, one an odd frame
# from the next, slot 0's parameter holding its speed (+16 when the random number, stepped on that
# frame, has its top bit set, else -16) and slot 2's its x (7 or 222, a step an odd frame); on the odd
# frame the crossing reaches 215 slot 1's parameter starts a wait at 55, one less an odd frame down
# to 1. ram[84] reads 255 from the even frame after the switch. Once the sentinel has crossed, the
# ship finishes a move under way but starts none and launches nothing (seed 0 of the poked games:
# RIGHT and FIRE held then, 80 frames), and a lariat still in flight is gone on the next even frame
# (5 of 5 games with one in flight then).
SECTOR_END_PHASE = 4
SENTINEL_CROSSING = 215
SENTINEL_SPEED = 16
SENTINEL_RIGHTWARD_BIT = 0x80
SENTINEL_LEFT_X, SENTINEL_RIGHT_X = 7, 222
SENTINEL_WAIT = 55
SENTINEL_WAIT_END = 1
SECTOR_END_ENEMIES = 255
# measured (poked seed 79's frame 782, the one torpedo that met the sentinel in the 300 poked games,
# then clone/restore probes from the switch of poked seeds 4 and 79: the ship poked onto each beam
# every even frame of the crossing, torpedoes refilled, UP pressed; NOTES.md "The sentinel shot"):
# on an even frame of the crossing a torpedo standing at its last y (54) meets the sentinel when
# its x (slot 2's parameter) is 0..27 left of the beam the torpedo left from (both directions: beam
# 94 met x 67..86 and missed 63..66 and 101, 128 met 101..125 and missed 129, 145 met 118..145 and
# missed 146; lariats never met it). The torpedo is gone (launches wait 3 logic frames), 30 x (the
# sector + 10) is paid, the crossing stops where it is, the crossers stop coming and the ship is held
# as when the sentinel has crossed; slot 0's parameter keeps the reserve and slot 1's counts the
# bonus's wait from 136, one an odd frame up to 255 (poked count, grid, reserve: always 136). From
# the wait at 226 (as it stood; 225 did not) the first odd frame that leaves the grid at 0 or 1
# stops it (speed 0). With the wait at 255 (as it stood; 254 did not) every odd frame whose new
# count is a multiple of 16 pays 10 x (the sector + 10) and takes a ship from the reserve; the one
# with no ship left in reserve pays, ends the sector and gives the reserve back (ram[5] poked 0..3:
# 1..4 payments; the sector poked 2, 5: 120, 150 a payment).
SENTINEL_REACH = 27
SENTINEL_POINTS_UNIT = 30
SENTINEL_BONUS_UNIT = 10
SENTINEL_BONUS_WAIT = 136
SENTINEL_BONUS_STOP_GRID = 226
SENTINEL_BONUS_READY = BYTE
SENTINEL_BONUS_COUNTS = 16
# measured (10 ends of the poked games, each on its frame): the first odd frame, with the wait at 1 as it
# stood, that leaves the grid's position at 0 or 1 ends the sector (game.py ``next_sector``; two
# ends tell this from "the frame the grid wraps": the wait reached 1 on a wrap to 0 and the sector
# ended on the next odd frame, 0 -> 1; it reached 1 on a wrap to 1 and the sector ended a wrap
# later); the horizon count's base is then 8 lower a sector down to 8 (56 in sector 1; measured 48,
# 40, 32, 24 in sectors 2..5, 8 in sectors 0x11, 0x20, 0x90 from poked sectors)
SECTOR_END_GRID = 1
NEXT_SECTOR_WAVE = 2
SECTOR_COUNT_BASE_STEP = 8
SECTOR_COUNT_BASE_FLOOR = 8
# measured (both sets of poked games and random seed 14: 93 arrivals, none missed, no false alarm;
# clone/restore pokes of ram[2], ram[1],
# ram[84], ram[12], ram[13], ram[24], ram[33], the slots' and entries' depths on the first poked
# game's frame 804): with no enemy left (ram[84] 0, or 128..255 as in the sector's end) an even
# frame brings a crosser into the entry the rejuvenator would take (count & 3, the count's bit 2
# clear, the entry empty) when the random number's low three bits read 0, slot 0's x (the sentinel's
# crossing) is below 128 and fewer than two objects (slots, entries, stray depths) stand at its
# arrival depth, 64 + the grid's position: kind 68, from x 224 moving -40/16 an even frame, or from
# x 32 at +40/16 when the random number's top bit is set (the speed kept in ram[53..56]).
KIND_CROSSER, KIND_CROSSER_DOWN = 68, 69
CROSSER_RANDOM_MASK = 0x07
CROSSER_BASE_DEPTH = 64
CROSSER_RIGHTWARD_BIT = 0x80
CROSSER_LEFT_X, CROSSER_RIGHT_X = 32, 224
CROSSER_X_SPEED = 40
CROSSER_LAST_SENTINEL_X = 128
CROSSER_CROWD = 2
# measured (300 poked games: 34 of 34 due arrivals with one object at the arrival depth before the
# switch, the last saucer's explosion still running, were held back - the entry's x and speed
# written, its kind left 0 - while after the switch 243 of 246 came; the 3 others, poked seeds 138,
# 237 and 257, came on the even frame right after the switch, with ram[84] still 0: it is the
# enemies left as they stand, 0 or the sector's end's 255, that sets the crowd, not the phase)
CROSSER_CROWD_IN_PLAY = 1
# measured (28 games reaching the sector's end - the 12 above and 16 with ram[13]'s top bit cleared
# too: every even frame of a crosser, 3,579, 85 turns, predicted with no exception; 839 falling
# moves; pokes of its x, its speed and the ship's x on the first poked game's frame 680): a crosser
# moves its x by its speed (the grid clock's dither) on even frames and its depth with the grid on
# odd ones; on the even frame its new x is past the ship's (as the ship stood before its own move;
# strictly) and within 3 of a drawn beam, it turns onto that beam: x the beam's, kind 69, and from
# the next even frame it falls 36/16 (odd frames still with the grid). It leaves on the even frame
# its depth reaches 210 - never waiting for the odd frame as a shot may (30 of 30) - and takes the
# ship in the loss window (3 losses).
CROSSER_TURN_REACH = 3
CROSSER_FALL_SPEED = 36

# ---- a lost ship (NOTES.md "A lost ship") ------------------------------------------------------------
# measured (60 random games: 169 of 171 losses, no false alarm over 106,000 even frames; clone/
# restore pokes of the shot's x, its depth and the ship's x on random seed 0's frame 1,056): on an
# even frame, after the ship and the shots moved, the ship is lost when a shot (or a saucer: kinds
# 1, 4, 5) stands at depth 206 or more with the ship's x - its x in -5..3
LOSS_DEPTH = 206
LOSS_LEFT, LOSS_RIGHT = -5, 3
# measured (the same 171 losses, every frame of the sequence): the loss sets ram[12] to 5, the count
# to 0, the grid's speed to 30 and its position to 15, empties every slot and shot (kind 0, depth
# 255; the ship's shot too, and nothing launches on that frame), and keeps the reserve in slot 0's parameter; then the
# count and grid run on, the speed falls one each time the count reaches a multiple of 4, the ship
# and the slots stand still, and ram[5] blinks one ship less while the speed is even and below 29
# (with ships left); the speed's last step ends it: ram[12] 1, one ship less, the count 80, the ship
# back on the centre beam - or with no ship left ram[12] 6 and ram[5] 255 (the game over)
DYING_PHASE, LIFE_TAKEN_PHASE, GAME_OVER_PHASE = 5, 1, 6
LOSS_GRID_SPEED = 30
LOSS_GRID = 15
LOSS_SPEED_COUNTS = 4
BLINK_SPEED = 28
LIFE_TAKEN_COUNT = 80

# ---- the ship ---------------------------------------------------------------------------------------
# measured: ram[41] on each of the five beams (held LEFT/RIGHT from the centre stops at the ends)
BEAM_X = (94, 111, 128, 145, 162)
START_BEAM = 2             # measured: x 128 at reset
SHIP_STEP = 3              # measured: x moves 3 a logic frame, the last step cut at the next beam
# measured ram[13]: 0x83 on a beam, bit 3 added while moving right, bit 2 while moving left; the
# other direction pressed on a logic frame mid-move turns the ship back to the beam it left
ON_BEAM_FLAGS = 0x83
MOVING_RIGHT, MOVING_LEFT = 0x08, 0x04

# ---- the ship's shot (one at a time: a laser lariat on FIRE, a torpedo on UP) -----------------------
NO_SHOT = 255              # measured: ram[32] with no shot in flight
SHOT_START_Y = 206         # measured: ram[32] after the launch frame
SHOT_STEP = 8              # measured: ram[32] falls 8 a logic frame
LARIAT_LAST_Y = 102        # measured: a lariat's last y (14 logic frames in flight)
# measured (60 random games: 14 of 14 lariats at 102 went on to 94 and 2,815 of 2,815 did not, as
# this says; clone/restore pokes on random seed 3's frame 4,068): a lariat at its last y goes one
# step more when at least 4 of the 7 objects (the three slots, the four entries: any kind, the
# horizon's depth 0 and stray depths counted, empty ones at 255 not) stand above depth 94 after
# the shots fell; it is gone on the next (odd) frame
LARIAT_REACH_DEPTH = 94
# measured (300 poked games: 43 of 43 torpedoes at their last y with 4 or more objects above 46 went
# on to 46, 1,262 of 1,262 with fewer were gone): a torpedo takes the same one step more
TORPEDO_REACH_DEPTH = 46
LARIAT_REACH_OBJECTS = 4
# measured (300 poked games: every even frame after a saucer's explosion ended, 598): the emptied
# slot's depth reads 255 from that frame unless at least 4 objects stand above it as they stood
# (the other slots in use - the horizon's 0 counting -, the entries' depths before their fall, stray
# ones too, the ship's shot by its y before its move): then it keeps its depth until the next odd
# frame (5 kept, 593 cleared, no exception; a tie, or the entries after their fall, fit as well)
EMPTIED_DEPTH_OBJECTS = 4
# measured (the 466 losses of the 300 poked games, every slot, entry and ship's shot the loss frame
# emptied: 1,868 of 1,872): on the loss frame a slot or the ship's shot keeps its depth (the shot
# where it stood, unmoved) when 5 or more objects stand above it - the other slots in use and the
# entries as they stood, the ship's shot by its y after its move (for itself too) - and is cleared
# on the next odd frame (the 4 exceptions: entries at 204..209, which the port keeps no depth of)
LOSS_KEPT_OBJECTS = 5
TORPEDO_LAST_Y = 54        # measured: a torpedo's last y (20 logic frames in flight)
START_TORPEDOES = 3        # measured: ram[83] at reset, the three purple bars top right
# measured: UP read with no torpedo left launches nothing (its sound, ram[21], runs 86..89), no shot (FIRE
# or another UP) launches on the next 3 logic frames; with UP held a new one starts on the 4th
DUD_BUSY = 3
START_SHOT_X = 0           # measured: ram[40] at reset (no shot fired yet)
# measured (ram[49], 100 poked games, every frame with the ship's shot in flight: 3,220 lariat and 536
# torpedo launches): the shot's picture - a lariat's 35 all the way; a torpedo's 38, then 37 from y
# 126 and 36 from y 70 (it shrinks as it goes); 0 on the one step more past the last y. (With no shot
# in flight the byte holds other values - the launch wait in its top bits at times: not mirrored)
LARIAT_PICTURE = 35
TORPEDO_PICTURES = (38, 37, 36)
TORPEDO_PICTURE_YS = (126, 70)
REACH_PICTURE = 0

# ---- the player ---------------------------------------------------------------------------------------
START_SECTOR = 1           # measured ram[0]
START_ENEMIES = 15         # measured ram[84]: the "15" top left
START_RESERVE = 2          # measured ram[5]; ALE driver: lives() = ram[5] + 1 = 3
GAME_OVER_RESERVE = 255    # ALE driver: terminal when ram[5] == 255
# measured (NOTES.md "Points by sector": sector poked before the spawn, 0x01..0x20, 0x1E, 0x32, 0x63,
# 0x64, 0x78, 0x89, 0x99, 0xC8, 0xFF; every kill and sector 2's 1,000+ of the poked games): ram[0]
# counts in BCD and a saucer pays 4 x (the sector + 10), the multiplier stopping at 99 (44 in sector 1,
# 48 in 2, 80 in 10, 396 from 89 on); the kinds 92..94 of sectors 4+ pay 30 x the same (not modelled)
SAUCER_POINTS_UNIT = 4
POINTS_SECTOR_OFFSET = 10
POINTS_MULTIPLIER_CAP = 99
SECTORS_BCD = 100          # the sector's two BCD digits (past 99 not measured)


@dataclasses.dataclass(frozen=True)
class BeamRiderConstants:
    """Every tunable number of the port so far (module-level names above give each its source)."""

    logic_period: int = LOGIC_PERIOD
    counter_parity: int = COUNTER_PARITY
    start_count: int = START_COUNT
    start_random: int = START_RANDOM
    random_taps: int = RANDOM_TAPS
    start_grid: int = START_GRID
    grid_wrap: int = GRID_WRAP
    start_grid_speed: int = START_GRID_SPEED
    intro_speed_step: int = INTRO_SPEED_STEP
    play_grid_speed: int = PLAY_GRID_SPEED
    speed_fraction_bits: int = SPEED_FRACTION_BITS
    saucer_spawn_frame: int = SAUCER_SPAWN_FRAME
    spawn_x: int = SPAWN_X
    start_saucer_depth: int = START_SAUCER_DEPTH
    horizon_right_bit: int = HORIZON_RIGHT_BIT
    start_count_base: int = START_COUNT_BASE
    count_base_step: int = COUNT_BASE_STEP
    start_wave: int = START_WAVE
    wave_timer: int = WAVE_TIMER
    timer_tick_counts: int = TIMER_TICK_COUNTS
    kill_timer_cost: int = KILL_TIMER_COST
    long_dive_wave: int = LONG_DIVE_WAVE
    step_long_entry: int = STEP_LONG_ENTRY
    step_long_ride: int = STEP_LONG_RIDE
    step_long_return: int = STEP_LONG_RETURN
    long_dive_reach: int = LONG_DIVE_REACH
    sweep_wave: int = SWEEP_WAVE
    step_sweep_entry: int = STEP_SWEEP_ENTRY
    step_sweep_ride: int = STEP_SWEEP_RIDE
    step_sweep_cross: int = STEP_SWEEP_CROSS
    step_sweep_return: int = STEP_SWEEP_RETURN
    sweep_entry_x_speed: int = SWEEP_ENTRY_X_SPEED
    sweep_ride_extra: int = SWEEP_RIDE_EXTRA
    sweep_cross_x_speed: int = SWEEP_CROSS_X_SPEED
    sweep_reach: int = SWEEP_REACH
    zigzag_wave: int = ZIGZAG_WAVE
    step_zig_entry: int = STEP_ZIG_ENTRY
    step_zig_cross: int = STEP_ZIG_CROSS
    step_zig_ride: int = STEP_ZIG_RIDE
    step_zag_cross: int = STEP_ZAG_CROSS
    step_zig_return: int = STEP_ZIG_RETURN
    zigzag_dive_reach: int = ZIGZAG_DIVE_REACH
    zig_entry_x_speed: int = ZIG_ENTRY_X_SPEED
    zig_cross_x_speed: int = ZIG_CROSS_X_SPEED
    weave_wave: int = WEAVE_WAVE
    step_weave_entry: int = STEP_WEAVE_ENTRY
    step_weave_back: int = STEP_WEAVE_BACK
    step_weave_on: int = STEP_WEAVE_ON
    step_weave_back_again: int = STEP_WEAVE_BACK_AGAIN
    step_weave_return: int = STEP_WEAVE_RETURN
    weave_x_speed: int = WEAVE_X_SPEED
    plunge_wave: int = PLUNGE_WAVE
    step_plunge_entry: int = STEP_PLUNGE_ENTRY
    step_plunge_ride: int = STEP_PLUNGE_RIDE
    step_plunge_cross: int = STEP_PLUNGE_CROSS
    step_plunge_return: int = STEP_PLUNGE_RETURN
    plunge_entry_x_speed: int = PLUNGE_ENTRY_X_SPEED
    plunge_ride_lead: int = PLUNGE_RIDE_LEAD
    plunge_ride_depth_speed: int = PLUNGE_RIDE_DEPTH_SPEED
    plunge_cross_x_speed: int = PLUNGE_CROSS_X_SPEED
    plunge_reach: int = PLUNGE_REACH
    switchback_wave: int = SWITCHBACK_WAVE
    step_switch_entry: int = STEP_SWITCH_ENTRY
    step_switch_ride: int = STEP_SWITCH_RIDE
    step_switch_back: int = STEP_SWITCH_BACK
    step_switch_climb: int = STEP_SWITCH_CLIMB
    step_switch_on: int = STEP_SWITCH_ON
    step_switch_back_again: int = STEP_SWITCH_BACK_AGAIN
    step_switch_return: int = STEP_SWITCH_RETURN
    switch_entry_x_speed: int = SWITCH_ENTRY_X_SPEED
    switch_ride_lead: int = SWITCH_RIDE_LEAD
    switch_ride_depth_speed: int = SWITCH_RIDE_DEPTH_SPEED
    switch_back_x_speed: int = SWITCH_BACK_X_SPEED
    switch_climb_lead: int = SWITCH_CLIMB_LEAD
    switch_on_x_speed: int = SWITCH_ON_X_SPEED
    switch_back_reach: int = SWITCH_BACK_REACH
    switch_on_reach: int = SWITCH_ON_REACH
    respawn_least_left: int = RESPAWN_LEAST_LEFT
    horizon_count_mask: int = HORIZON_COUNT_MASK
    horizon_left_end: tuple = HORIZON_LEFT_END
    horizon_right_end: tuple = HORIZON_RIGHT_END
    horizon_count_restart: int = HORIZON_COUNT_RESTART
    dive_clearance_depth: int = DIVE_CLEARANCE_DEPTH
    saucer_targets: tuple = SAUCER_TARGETS
    centre_x: int = CENTRE_X
    entry_x_speed: int = ENTRY_X_SPEED
    ride_depth_speed: int = RIDE_DEPTH_SPEED
    long_ride_depth_speed: int = LONG_RIDE_DEPTH_SPEED
    cross_x_speed: int = CROSS_X_SPEED
    climb_depth_speed: int = CLIMB_DEPTH_SPEED
    turn_depth_speed: int = TURN_DEPTH_SPEED
    recross_x_speed: int = RECROSS_X_SPEED
    return_depth_speed: int = RETURN_DEPTH_SPEED
    ride_lead: int = RIDE_LEAD
    climb_lead: int = CLIMB_LEAD
    climb_meet: int = CLIMB_MEET
    beam_step: int = BEAM_STEP
    cross_reach: int = CROSS_REACH
    block_lead: int = BLOCK_LEAD
    horizon_depth: int = HORIZON_DEPTH
    saucer_bottom_depth: int = SAUCER_BOTTOM_DEPTH
    saucer_bottom_depths: tuple = SAUCER_BOTTOM_DEPTHS
    saucer_edge_busy_objects: int = SAUCER_EDGE_BUSY_OBJECTS
    saucer_bottom_busy_objects: int = SAUCER_BOTTOM_BUSY_OBJECTS
    kind_empty: int = KIND_EMPTY
    hit_half_width: int = HIT_HALF_WIDTH
    hit_busy: int = HIT_BUSY
    hit_half_depth: int = HIT_HALF_DEPTH
    kind_explosion_first: int = KIND_EXPLOSION_FIRST
    kind_explosion_last: int = KIND_EXPLOSION_LAST
    explosion_count: int = EXPLOSION_COUNT
    explosion_rise: int = EXPLOSION_RISE
    saucer_points_unit: int = SAUCER_POINTS_UNIT
    points_sector_offset: int = POINTS_SECTOR_OFFSET
    points_multiplier_cap: int = POINTS_MULTIPLIER_CAP
    sectors_bcd: int = SECTORS_BCD
    kind_climber: int = KIND_CLIMBER
    kind_horizon_left: int = KIND_HORIZON_LEFT
    kind_horizon_right: int = KIND_HORIZON_RIGHT
    kind_dive_left: int = KIND_DIVE_LEFT
    kind_dive_right: int = KIND_DIVE_RIGHT
    step_entry: int = STEP_ENTRY
    step_ride: int = STEP_RIDE
    step_cross: int = STEP_CROSS
    step_climb: int = STEP_CLIMB
    step_recross: int = STEP_RECROSS
    step_return: int = STEP_RETURN
    intro_phase: int = INTRO_PHASE
    play_phase: int = PLAY_PHASE
    play_phase_frame: int = PLAY_PHASE_FRAME
    first_move_frame: int = FIRST_MOVE_FRAME
    first_shot_frame: int = FIRST_SHOT_FRAME
    beam_x: tuple = BEAM_X
    start_beam: int = START_BEAM
    ship_step: int = SHIP_STEP
    on_beam_flags: int = ON_BEAM_FLAGS
    moving_right: int = MOVING_RIGHT
    moving_left: int = MOVING_LEFT
    no_shot: int = NO_SHOT
    shot_start_y: int = SHOT_START_Y
    shot_step: int = SHOT_STEP
    lariat_last_y: int = LARIAT_LAST_Y
    lariat_reach_depth: int = LARIAT_REACH_DEPTH
    lariat_reach_objects: int = LARIAT_REACH_OBJECTS
    emptied_depth_objects: int = EMPTIED_DEPTH_OBJECTS
    loss_kept_objects: int = LOSS_KEPT_OBJECTS
    torpedo_reach_depth: int = TORPEDO_REACH_DEPTH
    torpedo_last_y: int = TORPEDO_LAST_Y
    start_torpedoes: int = START_TORPEDOES
    start_shot_x: int = START_SHOT_X
    dud_busy: int = DUD_BUSY
    lariat_picture: int = LARIAT_PICTURE
    torpedo_pictures: tuple = TORPEDO_PICTURES
    torpedo_picture_ys: tuple = TORPEDO_PICTURE_YS
    reach_picture: int = REACH_PICTURE
    start_sector: int = START_SECTOR
    start_enemies: int = START_ENEMIES
    start_reserve: int = START_RESERVE
    game_over_reserve: int = GAME_OVER_RESERVE
    firing_steps: tuple = FIRING_STEPS
    blank_firing_steps: tuple = BLANK_FIRING_STEPS
    shot_count: int = SHOT_COUNT
    kind_shot_a: int = KIND_SHOT_A
    kind_shot_b: int = KIND_SHOT_B
    fire_min_depth: int = FIRE_MIN_DEPTH
    fire_max_depth: int = FIRE_MAX_DEPTH
    fire_drop: int = FIRE_DROP
    fire_block_gap: int = FIRE_BLOCK_GAP
    fire_block_above: int = FIRE_BLOCK_ABOVE
    enemy_shot_speed: int = ENEMY_SHOT_SPEED
    shot_speed_base: int = SHOT_SPEED_BASE
    shot_speed_last_sector: int = SHOT_SPEED_LAST_SECTOR
    shot_gone_depth: int = SHOT_GONE_DEPTH
    shot_busy_objects: int = SHOT_BUSY_OBJECTS
    loss_depth: int = LOSS_DEPTH
    loss_left: int = LOSS_LEFT
    loss_right: int = LOSS_RIGHT
    dying_phase: int = DYING_PHASE
    life_taken_phase: int = LIFE_TAKEN_PHASE
    game_over_phase: int = GAME_OVER_PHASE
    loss_grid_speed: int = LOSS_GRID_SPEED
    loss_grid: int = LOSS_GRID
    loss_speed_counts: int = LOSS_SPEED_COUNTS
    blink_speed: int = BLINK_SPEED
    life_taken_count: int = LIFE_TAKEN_COUNT
    rejuvenator_due: int = REJUVENATOR_DUE
    rejuvenator_most_left: int = REJUVENATOR_MOST_LEFT
    rejuvenator_count_bit: int = REJUVENATOR_COUNT_BIT
    rejuvenator_random_mask: int = REJUVENATOR_RANDOM_MASK
    rejuvenator_random_value: int = REJUVENATOR_RANDOM_VALUE
    rejuvenator_clear_depth: int = REJUVENATOR_CLEAR_DEPTH
    rejuvenator_start_depth: int = REJUVENATOR_START_DEPTH
    kind_rejuvenator: int = KIND_REJUVENATOR
    rejuvenator_beam_shift: int = REJUVENATOR_BEAM_SHIFT
    rejuvenator_speed: int = REJUVENATOR_SPEED
    rejuvenator_picture_depths: tuple = REJUVENATOR_PICTURE_DEPTHS
    kind_faller: int = KIND_FALLER
    faller_first_sector: int = FALLER_FIRST_SECTOR
    faller_random_mask: int = FALLER_RANDOM_MASK
    faller_random_value: int = FALLER_RANDOM_VALUE
    faller_speed: int = FALLER_SPEED
    kind_debris: int = KIND_DEBRIS
    debris_rise: int = DEBRIS_RISE
    debris_speed: int = DEBRIS_SPEED
    sector_end_phase: int = SECTOR_END_PHASE
    sentinel_crossing: int = SENTINEL_CROSSING
    sentinel_speed: int = SENTINEL_SPEED
    sentinel_rightward_bit: int = SENTINEL_RIGHTWARD_BIT
    sentinel_left_x: int = SENTINEL_LEFT_X
    sentinel_right_x: int = SENTINEL_RIGHT_X
    sentinel_wait: int = SENTINEL_WAIT
    sentinel_wait_end: int = SENTINEL_WAIT_END
    sector_end_enemies: int = SECTOR_END_ENEMIES
    sentinel_reach: int = SENTINEL_REACH
    sentinel_points_unit: int = SENTINEL_POINTS_UNIT
    sentinel_bonus_unit: int = SENTINEL_BONUS_UNIT
    sentinel_bonus_wait: int = SENTINEL_BONUS_WAIT
    sentinel_bonus_stop_grid: int = SENTINEL_BONUS_STOP_GRID
    sentinel_bonus_ready: int = SENTINEL_BONUS_READY
    sentinel_bonus_counts: int = SENTINEL_BONUS_COUNTS
    next_sector_wave: int = NEXT_SECTOR_WAVE
    sector_end_grid: int = SECTOR_END_GRID
    sector_count_base_step: int = SECTOR_COUNT_BASE_STEP
    sector_count_base_floor: int = SECTOR_COUNT_BASE_FLOOR
    kind_crosser: int = KIND_CROSSER
    kind_crosser_down: int = KIND_CROSSER_DOWN
    crosser_random_mask: int = CROSSER_RANDOM_MASK
    crosser_base_depth: int = CROSSER_BASE_DEPTH
    crosser_rightward_bit: int = CROSSER_RIGHTWARD_BIT
    crosser_left_x: int = CROSSER_LEFT_X
    crosser_right_x: int = CROSSER_RIGHT_X
    crosser_x_speed: int = CROSSER_X_SPEED
    crosser_last_sentinel_x: int = CROSSER_LAST_SENTINEL_X
    crosser_crowd: int = CROSSER_CROWD
    crosser_crowd_in_play: int = CROSSER_CROWD_IN_PLAY
    crosser_turn_reach: int = CROSSER_TURN_REACH
    crosser_fall_speed: int = CROSSER_FALL_SPEED


DEFAULTS = BeamRiderConstants()
