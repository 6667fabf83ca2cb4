"""Mutation testing (alignment.audit.mutants): mutants made from the code, measured, scored."""

from pathlib import Path

import pytest

import jaxtari
from alignment.audit import mutant_runs as runs
from alignment.audit import mutants
from alignment.audit.trace import read_tags
from alignment.catalog import game_source_files
from tests.audit import mutant_toy as toy

TOY_FILE = Path(toy.__file__)
SHORT = mutants.Equivalence(seeds=(0, 1), frames=220, start_frames=0)


def _reference(script):
    return runs.JaxRunner("counter", toy.CounterGame, signals=toy.SIGNALS).run(script)


def _toy_test(only, kill_frames=40, explore=()):
    kill = [runs.Script("scoring.step-points", 0, None, (("act", 1, kill_frames),))]
    return mutants.mutation_test(
        "counter", toy.CounterGame, [TOY_FILE], mutants.Sample(None), kill, reference=_reference,
        explore=explore,
        signals=toy.SIGNALS, tags=read_tags([TOY_FILE]),
        reviewed={"scoring.step-points", "scoring.bonus", "scoring.late-bonus"}, how=SHORT,
        only=only)


def _by_field(field):
    return [m for m in mutants.constant_mutants(toy.CounterGame) if m.field == field]


def test_constant_mutants_are_every_field_moved_to_its_neighbours():
    ms = mutants.constant_mutants(toy.CounterGame)
    targets = {m.target.split(".", 2)[2] for m in ms}
    assert {"step_points 2 -> 1", "step_points 2 -> 3", "unused_speed 7 -> 6",
            "unused_speed 7 -> 8", "marker_colour[1] 72 -> 71", "marker_colour[0] 200 -> 201"} <= targets
    assert len(ms) == 4 * 2 + 3 * 2
    assert {m.kind for m in ms if m.field == "marker_colour"} == {"colour"}


def test_equivalent_survived_and_killed_mutants_are_told_apart_by_running_them():
    result = _toy_test(_by_field("unused_speed") + _by_field("step_points")
                       + _by_field("late_bonus_at") + _by_field("marker_colour")[:2])
    rows = {r.id: r for r in result.rows}
    status = {i: r.status for i, r in rows.items()}
    # read by nothing: no run can tell it from the game
    assert status["constant:unused_speed-"] == status["constant:unused_speed+"] == "equivalent"
    # changes every FIRE frame's reward: the probe kills it, and names itself
    assert status["constant:step_points+"] == "killed"
    assert rows["constant:step_points-"].killed_by == ["scoring.step-points"]
    assert "frame 1 since reset" in rows["constant:step_points-"].detail
    # changes play only at frame 150, past the 40-frame probe: the equivalence runs see it
    assert status["constant:late_bonus_at-"] == "survived"
    assert rows["constant:late_bonus_at-"].nearest_rule == "scoring.late-bonus"
    # a colour only the screen shows: killed by the sampled screens
    assert {status["colour:marker_colour[0]-"], status["colour:marker_colour[0]+"]} == {"killed"}
    # all those ran under one compile: they were traced inputs
    assert result.sample["batched"]["count"] == len(result.rows)


def test_a_longer_probe_kills_what_survived_a_short_one():
    result = _toy_test(_by_field("late_bonus_at"), kill_frames=200)
    assert [r.status for r in result.rows] == ["killed", "killed"]


def test_exploration_kills_what_the_probes_leave_and_is_named():
    walks = [runs.Script("explore:reset/noop", 0, None, (("act", 0, 100),)),
             runs.Script("explore:reset/long", 0, None, (("act", 0, 200),)),
             runs.Script("explore:reset/longer", 0, None, (("act", 0, 300),))]
    result = _toy_test(_by_field("late_bonus_at") + _by_field("step_points")[:1], explore=walks)
    rows = {r.id: r for r in result.rows}
    # the first walk that reaches frame 150 kills it, and the walks after it are not played
    assert rows["constant:late_bonus_at+"].killed_by == ["explore:reset/long"]
    # a mutant the probes kill is named by the probes only
    assert rows["constant:step_points-"].killed_by == ["scoring.step-points"]
    assert result.scripts["probes"] == 1 and result.scripts["explore"] == 3


def test_source_mutants_are_compiled_from_a_mutated_copy_and_run():
    source = [m for m in mutants.source_mutants(toy.CounterGame, [TOY_FILE])
              if m.kind == "comparison" and "frame == c.bonus_at" in m.target]
    assert len(source) == 1  # == has no shift, only the flip to !=
    result = _toy_test(source)
    assert result.rows[0].status == "killed"
    assert result.rows[0].nearest_rule == "scoring.bonus"
    # the real module is untouched
    assert toy.CounterGame.Constants().bonus_at == 30
    assert "== c.bonus_at" in TOY_FILE.read_text()


def test_score_is_killed_over_killed_and_survived_from_the_rows():
    rows = [{"status": "killed", "kind": "constant"}] * 9 + [
        {"status": "survived", "kind": "literal"}, {"status": "equivalent", "kind": "literal"}]
    assert mutants.score(rows) == 0.9
    assert mutants.score([{"status": "equivalent", "kind": "literal"}]) is None
    s = mutants.summary(rows)
    assert (s["killed"], s["survived"], s["equivalent"]) == (9, 1, 1)


def test_sampling_is_deterministic_given_the_seed():
    pop = mutants.source_mutants(jaxtari.game_class("pong"), game_source_files("pong"))
    a = mutants.Sample(12, seed=3).draw(pop)
    assert [m.id for m in a] == [m.id for m in mutants.Sample(12, seed=3).draw(pop)]
    assert [m.id for m in a] != [m.id for m in mutants.Sample(12, seed=4).draw(pop)]
    assert len(a) == 12 and len(mutants.Sample(None).draw(pop)) == len(pop)


def test_the_mutants_option_takes_none_all_or_a_count():
    assert mutants.parse_option("none") is None
    assert mutants.parse_option("all") == mutants.Sample(None)
    assert mutants.parse_option("7") == mutants.Sample(7)
    for bad in ("-1", "some"):
        with pytest.raises(mutants.MutationError, match="none, all or a whole number"):
            mutants.parse_option(bad)


def test_the_batched_mutants_option_takes_all_or_a_count():
    assert mutants.parse_batched("all") is None and mutants.parse_batched(" ALL ") is None
    assert mutants.parse_batched("48") == 48 and mutants.parse_batched("1") == 1
    for bad in ("0", "-2", "some", "4.5", ""):
        with pytest.raises(mutants.MutationError,
                           match=r"--batched-mutants takes all or a whole number >= 1 .*"
                                 rf"the quick audit draws {mutants.QUICK_BATCHED}, the full one all"):
            mutants.parse_batched(bad)


def test_the_batched_draw_is_seeded_sized_in_population_order_and_full_is_all():
    # Kangaroo's Constants mutants: hundreds since every tunable number is a field
    pop = [m for m in mutants.constant_mutants(jaxtari.game_class("kangaroo")) if m.batched]
    assert len(pop) > 4 * mutants.QUICK_BATCHED
    quick = mutants.Sample(8, batched=mutants.QUICK_BATCHED)
    a = quick.draw_batched(pop)
    assert len(a) == mutants.QUICK_BATCHED == len({m.id for m in a})
    assert [m.id for m in a] == [m.id for m in quick.draw_batched(list(pop))]  # deterministic
    order = {m.id: i for i, m in enumerate(pop)}
    assert [order[m.id] for m in a] == sorted(order[m.id] for m in a)  # population order kept
    other = mutants.Sample(8, seed=1, batched=mutants.QUICK_BATCHED).draw_batched(pop)
    assert [m.id for m in other] != [m.id for m in a]  # the seed draws
    assert mutants.Sample(8).draw_batched(pop) == pop  # full audit: all
    assert mutants.Sample(8, batched=len(pop) + 5).draw_batched(pop) == pop  # more than there are
    # the batched draw does not move the source draw (each is its own Random(seed))
    src = mutants.source_mutants(jaxtari.game_class("pong"), game_source_files("pong"))
    assert quick.draw(src) == mutants.Sample(8).draw(src)


def test_the_mutation_stage_runs_the_batched_draw_and_says_what_it_drew():
    kill = [runs.Script("scoring.step-points", 0, None, (("act", 1, 40),))]
    sample = mutants.Sample(0, seed=2, batched=3)
    result = mutants.mutation_test(
        "counter", toy.CounterGame, [TOY_FILE], sample, kill, reference=_reference,
        signals=toy.SIGNALS, tags=read_tags([TOY_FILE]),
        reviewed={"scoring.step-points", "scoring.bonus", "scoring.late-bonus"}, how=SHORT)
    batched = [m for m in mutants.constant_mutants(toy.CounterGame) if m.batched]
    drawn = sample.draw_batched(batched)
    assert [r.id for r in result.rows] == [m.id for m in drawn]  # only the draw ran
    info = result.sample
    assert info["batched"]["population"] == len(batched) == 14
    assert (info["batched"]["count"], info["batched"]["size"]) == (3, 3)
    assert mutants.batched_drawn(info) == (3, 14)
    assert info["sampled"] == 0 and "`batched.size` drawn by random.Random(seed)" in info["how"]
    # what the gate re-derives the draw from: the traced fields, and the draw they give
    assert sorted(info["batched"]["traced"]) == sorted({m.field for m in batched})
    again_b, again_r, sizes = mutants.expected_draw(
        mutants.population(toy.CounterGame, [TOY_FILE]), info["batched"]["traced"], info)
    assert [m.id for m in again_b + again_r] == [r.id for r in result.rows]
    assert sizes["batched"] == info["batched"]["population"]


def test_a_mutated_copy_of_a_game_package_loads_isolated():
    cls = jaxtari.game_class("breakout")
    files = game_source_files("breakout")
    copy = mutants.load_mutant_class(cls, files)
    assert copy is not cls and copy.__name__ == cls.__name__
    assert copy.__module__.startswith("_jaxtari_mutant_")
    import sys

    alias = copy.__module__.split(".")[0]
    assert f"{alias}.jaxtari.games.breakout.game" in sys.modules  # importable until released
    mutants.release(copy)
    assert not [n for n in sys.modules if n.startswith(alias + ".") or n == alias]


def test_the_audit_report_carries_the_mutation_rows_and_its_score(tmp_path):
    import dataclasses
    import json

    from alignment.audit import core, report
    from tests.audit import toy as audit_toy

    subject = dataclasses.replace(
        audit_toy.subject(faults=None),
        mutation=lambda sample, say: _toy_test(_by_field("unused_speed") + _by_field("step_points")
                                               + _by_field("late_bonus_at")))
    result = core.audit(subject, mutants=mutants.Sample(4, seed=1))
    report.write(result, tmp_path)
    data = json.loads((tmp_path / "toy.json").read_text())
    rows = data["mutation"]["mutants"]
    assert {r["status"] for r in rows} == {"killed", "survived", "equivalent"}
    assert data["mutation"]["score"] == mutants.score(rows) == 0.5  # 2 killed, 2 survived
    assert data["summary"]["mutation_score"] == 0.5
    assert (data["summary"]["mutants_killed"], data["summary"]["mutants_equivalent"]) == (2, 2)
    md = (tmp_path / "toy.md").read_text()
    assert "Mutation score **50.0%**" in md and "late_bonus_at 150 -> 149" in md
    # not asked for: null, and the note says why
    off = core.audit(subject)
    assert off.to_json()["mutation"] is None
    assert off.to_json()["mutation_note"] == "mutation testing not run (--mutants none)"
