"""The fidelity gate's core: committed artefacts against thresholds kept as data, pass or fail per
game, as data (it never prints or writes; :mod:`.report` writes, :mod:`.command` is the command).

Per game it re-derives what it trusts:

- ``audits/<game>.json``: coverage, recall, precision, fault detection and (with mutation rows)
  the mutation score are recomputed from the rows (:mod:`.figures`); a summary that disagrees
  fails; the audit must be this game's, against ``specs/<game>.yaml``, one row per reviewed rule;
  its mutant rows and spec gaps are judged (:mod:`.rederive`); an audit without a code hash, or
  made for other code (:func:`alignment.catalog.code_hash`), fails;
- ``audits/<game>+<mod>....json`` (audits of modified games, :mod:`alignment.audit.modded`),
  each judged on its own the same way, with coverage and recall of the rules the mods do not
  change, no spec gap, no divergence of two modified games whose counterparts are exact, its mods
  registered and named in its ``modified`` section, and its own code hash current; every
  registered mod has one, or a reason in ``[unaudited_mods.<game>]``;
- ``playtest/<game>/*.jsonl.gz``: replayed on both backends (the replay is what makes a session
  current: its header's code hash is informative only);
- ``stress/<game>-<obs>.json``: final returns are the curves' last values, the verdict is
  recomputed from them; a report made for other code fails unless its behaviour fingerprint
  (:mod:`alignment.stress.fingerprint`) replays unchanged on the current code;
- ``robustness/<game>.json``: every aggregate and comparison recomputed from the returns;
- every JSON strictly (no NaN, no key twice); the traced closure of the game's step against its
  code hash (:mod:`.closure`, when asked).

With a base git ref: a figure that dropped, a session removed or changed, fail; every other
weakening is an item (:mod:`.weakening`) that fails unless the change gives a new or rewritten
reason for its exact key in ``[overrides.<game>]``; a mutant that survived the base's audit and is
recorded killed now is run again (:mod:`.rekill`, when asked).
"""

from __future__ import annotations

import copy
import dataclasses
import gzip
import json
import subprocess
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from alignment import artefacts
from alignment.gate.config import (FidelityConfig, GateConfigError, Thresholds, parse_config,
                                   weakened, weakened_items)
from alignment.gate.figures import AUDIT_FIGURES, TOLERANCE, audit_figures, mutation_score, stress_verdict
from alignment.gate import rederive, weakening
from alignment.gate.rederive import reviewed_rules
from alignment.learning.statistics import LABELS

VERDICT_RANK = {label: len(LABELS) - i for i, label in enumerate(LABELS)}  # higher is better
AUDIT_SCHEMA = artefacts.AUDIT.schema
STRESS_SCHEMA = artefacts.STRESS.schema
FIGURES = (*AUDIT_FIGURES, "mutation_score", "playtest_pass")
SESSION_GLOB = "*.jsonl.gz"
MAX_RULES_NAMED = 10  # failing rules named in the comment; the audit's report lists them all


# --------------------------------------------------------------------------------------------------
# Reading the artefacts (from the work tree, or from a git ref)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number JSON has (an artefact writes null where a value "
                     f"does not exist, never NaN or infinity)")


def _unique_keys(pairs: list) -> dict:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError(f"key(s) {', '.join(map(repr, twice))} given twice in one object (a "
                         f"reader keeps the last, a reviewer may read the first)")
    return dict(pairs)


def strict_json(text: str):
    """JSON as the artefacts are written: no NaN or infinity, no key twice in an object."""
    return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)


def resolve_ref(ref: str, root: Path = Path(".")) -> str:
    """The commit a user-given ref names (its sha), or :class:`GateConfigError`."""
    from alignment import cli_checks

    try:
        return cli_checks.git_commit(ref, "--base", root)
    except cli_checks.InputError as err:
        raise GateConfigError(str(err)) from None


check_ref = resolve_ref


class Artefacts:
    """Where a game's artefacts are read from: files under ``root``, or the tree of commit ``ref``."""

    def __init__(self, root: Path = Path("."), ref: Optional[str] = None) -> None:
        self.root = Path(root)
        self.ref = None if ref is None else resolve_ref(ref, self.root)
        self._specs: dict[str, Optional[dict[str, Optional[dict]]]] = {}  # text -> its rules

    def read_bytes(self, rel: str) -> Optional[bytes]:
        if self.ref is None:
            path = self.root / rel
            return path.read_bytes() if path.is_file() else None
        out = subprocess.run(["git", "cat-file", "blob", f"{self.ref}:{rel}"], cwd=self.root,
                             capture_output=True)
        return out.stdout if out.returncode == 0 else None

    def read(self, rel: str) -> Optional[str]:
        data = self.read_bytes(rel)
        return None if data is None else data.decode("utf-8", errors="replace")

    def list(self, folder: str, pattern: str) -> list[str]:
        if self.ref is None:
            return sorted(p.relative_to(self.root).as_posix()
                          for p in (self.root / folder).glob(pattern) if p.is_file())
        out = subprocess.run(["git", "ls-tree", "-r", "--name-only", self.ref, "--", folder],
                             cwd=self.root, capture_output=True, text=True)
        return sorted(p for p in out.stdout.splitlines() if Path(p).match(f"{folder}/{pattern}"))

    def json(self, rel: str, schema: str) -> tuple[Optional[dict], Optional[str]]:
        """(document, problem): the document when it reads and has the schema, else why not."""
        text = self.read(rel)
        if text is None:
            return None, None
        try:
            doc = strict_json(text)
        except ValueError as err:
            return None, f"{rel} is not valid JSON ({err})"
        if not isinstance(doc, dict) or doc.get("schema") != schema:
            found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
            return None, f"{rel} has schema {found!r}, not {schema!r}"
        return doc, None

    def spec(self, game: str) -> Optional[dict[str, Optional[dict]]]:
        """The reviewed rules of ``specs/<game>.yaml`` (id -> its probe or None); None without
        one."""
        import yaml

        text = self.read(artefacts.SPEC.rel(game=game))
        if text is None:
            return None
        # a game's audit and each of its modified games' audits are judged against the spec: it
        # is parsed once per text read (the YAML parser is the slow part)
        if text not in self._specs:
            try:
                self._specs[text] = reviewed_rules(yaml.safe_load(text))
            except yaml.YAMLError:
                self._specs[text] = None
        return copy.deepcopy(self._specs[text])

    def config(self, rel: str = artefacts.GATE_CONFIG, games=None) -> Optional[FidelityConfig]:
        text = self.read(rel)
        if text is None:
            return None
        where = f"{rel} at {self.ref[:12]}" if self.ref else rel
        return parse_config(text, where, games)


# --------------------------------------------------------------------------------------------------
# The verdict of one game


@dataclasses.dataclass
class GameVerdict:
    game: str
    figures: dict[str, Optional[float]]  # the audit figures, mutation score, playtest pass
    playtest: str  # "3/3 replay clean", "not playtested", "not replayed"
    stress: str    # "equivalent (objects)", "none", ...
    failures: list[str]
    thresholds: Thresholds
    # every weakening against the base: (key, what, the reason this change gives, or None)
    weakenings: list[tuple[str, str, Optional[str]]] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    unaudited: dict[str, str] = dataclasses.field(default_factory=dict)  # mod -> why

    @property
    def overridden(self) -> list[str]:
        """The weakenings a reason of this change allows, in words."""
        return [what for _, what, reason in self.weakenings if reason is not None]

    @property
    def passed(self) -> bool:
        return not self.failures


def why_failed(result) -> str:
    """A failed replay's first difference, or why the session could not be replayed at all."""
    for attr in ("failure", "error", "read_problem"):
        value = getattr(result, attr, None)
        if value:
            return str(getattr(value, "message", value))
    return "failed"


ReplayFn = Callable[[str, Path], tuple[int, int, list[str]]]
FingerprintFn = Callable[[str, str, dict], Optional[str]]


def replay_sessions(game: str, root: Path) -> tuple[int, int, list[str]]:
    """(sessions, clean, failures) of the game's recorded sessions, replayed on both backends."""
    from alignment.playtest import core

    paths = list(core.sessions_for(game, root=root / artefacts.PLAYTEST_SESSION.folder))
    results = core.replay(paths) if paths else []
    failures = [f"{Path(p).name}: {why_failed(r)}" for p, r in zip(paths, results) if not r.passed]
    return len(paths), sum(bool(r.passed) for r in results), failures


def current_code_hash(game: str) -> str:
    from alignment.catalog import code_hash

    return code_hash(game)


_current_code_hash = current_code_hash  # the name the tests' fixtures used


def current_mod_code_hash(game: str, mods: Sequence[str]) -> str:
    from alignment.catalog import mod_code_hash

    return mod_code_hash(game, mods)


MOD_AUDIT_FIGURES = ("coverage", "recall")  # a modified game has no seeded faults of its own


def registered_mods(game: str) -> list[str]:
    """The mods ``game``'s JAX package registers (jaxtari/games/<game>/mods.py)."""
    from alignment import catalog
    from jaxtari.mod_registry import registered_mods as registered

    jax_game = catalog.entry(game).jax_game if game in catalog.games() else game
    return sorted(registered(jax_game)) if jax_game else []


def _mod_audit_part(now: Artefacts, game: str, t: Thresholds,
                    mod_hash: Callable[[str, Sequence[str]], str],
                    registered: Optional[Callable[[str], Sequence[str]]] = registered_mods
                    ) -> tuple[list[str], list[str]]:
    """(failures, notes) over the committed audits of ``game`` modified by mods."""
    from alignment.catalog import MOD_SEPARATOR, split_modified_name

    failures, notes = [], []
    known = set(registered(game)) if registered is not None else None
    spec = now.spec(game)
    for rel in now.list(artefacts.MOD_AUDIT.folder, f"{game}{MOD_SEPARATOR}*.json"):
        name = Path(rel).stem
        owner, mods = split_modified_name(name)
        if owner != game or not mods:
            continue
        doc, problem = now.json(rel, AUDIT_SCHEMA)
        if doc is None:
            failures.append(problem or f"{rel} cannot be read")
            continue
        found = []
        modified = doc.get("modified")
        if not isinstance(modified, dict) or modified.get("mods") != list(mods):
            found.append(f"{rel} does not say it audits {game} modified by {', '.join(mods)} (its "
                         f"`modified.mods`): re-run `jaxtari-align audit {game} --mods "
                         f"{' '.join(mods)}`")
            failures += found
            continue
        strange = sorted(set(mods) - known) if known is not None else []
        if strange:
            failures.append(f"{rel} audits mod(s) {', '.join(map(repr, strange))} that {game} "
                            f"does not register (its mods: {', '.join(sorted(known)) or 'none'})")
            continue
        recomputed, problems = audit_figures(doc, rel)
        found += problems
        found += rederive.audit_identity(doc, rel, game, spec, mods)
        found += rederive.mutant_rows(doc, rel) + rederive.fault_rows(doc, rel)
        # a probe the modified real game fails holds on the original (the game's own audit judges
        # wrong probes): the mods reach its rule undeclared, reported, not counted as uncovered
        rows = [r for r in doc.get("rules") or [] if isinstance(r, dict)]
        reached = [str(r.get("id")) for r in rows if r.get("outcome") == "wrong-probe"]
        if reached:
            probed = sum(r.get("outcome") in ("pass", "fail") for r in rows)
            recomputed["coverage"] = probed / (len(rows) - len(reached)) if len(rows) > len(
                reached) else None
            notes.append(f"{name}: the mods change what the probes of {', '.join(reached)} look at "
                         "without declaring those rules (the probes fail on the modified ALE game)")
        shown = []
        for key in MOD_AUDIT_FIGURES:
            value = recomputed[key]
            if value is None:
                found.append(f"{rel} measures no {key} (no probed rule the mods leave alone)")
            elif value < getattr(t, key) - TOLERANCE:
                found.append(f"{rel}: {key} {value:.2f} is below {getattr(t, key):.2f}")
            else:
                shown.append(f"{key} {value:.2f}")
        gaps = (doc.get("exploration") or {}).get("divergences") or []
        gaps = [d for d in gaps if isinstance(d, dict) and not d.get("rules")]
        if gaps:
            found.append(f"{rel}: {len(gaps)} exploration divergence(s) no rule explains (spec "
                         f"gaps), the first at frame {gaps[0].get('frame')}")
        rollouts = (doc.get("behaviour") or {}).get("rollouts") or []
        parted = [r for r in rollouts if isinstance(r, dict) and r.get("divergence")]
        exact = modified.get("counterparts_exact") is True and all(
            isinstance(c, dict) and c.get("exact") is True
            for c in (modified.get("counterparts") or {}).values())
        if parted and exact:
            found.append(f"{rel}: the two modified games part in {len(parted)} matched "
                         "rollout(s) although every counterpart is marked exact")
        recorded, current = doc.get("code_hash"), mod_hash(game, mods)
        if not isinstance(recorded, str) or not recorded:
            found.append(f"{rel} records no code_hash: re-run `jaxtari-align audit {game} --mods "
                         f"{' '.join(mods)}`")
        elif recorded != current:
            found.append(f"{rel} was made for code {recorded[:12]}, the modified game's code is "
                         f"now {current[:12]}: re-run `jaxtari-align audit {game} --mods "
                         f"{' '.join(mods)} --quick`")
        where = ", ".join(modified.get("backends") or []) or "?"
        if found and t.mod_audits:
            failures += found
        elif found:
            notes += [f"{f} (not judged: mod_audits = false)" for f in found]
        else:
            notes.append(f"{name}: audit of the modified game passes ({', '.join(shown)}; ran on "
                         f"{where}{'' if exact or where == 'jax' else ', counterparts not exact'})")
    return failures, notes


def current_transfer_replays(root: Path, rel: str) -> list[str]:
    """Problems of a committed transfer report, its replay episodes played again on the CPU
    (:mod:`alignment.stress.transfer_check`)."""
    from alignment.stress import transfer_check

    return transfer_check.check(root, rel, replay=True)


def _transfer_part(art: Artefacts, root: Path, game: str, t: Thresholds,
                   replays: Optional[Callable[[Path, str], list[str]]]) -> tuple[list, list, list]:
    """(failures, notes, cells) of the game's transfer reports: the verdict and summaries
    recomputed from the per-episode returns, the policy file's hash, and (``replays``) its replay
    episodes played again; a "different" verdict fails like a stress one. ``cells``: each
    report's verdict for the table, e.g. "transfer equivalent (pixels)"."""
    from alignment.stress import transfer_check

    failures, notes, cells = [], [], []
    for rel in transfer_reports(art, game):
        problems = (replays(root, rel) if replays is not None
                    else transfer_check.check(root, rel, replay=False))
        failures += problems
        if replays is None:
            notes.append(f"{rel}: its replay episodes were not played again (--no-replay)")
        doc, _ = art.json(rel, artefacts.TRANSFER.schema)
        label = (doc or {}).get("verdict", {}).get("label")
        cells.append(f"transfer {label or 'unreadable'} ({(doc or {}).get('obs', '?')})")
        if t.stress_not_different and label == "different" and not problems:
            failures.append(f"{rel}: agents trained on the JAX game play differently on ALE "
                            f"({doc['verdict'].get('detail', '')})")
    return failures, notes, cells


def current_fingerprint(game: str, obs: str, recorded: dict) -> Optional[str]:
    """The current code's fingerprint made as ``recorded`` was (None when its settings are not the
    fingerprint module's: a smaller rollout proves less)."""
    from alignment.stress import fingerprint as fp

    settings = {"steps": fp.STEPS, "envs": fp.ENVS, "seed": fp.SEED}
    if any(recorded.get(k) != v for k, v in settings.items()):
        return None
    return fp.fingerprint(game, obs)["sha256"]


def _audit_part(now: Artefacts, game: str, t: Thresholds, code_hash: Callable[[str], str],
                figures: dict, failures: list[str], notes: list[str],
                population: Optional[Callable[[str], Sequence]] = None) -> Optional[dict]:
    rel = artefacts.AUDIT.rel(game=game)
    doc, problem = now.json(rel, AUDIT_SCHEMA)
    if doc is None:
        failures.append(problem or f"no audit: make one with `jaxtari-align audit {game}` and "
                                   f"commit {rel}")
        return None
    recomputed, problems = audit_figures(doc, rel)
    failures += problems
    failures += rederive.audit_identity(doc, rel, game, now.spec(game))
    failures += rederive.fault_rows(doc, rel) + rederive.mutant_rows(doc, rel)
    failures += rederive.mutant_sample(doc, rel, game)
    failures += rederive.spec_gaps(doc, rel)
    failing = [str(r.get("id")) for r in doc.get("rules") or []
               if isinstance(r, dict) and r.get("outcome") in ("fail", "probe-error")]
    if failing:
        shown = ", ".join(failing[:MAX_RULES_NAMED])
        more = f" and {len(failing) - MAX_RULES_NAMED} more" if len(failing) > MAX_RULES_NAMED else ""
        notes.append(f"rules failing on JAX or whose probe cannot run: {shown}{more} "
                     f"({artefacts.AUDIT_MARKDOWN.rel(game=game)} says why)")
    for key in AUDIT_FIGURES:
        value = recomputed[key]
        figures[key] = value
        if value is None:
            failures.append(f"{rel} measures no {key} (nothing to count: no probed rules, no "
                            "seeded faults or no rollouts); the audit's report says why")
        elif value < getattr(t, key) - TOLERANCE:
            failures.append(f"{key} {value:.2f} is below {getattr(t, key):.2f}")
    mutation, problems = mutation_score(doc, rel)
    failures += problems
    if mutation is not None:
        figures["mutation_score"] = mutation["score"]
        if mutation["score"] is None:
            failures.append(f"{rel}: no mutant was killed or survived (all {mutation['equivalent']} "
                            "equivalent): the mutation score measures nothing")
        elif mutation["score"] < t.mutation_score - TOLERANCE:
            failures.append(f"mutation score {mutation['score']:.2f} ({mutation['killed']} killed, "
                            f"{mutation['survived']} survived) is below {t.mutation_score:.2f}")
    recorded = doc.get("code_hash")
    current = code_hash(game)
    if not isinstance(recorded, str) or not recorded:
        failures.append(f"{rel} records no code_hash: nothing shows which code it audited; "
                        f"re-run `jaxtari-align audit {game}`")
    elif recorded != current:
        failures.append(f"{rel} was made for code {recorded[:12]}, the game's code is now "
                        f"{current[:12]}: re-run `jaxtari-align audit {game}`")
    elif population is not None:
        failures += rederive.mutant_draw(doc, rel, game, population(game))
    return {**recomputed, "mutation_score": figures["mutation_score"], "doc": doc}


StressReports = dict[str, dict]  # obs -> {"label", "steps", "doc"}
TRANSFER_SUFFIX = artefacts.TRANSFER.file.replace("{game}-{obs}", "")  # "-transfer.json"


def _is_transfer(rel: str) -> bool:
    return Path(rel).name.endswith(TRANSFER_SUFFIX)


def transfer_reports(art: Artefacts, game: str) -> list[str]:
    """The committed transfer reports of ``game`` (``stress/<game>-<obs>-transfer.json``)."""
    return [rel for rel in art.list(artefacts.STRESS.folder,
                                    artefacts.STRESS.name(game=game, obs="*"))
            if _is_transfer(rel)]


def _stress_reports(art: Artefacts, game: str) -> tuple[StressReports, list[str]]:
    reports, problems = {}, []
    for rel in art.list(artefacts.STRESS.folder, artefacts.STRESS.name(game=game, obs="*")):
        if _is_transfer(rel):
            continue  # stage 4's transfer report: its own schema, judged by _transfer_part
        doc, problem = art.json(rel, STRESS_SCHEMA)
        if doc is None:
            problems.append(problem or f"{rel} cannot be read")
            continue
        label, label_problems = stress_verdict(doc, rel)
        problems += label_problems
        rows = rederive.stress_rows(doc, rel)
        problems += rows
        if not rows and label != "unreadable":
            from alignment.stress.remake import recomputed_verdict

            problems += rederive.stress_verdict_fields(doc, rel, recomputed_verdict(doc))
        steps = (doc.get("config") or {}).get("total_timesteps")
        reports[Path(rel).stem[len(game) + 1:]] = {"label": label, "steps": steps, "doc": doc,
                                                   "rel": rel}
    return reports, problems


def _stress_freshness(game: str, obs: str, report: dict, current: str,
                      fingerprint: Optional[FingerprintFn]) -> tuple[list[str], list[str]]:
    """(failures, notes) on whether a stress report still describes the current code."""
    doc, rel = report["doc"], report["rel"]
    recorded = doc.get("code_hash")
    if not isinstance(recorded, str) or not recorded:
        return [f"{rel} records no code_hash: nothing shows which code it trained on"], []
    if recorded == current:
        return [], []
    stale = (f"{rel} was trained on code {recorded[:12]}, the game's code is now {current[:12]}")
    fp = doc.get("fingerprint")
    if not isinstance(fp, dict) or not isinstance(fp.get("sha256"), str):
        return [f"{stale}, and it records no behaviour fingerprint to show the change left the "
                f"signals unchanged: re-run `jaxtari-align stress {game} --obs {obs}`"], []
    if fingerprint is None:
        return [], [f"{stale}; its fingerprint was not replayed (--no-replay)"]
    now = fingerprint(game, obs, fp)
    if now is None:
        return [f"{stale}, and its fingerprint was not made with the standard rollout"], []
    if now != fp["sha256"]:
        return [f"{stale}, and the change alters what the learner sees (fingerprint "
                f"{fp['sha256'][:12]} -> {now[:12]}): re-run `jaxtari-align stress {game} "
                f"--obs {obs}`"], []
    return [], [f"{rel}: code changed since training ({recorded[:12]} -> {current[:12]}), every "
                f"signal of the fingerprint rollout replays unchanged"]


DeclarationsFn = Callable[[Optional[str]], dict]  # None: this tree; a sha: that commit
ConstantsFn = Callable[[str], Callable[[str], Any]]


def current_constants(game: str) -> Callable[[str], Any]:
    """``field -> value`` of the game's ``Constants`` as the code has them now."""
    import jaxtari
    from alignment import catalog

    consts = jaxtari.game_class(catalog.entry(game).jax_game or game).Constants()

    def value(field: str):
        if not hasattr(consts, field):
            raise KeyError(field)
        return getattr(consts, field)
    return value


def current_population(game: str) -> list:
    """The mutant population of the game's current code (:func:`alignment.audit.mutants.population`:
    its Constants fields' and source's mutants, found without running anything)."""
    import jaxtari
    from alignment import catalog
    from alignment.audit.mutants import population

    jax_game = catalog.entry(game).jax_game or game
    return population(jaxtari.game_class(jax_game), catalog.game_source_files(jax_game))


def evaluate(game: str, thresholds: Thresholds, *, root: Path = Path("."),
             base: Optional[str] = None, replay: Optional[ReplayFn] = replay_sessions,
             code_hash: Callable[[str], str] = current_code_hash,
             fingerprint: Optional[FingerprintFn] = current_fingerprint,
             config: Optional[FidelityConfig] = None,
             base_config: Optional[FidelityConfig] = None,
             mod_hash: Callable[[str, Sequence[str]], str] = current_mod_code_hash,
             registered: Optional[Callable[[str], Sequence[str]]] = registered_mods,
             declarations: Optional[DeclarationsFn] = None,
             constants: Optional[ConstantsFn] = current_constants,
             population: Optional[Callable[[str], Sequence]] = current_population,
             closure: Optional[Callable[[str], list[str]]] = None,
             rekill: Optional[Callable[[str, str], Optional[str]]] = None,
             transfer: Optional[Callable[[Path, str], list[str]]] = current_transfer_replays
             ) -> GameVerdict:
    """The gate's verdict on one game. ``config``/``base_config``: this tree's and the base's
    fidelity.toml (for weakened thresholds, the reasons and the mods declared unaudited);
    ``registered``: the game's registered mods (each needs an audit or a declaration; None: not
    checked); ``declarations``: the plug-ins' declarations (:mod:`.declarations`) of this tree
    (``None``) and of the base (its sha), compared item by item; ``constants``: the current
    Constants (a surviving mutant of the base's audit applied is found with it); ``population``:
    the current code's mutants, from which an audit of the current code must have drawn its own
    (None: not checked); ``closure``:
    the traced-closure check of the code hash (:mod:`.closure`); ``rekill(game, mutant id)``:
    the status of a mutant run again (:mod:`.rekill`), for each one that survived the base's audit
    and is recorded killed in this one (None: listed, not run); ``transfer(root, rel)``: a transfer
    report's problems with its replay episodes played again (None: judged from its rows only)."""
    now = Artefacts(root)
    t = thresholds
    failures: list[str] = []
    notes: list[str] = []
    figures: dict[str, Optional[float]] = {k: None for k in FIGURES}

    audit = _audit_part(now, game, t, code_hash, figures, failures, notes, population)
    mod_failures, mod_notes = _mod_audit_part(now, game, t, mod_hash, registered)
    failures += mod_failures
    notes += mod_notes
    unaudited = config.unaudited(game) if config is not None else {}
    if registered is not None:
        failures += _mods_covered(now, game, registered(game), unaudited)
    if closure is not None:
        failures += closure(game)

    sessions = now.list(f"{artefacts.PLAYTEST_SESSION.folder}/{game}", SESSION_GLOB)
    count, clean, replay_failures = (replay(game, root) if replay is not None and sessions
                                     else (len(sessions), None, []))
    if not count:
        playtest = "not playtested"
        if t.require_playtest:
            failures.append(f"not playtested: record a session with `jaxtari-align play {game}`")
    elif clean is None:
        playtest = f"{count} session(s), not replayed"
    else:
        figures["playtest_pass"] = clean / count
        playtest = f"{clean}/{count} replay clean"
        if clean / count < t.playtest_pass - TOLERANCE:
            failures.append(f"playtest: {clean} of {count} session(s) replay clean (needs "
                            f"{t.playtest_pass:.0%}): " + "; ".join(replay_failures))

    reports, problems = _stress_reports(now, game)
    failures += problems
    current = code_hash(game)
    for obs, r in sorted(reports.items()):
        f, n = _stress_freshness(game, obs, r, current, fingerprint)
        failures += f
        notes += n
    stress = ", ".join(f"{r['label']} ({obs})" for obs, r in sorted(reports.items())) or "none"
    if t.stress_not_different:
        failures += [f"stress ({obs}): the learning curves are different"
                     for obs, r in sorted(reports.items()) if r["label"] == "different"]
    if not reports and t.require_stress:
        failures.append(f"no stress report: run `jaxtari-align stress {game}`")
    robustness_failures, robustness_notes = _robustness_part(now, game, current)
    failures += robustness_failures
    notes += robustness_notes
    transfer_failures, transfer_notes, transfer_cells = _transfer_part(now, root, game, t, transfer)
    failures += transfer_failures
    notes += transfer_notes
    if transfer_cells:
        stress = ", ".join(([] if stress == "none" else [stress]) + transfer_cells)

    verdict = GameVerdict(game, figures, playtest, stress, failures, t, notes=notes,
                          unaudited=unaudited)
    if base is not None:
        _against_base(verdict, Artefacts(root, ref=base), base, audit, reports, sessions, now,
                      config, base_config, declarations, constants, rekill)
    return verdict


def _mods_covered(now: Artefacts, game: str, mods: Sequence[str],
                  unaudited: dict[str, str]) -> list[str]:
    """Every registered mod has a committed audit of its own or a declared reason for none."""
    out = []
    for mod in sorted(mods):
        rel = artefacts.MOD_AUDIT.rel(game=game, mods=mod)
        audited = now.read_bytes(rel) is not None
        if not audited and mod not in unaudited:
            out.append(f"mod {mod} has no audit ({rel}) and is not declared unaudited: run "
                       f"`jaxtari-align audit {game} --mods {mod} --quick` and commit it, or say "
                       f"why not in fidelity.toml [unaudited_mods.{game}] {mod} = \"...\"")
        elif audited and mod in unaudited:
            out.append(f"mod {mod} is declared unaudited in fidelity.toml, but {rel} is "
                       f"committed: remove the declaration")
    for mod in sorted(set(unaudited) - set(mods)):
        out.append(f"fidelity.toml [unaudited_mods.{game}] names {mod!r}, which {game} does not "
                   f"register (its mods: {', '.join(sorted(mods)) or 'none'})")
    return out


def _robustness_part(art: Artefacts, game: str, current: str) -> tuple[list[str], list[str]]:
    """(failures, notes) of robustness/<game>.json (when committed): a mod whose JAX and ALE PC
    are "different" by the report's own returns fails, like a stress verdict of "different", and
    so does a recorded PC or verdict those returns do not give; an unreadable report fails naming
    it. A report made on other code is a note (its agents' scores are not replayed)."""
    from alignment.robustness.schema import SchemaError
    from alignment.robustness.verdicts import failures as robustness_failures

    rel = artefacts.ROBUSTNESS.rel(game=game)
    doc, problem = art.json(rel, artefacts.ROBUSTNESS.schema)
    if problem:
        return [problem], []
    if doc is None:
        return [], []
    from alignment.robustness.schema import check

    try:
        check(doc)
        rows = rederive.robustness_rows(doc, rel)
        if rows:
            return rows, []
        failures = [f"robustness: {f}" for f in robustness_failures(doc)]
    except SchemaError as exc:
        return [f"{rel}: {exc}"], []
    made_on = doc["code_hash"]
    notes = [] if made_on == current else [
        f"{rel} was made on code {made_on[:12]}, the game's code is now {current[:12]}: "
        f"re-run `{doc['command'] or f'jaxtari-align robustness {game}'}` to measure the "
        f"current game"]
    return failures, notes


def _session_frames(data: bytes) -> Optional[int]:
    try:
        text = gzip.decompress(data).decode("utf-8", errors="replace")
    except (OSError, EOFError):
        return None
    return sum('"type":"frame"' in line.replace(" ", "") for line in text.splitlines())


def _against_base(v: GameVerdict, then: Artefacts, base: str, audit: Optional[dict],
                  now_reports: StressReports, sessions: list[str], now: Artefacts,
                  config: Optional[FidelityConfig], base_config: Optional[FidelityConfig],
                  declarations: Optional[DeclarationsFn] = None,
                  constants: Optional[ConstantsFn] = current_constants,
                  rekill: Optional[Callable[[str, str], Optional[str]]] = None) -> None:
    """What got worse against the base. Hard failures (a figure that dropped, a session removed
    or changed) go to ``v.failures``; each weakening (:mod:`.weakening`) is listed in
    ``v.weakenings`` and fails unless this change gives a new or rewritten reason for its exact
    key in fidelity.toml."""
    game = v.game
    hard: list[str] = []
    items: list[weakening.Weakening] = []
    rel = artefacts.AUDIT.rel(game=game)
    doc, _ = then.json(rel, AUDIT_SCHEMA)
    if doc is not None and audit is not None:
        before, _ = audit_figures(doc, rel)
        for key in AUDIT_FIGURES:
            b, a = before.get(key), audit.get(key)
            if b is not None and a is None:
                hard.append(f"{key} no longer measured against {base} (was {b:.2f})")
            elif b is not None and a < b - TOLERANCE:
                hard.append(f"{key} dropped against {base}: {b:.2f} -> {a:.2f}")
        hard += _mutation_against_base(doc, audit["doc"], base, v.notes)
        items += weakening.audit_items(doc, audit["doc"], base)
        hard += _killed_since(game, rel, doc, audit["doc"], base, rekill, v.notes)
    if doc is not None:
        items += weakening.applied_constant_mutants(
            doc, _constants_or_none(constants, game), base)
        items += weakening.applied_source_mutants(doc, then.read, now.read, base)
    items += weakening.spec_items(then.spec(game), now.spec(game), base)

    from alignment.catalog import MOD_SEPARATOR

    for old in then.list(artefacts.MOD_AUDIT.folder, f"{game}{MOD_SEPARATOR}*.json"):
        if now.read_bytes(old) is None:
            items.append(weakening.Weakening(f"artefact:{old}", f"{old} deleted against {base}"))
            continue
        before_doc, _ = then.json(old, AUDIT_SCHEMA)
        after_doc, _ = now.json(old, AUDIT_SCHEMA)
        if before_doc is not None and after_doc is not None:
            items += weakening.mod_audit_items(Path(old).stem, before_doc, after_doc, base)

    for old in transfer_reports(then, game):
        if now.read_bytes(old) is None:
            items.append(weakening.Weakening(f"artefact:{old}", f"{old} deleted against {base}"))
    before_reports, _ = _stress_reports(then, game)
    for obs, r in sorted(before_reports.items()):
        mine = now_reports.get(obs)
        worse = mine is not None and VERDICT_RANK.get(mine["label"], 0) < VERDICT_RANK.get(
            r["label"], 0)
        items += weakening.stress_items(obs, r, mine, r["rel"], base, worse)
        if mine is None:
            continue
        fp_then, fp_now = r["doc"].get("fingerprint"), mine["doc"].get("fingerprint")
        if (fp_then is not None and fp_then != fp_now
                and r["doc"].get("backends") == mine["doc"].get("backends")):
            hard.append(f"stress ({obs}): the behaviour fingerprint changed against {base} while "
                        "the training results did not (a fingerprint is made with the training)")
        rp_then = (r["doc"].get("statistics") or {}).get("random_policy") or {}
        rp_now = (mine["doc"].get("statistics") or {}).get("random_policy") or {}
        same = ("backend", "episodes", "seed", "sticky")
        if rp_then and rp_now and all(rp_then.get(k) == rp_now.get(k) for k in same) and \
                rp_then.get("returns") != rp_now.get("returns") and \
                r["doc"].get("code_hash") == mine["doc"].get("code_hash"):
            hard.append(f"stress ({obs}): the random policy's returns changed against {base} "
                        f"with the same settings and code (seed {rp_then.get('seed')!r}, "
                        f"{rp_then.get('episodes')!r} episodes on ALE): they are measured, not "
                        f"written; the margin is a share of the gain over them")

    rob = artefacts.ROBUSTNESS.rel(game=game)
    rob_then, _ = then.json(rob, artefacts.ROBUSTNESS.schema)
    rob_now, _ = now.json(rob, artefacts.ROBUSTNESS.schema)
    items += weakening.robustness_items(rob_then, rob_now, rob, base)

    if declarations is not None and then.ref is not None:
        from alignment.gate.declarations import DeclarationsError

        try:
            d_now, d_then = declarations(None).get(game), declarations(then.ref).get(game)
        except DeclarationsError as err:
            hard.append(f"the plug-ins' declarations cannot be compared with {base}: {err}")
        else:
            items += weakening.plugin_items(d_then, d_now, base)

    # a mod newly declared unaudited: its audit's deletion (if it had one) is an item above; the
    # declaration itself is listed for the reviewer
    for mod in sorted(set(config.unaudited(game) if config else {})
                      - set(base_config.unaudited(game) if base_config else {})):
        v.notes.append(f"mod {mod} is declared unaudited in this change (fidelity.toml "
                       f"[unaudited_mods.{game}])")

    then_sessions = then.list(f"playtest/{game}", SESSION_GLOB)
    removed = sorted(set(then_sessions) - set(sessions))
    if removed:
        hard.append(f"playtest sessions removed against {base}: {', '.join(removed)}")
    for rel in sorted(set(then_sessions) & set(sessions)):
        old, new = then.read_bytes(rel), now.read_bytes(rel)
        if old != new:
            a, b = _session_frames(old or b""), _session_frames(new or b"")
            change = (f"shortened from {a:,} to {b:,} frames" if a is not None and b is not None
                      and b < a else "changed")
            hard.append(f"playtest session {rel} {change} against {base}: a recorded session is a "
                        "record; record a new one instead")

    if config is not None and base_config is not None:
        for key, what in weakened_items(config.for_game(game), base_config.for_game(game)):
            items.append(weakening.Weakening(f"fidelity:{key}", f"fidelity.toml: {what} against "
                                                                 f"{base}"))

    seen: set[str] = set()
    items = [w for w in items if not (w.key in seen or seen.add(w.key))]
    reasons = config.reasons(game) if config is not None else {}
    base_reasons = base_config.reasons(game) if base_config is not None else {}
    ok, missing = weakening.allowed(items, reasons, base_reasons)
    v.failures += hard
    v.weakenings += [(w.key, w.what, reason) for w, reason in ok]
    v.weakenings += [(w.key, w.what, None) for w in missing]
    v.failures += [f"{w.what}: allowed only with a reason for this exact item, new or rewritten "
                   f"in this change: fidelity.toml [overrides.{game}] \"{w.key}\" = \"...\""
                   for w in missing]


def _mutant_rows(doc: dict) -> dict[str, dict]:
    """An audit's mutant rows by id."""
    mutation = doc.get("mutation") if isinstance(doc.get("mutation"), dict) else {}
    rows = mutation.get("mutants") if isinstance(mutation.get("mutants"), list) else []
    return {str(m.get("id")): m for m in rows if isinstance(m, dict)}


def _mutant_statuses(doc: dict) -> dict[str, str]:
    return {i: m.get("status") for i, m in _mutant_rows(doc).items()}


def _mutation_against_base(then: dict, now: dict, base: str, notes: list[str]) -> list[str]:
    """The mutation score against the base's, over the mutants both audits ran. Two audits of
    different code draw different samples (the population moves with Constants and source), so
    comparing whole-sample scores would fail an honest re-make and pass a dishonest one by luck of
    the draw; over the common mutants the same mutants are judged twice. A common mutant the base
    killed that is not killed now is a hard failure in any case (what some probe caught, nothing
    catches now). The threshold still applies to the whole sample (checked without a base); a
    sample shrunk or drawn with another seed is a weakening (``audit.mutation:sample``)."""
    before, after = _mutant_statuses(then), _mutant_statuses(now)
    if not before:
        return []
    if not after:
        scored = mutation_score(then, "")[0]
        was = scored["score"] if scored else None
        return [f"mutation_score no longer measured against {base}"
                + (f" (was {was:.2f})" if was is not None else "")]
    common = sorted(set(before) & set(after))
    scored = ("killed", "survived")

    def score(statuses: dict[str, str]) -> Optional[float]:
        judged = [statuses[i] for i in common if statuses[i] in scored]
        return judged.count("killed") / len(judged) if judged else None

    hard = []
    lost = [i for i in common if before[i] == "killed" and after[i] != "killed"]
    if lost:
        shown = ", ".join(f"{i} ({after[i]})" for i in lost[:5])
        more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
        hard.append(f"mutant(s) killed by {base}'s audit and not killed now: {shown}{more} - "
                    f"a probe or walk that caught them no longer does")
    b, a = score(before), score(after)
    if b is not None and a is not None and a < b - TOLERANCE:
        hard.append(f"mutation_score dropped against {base} over the {len(common)} mutants both "
                    f"audits ran: {b:.2f} -> {a:.2f}")
    if set(before) != set(after):
        notes.append(f"mutation score compared with {base} over the {len(common)} mutant(s) both "
                     f"audits ran ({len(set(before) - set(after))} only in {base}'s sample, "
                     f"{len(set(after) - set(before))} only in this one: the population or the "
                     f"draw moved with the code)"
                     + (f"; over them {b:.2f} -> {a:.2f}" if b is not None and a is not None
                        else ""))
    return hard


def _killed_since(game: str, rel: str, then: dict, now: dict, base: str,
                  rekill: Optional[Callable[[str, str], Optional[str]]],
                  notes: list[str]) -> list[str]:
    """Mutants that survived the base's audit and are recorded killed now, each run again."""
    before, after = _mutant_rows(then), _mutant_rows(now)
    flipped = sorted(i for i, m in after.items() if m.get("status") == "killed"
                     and (before.get(i) or {}).get("status") == "survived")
    out = []
    for mutant in flipped:
        said = ", ".join(after[mutant].get("killed_by") or [])
        if rekill is None:
            notes.append(f"mutant {mutant} survived {base}'s audit and is recorded killed now (by "
                         f"{said}); not run again here (--no-replay)")
            continue
        found = rekill(game, mutant)
        if found is None:
            notes.append(f"mutant {mutant} survived {base}'s audit and is recorded killed now; the "
                         f"current code has no such mutant to run again (the audit's re-make "
                         f"judges it)")
        elif found != "killed":
            out.append(f"{rel}: mutant {mutant} survived {base}'s audit and is recorded killed now "
                       f"(by {said}), but run again against the probes, walks and rollouts it "
                       f"{found}: re-run the audit instead of editing its rows")
        else:
            notes.append(f"mutant {mutant} survived {base}'s audit; run again, it is killed")
    return out


def _constants_or_none(constants: Optional[ConstantsFn], game: str):
    if constants is None:
        return None
    try:
        return constants(game)
    except Exception:  # a game that does not build here fails elsewhere (its audit, its trace)
        return None


# --------------------------------------------------------------------------------------------------
# Which games


def default_games(root: Path, config: FidelityConfig, with_code: Sequence[str] = ()) -> list[str]:
    """Every game with code (``with_code``: the games whose package is in the repository
    judged), a reviewed spec or thresholds of its own: a game that lands without a spec or an
    audit fails for the missing artefact instead of being left out of the table."""
    specs = {p.stem for p in (Path(root) / artefacts.SPEC.folder).glob("*.yaml")}
    return sorted(specs | set(config.games) | set(with_code))


# Paths whose change can alter any game's behaviour or verdict (everything outside a game's own
# files under these roots counts as shared).
SHARED_ROOTS = ("jaxtari", "alignment", artefacts.FAULTS.folder, artefacts.GATE_CONFIG,
                "pyproject.toml", "constraints.txt", ".github/workflows")
# Python outside these is code a game may import (a module at the repository's top, say): a
# change to it touches every game, as shared code does (the gate's traced closure names it).
NOT_GAME_CODE = ("tests", "benchmarks", "docs", "ports")


def touched_games(base: str, games: Sequence[str], root: Path = Path(".")) -> list[str]:
    """Games whose behaviour, ground truth, thresholds or artefacts differ from ``base``; all of
    them when shared code, the fault sets' shared module, the thresholds, the pinned versions or
    the workflow changed."""
    sha = resolve_ref(base, root)
    out = subprocess.run(["git", "diff", "--name-only", f"{sha}...HEAD", "--"], cwd=root,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise GateConfigError(f"cannot diff against {base!r}: {out.stderr.strip()}")
    touched: set[str] = set()
    for path in out.stdout.splitlines():
        owner = game_of(path, games)
        if owner:
            touched.add(owner)
        elif any(path == r or path.startswith(r + "/") for r in SHARED_ROOTS):
            return sorted(games)
        elif path.endswith(".py") and Path(path).parts[0] not in NOT_GAME_CODE:
            return sorted(games)
    return sorted(touched)


def _owns(parts: tuple[str, ...], game: str) -> bool:
    """Whether the path below a games folder belongs to ``game``: ``<game>.py``,
    ``<game>_*.py`` or anything under ``<game>/``."""
    if not parts:
        return False
    if len(parts) > 1:
        return parts[0] == game
    stem = parts[0].split(".")[0]
    return stem == game or stem.startswith(f"{game}_")


FAULTS_PARTS = tuple(artefacts.FAULTS.folder.split("/"))


def game_of(path: str, games: Sequence[str]) -> Optional[str]:
    """The game a changed path belongs to, or None (shared, or not about a game)."""
    parts = Path(path).parts
    name = parts[-1] if parts else ""
    for game in games:
        if parts[:2] == ("jaxtari", "games") and _owns(parts[2:], game):
            return game
        if parts[:3] == ("alignment", "reference", "games") and _owns(parts[3:], game):
            return game
        if parts[:len(FAULTS_PARTS)] == FAULTS_PARTS and _owns(parts[len(FAULTS_PARTS):], game):
            return game
        if parts and parts[0] in (artefacts.SPEC.folder, artefacts.AUDIT.folder) and len(parts) == 2 \
                and name.split(".")[0].split("+")[0] == game:
            return game
        if parts and parts[0] == artefacts.PLAYTEST_SESSION.folder and len(parts) > 2 \
                and parts[1] == game:
            return game
        if parts and parts[0] == artefacts.STRESS.folder and name.startswith(f"{game}-"):
            return game
    return None
