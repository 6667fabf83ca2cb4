"""The porting tool alignment.ramtrace on the real emulator (ale-py, sticky actions off): traces are
deterministic, the lives byte is found from ALE's own lives(), a RAM write's effect is reported per
address, and bad input gets a clear error."""

import subprocess
import sys

import numpy as np
import pytest

from alignment import ramtrace
from alignment.signals import RamWrite

def test_a_trace_is_deterministic_and_holds_every_frame():
    acts = ramtrace.random_holds(400, seed=3)
    a = ramtrace.record("pong", acts)
    b = ramtrace.record("pong", acts)
    assert a.frames == 400 and a.ram.shape == (401, 128) and a.reward.shape == (400,)
    assert (a.ram == b.ram).all() and (a.reward == b.reward).all()
    assert not (a.ram[1:] == a.ram[:-1]).all()  # the game moved


def test_follows_finds_the_lives_byte_that_ale_reads():
    # Kangaroo left alone loses its lives to the falling coconuts and ends (measured: ~1,150 frames)
    tr = ramtrace.record("kangaroo", ramtrace.held("NOOP", 3000))
    assert tr.over[-1], "the idle game should end within 3,000 frames"
    assert len(set(tr.lives.tolist())) >= 3  # lives were lost on the way
    found = ramtrace.follows(tr.ram[1:-1], tr.lives[:-1])  # before the game-over frame
    assert found, "some byte must move with ALE's lives()"
    # every byte found equals lives + a constant, and changes exactly when the lives do
    for a in found:
        assert len(set((tr.ram[1:-1, a].astype(int) - tr.lives[:-1]).tolist())) == 1
    assert set(found) <= set(ramtrace.follows(tr.ram[1:-1], tr.lives[:-1], on="change"))


def test_changes_counts_and_orders_the_moving_bytes():
    ram = np.zeros((5, 128), np.uint8)
    ram[1:, 7] = [1, 2, 3, 4]
    ram[3:, 9] = 200
    rows = ramtrace.changes(ram)
    assert [(c.address, c.changes, c.first, c.values) for c in rows] == [
        (7, 4, 1, (0, 1, 2, 3, 4)), (9, 1, 3, (0, 200))]


def test_write_effect_names_the_written_bytes_and_what_else_changed():
    acts = ramtrace.held("NOOP", 600)
    slots = (8, 9, 10, 11)
    eff = ramtrace.write_effect("kangaroo", acts, [RamWrite(a, 127) for a in slots])
    assert eff.frames == 600 and eff.written == slots
    assert all(eff.differing[a] == 0 for a in slots)  # written right after reset
    assert set(eff.others) == set(eff.differing) - set(slots)
    # writing at reset the value a byte already holds there changes nothing at all
    reset_ram = ramtrace.record("kangaroo", []).ram[0]
    same = ramtrace.write_effect("kangaroo", acts, [RamWrite(5, int(reset_ram[5]), when="reset")])
    assert same.differing == {} and same.reward_first is None and same.over_first is None


def test_bad_input_is_named():
    with pytest.raises(ramtrace.RamTraceError, match="unknown ROM 'pongg'"):
        ramtrace.record("pongg", [0])
    with pytest.raises(ramtrace.RamTraceError, match="unknown action 'JUMP'"):
        ramtrace.held("JUMP", 3)
    with pytest.raises(ramtrace.RamTraceError, match="ADDRESS=VALUE"):
        ramtrace.parse_write("8:127")
    with pytest.raises(ramtrace.RamTraceError, match="frames must be"):
        ramtrace.held("NOOP", -1)
    with pytest.raises(ramtrace.RamTraceError, match="one value per RAM row"):
        ramtrace.follows(np.zeros((3, 128)), [1, 2])


def test_command_line_prints_the_bytes_and_refuses_bad_input():
    run = [sys.executable, "-m", "alignment.ramtrace"]
    ok = subprocess.run(run + ["kangaroo", "--frames", "500", "--write", "8=127"],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "ram[  8] differs from frame 0" in ok.stdout
    bad = subprocess.run(run + ["kangaroo", "--write", "300=1"], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and "address 0..127" in bad.stdout and "Traceback" not in bad.stderr
