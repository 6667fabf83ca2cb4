"""An unfinished run carried between machines in pieces (the lent accelerator's 16 MiB returned
files and 64 MiB trees): packed where it paused, joined elsewhere, it resumes to the curve of a run
never interrupted; a piece lost, changed or doubled is refused by name."""

import re
import shutil

import numpy as np
import pytest
from typer.testing import CliRunner

from alignment.cli import app
from alignment.learning import checkpoints as ckpts
from alignment.stress.carry import CarryError, pack, unpack
from alignment.stress.core import TrainingPaused, run_stress
from tests.stress.test_core import TINY

RUN = f"freeway-objects-{TINY.total_timesteps}"


def test_a_paused_run_packed_and_joined_elsewhere_resumes_to_the_unbroken_curve(tmp_path, jax_tiny):
    _, whole = jax_tiny
    with pytest.raises(TrainingPaused):
        run_stress("freeway", budget=TINY, seeds=2, backends=("jax",), out_dir=tmp_path / "here",
                   max_seconds=0.0)
    root = tmp_path / "here" / ".checkpoints" / RUN
    carried, notes = pack(root, tmp_path / "pieces", piece_bytes=4096)
    assert notes == []
    assert [(c.backend, c.seed, c.interval) for c in carried] == [("jax", 0, 1), ("jax", 1, 1)]
    size = (root / "jax" / "seed0" / "interval00001.ckpt").stat().st_size
    seed0 = sorted((tmp_path / "pieces" / "jax-seed0").iterdir())
    assert len(seed0) == carried[0].pieces == -(-size // 4096) > 1
    assert all(p.stat().st_size <= 4096 for p in seed0)

    # the other machine has only the pieces: one seed's folder at a time, as a call carries them
    there = tmp_path / "there"
    for folder in ("jax-seed0", "jax-seed1"):
        (joined,) = unpack(tmp_path / "pieces" / folder, there)
        assert joined.interval == 1
    for seed in (0, 1):
        assert (there / ".checkpoints" / RUN / "jax" / f"seed{seed}" / "interval00001.ckpt"
                ).read_bytes() == (root / "jax" / f"seed{seed}" / "interval00001.ckpt").read_bytes()
    assert not list(there.rglob(".carried-*"))
    resumed = run_stress("freeway", budget=TINY, seeds=2, backends=("jax",), out_dir=there)
    np.testing.assert_array_equal(resumed.runs["jax"].curves, whole.runs["jax"].curves)
    np.testing.assert_array_equal(resumed.runs["jax"].final, whole.runs["jax"].final)


@pytest.fixture
def packed(jax_tiny_copy, tmp_path):
    out, _ = jax_tiny_copy
    pack(out / ".checkpoints" / RUN, tmp_path / "pieces", piece_bytes=8192)
    return tmp_path / "pieces"


def _pieces(folder, seed=0):
    return sorted((folder / f"jax-seed{seed}").iterdir())


def test_the_newest_good_checkpoint_is_packed_and_a_corrupt_one_passed_over_with_a_note(
        jax_tiny_copy, tmp_path):
    out, _ = jax_tiny_copy
    seed_dir = out / ".checkpoints" / RUN / "jax" / "seed0"
    files = sorted(seed_dir.glob("interval*.ckpt"))
    assert len(files) == 2
    files[-1].write_bytes(files[-1].read_bytes()[:-10])
    carried, notes = pack(out / ".checkpoints" / RUN, tmp_path / "p")
    by_seed = {c.seed: c for c in carried}
    assert by_seed[0].interval == ckpts.load(files[0]).interval == TINY.num_evals - 1
    assert by_seed[1].interval == TINY.num_evals
    assert len(notes) == 1 and "checksum mismatch" in notes[0] and str(files[-1]) in notes[0]


def test_packing_again_replaces_the_seeds_older_pieces(jax_tiny_copy, packed):
    out, _ = jax_tiny_copy
    before = _pieces(packed)
    pack(out / ".checkpoints" / RUN, packed, piece_bytes=2**20)
    after = _pieces(packed)
    assert len(after) == 1 and after[0].name.endswith(".01of01") and len(before) > 1


def test_a_missing_piece_is_named_and_nothing_is_joined(packed, tmp_path):
    _pieces(packed)[1].unlink()
    with pytest.raises(CarryError, match=r"seed 0: piece\(s\) \[2\] of \d+ are missing"):
        unpack(packed, tmp_path / "there")
    assert not list((tmp_path / "there").rglob("*.ckpt"))


def test_a_changed_piece_is_refused_by_the_checkpoints_own_checksum(packed, tmp_path):
    piece = _pieces(packed, seed=1)[0]
    data = bytearray(piece.read_bytes())
    data[-1] ^= 1
    piece.write_bytes(bytes(data))
    with pytest.raises(CarryError, match="seed 1: the joined pieces are not the checkpoint"):
        unpack(packed, tmp_path / "there")
    assert not [p for p in (tmp_path / "there").rglob("*") if p.is_file()]


def test_pieces_are_named_as_the_device_hands_files_back(packed, jax_tiny_copy, tmp_path):
    """The device returns only files named in letters, digits, '.', '_' and '-' (its README; a
    '~' in the name left six pieces behind on 2026-12-07); a run folder named otherwise is refused
    before anything is written."""
    names = [p.name for p in packed.rglob("*") if p.is_file()]
    assert names and all(re.fullmatch(r"[A-Za-z0-9._-]+", n) for n in names), names
    out, _ = jax_tiny_copy
    odd = out / ".checkpoints" / "freeway~objects"
    shutil.copytree(out / ".checkpoints" / RUN, odd)
    with pytest.raises(CarryError, match="would not hand back"):
        pack(odd, tmp_path / "odd")
    assert not (tmp_path / "odd").exists()
    # a run trained on mods (<game>+<mod>...) travels with '+' as '__' and comes back by its name
    modded = f"freeway+no_cars+fast_chicken-objects-{TINY.total_timesteps}"
    shutil.copytree(out / ".checkpoints" / RUN, out / ".checkpoints" / modded)
    pack(out / ".checkpoints" / modded, tmp_path / "mods")
    names = [p.name for p in (tmp_path / "mods").rglob("*") if p.is_file()]
    assert names and all(re.fullmatch(r"[A-Za-z0-9._-]+", n) for n in names), names
    (joined,) = unpack(tmp_path / "mods" / "jax-seed0", tmp_path / "there")
    assert joined.run == modded
    assert joined.path == tmp_path / "there" / ".checkpoints" / modded / "jax" / "seed0" / \
        f"interval{TINY.num_evals:05d}.ckpt"


def test_a_piece_renamed_to_another_interval_is_refused(packed, tmp_path):
    for p in _pieces(packed):
        p.rename(p.with_name(p.name.replace(f"interval{TINY.num_evals:05d}", "interval00001")))
    with pytest.raises(CarryError, match=f"named for interval 1 but hold interval {TINY.num_evals}"):
        unpack(packed / "jax-seed0", tmp_path / "there")


def test_two_packs_of_one_seed_or_one_piece_twice_are_refused(packed, tmp_path):
    copy = tmp_path / "again"
    shutil.copytree(packed / "jax-seed0", copy / "jax-seed0")
    with pytest.raises(CarryError, match="lies under .* twice"):
        unpack(tmp_path, tmp_path / "there")  # packed/ and again/ both under tmp_path
    for p in _pieces(copy):
        p.rename(p.with_name(p.name.replace(f"interval{TINY.num_evals:05d}", "interval00001")))
    with pytest.raises(CarryError, match="two packs of .* seed 0"):
        unpack(tmp_path, tmp_path / "there")


def test_a_newer_checkpoint_already_there_is_not_silently_preferred(packed, jax_tiny_copy):
    out, _ = jax_tiny_copy
    older = out / ".checkpoints" / RUN / "jax" / "seed0"
    for p in _pieces(packed):
        p.rename(p.with_name(p.name.replace(f"interval{TINY.num_evals:05d}",
                                            f"interval{TINY.num_evals - 1:05d}")))
    # the renamed pieces still hold the last interval: the newer file on disk is what stops it
    with pytest.raises(CarryError, match="already holds a newer checkpoint"):
        unpack(packed / "jax-seed0", out)
    assert len(list(older.glob("interval*.ckpt"))) == 2


@pytest.mark.parametrize("case", ["no-folder", "no-seeds", "no-pieces"])
def test_nothing_to_carry_is_said_plainly(tmp_path, case):
    (tmp_path / "empty").mkdir()
    if case == "no-folder":
        with pytest.raises(CarryError, match="is not a checkpoint folder"):
            pack(tmp_path / "nowhere", tmp_path / "p")
        with pytest.raises(CarryError, match="is not a folder of checkpoint pieces"):
            unpack(tmp_path / "nowhere", tmp_path / "there")
    elif case == "no-seeds":
        with pytest.raises(CarryError, match="holds no seed's checkpoints"):
            pack(tmp_path / "empty", tmp_path / "p")
    else:
        (tmp_path / "empty" / "notes.txt").write_text("not a piece")
        with pytest.raises(CarryError, match="no checkpoint pieces under"):
            unpack(tmp_path / "empty", tmp_path / "there")


def test_the_commands_pack_and_join_and_refuse_with_exit_code_2(jax_tiny_copy, tmp_path):
    out, _ = jax_tiny_copy
    runner = CliRunner()
    res = runner.invoke(app, ["checkpoint-pack", str(out / ".checkpoints" / RUN),
                              str(tmp_path / "p"), "--piece-mib", "0.01"])
    assert res.exit_code == 0, res.output
    assert f"{RUN} jax seed 1: interval {TINY.num_evals} in" in res.output
    res = runner.invoke(app, ["checkpoint-unpack", str(tmp_path / "p"), str(tmp_path / "there")])
    assert res.exit_code == 0, res.output
    assert res.output.count(f"interval {TINY.num_evals} ->") == 2
    res = runner.invoke(app, ["checkpoint-unpack", str(tmp_path / "nowhere"), str(tmp_path / "x")])
    assert res.exit_code == 2 and "is not a folder of checkpoint pieces" in res.output
    assert "Traceback" not in res.output
