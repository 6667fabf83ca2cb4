"""scripts/device-tree.sh: the committed pixel policies leave the device's working tree and come
back as HEAD has them, in a clone of this repository (git for real; no device needed)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 64 * 1024 * 1024


def _git(repo, *args) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo,
                          capture_output=True, text=True, check=True).stdout


def _script(repo, *args):
    return subprocess.run(["bash", str(ROOT / "scripts" / "device-tree.sh"), *args], cwd=repo,
                          capture_output=True, text=True)


def test_light_leaves_the_pixel_policies_behind_and_restore_brings_them_back(tmp_path):
    repo = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True)
    pixels = sorted(_git(repo, "ls-files", "stress/policies/*-pixels.npz").split())
    assert len(pixels) >= 2
    keep = Path(pixels[0]).name
    res = _script(repo, "light", keep)
    assert res.returncode == 0, res.stderr
    tracked = set(_git(repo, "ls-files").split())
    untracked = set(_git(repo, "ls-files", "--others", "--exclude-standard").split())
    left = [p for p in pixels if Path(p).name != keep]
    # out of the index and ignored, so neither kind of file that travels; still on disk
    assert not (set(left) & (tracked | untracked)) and pixels[0] in tracked
    assert all((repo / p).is_file() for p in left)
    assert f"{sum((repo / p).stat().st_size for p in tracked)} bytes travel" in res.stdout
    # a second light, or one with changes staged, is refused by name
    again = _script(repo, "light")
    assert again.returncode == 2 and "staged" in again.stderr
    res = _script(repo, "restore")
    assert res.returncode == 0, res.stderr
    assert _git(repo, "status", "--porcelain") == ""
    assert "device-tree.sh" not in (repo / ".git" / "info" / "exclude").read_text()
    # size answers whether a carried folder still fits
    (repo / "big").write_bytes(b"\0" * (LIMIT + 1))
    size = _script(repo, "size", "big")
    assert size.returncode == 1 and f"of {LIMIT} would travel" in size.stdout


def test_restore_refuses_a_policy_file_that_is_not_heads(tmp_path):
    repo = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True)
    assert _script(repo, "light").returncode == 0
    policy = repo / _git(repo, "ls-files", "stress/policies/*-objects.npz").split()[0]
    policy.write_bytes(policy.read_bytes()[:-1])  # a policy changed while the tree was light
    res = _script(repo, "restore")
    assert res.returncode == 1 and "not HEAD's" in res.stderr and policy.name in res.stderr
