"""alignment.atomic: whole files or none, modes kept, unwritable places refused before any work."""

from __future__ import annotations

import os
import stat

import pytest

from alignment import atomic


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_replacing_a_file_keeps_its_mode(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text("old\n")
    os.chmod(path, 0o644)
    atomic.write_text(path, "new\n")
    assert path.read_text() == "new\n" and _mode(path) == 0o644
    os.chmod(path, 0o600)
    atomic.write_text(path, "newer\n")
    assert _mode(path) == 0o600


def test_a_new_file_follows_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        atomic.write_text(tmp_path / "a.md", "x")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "a.md") == 0o640


def test_a_directory_is_not_a_file_target(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(atomic.OutputLocationError, match="is a directory"):
        atomic.write_text(tmp_path / "d", "x")
    with pytest.raises(atomic.OutputLocationError, match="is a directory"):
        atomic.check_writable(tmp_path / "d")


def test_read_only_folder_is_refused_before_work():
    """Run as an unprivileged user (root may write anywhere): the check must refuse a 0555 folder."""
    import shutil
    import subprocess
    import sys
    import tempfile

    base = tempfile.mkdtemp(prefix="jaxtari-ro-", dir="/tmp")
    try:
        os.chmod(base, 0o755)
        ro = os.path.join(base, "ro")
        os.mkdir(ro, 0o555)
        os.chmod(ro, 0o555)
        code = (
            "import sys; from alignment import atomic\n"
            "try:\n    atomic.check_writable(sys.argv[1] + '/report.json')\n"
            "except atomic.OutputLocationError as e:\n    print('REFUSED', e)\n"
        )
        as_nobody = (lambda: os.setuid(65534)) if os.geteuid() == 0 else None
        root = os.path.dirname(os.path.dirname(os.path.abspath(atomic.__file__)))
        try:
            out = subprocess.run([sys.executable, "-c", code, ro], capture_output=True, text=True,
                                 preexec_fn=as_nobody, cwd=root,
                                 env={**os.environ, "PYTHONPATH": root}, timeout=60)
        except PermissionError:
            pytest.skip("an unprivileged user cannot run this Python (it lives under a private home)")
        if "Permission denied" in out.stderr and "REFUSED" not in out.stdout:
            pytest.skip("the unprivileged user cannot read this checkout")
        assert "REFUSED" in out.stdout and "not writable" in out.stdout, out.stderr
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_output_under_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(atomic.OutputLocationError, match="not a directory"):
        atomic.check_writable(tmp_path / "f" / "report.json")
    with pytest.raises(atomic.OutputLocationError, match="is a file"):
        atomic.check_writable_dir(tmp_path / "f")
    assert atomic.check_writable(tmp_path / "new" / "deeper" / "r.json").name == "r.json"
