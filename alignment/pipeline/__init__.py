"""The whole pipeline as one LangGraph graph: typed state, configuration, nodes, runs and commands.

``alignment/graph.py`` wires the nodes of :mod:`alignment.pipeline.nodes`; this package holds the
parts it wires (LangGraph's template shape: state, configuration and graph kept apart).
"""
