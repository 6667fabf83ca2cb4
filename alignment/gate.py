"""The fidelity gate: committed artefacts against thresholds kept as data, pass or fail per game.

Reads, per game, ``audits/<game>.json`` (coverage, recall, precision, seeded-fault detection),
the playtest sessions under ``playtest/<game>/`` (replayed on both backends: the share that still
replays clean) and the stress reports ``stress/<game>-<obs>.json`` (a verdict of "different"
fails). Thresholds come from ``fidelity.toml``: a ``[defaults]`` table and ``[games.<game>]``
tables overriding it, validated (an unknown key or a threshold outside [0, 1] is named).

With a base git ref, a game whose figures dropped against the same artefacts at the base fails
even above its thresholds, and so does one whose stress verdict got worse at the same training
budget or whose playtest sessions were removed. A game with no audit fails with the command that
makes one.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
from pathlib import Path
from typing import Annotated, Callable, Optional, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

AUDIT_SCHEMA = "jaxtari-align/audit/v1"
STRESS_SCHEMA = "jaxtari-align/stress/v1"
AUDIT_FIGURES = ("coverage", "recall", "precision", "fault_detection")
VERDICT_RANK = {"different": 0, "inconclusive": 1, "equivalent": 2}
# Figures are ratios written with float rounding; a smaller drop than this is the same figure.
DROP_TOLERANCE = 1e-9

Fraction = Annotated[float, Field(ge=0.0, le=1.0)]


class GateConfigError(ValueError):
    """A fidelity.toml that cannot be used; the message names the key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Thresholds(_Strict):
    coverage: Fraction = 0.9
    recall: Fraction = 0.9
    precision: Fraction = 0.8
    fault_detection: Fraction = 0.8
    playtest_pass: Fraction = 1.0  # share of a game's recorded sessions that must replay clean
    require_playtest: bool = True
    stress_not_different: bool = True
    require_stress: bool = False


class GameOverrides(_Strict):
    coverage: Optional[Fraction] = None
    recall: Optional[Fraction] = None
    precision: Optional[Fraction] = None
    fault_detection: Optional[Fraction] = None
    playtest_pass: Optional[Fraction] = None
    require_playtest: Optional[bool] = None
    stress_not_different: Optional[bool] = None
    require_stress: Optional[bool] = None


class FidelityConfig(_Strict):
    defaults: Thresholds = Field(default_factory=Thresholds)
    games: dict[str, GameOverrides] = Field(default_factory=dict)

    def for_game(self, game: str) -> Thresholds:
        override = self.games.get(game)
        if override is None:
            return self.defaults
        return self.defaults.model_copy(update=override.model_dump(exclude_none=True))


def load_config(path: Path) -> FidelityConfig:
    path = Path(path)
    if not path.exists():
        raise GateConfigError(f"no gate thresholds at {path}; write one (see fidelity.toml in the "
                              "repository) or pass --config")
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as err:
        raise GateConfigError(f"{path} is not valid TOML: {err}") from None
    try:
        return FidelityConfig.model_validate(data)
    except ValidationError as err:
        lines = [f"{path} does not hold valid gate thresholds:"]
        fields = ", ".join(Thresholds.model_fields)
        for e in err.errors():
            key = ".".join(str(p) for p in e["loc"])
            if e["type"] == "extra_forbidden":
                lines.append(f"  - {key}: unknown key (keys: defaults, games.<game>; thresholds: "
                             f"{fields})")
            elif e["type"] in ("greater_than_equal", "less_than_equal"):
                lines.append(f"  - {key}: {e['input']!r} is outside [0, 1]")
            else:
                lines.append(f"  - {key}: {e['msg']}")
        raise GateConfigError("\n".join(lines)) from None


# --------------------------------------------------------------------------------------------------
# Reading the artefacts (from the work tree, or from a git ref)


class Artefacts:
    """Where a game's artefacts are read from: files under ``root``, or ``git show REF:path``."""

    def __init__(self, root: Path = Path("."), ref: Optional[str] = None) -> None:
        self.root, self.ref = Path(root), ref

    def read(self, rel: str) -> Optional[str]:
        if self.ref is None:
            path = self.root / rel
            return path.read_text("utf-8") if path.is_file() else None
        out = subprocess.run(["git", "show", f"{self.ref}:{rel}"], cwd=self.root,
                             capture_output=True, text=True)
        return out.stdout if out.returncode == 0 else None

    def list(self, folder: str, pattern: str) -> list[str]:
        if self.ref is None:
            return sorted(p.relative_to(self.root).as_posix()
                          for p in (self.root / folder).glob(pattern) if p.is_file())
        out = subprocess.run(["git", "ls-tree", "-r", "--name-only", self.ref, "--", folder],
                             cwd=self.root, capture_output=True, text=True)
        return sorted(p for p in out.stdout.splitlines()
                      if Path(p).match(f"{folder}/{pattern}"))

    def json(self, rel: str, schema: str) -> tuple[Optional[dict], Optional[str]]:
        """(document, problem): the document when it reads and has the schema, else why not."""
        text = self.read(rel)
        if text is None:
            return None, None
        try:
            doc = json.loads(text)
        except ValueError as err:
            return None, f"{rel} is not valid JSON ({err})"
        if not isinstance(doc, dict) or doc.get("schema") != schema:
            found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
            return None, f"{rel} has schema {found!r}, not {schema!r}"
        return doc, None


def check_ref(ref: str, root: Path = Path(".")) -> None:
    out = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
                         cwd=root, capture_output=True, text=True)
    if out.returncode != 0:
        raise GateConfigError(f"--base {ref!r} is not a git ref here (try origin/main, or fetch "
                              "the base branch first: git fetch origin main)")


# --------------------------------------------------------------------------------------------------
# The verdict of one game


@dataclasses.dataclass
class GameVerdict:
    game: str
    figures: dict[str, Optional[float]]  # coverage, recall, precision, fault_detection, playtest_pass
    playtest: str  # "3/3 replay clean", "not playtested", "not replayed"
    stress: str    # "equivalent (objects)", "none", ...
    failures: list[str]
    thresholds: Thresholds

    @property
    def passed(self) -> bool:
        return not self.failures


def _audit_figures(art: Artefacts, game: str) -> tuple[Optional[dict], Optional[str]]:
    doc, problem = art.json(f"audits/{game}.json", AUDIT_SCHEMA)
    if doc is None:
        return None, problem
    summary = doc.get("summary") or {}
    figures = {k: summary.get(k) for k in AUDIT_FIGURES}
    bad = [k for k, v in figures.items() if not isinstance(v, (int, float))]
    if bad:
        return None, (f"audits/{game}.json measures no {', '.join(bad)} (nothing to count: no "
                      "probed rules or no seeded faults); the audit's report says why")
    return {**figures, "code_hash": doc.get("code_hash")}, None


StressReports = dict[str, tuple[str, Optional[int]]]


def _stress_reports(art: Artefacts, game: str) -> tuple[StressReports, list[str]]:
    """obs -> (verdict label, agent steps per seed of the run), and what could not be read."""
    reports, problems = {}, []
    for rel in art.list("stress", f"{game}-*.json"):
        doc, problem = art.json(rel, STRESS_SCHEMA)
        if doc is None:
            problems.append(problem or f"{rel} cannot be read")
            continue
        obs = Path(rel).stem[len(game) + 1:]
        steps = (doc.get("config") or {}).get("total_timesteps")
        reports[obs] = (str((doc.get("verdict") or {}).get("label", "?")), steps)
    return reports, problems


def why_failed(result) -> str:
    """A failed replay's first difference, or why the session could not be replayed at all."""
    for attr in ("failure", "error", "read_problem"):
        value = getattr(result, attr, None)
        if value:
            return str(getattr(value, "message", value))
    return "failed"


ReplayFn = Callable[[str, Path], tuple[int, int, list[str]]]


def replay_sessions(game: str, root: Path) -> tuple[int, int, list[str]]:
    """(sessions, clean, failures) of the game's recorded sessions, replayed on both backends."""
    try:
        from alignment.playtest import core
    except ModuleNotFoundError as err:
        if err.name and "alignment.playtest".startswith(err.name):
            return 0, 0, []  # the playtest stage is not on this branch: nothing was recorded
        raise
    paths = list(core.sessions_for(game, root=root / "playtest"))
    results = core.replay(paths) if paths else []
    failures = [f"{Path(p).name}: {why_failed(r)}" for p, r in zip(paths, results) if not r.passed]
    return len(paths), sum(bool(r.passed) for r in results), failures


def _current_code_hash(game: str) -> Optional[str]:
    """The hash the audit records for the game's code (contract 5), or None where not available."""
    try:
        from alignment.catalog import code_hash
    except ImportError:
        try:
            from alignment import catalog
            from alignment.audit.source import code_hash as source_hash
        except ImportError:
            return None  # no audit stage on this branch: staleness is not checked
        return source_hash(catalog.entry(game).jax_game)
    return code_hash(game)


def evaluate(game: str, thresholds: Thresholds, *, root: Path = Path("."),
             base: Optional[str] = None, replay: Optional[ReplayFn] = replay_sessions,
             code_hash: Callable[[str], Optional[str]] = _current_code_hash) -> GameVerdict:
    now = Artefacts(root)
    failures: list[str] = []
    figures: dict[str, Optional[float]] = {k: None for k in (*AUDIT_FIGURES, "playtest_pass")}

    audit, problem = _audit_figures(now, game)
    if audit is None:
        failures.append(problem or f"no audit: make one with `jaxtari-align audit {game}` and commit "
                                   f"audits/{game}.json")
    else:
        for key in AUDIT_FIGURES:
            figures[key] = float(audit[key])
            if audit[key] < getattr(thresholds, key):
                failures.append(f"{key} {audit[key]:.2f} is below {getattr(thresholds, key):.2f}")
        current = code_hash(game)
        if current and audit.get("code_hash") and audit["code_hash"] != current:
            failures.append(f"audits/{game}.json was made for code {str(audit['code_hash'])[:12]}, "
                            f"the game's code is now {current[:12]}: re-run `jaxtari-align audit "
                            f"{game}`")

    sessions = now.list(f"playtest/{game}", "*.jsonl.gz")
    count, clean, replay_failures = (replay(game, root) if replay is not None and sessions
                                     else (len(sessions), None, []))
    if not count:
        playtest = "not playtested"
        if thresholds.require_playtest:
            failures.append(f"not playtested: record a session with `jaxtari-align play {game}`")
    elif clean is None:
        playtest = f"{count} session(s), not replayed"
    else:
        figures["playtest_pass"] = clean / count
        playtest = f"{clean}/{count} replay clean"
        if clean / count < thresholds.playtest_pass:
            failures.append(f"playtest: {clean} of {count} session(s) replay clean (needs "
                            f"{thresholds.playtest_pass:.0%}): " + "; ".join(replay_failures))

    reports, problems = _stress_reports(now, game)
    verdicts = {obs: label for obs, (label, _) in reports.items()}
    failures += problems
    stress = ", ".join(f"{label} ({obs})" for obs, label in sorted(verdicts.items())) or "none"
    if thresholds.stress_not_different:
        failures += [f"stress ({obs}): the learning curves are different"
                     for obs, label in sorted(verdicts.items()) if label == "different"]
    if not verdicts and thresholds.require_stress:
        failures.append(f"no stress report: run `jaxtari-align stress {game}`")

    if base is not None:
        failures += _drops(game, Artefacts(root, ref=base), base, audit, reports, sessions)
    return GameVerdict(game, figures, playtest, stress, failures, thresholds)


def _drops(game: str, then: Artefacts, base: str, audit: Optional[dict],
           now_reports: StressReports, sessions: list[str]) -> list[str]:
    """What got worse against the base (only what exists on both sides is compared)."""
    out = []
    before, _ = _audit_figures(then, game)
    if before is not None and audit is not None:
        for key in AUDIT_FIGURES:
            if audit[key] < before[key] - DROP_TOLERANCE:
                out.append(f"{key} dropped against {base}: {before[key]:.2f} -> {audit[key]:.2f}")
    before_reports, _ = _stress_reports(then, game)
    for obs, (label, steps) in sorted(before_reports.items()):
        now_label, now_steps = now_reports.get(obs, (None, None))
        if now_label is None:
            out.append(f"stress ({obs}): the report at {base} was removed")
        elif now_steps != steps:
            # Another training budget is another experiment: a verdict there is not a drop (a
            # longer run separates the curves more finely); "different" still fails on its own.
            continue
        elif VERDICT_RANK.get(now_label, -1) < VERDICT_RANK.get(label, -1):
            out.append(f"stress ({obs}) got worse against {base}: {label} -> {now_label}")
    removed = sorted(set(then.list(f"playtest/{game}", "*.jsonl.gz")) - set(sessions))
    if removed:
        out.append(f"playtest sessions removed against {base}: {', '.join(removed)}")
    return out


# --------------------------------------------------------------------------------------------------
# Which games, and the markdown


def default_games(root: Path, config: FidelityConfig) -> list[str]:
    """Every game with a reviewed spec or with thresholds of its own."""
    specs = {p.stem for p in (Path(root) / "specs").glob("*.yaml")}
    return sorted(specs | set(config.games))


def _fmt(value: Optional[float], threshold: Optional[float] = None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" + ("" if threshold is None else f" (≥ {threshold:.2f})")


def table_rows(verdicts: Sequence[GameVerdict]) -> list[list[str]]:
    rows = []
    for v in verdicts:
        t = v.thresholds
        rows.append([v.game, *[_fmt(v.figures[k], getattr(t, k)) for k in AUDIT_FIGURES],
                     v.playtest, v.stress, "pass" if v.passed else "FAIL"])
    return rows


TABLE_HEADER = ["game", "coverage", "recall", "precision", "fault detection", "playtest",
                "stress", "result"]


def markdown(verdicts: Sequence[GameVerdict], *, base: Optional[str] = None) -> str:
    failed = [v for v in verdicts if not v.passed]
    title = "passed" if not failed else f"failed for {', '.join(v.game for v in failed)}"
    lines = [f"## Fidelity gate: {title}", ""]
    if base:
        lines += [f"Compared with `{base}`: a figure that dropped fails even above its threshold.", ""]
    lines += ["| " + " | ".join(TABLE_HEADER) + " |", "|" + "---|" * len(TABLE_HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(verdicts)]
    for v in failed:
        lines += ["", f"**{v.game}**", ""] + [f"- {reason}" for reason in v.failures]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------------
# Games a change touches (what CI re-audits)


def touched_games(base: str, games: Sequence[str], root: Path = Path(".")) -> list[str]:
    """Games whose code, ground truth or artefacts differ from ``base``; all of them when shared
    code of ``jaxtari/`` or ``alignment/`` changed."""
    out = subprocess.run(["git", "diff", "--name-only", f"{base}...HEAD"], cwd=root,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise GateConfigError(f"cannot diff against {base!r}: {out.stderr.strip()}")
    touched: set[str] = set()
    for path in out.stdout.splitlines():
        parts = Path(path).parts
        owner = _game_of(parts, games)
        if owner:
            touched.add(owner)
        elif parts and parts[0] in ("jaxtari", "alignment"):
            return sorted(games)
    return sorted(touched)


def _game_of(parts: tuple[str, ...], games: Sequence[str]) -> Optional[str]:
    name = parts[-1]
    for game in games:
        if parts[:2] == ("jaxtari", "games") and (len(parts) > 3 and parts[2] == game
                                                  or name == f"{game}.py"
                                                  or name.startswith(f"{game}_")):
            return game
        if parts[:3] == ("alignment", "reference", "games") and name == f"{game}.py":
            return game
        if parts[0] in ("specs", "audits") and Path(name).stem == game:
            return game
        if parts[0] == "playtest" and len(parts) > 2 and parts[1] == game:
            return game
        if parts[0] == "stress" and name.startswith(f"{game}-"):
            return game
    return None
