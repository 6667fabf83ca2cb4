"""The pipeline page's mermaid diagram is the compiled graph's; the README's first command is the
pipeline run."""

import re
from pathlib import Path

from alignment.pipeline import graph

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PIPELINE_DOC = ROOT / "docs" / "pipeline.md"


def test_the_documented_mermaid_matches_the_compiled_graph():
    blocks = re.findall(r"```mermaid\n(.*?)```", PIPELINE_DOC.read_text(), flags=re.S)
    assert len(blocks) == 1, "docs/pipeline.md should hold one mermaid diagram, the pipeline's"
    assert blocks[0] == graph.mermaid().rstrip("\n") + "\n", (
        "docs/pipeline.md's diagram differs from the graph: paste `python -m "
        "alignment.pipeline.graph` into it")


def test_the_diagram_shows_every_stage_and_the_conditional_routes():
    text = graph.mermaid()
    for edge in ("__start__ --> spec;", "spec -.-> review;", "review -.-> review;",
                 "review -.-> audit;", "audit -.-> review;", "audit -.-> playtest;",
                 "playtest -.-> stress;", "playtest -.-> report;", "stress --> report;",
                 "report --> __end__;"):
        assert edge in text


def test_the_readmes_first_command_is_the_pipeline_run_on_frostbite():
    # tests/pipeline/test_run_real.py runs the same thing end to end (slow)
    first = re.search(r"```bash\n(.*?)\n```", README.read_text(), flags=re.S).group(1)
    assert first.split(" && ")[-1] == "jaxtari-align run frostbite"
    # pinned: the test suite checks that what is installed is what the artefacts were made with
    assert 'pip install -c constraints.txt -e ".[dev]"' in first
