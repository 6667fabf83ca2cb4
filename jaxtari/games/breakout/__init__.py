"""Breakout (Atari, 1978) in pure JAX, frame for frame with ALE's emulation of the cartridge.

The state mirrors the cartridge's RAM (each field names its byte), and one ``step`` runs the
cartridge's frame in its order (read off a disassembly of ALE's ``breakout.bin``, every rule then
checked on ALE; sources in :mod:`.constants`):

1. **input** - ALE's paddle: RIGHT/LEFT lower/raise the resistance; the frame counter ticks.
2. **serve or miss** - while no ball is in play (ram[101] == 0), FIRE serves it from line 0x70,
   from x 0x40, 0x80, 0x80 or 0xC0 by the frame counter's two low bits, moving down at 1 px a frame
   and sideways at 1 px a frame towards the middle. A ball at ram[101] >= 0xD0 is lost: one ball
   less, the paddle back to full size, the hit count reset; the game ends when none are left.
3. **rebuild** - while ram[94] bit 7 is set the wall is being (re)built and the frame skips every
   collision: 36 frames after reset (the start-up animation, which leaves the bricks unchanged)
   plus one that refills the wall; one frame when the second wall comes.
4. **bounces**, from the TIA's collision latches of the picture drawn on the previous frame:
   - the paddle (unless it was the last thing hit): the ball's offset from the paddle's middle
     (ram[72] + half width - ram[99]) sets the side it leaves to and, within 4 px of the middle, the
     steeper angle; the hit count grows to 12; the speed comes from the (hit count, angle) table:
     counts 0-3 slow, 4-7 faster, 8-11 and 12 faster still (the manual's "progressively smaller
     angles after the third, seventh and eleventh hit"); a paddle hit with the score at exactly 432
     brings the second wall;
   - the playfield: above line 0x28 the top wall (dy turns, the paddle shrinks to 12 or 8 px from
     16 or 12 for the rest of this ball); else a brick at row (y - 0x32) // 6 and column
     (x - 0x39) // 8 - if it still stands it goes (7, 7, 4, 4, 1, 1 points top to bottom), a brick
     of the top three rows sets the hit count to 16 (the fastest speed), and the ball turns; only
     one brick until the ball meets the paddle or the top wall again;
   - the side walls turn dx when the ball heads into the nearer one.
5. **paddle** - the pot reading of the last frame eases the paddle: x <- (x + 235 - reading) / 2,
   clamped to [0x37, 0xBF].
6. **ball** - y += dy, x -= dx in 8.8 fixed point.
7. **kernel and overscan** - the new pot reading; the digits (score, balls left, player 1) latched
   for the next frame's picture.

Modes (ALE 0..44 = the manual's games 1..12 for one player; ALE difficulty 1 = the left switch at
A, which narrows the paddle to 12 px, 8 px once shrunk): steerable (the paddle's movement pushes a
rising ball 2 px), catch (FIRE holds the ball on the paddle), invisible (the wall shows only while a
brick's sound plays), timed (the score counts frames / 64; bricks score nothing) and breakthru (the
ball goes on through bricks) follow the same ROM reading (``constants.MODE_FLAGS``).

How close it is (tests/games/test_breakout*.py, measured on ale-py 0.12.1): every RAM byte the state
mirrors, the reward, lives() and game_over() agree with zero tolerance on every frame of 20 whole
random games (actions held 1 and 1..8 frames; 13,888 frames), 10 whole games of a ball-tracking
player (73,447 frames, scores up to 421; the top speed in all, the paddle shrunk in 6), and a
3,000-frame game in each of the 12 modes at both difficulties (65,315 frames); the 210x160 screen
is pixel-exact on every 10th frame of all of them, and on every frame of the scripted starts.

Where it knowingly differs from ALE:
- the cartridge's game-select switches, its attract mode before a game and games of two to four
  players are not modelled;
- after 65,536 frames without a reset the frame counter (ram[90..91]) wraps and the cartridge stops
  the game (ram[52]) without ending ALE's episode, which runs on to its frame cap: the ball is taken
  out of play where it stands, the digits show the select display (the game number) and the colours
  cycle every 256 frames (constants: ATTRACT_SETS, COLOUR_SET_X; tests/games/test_breakout_select.py,
  every RAM byte and every screen equal for 100 colour sets). From the counter's high byte 100 on
  (frame 91,136 of such a game, 16,864 frames before the cap) ALE draws the paddle differently (one
  line higher on some frames, then 1 px to the right) and its pot reading can differ: not modelled
  (constants.PADDLE_SHIFT_SET);
- a brick hit is looked up at RAM byte (5 - row) + column base; rows outside 0..5 would address
  other RAM on the cartridge - they cannot be reached (the playfield has no pixels there) and are
  ignored here;
- in the frames of a wall (re)build the cartridge's steering test reads a byte the build routine
  overwrote; here no side-wall contact is assumed on those frames (steerable games only).

The 84x84 grey picture samples the same drawing at 84x84 (nearest pixel, ALE's grey levels); the
tests check it against ALE's grey screen at those pixels.
"""

from jaxtari.games.breakout.game import Breakout, BreakoutState

__all__ = ["Breakout", "BreakoutState"]
