"""Export: a video with one picture per exported frame and the marks as captions; Minari datasets
of both sides that load back with the session's episodes, actions and rewards."""

from __future__ import annotations

import os

import imageio.v2 as imageio
import numpy as np
import pytest
from typer.testing import CliRunner

from alignment.cli import app
from alignment.playtest import export, panes
from alignment.playtest.session import read_session

runner = CliRunner()


def test_mp4_has_one_frame_per_session_frame(pong_session, tmp_path):
    out = tmp_path / "v" / "s.mp4"
    r = runner.invoke(app, ["playtest", "export", str(pong_session.path), "--video", str(out)])
    assert r.exit_code == 0, r.output
    reader = imageio.get_reader(out)
    assert reader.count_frames() == pong_session.ticks
    frame = reader.get_data(0)
    assert frame.shape == (panes.SCREEN_H, panes.panes_width(1), 3)
    assert not list(out.parent.glob(".*tmp*"))  # written under a temporary name, then moved


def test_gif_every_nth_frame_with_captions(pong_session, tmp_path):
    out = tmp_path / "s.gif"
    n = export.write_video(pong_session.path, out, every=30)
    assert n == len(range(0, pong_session.ticks, 30))
    frames = imageio.mimread(out)
    assert len(frames) == n
    # marks on frames 49, 119 and 199 are captioned for two seconds each: 49..168, 119..238, 199..318
    captioned_ticks = {t for t in range(0, pong_session.ticks, 30)
                       if any(m <= t < m + 120 for m in (49, 119, 199))}
    for i, picture in enumerate(export.video_frames(pong_session.path, every=30)):
        band = picture[-20:].reshape(-1, 3)
        has_text = bool(np.any(np.all(band == (255, 255, 120), axis=1)))
        assert has_text == (i * 30 in captioned_ticks), i * 30
    assert captioned_ticks and len(captioned_ticks) < n


def test_bad_video_name_is_refused_before_any_work(pong_session, tmp_path):
    with pytest.raises(export.ExportError, match=".mp4 or .gif"):
        export.write_video(pong_session.path, tmp_path / "s.avi")
    r = runner.invoke(app, ["playtest", "export", str(pong_session.path)])
    assert r.exit_code == 1 and "--video" in r.output


def test_minari_datasets_of_both_sides(pong_session, tmp_path, monkeypatch):
    import minari

    ids = export.write_minari(pong_session.path, tmp_path / "minari")
    assert [i.rsplit("-", 2)[-2] for i in ids] == ["ale", "jax"]
    s = read_session(pong_session.path)
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "minari"))
    for side, ds_id in zip(("ale", "jax"), ids):
        ds = minari.load_dataset(ds_id)
        assert ds.total_steps == s.ticks and ds.total_episodes == len(s.episodes())
        ep = next(ds.iterate_episodes())
        assert list(ep.actions) == [f["action"] for f in s.frames[: len(ep.actions)]]
        assert ep.observations.shape == (len(ep.actions) + 1, 10)
        assert ep.rewards.sum() == s.frames[len(ep.actions) - 1][side]["score"]
    with pytest.raises(export.ExportError, match="already exists"):
        export.write_minari(pong_session.path, tmp_path / "minari")
    assert os.environ["MINARI_DATASETS_PATH"] == str(tmp_path / "minari")
