"""Seaquest's ground truth on the emulator: RAM -> signals and pokes (:mod:`.ram`)."""
