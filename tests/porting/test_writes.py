"""RAM writes on the real emulator (alignment.porting.writes and record(writes=..., screens=...)):
the writes land after reset and after every frame as the ALE backend applies a mod's counterpart,
their effect is reported per address, and bad input is named."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from alignment.cli import app
from alignment.porting import ramtrace as rt
from alignment.porting import writes as rw
from alignment.signals import RamWrite

IDLE = [("NOOP", 600)]
SLOTS = (8, 9, 10, 11)  # Kangaroo's monkey slots (HackAtari's no_monkey writes 127 there)


def test_writes_land_after_reset_and_every_frame_and_screens_are_kept():
    tr = rt.record("kangaroo", IDLE, writes=[RamWrite(a, 127) for a in SLOTS], screens=True)
    assert (tr.rams[:, list(SLOTS)] == 127).all()
    assert tr.screens.shape == (601, 210, 160, 3) and tr.screens.dtype == np.uint8
    plain = rt.record("kangaroo", IDLE)
    assert plain.screens is None and not (plain.rams[:, list(SLOTS)] == 127).all()


def test_write_effect_names_the_written_bytes_and_what_else_changed():
    eff = rw.write_effect("kangaroo", IDLE, [RamWrite(a, 127) for a in SLOTS])
    assert eff.frames == 600 and eff.written == SLOTS
    assert all(eff.differing[a] == 0 for a in SLOTS)  # written right after reset
    assert set(eff.others) == set(eff.differing) - set(SLOTS)
    # writing at reset the value a byte already holds there changes nothing at all
    reset_ram = rt.record("kangaroo", [("NOOP", 1)]).rams[0]
    same = rw.write_effect("kangaroo", IDLE, [RamWrite(5, int(reset_ram[5]), when="reset")])
    assert same.differing == {} and same.reward_first is None and same.over_first is None


def test_bad_writes_are_named():
    with pytest.raises(rt.TraceError, match="ADDRESS=VALUE"):
        rw.parse_write("8:127")
    with pytest.raises(rt.TraceError, match="address 0..127"):
        rw.parse_write("300=1")
    with pytest.raises(rt.TraceError, match="at least one RAM write"):
        rw.write_effect("kangaroo", IDLE, [])


def test_command_line_shows_a_write_effect_and_refuses_a_bad_write():
    runner = CliRunner()
    ok = runner.invoke(app, ["ramtrace", "kangaroo", "--script", "NOOP:500", "--write", "8=127"])
    assert ok.exit_code == 0, ok.output
    assert "ram[8] differs from snapshot 0" in ok.output
    bad = runner.invoke(app, ["ramtrace", "kangaroo", "--script", "NOOP:5", "--write", "300=1"])
    assert bad.exit_code == 1 and "address 0..127" in bad.output and "Traceback" not in bad.output
