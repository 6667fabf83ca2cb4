"""The README's mermaid diagram is the compiled graph's."""

import re
from pathlib import Path

from alignment import graph

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_mermaid_matches_the_compiled_graph():
    blocks = re.findall(r"```mermaid\n(.*?)```", README.read_text(), flags=re.S)
    assert len(blocks) == 1, "the README should hold one mermaid diagram, the pipeline's"
    assert blocks[0] == graph.mermaid().rstrip("\n") + "\n", (
        "the README's diagram differs from the graph: paste `python -m alignment.graph` into it")


def test_the_diagram_shows_every_stage_and_the_conditional_routes():
    text = graph.mermaid()
    for edge in ("__start__ --> spec;", "spec -.-> review;", "review -.-> review;",
                 "review -.-> audit;", "audit -.-> review;", "audit -.-> playtest;",
                 "playtest -.-> stress;", "playtest -.-> report;", "stress --> report;",
                 "report --> __end__;"):
        assert edge in text
