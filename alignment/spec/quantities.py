"""Numbers with units in manual prose: "10 points", "45 degrees", "every 5,000 points",
"2 minutes 16 seconds", "up to a maximum of nine", "at level 4", "a point".

:func:`find_quantities` returns each quantity with its offsets inside the sentence, a unit
normalised to a singular-free name ('points', 'degrees', 'seconds', ...) and a parameter name that
says its role ('points', 'points_interval', 'maximum', 'level', ...). Durations are in seconds.
"""

from __future__ import annotations

import dataclasses
import re

NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "no": 0, "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "twenty-one": 21, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100,
}

# unit word -> normalised unit
UNITS: dict[str, str] = {
    "point": "points", "points": "points", "pts": "points",
    "degree": "degrees", "degrees": "degrees",
    "second": "seconds", "seconds": "seconds", "sec": "seconds", "secs": "seconds",
    "minute": "minutes", "minutes": "minutes", "min": "minutes", "mins": "minutes",
    "frame": "frames", "frames": "frames",
    "life": "lives", "lives": "lives",
    "ball": "balls", "balls": "balls",
    "turn": "turns", "turns": "turns",
    "block": "blocks", "blocks": "blocks",
    "row": "rows", "rows": "rows",
    "igloo": "igloos", "igloos": "igloos",
    "lane": "lanes", "lanes": "lanes",
    "player": "players", "players": "players",
    "ghost": "ghosts", "ghosts": "ghosts",
    "pixel": "pixels", "pixels": "pixels",
    "percent": "percent", "%": "percent",
}

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
_WORD_NUM = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS), key=len, reverse=True))
_UNIT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
_VALUE = rf"(?:{_NUM}|\b(?:{_WORD_NUM})\b)"

_DURATION = re.compile(
    rf"(?P<m>{_VALUE})\s+minutes?(?:,?\s*(?:and\s+)?(?P<s>{_VALUE})\s+seconds?)?", re.I
)
_QUANTITY = re.compile(
    rf"(?P<v>{_VALUE})(?:\s+(?:extra|bonus|more|additional|reserve|free))?(?:\s|-)?(?P<u>(?:{_UNIT}))(?![a-z])",
    re.I,
)
_RESERVE = re.compile(rf"(?P<v>{_VALUE})\s+(?:[a-z]+\s+){{0,2}}(?:on|in)\s+(?:the\s+)?reserve", re.I)
_LEVEL = re.compile(rf"\b(?P<u>level|round|wave|stage|game)\s+(?:number\s+)?(?P<v>{_NUM}|\b(?:{_WORD_NUM})\b)", re.I)
_MAXIMUM = re.compile(rf"\b(?:up to\s+)?(?:a\s+)?(?P<kind>maximum|minimum|max|min)\s+of\s+(?P<v>{_VALUE})", re.I)
_INTERVAL_BEFORE = re.compile(
    r"(?:\bevery|\beach|\bfor each|\bper|\beach increase of|\bincrease of|\bincrements? of)\s*$", re.I
)
_BARE_TRAILING_NUMBER = re.compile(rf"\b(?:to|at|from|reaches|reach)\s+(?P<v>{_NUM})\b(?!\s*\w)", re.I)


# Units after which "a"/"an" means one of them ("a point", "a block"); "a ball" is just an object.
_ONE_OF = frozenset({"point", "life", "block", "second", "minute", "degree", "frame"})


@dataclasses.dataclass(frozen=True)
class Found:
    name: str
    value: int | float
    unit: str
    start: int
    end: int


def parse_number(token: str) -> int | float:
    t = token.strip().lower()
    if t in NUMBER_WORDS:
        return NUMBER_WORDS[t]
    t = t.replace(",", "")
    value = float(t)
    return int(value) if value.is_integer() else value


def _overlaps(spans: list[tuple[int, int]], s: int, e: int) -> bool:
    return any(s < b and a < e for a, b in spans)


def find_quantities(sentence: str) -> list[Found]:
    """Every quantity in ``sentence``, in order of appearance, each at most once."""
    found: list[Found] = []
    taken: list[tuple[int, int]] = []

    def add(name: str, value: int | float, unit: str, s: int, e: int) -> None:
        taken.append((s, e))
        found.append(Found(name, value, unit, s, e))

    for m in _DURATION.finditer(sentence):
        seconds = parse_number(m.group("m")) * 60 + (parse_number(m.group("s")) if m.group("s") else 0)
        add("duration", seconds, "seconds", m.start(), m.end())
    for m in _QUANTITY.finditer(sentence):
        if _overlaps(taken, m.start(), m.end()):
            continue
        word = m.group("v").lower()
        # "a"/"an"/"no" count only directly before a singular unit ("a point", "an extra life" no)
        if word in ("a", "an", "no", "single") and m.group("u").lower() not in _ONE_OF:
            continue
        unit = UNITS[m.group("u").lower()]
        value = parse_number(m.group("v"))
        name = unit
        if unit == "seconds" or unit == "minutes":
            value, unit, name = (value * 60 if unit == "minutes" else value), "seconds", "duration"
        if _INTERVAL_BEFORE.search(sentence[: m.start()]):
            name = f"{name}_interval"
        add(name, value, unit, m.start(), m.end())
    for m in _RESERVE.finditer(sentence):
        if not _overlaps(taken, m.start(), m.end()):
            add("reserve", parse_number(m.group("v")), "lives", m.start(), m.end())
    for m in _LEVEL.finditer(sentence):
        if _overlaps(taken, m.start(), m.end()):
            continue
        kind = m.group("u").lower()
        add(kind, parse_number(m.group("v")), kind, m.start(), m.end())
    for m in _MAXIMUM.finditer(sentence):
        if _overlaps(taken, m.start(), m.end()):
            continue
        kind = {"max": "maximum", "min": "minimum"}.get(m.group("kind").lower(), m.group("kind").lower())
        add(kind, parse_number(m.group("v")), "count", m.start(), m.end())
    for m in _BARE_TRAILING_NUMBER.finditer(sentence):
        if _overlaps(taken, m.start("v"), m.end("v")):
            continue
        add("value", parse_number(m.group("v")), "count", m.start("v"), m.end("v"))
    found.sort(key=lambda f: f.start)
    return found


def parameters_of(found: list[Found]) -> dict[str, tuple[int | float, str]]:
    """Name -> (value, unit), numbering repeated names (points, points_2, ...)."""
    out: dict[str, tuple[int | float, str]] = {}
    for f in found:
        name = re.sub(r"[^a-z0-9_]", "_", f.name.lower())
        key, n = name, 2
        while key in out:
            key, n = f"{name}_{n}", n + 1
        out[key] = (f.value, f.unit)
    return out
