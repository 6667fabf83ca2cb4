"""The whole pipeline as one LangGraph graph: typed state, configuration, nodes, runs and commands.

:mod:`.graph` wires the nodes of :mod:`alignment.pipeline.nodes`; this package also holds the
parts it wires (LangGraph's template shape: state, configuration and graph kept apart).
"""
