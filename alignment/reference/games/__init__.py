"""Per-game ground truth: one module per game, ``<game>.py``, defining ``ENTRY`` (a
:class:`~alignment.signals.GameEntry`): where the emulator keeps what the game's signals report, each
RAM address with its public source. :mod:`alignment.catalog` finds the modules here; adding a game
adds a file.
"""
