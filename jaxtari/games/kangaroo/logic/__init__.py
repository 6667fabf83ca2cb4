"""Kangaroo's frame, by topic (read off the public disassembly, measured on ALE): :mod:`.frame`
(the vertical blank, music, bell, timer, overscan, pickups), :mod:`.mother`, :mod:`.monkeys`,
:mod:`.ape`; :mod:`.events` (points, tunes, the death) and :mod:`.cpu` (the 6502's arithmetic)
beside them. Every value is a byte as on the cartridge (``& BYTE``); a comparison the cartridge
branches on with ``bmi``/``bpl`` reads the sign bit of the 8-bit difference (:func:`.cpu.minus`),
as the 6502 does. Each function takes the game's Constants first (``c``: its tunable numbers).
"""
