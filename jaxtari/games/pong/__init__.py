"""Pong (ALE's ``pong.bin``, Atari's "Video Olympics" in its one-player Pong game) in pure JAX.

One ``step`` is one emulator frame. Every number below was measured on ale-py 0.12.1 (RAM and
``getScreenRGB`` frames, repeat_action_probability=0, frame by frame) unless it says otherwise;
"ROM" means the fact was read off a disassembly of the 2 KB cartridge (facts only: which byte is
compared with what, in which order) and then checked against the emulator.

How the real game works, and how this file follows it (state fields keep the ROM's own byte
conventions, so each one compares 1:1 with a RAM byte; :meth:`Pong.signals` converts to screen px):

- **Your paddle is a paddle controller.** ALE drives Pong's paddle controller, not a joystick:
  RIGHT lowers the paddle's resistance by 23,000 ohm per frame, LEFT raises it, clamped to
  [27,450, 790,196], starting at their midpoint (ALE's paddle emulation). The ROM times how long
  the pot takes to charge (a two-scanline loop in the kernel) and averages that reading with its
  previous value: ``avg = (avg + reading) >> 1``, once every other frame; the paddle position
  (RAM 51) is that average, copied one frame later. So RIGHT moves the paddle *up*, and the paddle
  eases in and out of motion. ``reading`` follows Stella's pot timing (charge cycles =
  1.216e-6 * R * 261 lines * 60 Hz) and the kernel's loop: 40 + 2 per 152 cycles past cycle 2451
  (fitted on 3,500 readings: zero mismatches).
- **The ball** moves ``x -= dx``, ``y += dy`` once per frame (RAM 49/54, velocities RAM 58/56).
  Top/bottom walls: when ``y <= 45`` or ``y >= 206`` (ROM's coarse grid, checked on 150 bounces)
  dy flips and y is nudged one pixel back into the court.
- **Paddle hits** are the TIA's pixel collisions of the frame just drawn, answered on the next
  frame (ROM): the new dy comes from where the ball met the paddle,
  ``dy = -(signed5(((paddle - ball_y + 6) & 63) >> 1)) >> 1`` (every hit in 40,000 frames matched),
  dx turns to point away from the paddle; a frame that bounces off a wall skips this check.
  Holding FIRE on a frame the ball touches your paddle adds 1 to the ball's horizontal speed
  (max 4), once per touching frame - the only way the ball speeds up.
- **The computer's paddle** (RAM 50) moves 2 px towards the ball's y every frame except every 8th
  frame (ROM frame counter RAM 8), comparing unsigned bytes; its only weakness is that speed limit.
- **Scoring**: when the ball's x passes 52 (you score) or 205 (the computer scores) the point is
  counted, the ball hides, and 63 frames later it is served from the centre (128, 128) towards the
  side that lost the point, keeping the vertical direction it had (ROM + RAM 11 countdown). The
  first serve comes 59 frames after reset, towards the computer. The game ends at 21.
- The score shown on screen lags the score by one frame (the ROM builds the digits after the
  kernel, from the score bytes as that frame leaves them: a RAM write after the frame, as a mod's
  ALE counterpart makes, shows only from the frame after), and the reset frame and the one after
  it are drawn in the attract colours.
- **The timer's stop.** The frame counter is 16 bits (RAM 9:8, 1:71 after reset); the frame after
  it wraps to 0 (frame 65,210 of a game) the cartridge stops the game for good (RAM 16 = 0): the
  ball stays, and hides from the next frame; no serve; the computer's score byte shows the game
  number (the select display: 1; the agent's byte is kept but not drawn), which ALE pays as a
  reward (old computer score - 1); ALE's episode runs on to its frame cap. Colours then cycle: each
  colour byte plus RAM 10 with its nibbles swapped, RAM 10 counting the counter's wraps (in play
  the cartridge clears it every frame), from the colours the last frame's logic wrote; the reset
  frames show the same cycle at RAM 10 = 60. Only a game whose rallies last ~18 minutes, or one
  whose computer points are not counted, gets there (tests/games/test_pong_stop.py: every frame,
  signal, RAM byte and pixel against ALE, with RAM 9 written to bring the wrap within frames).
- **The ball's edges** are drawn where the kernel's enable/disable writes land on the line: a
  column right of that write shows the edge one line early, so the two columns' tops (and bottoms)
  can differ by a line and a column can be 3-5 rows tall. The write's x is 139 on odd rows (158,
  off screen, on even ones), 6 px earlier once the paddle pot has charged by that line (RAM 54 >=
  reading + 2 on frames that read the pot, >= 112 on the others) and 3 px earlier per paddle drawn
  on it, the computer's on odd rows only (measured on ALE with the ball held still and the paddles
  poked; see ``_ball_columns``).

How close it is: on 8 whole games against ALE (tracking and random players, 4,000-17,500 frames
each) every one of RAM 8, 11, 13, 14, 49, 50, 51, 54, 56, 58, 60 and the reward agreed on every
frame. Pixels: every frame of 4 x 3,000 frames of random play and every sampled frame of the stored
deep games equals ALE's screen (210x160 and the 84x84 grey sampling of it), and so does the reset
frame, whose ball sits at x=2 where power-on left the TIA's ball (RAM 49 is 0 before the first
serve).

Where things are: constants.py (every number, measured or read off the ROM), state.py (the state:
which RAM byte each field mirrors), game.py (the mechanics and the frame), draw.py (the picture),
mods.py.
"""

from jaxtari.games.pong.constants import PongConstants
from jaxtari.games.pong.game import Pong
from jaxtari.games.pong.state import PongState

__all__ = ["Pong", "PongConstants", "PongState"]
