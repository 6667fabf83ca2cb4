"""The benchmarks refuse bad options with a message naming the option and the fix, before any
measurement starts (benchmarks/throughput.py, benchmarks/consumers.py, benchmarks/ale_mod_cost.py, benchmarks/ablate.py,
benchmarks/draw_time.py)."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # flax's module dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def throughput():
    return _load("throughput")


@pytest.fixture(scope="module")
def consumers():
    return _load("consumers")


def _refused(main, argv, capsys) -> str:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code not in (0, None)
    out = capsys.readouterr()
    return f"{e.value.code} {out.err} {out.out}"


def test_envpool_python_that_does_not_exist_is_named(throughput, capsys, tmp_path):
    msg = _refused(throughput.main, ["--games", "pong", "--envpool-python", str(tmp_path / "nope")], capsys)
    assert "--envpool-python" in msg and "no executable" in msg and "envpool" in msg


def test_envpool_python_without_envpool_says_to_install_it(throughput, capsys):
    # this project's own Python has no envpool (it is a peer, measured from its own venv)
    assert importlib.util.find_spec("envpool") is None
    msg = _refused(throughput.main, ["--games", "pong", "--envpool-python", sys.executable], capsys)
    assert "import envpool" in msg and "pip install envpool" in msg


def test_envpool_python_that_is_not_a_python(throughput, capsys, tmp_path):
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    msg = _refused(throughput.main, ["--games", "pong", "--envpool-python", str(fake)], capsys)
    assert "import envpool" in msg


@pytest.mark.parametrize("argv, word", [
    (["--envpool-n", "0"], "--envpool-n"),
    (["--n", "-4"], "--n"),
    (["--upstream-pixels-n", "0"], "--upstream-pixels-n"),
    (["--steps", "0"], "--steps"),
    (["--row-timeout", "-1"], "--row-timeout"),
    (["--games", "pacman-deluxe"], "pacman-deluxe"),
])
def test_throughput_refuses_bad_numbers_and_games(throughput, capsys, argv, word):
    assert word in _refused(throughput.main, argv, capsys)


@pytest.mark.parametrize("argv, word", [
    (["--rounds", "0"], "--rounds"),
    (["--games", "pacman-deluxe"], "pacman-deluxe"),
    (["--consumers", "everything"], "everything"),
])
def test_consumers_refuses_bad_options(consumers, capsys, argv, word):
    assert word in _refused(consumers.main, argv, capsys)


def test_envpool_task_ids_are_envpools(throughput):
    import jaxtari
    import jaxtari.envpool
    assert throughput.envpool_task("kangaroo") == "Kangaroo-v5"
    assert sorted(throughput.envpool_task(g) for g in jaxtari.list_games()) \
        == sorted(jaxtari.envpool.list_all_envs())


def test_every_game_has_its_ale_rom(throughput):
    """The ale-py rows of every game (the table once lacked Kangaroo's ROM name and died there)."""
    import jaxtari
    for game in jaxtari.list_games():
        assert throughput.ale_rom(game) in jaxtari.ale_rom_ids()
    assert throughput.ale_rom("kangaroo") == "kangaroo"


def test_a_peer_python_does_not_see_this_checkout(throughput, monkeypatch):
    """PYTHONPATH pointing at this checkout made upstream's Python import our jaxtari (it has no
    `jaxtari.paths`); the peer runs without it."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    env = throughput._peer_env()
    assert "PYTHONPATH" not in env and env.get("PATH") == __import__("os").environ.get("PATH")


@pytest.mark.parametrize("argv,words", [
    (["--game", "tetris", "--mod", "x"], ["unknown game 'tetris'", "breakout"]),
    (["--game", "kangaroo", "--mod", "nope"], ["no ALE counterpart", "no_monkey"]),
    (["--game", "pong", "--mod", "lazy_enemy"], ["JAX-only", "no_enemy_points"]),
    (["--game", "kangaroo", "--mod", "no_monkey", "--rounds", "0"], ["--rounds", ">= 1"]),
])
def test_ale_mod_cost_names_what_it_cannot_measure(capsys, argv, words):
    said = _refused(_load("ale_mod_cost").main, argv, capsys)
    assert "Traceback" not in said
    for w in words:
        assert w in said


@pytest.mark.parametrize("argv, word", [
    (["--n", "0"], "--n"),
    (["--repeats", "0"], "--repeats"),
    (["--game", "pacman-deluxe"], "pacman-deluxe"),
    (["--game", "freeway", "--upstream-python", "/nonexistent/python"], "--upstream-python"),
])
def test_upstream_cpu_refuses_bad_options(capsys, argv, word):
    if "--upstream-python" not in argv:
        argv = argv + ["--upstream-python", sys.executable]
    said = _refused(_load("upstream_cpu").main, argv, capsys)
    assert word in said and "Traceback" not in said


def test_upstream_pixel_sizes_apart_from_its_object_sizes(throughput):
    from argparse import Namespace
    args = Namespace(n=[256, 1024, 4096], upstream_n=[256, 1024, 4096], upstream_pixels_n=[256])
    assert throughput.upstream_sizes(args, "objects") == [256, 1024, 4096]
    assert throughput.upstream_sizes(args, "pixels") == [256]
    args = Namespace(n=[64, 256], upstream_n=None, upstream_pixels_n=None)
    assert throughput.upstream_sizes(args, "pixels") == [64, 256]


def test_upstream_clock_is_wall_or_cpu(throughput):
    with pytest.raises(ValueError, match="'wall' or 'cpu'"):
        throughput.bench_upstream(sys.executable, "pong", "objects", 8, 1, 1, clock="gpu")
    # the script picks its timer from its last argument, one of the two names bench_upstream passes
    assert 'clock = {"wall": time.perf_counter, "cpu": time.process_time}[sys.argv[8]]' \
        in throughput.UPSTREAM_SCRIPT


def test_draw_time_refuses_a_draw_that_is_no_file_and_counts_below_one(capsys, tmp_path):
    draw_time = _load("draw_time")
    msg = _refused(draw_time.main, ["--draw", f"old={tmp_path / 'nope.py'}"], capsys)
    assert "--draw" in msg and "NAME=FILE" in msg
    new = f"new={ROOT / 'jaxtari' / 'games' / 'breakout' / 'draw.py'}"
    msg = _refused(draw_time.main, ["--draw", new, "--n", "0"], capsys)
    assert "--n" in msg


def test_a_row_past_its_time_limit_is_recorded_without_a_speed(throughput, capsys):
    """--row-timeout: a row whose interpreter outlives its limit is stopped and recorded as out of
    time (no speed), and the table still prints; the real child is started (Seaquest's pixel
    compile alone takes longer than the limit)."""
    rows = throughput._row_in_child({"kind": "row", "game": "seaquest", "obs": "pixels", "n": 8,
                                     "steps": 8, "repeats": 1, "reference_stack": False}, 2)
    assert rows == [{"stack": "jaxtari pixels", "game": "seaquest", "n": 8, "steps_per_s": None,
                     "compile_s": None, "bytes_per_env": None, "noop_max": 0,
                     "load": rows[0]["load"], "timed_out_s": 2}]
    throughput.print_table(rows, [])
    assert "over 2 s" in capsys.readouterr().out


def test_a_row_in_its_own_interpreter_comes_back_with_its_device(throughput):
    rows = throughput._row_in_child({"kind": "row", "game": "pong", "obs": "objects", "n": 4,
                                     "steps": 4, "repeats": 1, "reference_stack": False}, 300)
    assert len(rows) == 1 and rows[0]["game"] == "pong" and rows[0]["n"] == 4
    assert rows[0]["steps_per_s"] > 0 and rows[0]["device"].lower().startswith("cpu")


@pytest.mark.parametrize("argv, named", [
    (["--games", "pacman"], "unknown games ['pacman']"),
    (["--n", "24", "0"], "--n takes numbers of envs of 1 or more"),
    (["--repeats", "0"], "--repeats takes 1 or more"),
])
def test_hlo_cost_refuses_bad_options_before_measuring(argv, named, capsys):
    out = _refused(_load("hlo_cost").main, argv, capsys)
    assert named in out


def test_hlo_cost_counts_the_ops_a_program_has():
    import jax
    import jax.numpy as jnp

    def f(x, i):  # one gather at a traced index, one scatter, one loop of a data-dependent count
        y = x.at[i].set(x[i] + 1)
        return jax.lax.while_loop(lambda c: c[0] < i, lambda c: (c[0] + 1, c[1] * 2), (0, y))

    hlo_cost = _load("hlo_cost")
    lowered = jax.jit(f).lower(jnp.arange(8), jnp.int32(3))
    counts = hlo_cost.op_counts(lowered.as_text(dialect="hlo"))
    assert (counts["while"], counts["scatter"], counts["sort"]) == (1, 1, 0)
    assert counts["gather"] + counts["dynamic-slice"] == 1
    assert counts["instructions"] > 5
    compiled = hlo_cost.op_counts(lowered.compile().as_text(), trips=True)
    assert compiled["while"] == compiled["while_unknown_trips"] == 1


@pytest.fixture(scope="module")
def ablate():
    return _load("ablate")


@pytest.mark.parametrize("argv, named", [
    (["no_such_game"], "no_such_game"),
    (["freeway", "--n", "0"], "--n"),
    (["freeway", "--steps", "0"], "--steps"),
    (["freeway", "--parts", "no_such_part", "--n", "1", "--steps", "1", "--repeats", "1"],
     "no_such_part"),
    (["seaquest", "--parts", "logic.no_such_module:latch"], "logic.no_such_module"),
    (["seaquest", "--parts", "logic.latches:no_such_function"], "no_such_function"),
])
def test_ablate_refuses_bad_options(ablate, capsys, argv, named):
    assert named in _refused(ablate.main, argv, capsys)


def test_ablate_stub_keeps_shapes_and_drops_the_part(ablate):
    """A stubbed part answers zeros of its own output's shapes: Freeway with `collide` stubbed
    never hits the chicken where the plain game does, and every output keeps its shape."""
    import jax

    stubbed, plain = ablate._env("freeway", "objects", ("collide",)), ablate._env("freeway", "objects", ())
    up = stubbed.game.action_ids.index(2)  # ALE's UP
    _, s = stubbed.reset(jax.random.key(0))
    _, p = plain.reset(jax.random.key(0))
    step_s, step_p = jax.jit(stubbed.step), jax.jit(plain.step)
    hits = []
    for _ in range(300):
        o, s, *_ = step_s(s, up)
        po, p, *_ = step_p(p, up)
        assert o.shape == po.shape and o.dtype == po.dtype
        hits.append((int(stubbed.game_state(s).hit_count), int(plain.game_state(p).hit_count)))
    assert all(h == 0 for h, _ in hits)
    assert any(h > 0 for _, h in hits)  # the plain chicken, walking up through traffic, is hit


def test_ablate_skips_a_phase_from_state_to_state(ablate):
    """A step's phase (state and joystick in, state out) stubbed is skipped: Seaquest's sub held
    RIGHT stays where it started without `_move_sub`, and moves with it."""
    import jax

    stubbed, plain = ablate._env("seaquest", "objects", ("_move_sub",)), ablate._env("seaquest", "objects", ())
    right = stubbed.game.action_ids.index(3)  # ALE's RIGHT
    _, s = stubbed.reset(jax.random.key(0))
    _, p = plain.reset(jax.random.key(0))
    start = int(stubbed.game_state(s).sub_x)
    step_s, step_p = jax.jit(stubbed.step), jax.jit(plain.step)
    for _ in range(60):
        _, s, *_ = step_s(s, right)
        _, p, *_ = step_p(p, right)
    assert int(stubbed.game_state(s).sub_x) == start
    assert int(plain.game_state(p).sub_x) > start


def test_ablate_stubs_a_function_of_the_package_for_the_row_only(ablate):
    """A ``module:function`` part is the game's package function answering as a stubbed method
    does (a phase from state to state passes its state on) while its row is traced, and is the
    original again after: Seaquest's collision latches recompute the oxygen warning from the
    state, stubbed they keep whatever it held."""
    import jax
    import jax.numpy as jnp

    from jaxtari.games.seaquest import game as seaquest_game
    from jaxtari.games.seaquest.logic import latches

    original = latches.latch
    env = ablate._env("seaquest", "objects", ())
    _, s = env.reset(jax.random.key(0))
    state = env.game_state(s).replace(oxygen_warning=jnp.int32(77))
    assert int(latches.latch(state, env.game.consts).oxygen_warning) != 77
    with ablate._stubbed_functions("seaquest", ["logic.latches:latch", "_move_sub"]):
        assert seaquest_game.latches.latch is not original
        out = seaquest_game.latches.latch(state, env.game.consts)
        assert jax.tree_util.tree_all(jax.tree_util.tree_map(
            lambda a, b: bool(jnp.array_equal(a, b)), out, state))
    assert latches.latch is original and seaquest_game.latches.latch is original
