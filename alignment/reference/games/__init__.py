"""Per-game ground truth: one package per game, ``<game>/``, whose ``ENTRY`` (a
:class:`~alignment.signals.GameEntry`) says where the emulator keeps what the game's signals report,
each RAM address with its public source. :mod:`alignment.catalog` finds the packages here; adding a
game adds a package.
"""
