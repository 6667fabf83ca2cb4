"""Pong's numbers: measured on ale-py 0.12.1 (RAM and screens) or read off the ROM, each noted.

They are fields of :class:`PongConstants` so that an :class:`~jaxtari.mods.InternalMod` can change
them; the ground truth (alignment/reference/games/pong/) reads the offsets from here.
"""

from __future__ import annotations

import dataclasses

from jaxtari.atari import paddle


@dataclasses.dataclass(frozen=True)
class PongConstants:
    # ---- the agent's paddle controller  measured: ALE's paddle emulation, RAM 60 frame by frame
    pot_delta: int = paddle.POT_DELTA  # resistance change per frame of RIGHT (-) / LEFT (+)
    pot_min: int = paddle.POT_MIN
    pot_max: int = paddle.POT_MAX
    pot_start: int = paddle.POT_START  # ALE's reset value
    # charge cycles = R * 0.01904256 (Stella: 1.216e-6 * R * 261 scanlines * 60 Hz), computed in int32
    pot_cycles_per_kohm_e5: int = 1_904_256  # cycles per 1000 ohm, in units of 1e-5 cycles
    pot_first_cycle: int = 2_451  # cycle of the kernel's first pot check (fitted, exact)
    pot_cycles_per_step: int = 152  # one check per two scanlines
    pot_reading_floor: int = 38  # the reading when the pot never charged in time (RAM 60 floor)
    pot_reading_cap: int = 220  # last loop value of the kernel (ROM)
    start_pot_average: int = 109  # RAM 60 and RAM 51 after reset
    # ---- court (ROM coordinates: RAM 49 = screen x + 49, RAM 54 = screen y + 14)  measured: RAM 49/54/11/8 on 8 whole games
    wall_top_zone: int = 45  # ball y <= this bounces off the top wall
    wall_bottom_zone: int = 206  # ball y >= this bounces off the bottom wall
    player_scores_at: int = 52  # ball x <= this: the agent wins the point  rule: scoring.point-for
    enemy_scores_at: int = 205  # ball x >= this: the computer wins the point  rule: scoring.point-against
    serve_x: int = 128
    serve_y: int = 128
    serve_delay: int = 63  # frames from a point to the next serve (RAM 11)  rule: physics.auto-serve
    start_delay: int = 59  # RAM 11 after reset: first serve on frame 59
    win_score: int = 21  # rule: termination.first-to-21
    max_ball_speed: int = 4  # |dx| cap of the FIRE speed-up (ROM)
    hit_offset: int = 6  # dy = f(paddle - ball_y + hit_offset) (ROM, see module docstring)
    # ---- the computer's paddle  measured: RAM 50 and the ROM's frame counter RAM 8
    enemy_speed: int = 2
    enemy_rest_mask: int = 7  # it rests on frames where the ROM frame counter & mask == 0
    start_enemy_y: int = 22  # RAM 50 / RAM 21 after reset
    start_clock: int = 71  # RAM 8 (the ROM's frame counter) after reset
    start_ball_y: int = 60  # RAM 54 after reset (hidden: the ball is off screen until the serve)
    # ---- geometry on screen  measured: getScreenRGB frames
    player_x: int = 140
    enemy_x: int = 16
    paddle_w: int = 4
    paddle_h: int = 16
    ball_w: int = 2
    ball_h: int = 4
    ball_x_offset: int = 49  # screen x = RAM 49 - 49
    ball_y_offset: int = 14  # screen y = RAM 54 - 14 (edges a line early right of a column, see _ball_columns)
    # Where the kernel's ball enable/disable write lands on a line: columns from this x on show the
    # edge one line early. Measured on ale-py with the ball held still (RAM 58 = 0) at fixed columns
    # while poking RAM 54/50/51/60 over 36 pot values, fitted on 17,842 ball columns of random play
    # (0 wrong) and checked on every frame of 4 x 3,000 frames (tests/games/test_pong.py). Each 3 px
    # is one CPU cycle the kernel line spends on something else before the write.
    ball_early_x_odd: int = 139  # odd RAM 54, pot not yet charged, no paddle on the line
    ball_early_x_even: int = 158  # even RAM 54: off screen unless a shift below pulls it in
    ball_early_charged: int = 6  # the pot's capacitor has charged by this line (a shorter branch)
    ball_early_paddle: int = 3  # a paddle is being drawn on this line (each paddle, see windows)
    # the pot has charged by ball row RAM 54 >= reading + 2 on frames that read it (RAM 8 even after
    # the frame), and from row 112 on the other frames whatever the pot (measured over 36 pots)
    charge_rows_after_reading: int = 2
    charge_row_other_frames: int = 112
    # RAM 54 - ((paddle byte + 1) & ~1), inclusive, for which the paddle counts as on the line
    early_enemy_rows_odd: tuple = (-1, 13)  # the computer's paddle never shifts even rows
    early_player_rows_odd: tuple = (1, 15)
    early_player_rows_even: tuple = (0, 14)
    # the ball on the reset frame only (measured: ALE's reset screen, ale-py 0.12.1)
    reset_ball_x: int = 2
    reset_ball_top: int = 45
    player_y_offset: int = 13  # catalog: player_y = RAM 51 - 13 (drawn at even rows, see _drawn_y)
    enemy_y_offset: int = 15  # catalog: enemy_y = RAM 50 - 15
    kernel_top: int = 24  # first and one-past-last screen rows the kernel draws objects on
    kernel_bottom: int = 206
    top_wall: tuple = (24, 34)  # [first, last) rows of the top wall
    bottom_wall: tuple = (194, 210)
    digit_rows: tuple = (1, 21)
    enemy_digits_x: tuple = (20, 36)  # tens, ones
    player_digits_x: tuple = (100, 116)
    # ---- colours: TIA colour bytes, RGB from jaxtari.atari.palette  measured: getScreen bytes
    # The wall's bit 0 (which the TIA ignores) shows once the colours cycle, when a carry out of
    # it changes the drawn colour (the attract colours, below).
    background: int = 0x22  # (144, 72, 17)
    wall_colour: int = 0x0F  # (236, 236, 236), walls and ball
    player_colour: int = 0xC8  # (92, 186, 92)
    enemy_colour: int = 0x38  # (213, 130, 74)
    hmove_bar: tuple = (0, 0, 0)  # row 0, x 0..7 (HMOVE blanking), RGB
    # ---- the attract colours and the timer's stop  measured: RAM 8-10, 13, 14, 16 and getScreen
    # bytes, with RAM 9 poked to 255 (so the wrap comes within frames) and over whole games
    # A colour drawn is (colour + the cycle's byte) & 0xFE, the cycle's byte being RAM 10 with its
    # nibbles swapped (all 256 values of RAM 10, each role, 0 wrong), from the colours the last
    # frame's logic wrote: the kernel shows them one frame late.
    attract_frames: int = 1  # the reset frame and the first frame show the cycle at start_attract
    start_attract: int = 60  # RAM 10 after ALE's reset
    start_timer: int = 1  # RAM 9 after reset: RAM 9:8 wraps on frame 65,209, the stop is on 65,210
    select_game: int = 1  # the select display: RAM 13 (the computer's digits) shows the game number

