"""The robustness report's JSON schema (``jaxtari-align/robustness/v1``) as pydantic models: what
docs/robustness-schema.md describes, checked by :func:`check` (the tests and the gate read reports
through it). Extra keys are refused, so a writer that drifts from the document fails."""

from __future__ import annotations

from typing import Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

Number = Optional[float]  # null where a value does not exist (never NaN)
ORIGINAL = "original"  # the unmodified game's variant in the rows, beside each mod's


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Interval(_Strict):
    value: Number
    low: Number
    high: Number


class Aggregates(_Strict):
    iqm: Interval
    mean: Interval
    median: Interval


class RamWriteModel(_Strict):
    address: int
    value: int
    when: Literal["frame", "reset"]
    if_ram: Optional[List[int]]
    mask: Optional[int] = Field(None, ge=1, le=255)  # the bits written; absent: the whole byte


class Counterpart(_Strict):
    writes: List[RamWriteModel]
    exact: Optional[bool]
    measured: str
    differs: str


class ModInfo(_Strict):
    description: str
    ale: bool  # ran on ALE in this report
    counterpart: Optional[Counterpart]
    jax_only: Optional[str]  # why it has no counterpart


class Side(_Strict):
    agents: Dict[str, List[List[float]]]  # variant -> (seeds x episodes) returns
    random: Dict[str, List[float]]  # variant -> random-policy episode returns
    random_mean: Dict[str, float]
    truncated: Dict[str, int]
    wall_seconds: Dict[Literal["agents", "random"], float]


class Comparison(_Strict):
    label: Literal["equivalent", "different", "inconclusive"]
    margin: float
    detail: str
    more_seeds: Optional[int]
    test: Optional[dict]
    paired_mean_difference: Number


class Agents(_Strict):
    source: str
    steps_per_seed: int
    seeds: List[int]
    trained_here: bool
    trained_on: Literal["jax"]
    trained_mods: Optional[List[str]] = None  # agents read from a `stress --mods` folder


class Report(_Strict):
    schema_: Literal["jaxtari-align/robustness/v1"]
    game: str
    obs: Literal["objects", "pixels"]
    code_hash: str
    versions: Dict[str, str]
    command: str
    wall_seconds: float
    agents: Agents
    episodes: int
    random_episodes: int
    max_steps: int
    mods: Dict[str, ModInfo]
    sides: Dict[Literal["jax", "ale"], Side]
    pc: Dict[str, Dict[Literal["jax", "ale"], List[Number]]]
    statistics: Dict[str, Dict[Literal["jax", "ale"], Aggregates]]
    comparison: Dict[str, Comparison]
    notes: List[str]


class SchemaError(ValueError):
    pass


def check(data: dict) -> Report:
    """The report parsed, or SchemaError listing what does not fit the schema."""
    data = dict(data)
    if "schema" in data:
        data["schema_"] = data.pop("schema")
    try:
        report = Report.model_validate(data)
    except ValidationError as exc:
        raise SchemaError(f"not a jaxtari-align/robustness/v1 report: {exc}") from None
    for m in report.pc:
        if m not in report.mods:
            raise SchemaError(f"pc lists {m!r}, which is not among the report's mods")
    return report
