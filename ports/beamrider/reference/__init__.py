"""BeamRider's ground truth, being ported (moves to ``alignment/reference/games/beamrider/``): the
RAM map in :mod:`.ram`, each address re-checked on ALE by tests/ports/test_beamrider_ram.py."""
