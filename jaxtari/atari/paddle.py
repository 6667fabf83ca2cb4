"""ALE's paddle controller: the action moves the pot's resistance, the cartridge times its charge.

ALE drives a paddle game (Pong, Breakout) by changing the paddle's resistance once per frame:
RIGHT lowers it by ``POT_DELTA`` ohm, LEFT raises it, clamped to [``POT_MIN``, ``POT_MAX``]; a
reset puts it at the middle of that range. These are ALE's own constants (Arcade Learning
Environment, ``PADDLE_DELTA``, ``PADDLE_MIN``, ``PADDLE_MAX``, ``PADDLE_DEFAULT_VALUE``), checked on
ale-py 0.12.1 through both games' RAM. What a cartridge makes of the resistance (its kernel's
charge-time count) is the game's own.
"""

POT_DELTA = 23_000  # ohm per frame of RIGHT (-) / LEFT (+)
POT_MIN = 27_450
POT_MAX = 790_196
POT_START = (POT_MAX - POT_MIN) // 2 + POT_MIN  # 408,823: the resistance after a reset
