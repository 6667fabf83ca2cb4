"""The docs' tables whose figures come from the committed artefacts, generated from them.

A table the docs show from ``audits/*.json``, ``stress/*.json``, ``robustness/*.json`` or the
recorded playtest sessions sits between two markers::

    <!-- generated: games (jaxtari-align docs-tables) -->
    ...
    <!-- end generated: games -->

``jaxtari-align docs-tables`` (:func:`rewrite`) rewrites every such block of :data:`DOCUMENTS` from
the artefacts in the repository; :func:`readme_tables_stale` says which blocks differ from what the
artefacts give (tests/test_doc_tables.py keeps the committed docs equal to it; the gate may call
it). Only the artefacts' JSON is read: nothing is imported or run, so the check takes a moment.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

# The documents that hold generated blocks, relative to the repository root.
DOCUMENTS = ("README.md", "docs/results.md")

_BEGIN = "<!-- generated: {name} (jaxtari-align docs-tables) -->"
_END = "<!-- end generated: {name} -->"
_MARKER = re.compile(r"<!-- (end )?generated: ([a-z-]+)(?: \(jaxtari-align docs-tables\))? -->")


class DocTablesError(ValueError):
    """A document's markers or an artefact cannot be read; the message names the file."""


# --------------------------------------------------------------------------------------------------
# reading the artefacts


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DocTablesError(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict):
        raise DocTablesError(f"{path} holds no JSON object")
    return data


def _audits(root: Path) -> dict[str, dict]:
    """Report name -> audit JSON, for every committed audit (games and modified games)."""
    return {p.stem: _load(p) for p in sorted((root / "audits").glob("*.json"))}


def _games(root: Path) -> list[str]:
    """Games with a committed audit of the unmodified game, in alphabetical order."""
    return sorted(name for name in _audits(root) if "+" not in name)


def _stress(root: Path) -> dict[str, dict]:
    """The learning-curve reports (not stage 4's transfer reports, which have a table of their own)."""
    return {p.stem: _load(p) for p in sorted((root / "stress").glob("*.json"))
            if not p.stem.endswith(TRANSFER_SUFFIX)}


TRANSFER_SUFFIX = "-transfer"


def _transfer(root: Path) -> dict[str, dict]:
    return {p.stem: _load(p) for p in sorted((root / "stress").glob(f"*{TRANSFER_SUFFIX}.json"))}


def _robustness(root: Path) -> dict[str, dict]:
    return {p.stem: _load(p) for p in sorted((root / "robustness").glob("*.json"))}


def _sessions(root: Path, game: str) -> int:
    return len(list((root / "playtest" / game).glob("*.jsonl.gz")))


# --------------------------------------------------------------------------------------------------
# formatting


def _pct(x: Optional[float]) -> str:
    return "-" if x is None else f"{100 * x:.1f}%".replace(".0%", "%")


def _num(x: Optional[float], digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _interval(stat: Optional[Mapping[str, Any]], digits: int = 2) -> str:
    if not stat:
        return "-"
    return (f"{_num(stat.get('value'), digits)} [{_num(stat.get('low'), digits)}, "
            f"{_num(stat.get('high'), digits)}]")


def _table(header: list[str], rows: list[list[str]], right: tuple[int, ...] = ()) -> str:
    align = ["---:" if i in right else "---" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _title(name: str) -> str:
    return name.capitalize()


def _mutation(s: Mapping[str, Any]) -> str:
    if s.get("mutation_score") is None:
        return "not run"
    return (f"{_pct(s['mutation_score'])} ({s['mutants_killed']}/"
            f"{s['mutants_killed'] + s['mutants_survived']}; {s['mutants_equivalent']} equivalent)")


def _explored(s: Mapping[str, Any]) -> str:
    frames = s.get("explore_frames")
    if frames is None:
        return "not run"
    return f"{frames:,} frames, {s.get('explore_divergences', 0)} divergences"


def _stress_cell(report: Optional[Mapping[str, Any]]) -> str:
    if report is None:
        return "none"
    steps = (report.get("config") or {}).get("total_timesteps")
    seeds = len(report.get("seeds") or ())
    label = (report.get("verdict") or {}).get("label", "?")
    budget = f"{steps:,} steps" if isinstance(steps, int) else str(report.get("budget"))
    return f"{label} ({budget} x {seeds} seeds)"


# --------------------------------------------------------------------------------------------------
# the tables


def _stage4_cell(game: str, stress: Mapping[str, Any], transfer: Mapping[str, Any]) -> str:
    """A game's stage-4 verdicts: its agents on ALE vs on the JAX game (each transfer report, by
    observation); without one, the older protocol's PPO trained on both (its objects report)."""
    verdicts = [f"{obs}: {(transfer[name].get('verdict') or {}).get('label', '?')}"
                for obs in ("pixels", "objects")
                if (name := f"{game}-{obs}{TRANSFER_SUFFIX}") in transfer]
    if verdicts:
        return ", ".join(verdicts)
    both = stress.get(f"{game}-objects")
    if both is not None and len((both.get("statistics") or {}).get("final") or {}) >= 2:
        return f"PPO on both: {_stress_cell(both)}"
    return "none"


def games_table(root: Path) -> str:
    """README: one row a game, its audit's figures, its other artefacts."""
    audits, stress, transfer = _audits(root), _stress(root), _transfer(root)
    rows = []
    for game in _games(root):
        s = audits[game].get("summary") or {}
        mods = sum(1 for name in audits if name.startswith(game + "+"))
        rows.append([
            _title(game), f"{s.get('probed_rules')}/{s.get('reviewed_rules')}", _pct(s.get("recall")),
            f"{s.get('seeded_faults_detected')}/{s.get('seeded_faults')}", _mutation(s),
            _explored(s), str(mods), _stage4_cell(game, stress, transfer),
            str(_sessions(root, game))])
    return _table(["game", "rules probed", "recall", "faults caught", "mutation score",
                   "exploration, ALE vs JAX", "mods audited", "stage 4: agents on ALE vs JAX",
                   "playtests"], rows)


def audits_table(root: Path) -> str:
    """docs/results.md: every figure of each game's audit summary."""
    audits = _audits(root)
    rows = []
    for game in _games(root):
        s = audits[game].get("summary") or {}
        rows.append([
            _title(game), f"{_pct(s.get('coverage'))} ({s.get('probed_rules')}/{s.get('reviewed_rules')})",
            _pct(s.get("recall")), _pct(s.get("precision")),
            f"{s.get('seeded_faults_detected')}/{s.get('seeded_faults')}", _mutation(s),
            _explored(s), str(s.get("spec_gaps", 0)), str(s.get("probes_failing_on_ale", 0))])
    return _table(["game", "coverage", "recall", "precision", "seeded faults", "mutation score",
                   "exploration", "spec gaps", "probes failing on ALE"], rows)


def mod_audits_table(root: Path) -> str:
    """docs/results.md: the audits of modified games."""
    rows = []
    for name, data in _audits(root).items():
        if "+" not in name:
            continue
        s, m = data.get("summary") or {}, data.get("modified") or {}
        backends = " + ".join(b.upper() for b in m.get("backends") or ())
        rows.append([
            f"`{name}`", backends or "?",
            f"{s.get('probed_rules')}/{s.get('reviewed_rules')}, recall {_pct(s.get('recall'))}",
            str(len(m.get("rules_changed") or ())), _explored(s),
            str(m.get("unexplained_divergences", 0)), str(m.get("rollout_divergences", 0))])
    return _table(["modified game", "ran on", "rules probed", "rules changed", "exploration",
                   "unexplained divergences", "rollouts parted"], rows)


def stress_table(root: Path) -> str:
    """docs/results.md: PPO with the same hyperparameters on ALE and on the JAX game."""
    rows = []
    for name, data in _stress(root).items():
        final = (data.get("statistics") or {}).get("final") or {}
        v = data.get("verdict") or {}
        test = v.get("test") or {}
        ci = test.get("ci")
        rows.append([
            f"`{name}`", _stress_cell(data).split(" (", 1)[1].rstrip(")"),
            _interval((final.get("ale") or {}).get("iqm")),
            _interval((final.get("jax") or {}).get("iqm")),
            "-" if not ci else f"[{_num(ci[0])}, {_num(ci[1])}]",
            "-" if v.get("margin") is None else f"±{_num(v['margin'])}",
            f"**{v.get('label', '?')}**"])
    return _table(["report", "budget", "final return IQM, ALE [95% CI]", "JAX [95% CI]",
                   "difference, 90% CI", "margin", "verdict"], rows)


def transfer_table(root: Path) -> str:
    """docs/results.md: agents trained on the JAX game, played on ALE and on the JAX game."""
    rows = []
    for name, data in _transfer(root).items():
        stats, v = data.get("statistics") or {}, data.get("verdict") or {}
        diff = stats.get("difference") or {}
        ci = diff.get("ci")
        anchor = data.get("anchor") or {}
        steps = (data.get("policy") or {}).get("steps")
        rows.append([
            f"`{name}`", f"{steps:,} steps x {len(data.get('seeds') or [])} seeds"
            if isinstance(steps, int) else "?", str(data.get("episodes", "?")),
            _num((stats.get("ale") or {}).get("mean")), _num((stats.get("jax") or {}).get("mean")),
            "-" if not ci else f"[{_num(ci[0])}, {_num(ci[1])}]",
            "-" if v.get("margin") is None else f"±{_num(v['margin'])}",
            f"**{v.get('label', '?')}**",
            "-" if not anchor else f"{_num(anchor.get('mean'))} ± {_num(anchor.get('sd'))}"])
    return _table(["report", "agents", "games per agent and side", "mean return, ALE", "JAX",
                   "difference, 95% bootstrap CI", "margin", "verdict", "CleanRL 10M (EnvPool)"],
                  rows)


def robustness_table(root: Path) -> str:
    """docs/results.md: each mod's PC (change of the agents' score against the original)."""
    rows = []
    for game, data in _robustness(root).items():
        stats, comparison = data.get("statistics") or {}, data.get("comparison") or {}
        steps = (data.get("agents") or {}).get("steps_per_seed")
        for mod in sorted(stats):
            sides = stats[mod]
            rows.append([
                _title(game), f"`{mod}`", _interval((sides.get("jax") or {}).get("iqm")),
                _interval((sides.get("ale") or {}).get("iqm")) if "ale" in sides else "JAX only",
                (comparison.get(mod) or {}).get("label", "-"),
                f"{steps:,}" if isinstance(steps, int) else "?"])
    return _table(["game", "mod", "PC IQM, JAX [95% CI]", "ALE [95% CI]", "JAX vs ALE",
                   "agents' steps per seed"], rows)


BLOCKS: dict[str, Callable[[Path], str]] = {
    "games": games_table,
    "audits": audits_table,
    "mod-audits": mod_audits_table,
    "stress": stress_table,
    "transfer": transfer_table,
    "robustness": robustness_table,
}


# --------------------------------------------------------------------------------------------------
# the documents


def _blocks(text: str, where: str) -> list[tuple[str, int, int]]:
    """(name, start, end) of each generated block's body in ``text``; DocTablesError naming
    ``where`` for an unknown name, an end without its start, or a start without its end."""
    found, open_name, open_at = [], None, 0
    for m in _MARKER.finditer(text):
        is_end, name = bool(m.group(1)), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        if name not in BLOCKS:
            raise DocTablesError(f"{where}:{line}: unknown generated block {name!r}; blocks: "
                                 f"{', '.join(BLOCKS)}")
        if not is_end:
            if open_name is not None:
                raise DocTablesError(f"{where}:{line}: block {name!r} starts inside {open_name!r}")
            if m.group(0) != _BEGIN.format(name=name):
                raise DocTablesError(f"{where}:{line}: write the start as "
                                     f"{_BEGIN.format(name=name)}")
            open_name, open_at = name, m.end()
        elif open_name != name:
            raise DocTablesError(f"{where}:{line}: end of {name!r} without its start")
        else:
            found.append((name, open_at, m.start()))
            open_name = None
    if open_name is not None:
        raise DocTablesError(f"{where}: block {open_name!r} has no end marker "
                             f"{_END.format(name=open_name)}")
    return found


def generate(text: str, root: Path, where: str = "document") -> str:
    """``text`` with every generated block's body rewritten from the artefacts under ``root``."""
    out, at = [], 0
    for name, start, end in _blocks(text, where):
        out += [text[at:start], "\n", BLOCKS[name](root), "\n"]
        at = end
    return "".join(out) + text[at:]


def readme_tables_stale(root: Path) -> list[str]:
    """What differs between the committed docs under ``root`` and the tables their artefacts give:
    one line per stale block (``README.md: games``), or a line naming a file or marker that cannot
    be read. Empty when every generated block is current."""
    root = Path(root)
    problems = []
    for doc in DOCUMENTS:
        path = root / doc
        if not path.exists():
            continue
        try:
            text = path.read_text()
            current = generate(text, root, doc)
        except (OSError, DocTablesError) as exc:
            problems.append(str(exc))
            continue
        if current != text:
            before = {n: text[s:e] for n, s, e in _blocks(text, doc)}
            after = {n: current[s:e] for n, s, e in _blocks(current, doc)}
            problems += [f"{doc}: {name} (rewrite it with `jaxtari-align docs-tables`)"
                         for name in before if before[name] != after[name]]
    return problems


def rewrite(root: Path) -> list[Path]:
    """Rewrite every generated block of :data:`DOCUMENTS` from the artefacts; the files changed."""
    from alignment import atomic

    changed = []
    for doc in DOCUMENTS:
        path = Path(root) / doc
        if not path.exists():
            continue
        text = path.read_text()
        new = generate(text, Path(root), doc)
        if new != text:
            atomic.write_text(path, new)
            changed.append(path)
    return changed


def register(app) -> None:
    import typer

    @app.command("docs-tables")
    def docs_tables_command(
        root: Path = typer.Option(Path("."), "--root", help="the repository's root"),
        check: bool = typer.Option(False, "--check", help="change nothing; exit 1 when a table "
                                   "differs from what the artefacts give"),
    ) -> None:
        """Rewrite the docs' tables from the committed artefacts (audits/, stress/, robustness/,
        playtest/): the blocks between `<!-- generated: NAME ... -->` markers."""
        try:
            if check:
                stale = readme_tables_stale(root)
                for line in stale:
                    typer.echo(f"stale: {line}", err=True)
                raise typer.Exit(1 if stale else 0)
            changed = rewrite(root)
        except DocTablesError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1)
        typer.echo("\n".join(f"rewrote {p}" for p in changed) or "every table is current")
