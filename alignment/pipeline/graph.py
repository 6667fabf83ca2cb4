"""The fidelity pipeline as one LangGraph graph: spec -> review -> audit -> playtest -> stress -> report.

Wiring only; the nodes live in :mod:`alignment.pipeline.nodes`, the state in
:mod:`alignment.pipeline.state`, the settings in :mod:`alignment.pipeline.configuration`.
Where a result changes the path:

- review stops the run (``interrupt``) while rules wait for a person, and comes back to itself
  until none does;
- an audit in which a rule's probe fails on ALE goes back to review (a wrong probe or a wrong rule
  is a person's call) instead of on to playtest;
- stress runs only when a budget was asked for.

``python -m alignment.pipeline.graph`` prints the graph as a mermaid diagram (the one in docs/pipeline.md).
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from alignment.pipeline import nodes
from alignment.pipeline.configuration import Configuration
from alignment.pipeline.state import PipelineState


def build() -> StateGraph:
    graph = StateGraph(PipelineState, context_schema=Configuration)
    graph.add_node("spec", nodes.spec)
    graph.add_node("review", nodes.review)
    graph.add_node("audit", nodes.audit)
    graph.add_node("playtest", nodes.playtest)
    graph.add_node("stress", nodes.stress)
    graph.add_node("report", nodes.report)

    graph.add_edge(START, "spec")
    graph.add_conditional_edges("spec", nodes.after_spec, ["review", "report"])
    graph.add_conditional_edges("review", nodes.after_review, ["review", "audit", "playtest"])
    graph.add_conditional_edges("audit", nodes.after_audit, ["review", "playtest"])
    graph.add_conditional_edges("playtest", nodes.after_playtest, ["stress", "report"])
    graph.add_edge("stress", "report")
    graph.add_edge("report", END)
    return graph


def compile(checkpointer=None):
    """The runnable graph; pass a checkpointer (SQLite for runs, in-memory in tests)."""
    return build().compile(checkpointer=checkpointer, name="jaxtari-align")


def mermaid() -> str:
    return compile().get_graph().draw_mermaid()


if __name__ == "__main__":
    print(mermaid(), end="")
