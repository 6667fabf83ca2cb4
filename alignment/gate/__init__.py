"""Stage 5, the fidelity gate: committed artefacts re-derived and held against fidelity.toml.

- :mod:`.config`: fidelity.toml, strictly typed; the reviewed override reason;
- :mod:`.figures`: what the gate recomputes from an artefact's rows (audit figures, mutation
  score, stress verdicts);
- :mod:`.rederive`: what is re-derived beyond the figures (an audit against its spec, mutant
  rows, spec gaps, stress curves, robustness aggregates);
- :mod:`.weakening`: each weakening against the base as an item with a key a reason names;
- :mod:`.declarations`: the plug-ins' declarations (tolerances, known ends, counterparts) of this
  tree and of the base; :mod:`.closure`: the traced modules a game's step imports, against what
  its code hash covers; :mod:`.rekill`: a mutant recorded killed, run again;
- :mod:`.core`: :func:`evaluate` per game (data, never prints), the comparison with a base ref,
  the games a change touches;
- :mod:`.verify`: committed artefacts against freshly made ones (CI's "does the code produce what
  was committed");
- :mod:`.report`: the table and the markdown comment; :mod:`.command`: ``jaxtari-align gate``.
"""

from alignment.gate.config import (FidelityConfig, GameOverrides, GateConfigError, Thresholds,
                                   load_config, parse_config, weakened)
from alignment.gate.core import (AUDIT_SCHEMA, STRESS_SCHEMA, Artefacts, GameVerdict, check_ref,
                                 current_code_hash, default_games, evaluate, game_of,
                                 registered_mods, replay_sessions, resolve_ref, strict_json,
                                 touched_games, why_failed)
from alignment.gate.weakening import Weakening
from alignment.gate.figures import AUDIT_FIGURES
from alignment.gate import verify
from alignment.gate.report import TABLE_HEADER, markdown, table_rows

_current_code_hash = current_code_hash

__all__ = ["AUDIT_FIGURES", "AUDIT_SCHEMA", "Artefacts", "FidelityConfig", "GameOverrides",
           "GameVerdict", "GateConfigError", "STRESS_SCHEMA", "TABLE_HEADER", "Thresholds",
           "check_ref", "current_code_hash", "default_games", "evaluate", "game_of",
           "load_config", "markdown", "parse_config", "registered_mods", "replay_sessions",
           "resolve_ref", "strict_json", "table_rows", "touched_games", "weakened", "Weakening",
           "why_failed"]
