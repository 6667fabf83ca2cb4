"""``fidelity.toml``: the gate's thresholds as strictly typed data, and the reviewed overrides.

``[defaults]`` applies to every game; ``[games.<game>]`` overrides single keys for one game (the
name exactly as the catalog spells it). Types are strict: a threshold is a number in [0, 1] (not a
string, not a boolean, not NaN), a switch is ``true``/``false`` (not ``"yes"``, not 1).

``[overrides.<game>]`` is the reviewed field: one reason per weakening, keyed by the exact item the
gate names (``"fidelity:recall" = "..."``, ``"spec.rule:scoring.point-for" = "..."``,
``"artefact:robustness/pong.json" = "..."``; :mod:`alignment.gate.weakening` lists the kinds). A
change that weakens a game's gate against the base fails for each item that the pull request does
not give a new or rewritten reason for; the gate lists every item with its reason in its comment,
so the reviewer reads them next to the table.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Iterable, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from alignment import gamenames

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

Fraction = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
NUMERIC = ("coverage", "recall", "precision", "fault_detection", "mutation_score", "playtest_pass")
SWITCHES = ("require_playtest", "stress_not_different", "require_stress", "mod_audits")
MIN_REASON_CHARS = 20  # a reason a reviewer can judge is a sentence, not "ok"


class GateConfigError(ValueError):
    """A fidelity.toml that cannot be used; the message names the key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Thresholds(_Strict):
    coverage: Fraction = 0.9
    recall: Fraction = 0.9
    precision: Fraction = 0.8
    fault_detection: Fraction = 0.8
    # killed / (killed + survived) over the audit's mutants; applied when the audit has them
    mutation_score: Fraction = 0.8
    playtest_pass: Fraction = 1.0  # share of a game's recorded sessions that must replay clean
    require_playtest: bool = True
    stress_not_different: bool = True
    require_stress: bool = False
    # judge the committed audits of modified games (audits/<game>+<mod>.json) with the game's
    # coverage and recall thresholds
    mod_audits: bool = True


class GameOverrides(_Strict):
    coverage: Optional[Fraction] = None
    recall: Optional[Fraction] = None
    precision: Optional[Fraction] = None
    fault_detection: Optional[Fraction] = None
    mutation_score: Optional[Fraction] = None
    playtest_pass: Optional[Fraction] = None
    require_playtest: Optional[bool] = None
    stress_not_different: Optional[bool] = None
    require_stress: Optional[bool] = None
    mod_audits: Optional[bool] = None


Reason = Annotated[str, Field(min_length=MIN_REASON_CHARS)]


class FidelityConfig(_Strict):
    defaults: Thresholds = Field(default_factory=Thresholds)
    games: dict[str, GameOverrides] = Field(default_factory=dict)
    overrides: dict[str, dict[str, Reason]] = Field(default_factory=dict)
    # registered mods with no committed audit (audits/<game>+<mod>.json), by game: why not yet
    unaudited_mods: dict[str, dict[str, Reason]] = Field(default_factory=dict)

    def for_game(self, game: str) -> Thresholds:
        override = self.games.get(game)
        if override is None:
            return self.defaults
        return self.defaults.model_copy(update=override.model_dump(exclude_none=True))

    def unaudited(self, game: str) -> dict[str, str]:
        """Mods of ``game`` declared as having no audit: mod -> why."""
        return dict(self.unaudited_mods.get(game) or {})

    def reasons(self, game: str) -> dict[str, str]:
        """The weakenings this file gives a reason for: item key -> reason."""
        return dict(self.overrides.get(game) or {})


def _toml_kind(value) -> str:
    return {bool: "boolean", int: "integer", float: "float", str: "string"}.get(type(value), "value")


def _describe(err: dict) -> str:
    key = ".".join(str(p) for p in err["loc"])
    kind, given = err["type"], err.get("input")
    fields = ", ".join(Thresholds.model_fields)
    if kind == "extra_forbidden":
        return (f"{key}: unknown key (tables: defaults, games.<game>, overrides.<game>, "
                f"unaudited_mods.<game>; "
                f"thresholds: {fields}; an override is \"<item the gate names>\" = \"<reason>\")")
    if kind in ("greater_than_equal", "less_than_equal"):
        return f"{key}: {given!r} is outside [0, 1]"
    if kind == "finite_number":
        return f"{key}: {given!r} is not a number: write a share in [0, 1]"
    if kind == "float_type":
        return f"{key}: {given!r} is a TOML {_toml_kind(given)}, not a number: write a share in [0, 1]"
    if kind == "bool_type":
        return f"{key}: {given!r} is a TOML {_toml_kind(given)}, not a boolean: write true or false"
    if kind == "string_type" and len(err["loc"]) == 3 and err["loc"][0] == "unaudited_mods":
        return (f"{key}: {given!r} is a TOML {_toml_kind(given)}, not a reason: write "
                f"<mod> = \"why it has no audit yet\"")
    if kind == "string_type" and len(err["loc"]) == 3 and err["loc"][0] == "overrides":
        return (f"{key}: {given!r} is a TOML {_toml_kind(given)}, not a reason: write the item the "
                f"gate names = \"a sentence a reviewer can judge\"")
    if kind == "dict_type" and err["loc"][:1] == ("overrides",):
        return (f"{key}: an override is a table of reasons, one per item the gate names: "
                f"[overrides.<game>] \"fidelity:recall\" = \"why\"")
    if kind == "string_too_short":
        return (f"{key}: {given!r} is too short to review: say in a sentence why the gate may be "
                f"weaker for this game (at least {MIN_REASON_CHARS} characters)")
    return f"{key}: {err['msg']}"


def parse_config(text: str, source: str, games: Optional[Iterable[str]] = None) -> FidelityConfig:
    """Validate fidelity.toml text; ``games``: the known game names ``[games.*]`` must match."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise GateConfigError(f"{source} is not valid TOML: {err}") from None
    try:
        cfg = FidelityConfig.model_validate(data)
    except ValidationError as err:
        lines = [f"{source} does not hold valid gate thresholds:"]
        lines += [f"  - {_describe(e)}" for e in err.errors()]
        raise GateConfigError("\n".join(lines)) from None
    if games is not None:
        known = sorted(games)
        bad = [(table, name) for table in ("games", "overrides", "unaudited_mods")
               for name in getattr(cfg, table) if name not in known]
        if bad:
            lines = [f"{source} names games the catalog does not have (names are exact, lower "
                     f"case; games: {', '.join(known)}):"]
            lines += [f"  - [{table}.{name}]:{gamenames.did_you_mean(name, known) or ' no such game.'}"
                      for table, name in bad]
            raise GateConfigError("\n".join(lines))
    return cfg


def load_config(path: Path, games: Optional[Iterable[str]] = None) -> FidelityConfig:
    path = Path(path)
    if not path.exists():
        raise GateConfigError(f"no gate thresholds at {path}; write one (see fidelity.toml in the "
                              "repository) or pass --config")
    try:
        text = path.read_text("utf-8")
    except (UnicodeDecodeError, OSError) as err:
        raise GateConfigError(f"{path} cannot be read: {err}") from None
    return parse_config(text, str(path), games)


def weakened(now: Thresholds, then: Thresholds) -> list[str]:
    """What ``now`` asks less than ``then``: a lowered threshold or a switch turned off."""
    return [what for _, what in weakened_items(now, then)]


def weakened_items(now: Thresholds, then: Thresholds) -> list[tuple[str, str]]:
    """(threshold, what) for each threshold ``now`` lowers or switch it turns off."""
    out = []
    for key in NUMERIC:
        a, b = getattr(now, key), getattr(then, key)
        if a < b and not math.isclose(a, b):
            out.append((key, f"{key} lowered {b:.2f} -> {a:.2f}"))
    for key in SWITCHES:
        if getattr(then, key) and not getattr(now, key):
            out.append((key, f"{key} turned off"))
    return out
