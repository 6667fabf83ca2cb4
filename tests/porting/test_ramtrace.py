"""The RAM-trace porting tool on the real emulator (ale-py, sticky actions off)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from alignment.cli import app
from alignment.porting import ramtrace as rt

# Seaquest's frame counter is the cartridge's second zero-page byte, $81 (frameCount in the public
# disassembly DNSDEBRO/Disassemblies Atari2600/Seaquest/seaquest.asm); ram index 1.
FRAME_COUNT = 1


@pytest.fixture(scope="module")
def trace():
    return rt.record("seaquest", rt.parse_script("NOOP:150,RIGHT:30,DOWN:20"))


def test_record_keeps_every_frame(trace):
    assert trace.frames == 200
    assert trace.rams.shape == (201, 128) and trace.rams.dtype == np.uint8
    assert trace.lives.shape == (201,) and not trace.game_over.any()
    # deterministic: the same script gives the same RAM on every frame
    again = rt.record("seaquest", rt.parse_script("NOOP:150,RIGHT:30,DOWN:20"))
    assert np.array_equal(trace.rams, again.rams)


def test_candidates_find_a_counter_from_its_values(trace):
    # the frame counter, known only as "one more each frame", is found with its offset
    counts = np.arange(len(trace.rams)) + int(trace.rams[0, FRAME_COUNT])
    best = rt.candidates(trace, counts % 256)[0]
    assert best.address == FRAME_COUNT and best.agreement == 1.0


def test_activity_and_events_agree(trace):
    rows = {b.address: b for b in rt.activity(trace)}
    assert rows[FRAME_COUNT].changes == trace.frames
    found = rt.events(trace, FRAME_COUNT)
    assert len(found) == trace.frames
    assert all(e.new == (e.old + 1) % 256 for e in found)
    assert found[-1].action == "DOWN"
    untouched = [a for a in range(128) if a not in rows]
    assert untouched and not rt.events(trace, untouched[0])


def test_diff_names_the_changed_bytes(trace):
    d = rt.diff(trace.rams[0], trace.rams[1])
    assert FRAME_COUNT in d and d[FRAME_COUNT][1] == (d[FRAME_COUNT][0] + 1) % 256
    with pytest.raises(rt.TraceError, match="128 bytes"):
        rt.diff(trace.rams[0][:10], trace.rams[1])


def test_random_play_is_seeded():
    a = rt.record("pong", frames=120, seed=3, hold=(1, 4))
    b = rt.record("pong", frames=120, seed=3, hold=(1, 4))
    assert np.array_equal(a.actions, b.actions) and a.frames == 120
    assert not np.array_equal(a.actions, rt.record("pong", frames=120, seed=4, hold=(1, 4)).actions)


@pytest.mark.parametrize("text, match", [
    ("JUMP:3", "unknown action 'JUMP'"), ("RIGHT:x", "no integer"), ("RIGHT:0", "at least 1"),
    (" , ", "empty")])
def test_bad_scripts_are_named(text, match):
    with pytest.raises(rt.TraceError, match=match):
        rt.parse_script(text)


def test_bad_rom_and_mode_are_named():
    with pytest.raises(rt.TraceError, match="unknown ROM 'seaquestt'"):
        rt.record("seaquestt", frames=10)
    with pytest.raises(rt.TraceError, match="mode 99 not available"):
        rt.record("seaquest", frames=10, mode=99)


def test_command_prints_the_table_and_events():
    runner = CliRunner()
    out = runner.invoke(app, ["ramtrace", "seaquest", "--script", "NOOP:20"])
    assert out.exit_code == 0, out.output
    assert "seaquest: 20 frames" in out.output and "$81" in out.output
    out = runner.invoke(app, ["ramtrace", "seaquest", "--script", "NOOP:5", "--events", "1"])
    assert out.exit_code == 0 and "ram[1]: 5 changes" in out.output
    bad = runner.invoke(app, ["ramtrace", "seaquest", "--script", "FLY:2"])
    assert bad.exit_code == 1 and "unknown action 'FLY'" in bad.output and "Traceback" not in bad.output


def test_pokes_set_bytes_just_before_their_frame(trace):
    # the frame counter poked before frame 100 carries on from the poked value (one a frame), the
    # frames before it untouched
    poked = rt.record("seaquest", rt.parse_script("NOOP:150,RIGHT:30,DOWN:20"), pokes={100: {FRAME_COUNT: 7}})
    assert np.array_equal(poked.rams[:101], trace.rams[:101])
    assert int(poked.rams[101, FRAME_COUNT]) == (7 + int(trace.rams[101, FRAME_COUNT])
                                                 - int(trace.rams[100, FRAME_COUNT])) % 256


@pytest.mark.parametrize("pokes", [{-1: {1: 0}}, {3: {128: 0}}, {3: {1: 256}}])
def test_a_bad_poke_is_named(pokes):
    with pytest.raises(rt.TraceError, match="a poke needs a frame >= 0, a RAM address 0..127 and a byte 0..255"):
        rt.record("seaquest", frames=10, pokes=pokes)
