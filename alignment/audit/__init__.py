"""Stage 2, the audit: precision and recall of a JAX game against its reviewed spec, on ALE.

- :mod:`alignment.audit.core`: :func:`~alignment.audit.core.run_audit` returns an
  :class:`~alignment.audit.core.AuditResult` (never prints, writes nothing);
- :mod:`alignment.audit.report`: ``audits/<game>.json`` + ``.md`` (docs/audit-schema.md);
- :mod:`alignment.audit.command`: ``jaxtari-align audit GAME``, ``probe`` and ``compare`` (the only
  module that prints);
- :mod:`alignment.audit.trace` (rule tags in the game's comments), :mod:`alignment.audit.events`
  (behavioural precision), :mod:`alignment.audit.faults` (seeded faults),
  :mod:`alignment.audit.llm_audit` (the LLM auditor's verdicts, as data);
- :mod:`alignment.audit.session`: every cache an audit keeps while it runs (compiled games,
  emulators, recordings, the fault switch), each with its key, let go when the audit ends;
- its raw material: :mod:`alignment.audit.probes` (a spec's probes, data, run on both backends) and
  :mod:`alignment.audit.compare` (the same policy on both backends; v5 episodes in
  :mod:`alignment.audit.episodes`; files by :mod:`alignment.audit.compare_report`).
"""
