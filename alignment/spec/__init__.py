"""Stage 1 of the pipeline: the rule specification of a game, extracted from its documents.

- :mod:`alignment.spec.schema`: the pydantic models (GameSpec, Rule, SourceRef, Probe) and span checks.
- :mod:`alignment.spec.offline`: the default extractor (deterministic, no keys, no network).
- :mod:`alignment.spec.store`: ``specs/<game>.yaml`` read/write and the reviewed-rule merge.
- :mod:`alignment.spec.core`: ``build``: extract, merge with the stored spec; returns data (``store.write`` stores it).
- :mod:`alignment.spec.command`: the ``jaxtari-align spec`` command (the only module that prints).
"""
