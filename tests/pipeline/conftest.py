import pytest

from alignment.pipeline.configuration import Configuration

TOY = "tests.pipeline.toy_stages"


@pytest.fixture
def toy_cfg(tmp_path):
    """A configuration whose stages are the toy's, with every artefact under tmp_path."""
    def make(**overrides) -> Configuration:
        (tmp_path / "docs").mkdir(exist_ok=True)  # the toy's extractor reads no documents
        base = dict(docs=str(tmp_path / "docs"), specs_dir=str(tmp_path / "specs"), audits_dir=str(tmp_path / "audits"),
                    playtest_dir=str(tmp_path / "playtest"), stress_dir=str(tmp_path / "stress"),
                    reports_dir=str(tmp_path / "state" / "reports"),
                    stage_modules={s: TOY for s in ("spec", "spec_report", "audit", "audit_report",
                                                    "playtest", "stress", "stress_report")})
        base.update(overrides)
        return Configuration(**base)
    return make
