"""Where a game's step spends its time on the machine at hand: the v5 step timed whole and with
parts of the game stubbed out, one part at a time.

Made for the accelerator (issue 45), where a profile of one fused program says little: a part's
cost is what the step saves without it. Each part is a method of the game (its named mechanics,
``observation``/``objects``/``render_gray84``, or ``_step`` itself); stubbed, it returns zeros of
its own output's shapes (``_step``: the state unchanged and no reward), so XLA drops the work the
part did. The stubbed games play differently (cars at x 0, nothing hit), which changes no shape
and so no program size: the rows compare costs, not play.

    python benchmarks/ablate.py freeway --obs objects --n 4096
    python benchmarks/ablate.py freeway --parts collide move_cars --n 24 4096 --json out.json
    python benchmarks/ablate.py seaquest --parts logic.latches:latch --n 4096

A part written ``module:function`` is a function of the game's package (``logic.latches:latch``:
``jaxtari/games/seaquest/logic/latches.py``'s ``latch``), stubbed the same way wherever the
package's modules hold it, for the row's compile only: the parts of a step that are not methods.

Each row: agent steps/s of a scan of ``--steps`` v5 steps (frameskip 4, sticky 0.25) over N
envs with random actions: throughput.py's timed scan (its median of ``--repeats``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import sys
import types
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))  # throughput.py beside it, however loaded

import jaxtari  # noqa: E402
from throughput import Rollout  # noqa: E402
from jaxtari.wrappers import AtariWrapper, ObjectObservation, PixelObservation  # noqa: E402

_OBS_PARTS = {"objects": ("observation",), "pixels": ("render_gray84",)}


def _stand_in(original, name: str):
    """A function answering zeros of ``original``'s output shapes (``_step``: the state as it was,
    no reward; a function from state to state, e.g. a step's phase: its state as given)."""
    if name == "_step":
        def stub(state, action):
            _, reward = original(state, action)
            return state, jnp.zeros_like(reward)
    else:
        def stub(first, *rest, **kwargs):
            # arguments other than the first (a joystick, a constants object) need not be arrays
            shapes = jax.eval_shape(lambda a: original(a, *rest, **kwargs), first)
            if jax.tree_util.tree_structure(shapes) == jax.tree_util.tree_structure(first):
                return first  # a phase from state to state: skipped, the state passed on
            return jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), shapes)
    return stub


def _stub(game, name: str):
    """``game`` with method ``name`` answering as ``_stand_in`` says."""
    stub = _stand_in(getattr(game, name), name)
    setattr(game, name, types.MethodType(lambda self, *a, **kw: stub(*a, **kw), game))


@contextlib.contextmanager
def _stubbed_functions(game_name: str, parts):
    """Every ``module:function`` part of ``parts`` stubbed in each loaded module of the game's
    package that holds it (a game calls ``latches.latch`` or a ``latch`` it imported), and put
    back on leaving."""
    package = jaxtari.game_class(game_name).__module__.rsplit(".", 1)[0]
    undo = []
    try:
        for part in parts:
            if ":" not in part:
                continue
            module_name, _, fn_name = part.partition(":")
            try:
                module = importlib.import_module(f"{package}.{module_name}")
            except ImportError:
                raise SystemExit(f"{game_name} has no module {module_name!r} (part {part!r}): "
                                 f"name one under {package.replace('.', '/')}/, dotted, as "
                                 f"logic.latches:latch") from None
            original = getattr(module, fn_name, None)
            if not callable(original):
                raise SystemExit(f"{package}.{module_name} has no function {fn_name!r} to stub "
                                 f"(part {part!r})")
            stub = _stand_in(original, fn_name)
            for name, mod in list(sys.modules.items()):
                if (name == package or name.startswith(package + ".")) and mod is not None:
                    for attr, value in list(vars(mod).items()):
                        if value is original:
                            setattr(mod, attr, stub)
                            undo.append((mod, attr, original))
        yield
    finally:
        for mod, attr, original in reversed(undo):
            setattr(mod, attr, original)


def _env(game_name: str, obs: str, stubs: tuple[str, ...]):
    game = jaxtari.make(game_name)
    for name in stubs:
        if ":" in name:
            continue  # a function of the game's package: _stubbed_functions
        if not callable(getattr(game, name, None)):
            raise SystemExit(f"{game_name} has no method {name!r} to stub; its mechanics: "
                             f"{', '.join(game.mechanics) or '(none)'}")
        _stub(game, name)
    env = AtariWrapper(game)
    return ObjectObservation(env) if obs == "objects" else PixelObservation(env)


def time_env(game_name: str, obs: str, env, n: int, steps: int, repeats: int) -> dict:
    """Agent steps/s (median of ``repeats`` timed scans) and compile seconds: throughput.py's scan."""
    r = Rollout(game_name, obs, n, steps, env=env)
    row = r.row([r.run() for _ in range(repeats)])
    return {"steps_per_s": row["steps_per_s"], "compile_s": row["compile_s"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--obs", choices=["objects", "pixels"], default="objects")
    ap.add_argument("--parts", nargs="+", help="methods to stub one at a time, or functions of "
                    "the game's package as module:function (default: the game's mechanics, its "
                    "observation and _step)")
    ap.add_argument("--n", nargs="+", type=int, default=[24, 4096])
    ap.add_argument("--steps", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    try:
        game_name = jaxtari.canonical_name(args.game)
    except jaxtari.UnknownGameError as e:
        ap.error(str(e))
    if any(n < 1 for n in args.n) or args.steps < 1 or args.repeats < 1:
        ap.error("--n, --steps and --repeats take whole numbers of at least 1")
    parts = args.parts or (list(jaxtari.game_class(game_name).mechanics)
                           + list(_OBS_PARTS[args.obs]) + ["_step"])
    for part in parts:  # refused before anything is timed
        if ":" not in part:
            _env(game_name, args.obs, (part,))
    with _stubbed_functions(game_name, parts):
        pass
    rows = []
    for n in args.n:
        for stubs in [()] + [(p,) for p in parts]:
            with _stubbed_functions(game_name, stubs):
                timed = time_env(game_name, args.obs, _env(game_name, args.obs, stubs), n,
                                 args.steps, args.repeats)
            r = {"game": game_name, "obs": args.obs, "n": n, "stubbed": list(stubs), **timed,
                 "device": str(jax.devices()[0])}
            rows.append(r)
            print(f"{game_name} {args.obs} N={n} stubbed {','.join(stubs) or '(none)':14s} "
                  f"{r['steps_per_s']:14,.0f}/s  compile {r['compile_s']:.1f}s", flush=True)
            if args.json:
                args.json.write_text(json.dumps({"steps": args.steps, "repeats": args.repeats,
                                                 "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
