"""Asteroids' game logic, as the cartridge runs it (each module names its disassembly routines):
the position codes' one-pixel moves (:mod:`.positions`), the ship and its shots (:mod:`.ship`),
the asteroid field (:mod:`.field`), collisions and scoring (:mod:`.collisions`), splitting and
waves (:mod:`.spawn`), hyperspace, deaths and the game's end (:mod:`.player`); the indexed reads
and writes they (and the picture) make on short arrays, by masks (:mod:`.onehot`)."""
