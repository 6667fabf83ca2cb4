"""Seeded faults: the fault sets load, and one fault per game is caught by its rule's probe."""

import pytest

from alignment.audit import probes
from alignment.audit.faults import FaultSetError, load_faults
from alignment.spec.store import load_spec
from tests.docs.paths import SPECS

FAULTS_DIR = SPECS.parent / "faults"


CAUGHT = [("pong", "right_ignored"), ("freeway", "crossing_worth_2"), ("freeway", "slow_lane"),
          ("frostbite", "two_reserves")]


def _fault_and_probe(game, fault):
    faults = {f.name: f for f in load_faults(game, FAULTS_DIR)}
    assert len(faults) >= 8
    f = faults[fault]
    return f, load_spec(SPECS / f"{game}.yaml").rule(f.breaks).probe


@pytest.mark.parametrize("game, fault", CAUGHT)
def test_every_games_fault_set_loads_and_names_a_probed_rule(game, fault):
    _, probe = _fault_and_probe(game, fault)
    assert probe is not None


# The default run plays the probes of one fault on Pong and one on Freeway; a second Freeway fault
# and Frostbite's (~90 s under load: two compiles of Frostbite) re-prove the same path and are slow.
@pytest.mark.parametrize("game, fault", [
    CAUGHT[0], CAUGHT[1], pytest.param(*CAUGHT[2], marks=pytest.mark.slow),
    pytest.param(*CAUGHT[3], marks=pytest.mark.slow)])
def test_a_seeded_fault_is_caught_by_the_probe_of_the_rule_it_breaks(game, fault):
    f, probe = _fault_and_probe(game, fault)
    assert probes.run_probe(game, probe, "ale").passed
    assert probes.run_probe(game, probe, "jax").passed
    assert not probes.run_probe(game, probe, "jax", mods=(f.mod,)).passed


def test_fault_files_that_cannot_be_used_are_named(tmp_path):
    assert load_faults("pong", tmp_path) is None
    (tmp_path / "pong.py").write_text("FAULTS = 3\n")
    with pytest.raises(FaultSetError, match="must define FAULTS"):
        load_faults("pong", tmp_path)
    (tmp_path / "pong.py").write_text("import nowhere_to_be_found\n")
    with pytest.raises(FaultSetError, match="failed to load: ModuleNotFoundError"):
        load_faults("pong", tmp_path)
