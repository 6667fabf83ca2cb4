"""A long plain game for the lockstep tests, found on ALE: a turning gunner that looks ahead.

:func:`search` plays from reset in chunks of a few frames. Before each chunk it tries its moves in
order of preference (turn left firing, turn right firing, thrust firing, hyperspace) on a copy of
the emulator (``cloneState``/``restoreState``), each followed by the first move for a horizon of
frames, and plays the first one after which no life is lost (the first move when none is). The
result is stored as data (gunner_route.json: NAME:FRAMES runs as ramtrace.parse_script reads
them) and replayed by tests/games/test_asteroids_collisions.py on ALE and on the JAX port, so
the search runs only when the route is remade: ``python -m alignment.reference.games.asteroids.gunner``."""

from __future__ import annotations

import json
from pathlib import Path

from alignment.actions import ACTION_NAMES

ROM = "asteroids"
ROUTE = Path(__file__).with_name("gunner_route.json")
# each move is one chunk of frames; fire is pressed on alternate pairs so the button is released
MOVES = (
    ("LEFTFIRE", "LEFTFIRE", "LEFT", "LEFT") * 2,
    ("RIGHTFIRE", "RIGHTFIRE", "RIGHT", "RIGHT") * 2,
    ("UPFIRE", "UPFIRE", "UP", "UP") * 2,
    ("DOWN",) * 8,
)
HORIZON = 96


def search(max_frames: int = 24000, seed: int = 0) -> list[str]:
    """One ALE action name per frame, from reset until game over or ``max_frames``."""
    from alignment.porting import ramtrace

    ale = ramtrace.open_rom(ROM, seed=seed)
    index = {name: ACTION_NAMES.index(name) for name in ACTION_NAMES}
    played: list[str] = []

    def act(names) -> None:
        for name in names:
            ale.act(index[name])

    while not ale.game_over() and len(played) < max_frames:
        chosen = MOVES[0]
        for move in MOVES:
            snapshot = ale.cloneState()
            lives = ale.lives()
            act(move)
            for _ in range(HORIZON // len(MOVES[0])):
                act(MOVES[0])
            survived = ale.lives() == lives and not ale.game_over()
            ale.restoreState(snapshot)
            if survived:
                chosen = move
                break
        act(chosen)
        played.extend(chosen)
    return played


LINE = 100  # characters per stored line of the script


def script_lines(actions: list[str]) -> list[str]:
    """Per-frame names folded into NAME:FRAMES runs, in lines of whole runs."""
    runs: list[list] = []
    for name in actions:
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    lines, line = [], ""
    for name, n in runs:
        part = f"{name}:{n}"
        if line and len(line) + len(part) + 1 > LINE:
            lines.append(line)
            line = part
        else:
            line = f"{line},{part}" if line else part
    return lines + [line]


def load() -> dict:
    return json.loads(ROUTE.read_text())


def script() -> list[tuple[str, int]]:
    """The stored route as ramtrace's (name, frames) steps."""
    from alignment.porting import ramtrace

    return ramtrace.parse_script(",".join(load()["script"]))


if __name__ == "__main__":
    import sys

    actions = search(int(sys.argv[1]) if len(sys.argv) > 1 else 24000)
    ROUTE.write_text(json.dumps({"about": "", "frames": len(actions),
                                 "script": script_lines(actions)}, indent=1) + "\n")
    print(len(actions), "frames written to", ROUTE)
