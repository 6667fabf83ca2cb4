"""Stage 2, the audit: precision and recall of a JAX game against its reviewed spec, on ALE.

- :mod:`alignment.audit.core`: :func:`~alignment.audit.core.run_audit` returns an
  :class:`~alignment.audit.core.AuditResult` (never prints, writes nothing);
- :mod:`alignment.audit.report`: ``audits/<game>.json`` + ``.md`` (docs/audit-schema.md);
- :mod:`alignment.audit.command`: ``jaxtari-align audit GAME``;
- :mod:`alignment.audit.trace` (rule tags in the game's comments), :mod:`alignment.audit.events`
  (behavioural precision), :mod:`alignment.audit.faults` (seeded faults),
  :mod:`alignment.audit.llm_audit` (the LLM auditor's verdicts, as data).
"""
