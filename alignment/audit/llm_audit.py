"""The LLM auditor: a model reads one rule and the game's source and says whether the code does it.

For each reviewed rule, one structured request (``--llm anthropic|openai``, through the official
SDKs, :mod:`alignment.llm`) holds the rule and every source file of the game with its line numbers,
and asks for a :class:`RuleVerdict`: implemented / partial / missing / contradicts, the line ranges
that show it, and why. The answer is data: it is validated by pydantic, never executed, and its
citations are checked - every range must lie inside a file that was sent - and hashed like spec
spans (sha256 of the cited lines), so a later reader can tell whether the code under a verdict has
changed. A verdict citing lines that do not exist is rejected and reported as such.

Answers are cached by content hash (provider, model, prompt - which holds the rule and the source -
and schema): a re-run with the same rule and code sends nothing. A verdict never overrides a probe:
when the two disagree the report says so and the probe's result stands.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal, Optional

from pydantic import BaseModel, Field

from alignment.audit.source import display_path
from alignment.llm import make_provider
from alignment.llm.base import ResponseCache, StructuredRequest, structured_call

PROMPT_VERSION = 1
Verdict = Literal["implemented", "partial", "missing", "contradicts"]

SYSTEM = (
    "You audit a re-implementation of an Atari 2600 game written in JAX against one rule of the "
    "original game. Read the rule and the source files (each line is numbered). Decide whether the "
    "code implements the rule: 'implemented' (fully), 'partial' (some of it), 'missing' (nowhere), "
    "or 'contradicts' (the code does something the rule excludes). Cite the line ranges that show "
    "your verdict, using the file paths and line numbers exactly as given; cite no line you have not "
    "read. Explain in one or two sentences."
)


class CitedLines(BaseModel):
    file: str = Field(description="the file path exactly as given in the prompt")
    start: int = Field(ge=1, description="first cited line (1-based)")
    end: int = Field(ge=1, description="last cited line (inclusive)")


class RuleVerdict(BaseModel):
    verdict: Verdict
    lines: list[CitedLines] = Field(description="line ranges that show the verdict")
    reason: str = Field(description="why, in one or two sentences")


def numbered(files: list[Path]) -> tuple[str, dict[str, list[str]]]:
    """The source as the prompt shows it, and each file's lines by display path."""
    texts, by_path = [], {}
    for f in files:
        lines = Path(f).read_text(encoding="utf-8").splitlines()
        path = display_path(f)
        by_path[path] = lines
        body = "\n".join(f"{i:5d}| {line}" for i, line in enumerate(lines, 1))
        texts.append(f"=== {path} ({len(lines)} lines) ===\n{body}")
    return "\n\n".join(texts), by_path


def build_request(rule, source_text: str, shas: tuple[str, ...]) -> StructuredRequest[RuleVerdict]:
    params = ", ".join(f"{k} = {q.value} {q.unit}" for k, q in rule.parameters.items()) or "none"
    prompt = (f"Rule {rule.id} ({rule.category}): {rule.statement}\nParameters: {params}\n\n"
              f"Source files of the game:\n\n{source_text}\n\nprompt version {PROMPT_VERSION}")
    return StructuredRequest(system=SYSTEM, prompt=prompt, output_model=RuleVerdict, max_tokens=2000,
                             document_shas=shas)


def check_citations(verdict: RuleVerdict, by_path: dict[str, list[str]]) -> tuple[list, list[str]]:
    """(cited ranges with the sha256 of their lines, problems): a range outside a file is a problem."""
    cited, problems = [], []
    for c in verdict.lines:
        lines = by_path.get(c.file)
        if lines is None:
            problems.append(f"{c.file}:{c.start}-{c.end} names a file that was not sent "
                            f"({', '.join(sorted(by_path))})")
        elif c.end < c.start or c.end > len(lines):
            problems.append(f"{c.file}:{c.start}-{c.end} does not exist ({c.file} has "
                            f"{len(lines)} lines)")
        else:
            text = "\n".join(lines[c.start - 1:c.end])
            cited.append({"file": c.file, "start": c.start, "end": c.end,
                          "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()})
    return cited, problems


def audit_rules(subject, rules, *, provider: str, model: Optional[str] = None, cache=None,
                llm_provider=None) -> dict[str, dict]:
    """Rule id -> the verdict as data (or its rejection), one request per rule."""
    llm_provider = llm_provider or make_provider(provider, model)
    cache = cache if isinstance(cache, ResponseCache) else ResponseCache(cache)
    source_text, by_path = numbered(subject.source_files)
    shas = tuple(hashlib.sha256("\n".join(v).encode()).hexdigest() for v in by_path.values())
    out = {}
    for rule in rules:
        result = structured_call(llm_provider, build_request(rule, source_text, shas), cache)
        v = result.output
        cited, problems = check_citations(v, by_path)
        entry = {"provider": llm_provider.name, "model": llm_provider.model, "cached": result.from_cache,
                 "key": result.key}
        if problems:
            entry.update(verdict="rejected", claimed=v.verdict, lines=[], reason=v.reason,
                         rejected="cites lines that do not exist: " + "; ".join(problems))
        else:
            entry.update(verdict=v.verdict, lines=cited, reason=v.reason, rejected=None)
        out[rule.id] = entry
    return out


def reconcile(outcome: str, entry: dict) -> Optional[str]:
    """Where a verdict and the probe disagree: what the report says (the probe's result stands)."""
    v = entry.get("verdict")
    if outcome == "pass" and v in ("missing", "contradicts"):
        return (f"the model says {v}, but the probe holds on ALE and on JAX: the probe stands; "
                "read the cited lines")
    if outcome == "fail" and v == "implemented":
        return "the model says implemented, but the probe fails on JAX: the probe stands"
    return None
