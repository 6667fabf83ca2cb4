"""The catalog: entries, names, RAM decoding, and the links to the documentation corpus."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from alignment.catalog import CORE_SIGNALS, UnknownCatalogGame, bcd, bcd_number, entry, games

SHARED_FARAMA = Path(__file__).resolve().parents[2] / "shared" / "docs" / "farama"


def test_known_games_and_spellings():
    assert {"pong", "freeway", "frostbite", "breakout"} <= set(games())
    for spelling in ("pong", "Pong", "ALE/Pong-v5", " PONG "):
        assert entry(spelling).name == "pong"
    assert entry("ALE/Frostbite-v5").ale_id == "ALE/Frostbite-v5"


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(UnknownCatalogGame) as exc:
        entry("tetris")
    msg = str(exc.value)
    assert "tetris" in msg and all(g in msg for g in games())


@pytest.mark.parametrize("name", ["pong", "freeway", "frostbite"])
def test_every_entry_has_core_signals_and_sources(name):
    e = entry(name)
    assert tuple(e.signals)[:4] == CORE_SIGNALS
    for s in e.signals.values():
        assert s.unit and s.source and s.tolerance >= 0
        if s.name not in CORE_SIGNALS:
            assert s.ale is not None
            assert "OCAtari" in s.source or "measured here" in s.source
    values = e.ale_signals(np.zeros(128, np.uint8))
    assert set(values) == set(e.signals) - set(CORE_SIGNALS)
    for k, v in values.items():
        assert np.asarray(v).shape == e.signals[k].shape, k


@pytest.mark.parametrize("name", ["pong", "freeway", "frostbite"])
def test_manual_url_is_the_one_the_farama_page_links(name):
    e = entry(name)
    page = SHARED_FARAMA / f"{e.farama_slug}.md"
    if not page.exists():
        pytest.skip("the shared documentation corpus is not on this machine")
    links = set(re.findall(r"https?://atariage\.com/[^\s)\"'>\]]+", page.read_text()))
    assert e.manual_url in links
    assert e.ale_id.split("/")[1].split("-")[0].lower() in page.read_text().lower()


def test_bcd():
    assert bcd(0x45) == 45 and bcd(0x09) == 9
    ram = np.zeros(128, np.uint8)
    ram[72:75] = [0x01, 0x23, 0x45]
    assert bcd_number(ram, [72, 73, 74]) == 12345


def test_agreed_signal_names():
    assert set(entry("pong").signals) - set(CORE_SIGNALS) == {
        "player_y", "enemy_y", "ball_x", "ball_y", "player_score", "enemy_score"}
    assert set(entry("freeway").signals) - set(CORE_SIGNALS) == {
        "chicken_y", "car_x", "player_score", "timer"}
    assert set(entry("frostbite").signals) - set(CORE_SIGNALS) == {
        "player_x", "player_y", "row", "level", "igloo_blocks", "temperature", "floe_x",
        "floe_white", "enemy_x", "bear_x", "game_over"}


def test_signal_tolerance():
    s = entry("pong").signals["player_y"]
    assert s.within(10, 10 + s.tolerance) and not s.within(10, 11 + s.tolerance)
    car = entry("freeway").signals["car_x"]
    assert car.within(np.arange(10), np.arange(10)) and not car.within(np.arange(10), np.arange(9))


def test_ram_decoding_of_frostbite():
    e = entry("frostbite")
    ram = np.zeros(128, np.uint8)
    ram[77], ram[101], ram[104], ram[70] = 255, 0x45, 140, 0
    s = e.ale_signals(ram)
    assert (s["igloo_blocks"], s["temperature"], s["bear_x"], s["level"]) == (0, 45, -1, 1)
    ram[77], ram[104], ram[43:47] = 15, 50, [12, 0, 12, 0]
    s = e.ale_signals(ram)
    assert s["igloo_blocks"] == 16 and s["bear_x"] == 53
    assert s["floe_white"].tolist() == [True, False, True, False]
    with pytest.raises(ValueError, match="128"):
        e.ale_signals(np.zeros(10, np.uint8))


def test_the_registry_finds_one_ground_truth_module_per_game():
    from alignment import catalog
    from alignment.reference import games as ground_truth

    modules = sorted(p.parent.name for p in Path(ground_truth.__file__).parent.glob("[!_]*/__init__.py"))
    assert catalog.games() == modules
    for name in catalog.games():
        module = __import__(f"alignment.reference.games.{name}", fromlist=["ENTRY"])
        assert catalog.entry(name) is module.ENTRY


def test_no_source_names_a_path_on_one_machine():
    for name in games():
        for s in entry(name).signals.values():
            assert "/work/" not in s.source and "shared/facts" not in s.source, (name, s.name)


def test_an_ale_game_not_ported_yet_says_so():
    for spelling in ("ms_pacman", "MsPacman", "ALE/MsPacman-v5"):
        with pytest.raises(UnknownCatalogGame, match="ms_pacman is an ALE game that jaxtari has not "
                                                     "ported yet"):
            entry(spelling)
    with pytest.raises(UnknownCatalogGame, match="Did you mean: frostbite") as exc:
        entry("Frostbyte")
    assert "ALE game" not in str(exc.value)


def test_code_hash_follows_the_games_source(tmp_path, monkeypatch):
    import hashlib

    from alignment import catalog

    files = catalog.game_source_files("freeway")
    assert {f.name for f in files} >= {"__init__.py", "game.py", "art.py", "mods.py"}
    pkg = next(f.parent for f in files if f.name == "game.py" and f.parent.name == "freeway")
    # the whole package, its logic/ phases included, and nothing outside it
    assert all(f.is_relative_to(pkg) for f in files)
    assert any(f.parent == pkg / "logic" for f in files)
    h = catalog.code_hash("freeway")
    assert len(h) == 64 and h == catalog.code_hash("ALE/Freeway-v5") != catalog.code_hash("pong")
    # the same files, one byte changed, give another hash
    copies = []
    for f in files:
        c = tmp_path / f.relative_to(pkg)
        c.parent.mkdir(parents=True, exist_ok=True)
        c.write_bytes(f.read_bytes())
        copies.append(c)
    same = catalog.hash_files(copies)
    copies[0].write_bytes(copies[0].read_bytes() + b"#")
    assert catalog.hash_files(copies) != same
    expected = hashlib.sha256()
    for c in copies:
        expected.update(c.resolve().as_posix().encode() + b"\0" + c.read_bytes() + b"\0")
    assert catalog.hash_files(copies) == expected.hexdigest()
