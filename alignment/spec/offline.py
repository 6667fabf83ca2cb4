"""The offline extractor: deterministic candidate rules from a game's documents, with no keys.

From the Farama page it takes the structure (minimal action set, observation space, variants, modes
and difficulties) and the sentences of the Description and Reward sections; from the manual, every
sentence or list item of every section, and the rows of any numeric table (Frostbite's per-level
scoring table). Each candidate is categorised by keywords, its numbers are parsed with their units
(:mod:`alignment.spec.quantities`), and it becomes a :class:`Rule` whose statement is generated from
a template (the project's words) while its :class:`SourceRef` points at the verbatim span.

Candidates are ``status: extracted``: a person reads them against the documents, rewrites, rejects
or adds rules, and marks them ``reviewed``. Claims that look like rules but state no number where
one is implied ("a certain high number of points") are returned as unsupported claims.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterable, Optional, Sequence

from alignment import gamenames
from alignment.docs.document import Document
from alignment.docs.text import Section, lines_with_offsets, sections
from alignment.spec.farama import FaramaPage, parse_farama
from alignment.spec.quantities import find_quantities, parameters_of
from alignment.spec.schema import (
    Flavors,
    GameSpec,
    Quantity,
    Rule,
    Source,
    UnsupportedClaim,
    span_ref,
)

EXTRACTOR_NAME = "offline"

# Keyword patterns per category, in priority order: the first that matches a sentence wins.
CATEGORY_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (cat, re.compile(pat, re.I))
    for cat, pat in (
        ("termination", r"\bgame (?:is )?over\b|\bgame ends\b|\bends? the game\b|\bend of (?:the|each|a) "
                        r"game\b|\bwins? (?:the|a) game\b|\bwins\b.*\bfirst\b|\bfirst (?:player|team|side|one) to\b|\blasts until\b"
                        r"|\bgame is won\b|\bepisode ends\b"),
        ("lives", r"\blives\b|\blife\b(?! at the)|\breserves?\b|\bbonus (?:life|lives|player|ship|man)\b"
                  r"|\bextra (?:life|player|ship|man|men|turn)\b|\bgets? lost\b|\bballs? per game\b"
                  r"|\blose (?:a|one|your) (?:life|turn|ball|man)\b|\b(?:is|are|gets?) lost\b"),
        ("scoring", r"\bpoints?\b|\bscor(?:e|es|ed|ing)\b|\bworth\b"),
        ("timing", r"\bseconds?\b|\bminutes?\b|\btimer\b|\btime (?:limit|runs|remaining|is up)\b"
                   r"|\btemperature\b|\bthermometer\b|\bclock\b|\bcount(?:s|ing)? down\b|\bcountdown\b"
                   r"|\bevery [\d,]+ frames\b"),
        ("spawning", r"\bappears?\b|\bcomes? out\b|\bcome out\b|\bswim by\b|\bspawns?\b|\bemerges?\b"
                     r"|\breappears?\b|\benters? the screen\b"),
        ("progression", r"\blevels?\b|\brounds?\b|\bwaves?\b|\bstages?\b|\bshifts?\b|\bigloo is complete\b"
                        r"|\bblock is added\b|\bnext (?:screen|maze|board)\b"),
        ("action", r"\bjoystick\b|\bred button\b|\bbutton\b|\bcontroller\b|\bpush\b|\bpull\b|\bpress\b"
                   r"|\bcontrol (?:the|a|your)\b|\byou control\b"),
        ("physics", r"\bspeed\b|\bfaster\b|\bslower\b|\bbounces?\b|\bangle\b|\bdeflect\w*\b|\bdirection\b"
                    r"|\bmid-air\b|\bjump\w*\b|\bmoves?\b|\bfall\w*\b"),
        ("rendering", r"\bcolou?r\b|\bturns? (?:white|blue|red|green|black|yellow)\b|\bdisplayed\b"
                      r"|\bshown\b|\bon (?:the )?screen\b"),
    )
)

# Sentences that are about the console, the box or the company, not the game.
NOT_A_RULE = re.compile(
    r"insert (?:the )?(?:game )?cartridge|power (?:switch|on|off)|\bplug (?:in|the)\b|hotline|toll-free"
    r"|mailing list|send us|envelope|emblem|printed in|all rights reserved|trademarks? of"
    r"|are trademarks|correspondence|\b\d{3}-\d{3}-\d{4}\b|\bcall the\b|this environment is part of"
    r"|exact reward dynamics depend|for (?:a )?more detailed documentation|see \[|see variants section"
    r"|possible observation types|atariage\.com|gymnasium\.make|full_action_space",
    re.I,
)
# A section offering a club, a patch or a contest: its numbers are not rules of play.
CLUB_SECTION = re.compile(r"\bemblem\b|\bpatch\b|\bsend us\b|\benvelope\b|\bclub\b", re.I)
# A rule-like claim that implies a number without giving one.
VAGUE = re.compile(r"\ba certain\b|\bcertain (?:high )?number\b|\bsome (?:points|time)\b|\bseveral\b"
                   r"|\bvarious\b|\bsometimes\b|\bextra points\b", re.I)

STOPWORDS = frozenset(
    "a an the of to and or in on at by for with from is are be been it its his her he she you your "
    "they them their this that these those each every when while if then than as into onto up down "
    "will can may must not no so but also just only all any there here which who whom what where do "
    "does did has have had get gets got one two three four five six seven eight nine ten once tm "
    "s ll re ve d t very really let us we our my me i".split()
)
CATEGORY_LABEL = {
    "action": "Control", "physics": "Movement", "scoring": "Scoring", "lives": "Lives",
    "termination": "End of game", "progression": "Progression", "spawning": "Appearance",
    "timing": "Timing", "rendering": "Display",
}
UNIT_WORDS = {"points": "points", "degrees": "degrees", "seconds": "seconds", "frames": "frames",
              "lives": "lives", "count": "", "level": "", "round": "", "wave": "", "stage": "",
              "game": ""}


@dataclasses.dataclass(frozen=True)
class Unit:
    """A sentence or list item of a document, with its section."""

    start: int
    end: int
    section: str
    header: str = ""  # for a row of a label/value chart: the chart's header line


# --------------------------------------------------------------------------------------------------
# Splitting text into candidate sentences

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[*]?[A-Z0-9])")
_LIST_ITEM = re.compile(r"^\s*(?:[*\-\u2022]|\d+[.)])\s+")
_DASH_RULE = re.compile(r"^\s*[-=_]{8,}\s*$")
_NUMERIC_ROW = re.compile(r"^\s*\d[\d,]*(?:\s{2,}\d[\d,.]*)+\s*$")
# A chart row: a label, two or more spaces, a number or range (maybe "POINTS"); two per line at most.
_LABEL_VALUE = re.compile(
    r"(?P<label>[A-Za-z0-9][A-Za-z0-9 .'/&-]*?[A-Za-z][A-Za-z0-9 .'/&-]*?)\s{2,}"
    r"(?P<value>\d[\d,]*(?:\s*-\s*\d[\d,]*)?(?:\s+points?)?)(?=\s{2,}|\s*$)",
    re.I,
)
_CHART_GAP = re.compile(r"\s{2,}\d")
_ABBREVIATIONS = re.compile(r"(?:\b(?:Mr|Mrs|Ms|Dr|St|vs|etc|Inc|Co|Mfg|Corp|No|e\.g|i\.e)\.)$")


def _trim(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def _split_sentences(text: str, s: int, e: int) -> Iterable[tuple[int, int]]:
    pos = s
    for m in _SENTENCE_END.finditer(text, s, e):
        if _ABBREVIATIONS.search(text[max(s, m.start() - 6):m.start()]):
            continue
        a, b = _trim(text, pos, m.start())
        if b > a:
            yield a, b
        pos = m.end()
    a, b = _trim(text, pos, e)
    if b > a:
        yield a, b


def units(doc: Document, section: Section) -> list[Unit]:
    """The sentences and list items of a section's body (tables and fenced blocks left out)."""
    text = doc.text
    out: list[Unit] = []
    block: list[tuple[int, int]] = []  # line ranges of the current paragraph

    def flush() -> None:
        if block:
            for a, b in _split_sentences(text, block[0][0], block[-1][1]):
                out.append(Unit(a, b, section.title))
        block.clear()

    lines = list(lines_with_offsets(text, section.body_start, section.end))
    table_heads: set[int] = set()  # the header lines of text tables belong to the table
    for i, (_, line) in enumerate(lines):
        if _DASH_RULE.match(line):
            above = [j for j in range(max(0, i - 3), i) if lines[j][1].strip()][-2:]
            table_heads.update(lines[j][0] for j in above)
    in_fence = False
    last_text_line = ""
    for off, line in lines:
        s = line.strip()
        if off in table_heads:
            flush()
            continue
        if s.startswith("```"):
            in_fence = not in_fence
            flush()
            continue
        if in_fence or not s or s.startswith(("|", "#", ":")) or _DASH_RULE.match(line) \
                or _NUMERIC_ROW.match(line) or re.fullmatch(r"\{Figure\d*\}", s):
            flush()
            continue
        # The chart pattern backtracks heavily on long prose lines; it can only match where two
        # spaces precede a digit, so other lines skip it.
        pairs = list(_LABEL_VALUE.finditer(line)) if _CHART_GAP.search(line) else []
        if pairs and not _LABEL_VALUE.sub("", line).strip():  # the line is nothing but pairs
            flush()
            header = last_text_line
            for p in pairs:
                out.append(Unit(off + p.start(), off + p.end(), section.title, header=header))
            continue
        last_text_line = s
        m = _LIST_ITEM.match(line)
        if m:
            flush()
            block.append((off + m.end(), off + len(line)))
            continue
        block.append((off, off + len(line)))
    flush()
    return out


# --------------------------------------------------------------------------------------------------
# Categorising and wording


def classify(sentence: str) -> Optional[str]:
    for category, pattern in CATEGORY_PATTERNS:
        if pattern.search(sentence):
            return category
    return None


def keywords(sentence: str, limit: int = 4) -> list[str]:
    words = re.findall(r"\d[\d,]*[a-z]*|[a-z][a-z0-9]*(?:-[a-z0-9]+)*", sentence.lower())
    out: list[str] = []
    for w in words:
        w = w.replace(",", "")
        if w in STOPWORDS or len(w) < 2 or w in out:
            continue
        out.append(w)
        if len(out) == limit:
            break
    return out


def _slug(words: Sequence[str]) -> str:
    slug = "-".join(re.sub(r"[^a-z0-9]+", "-", w).strip("-") for w in words)
    slug = re.sub(r"-{2,}", "-", slug).strip("-")
    return slug[:60].rstrip("-") or "rule"


def _describe(params: dict[str, Quantity]) -> str:
    parts = []
    for name, q in params.items():
        label = name.replace("_", " ")
        unit = UNIT_WORDS.get(q.unit, q.unit)
        value = f"{q.value:,}" if isinstance(q.value, int) and abs(q.value) >= 10_000 else f"{q.value}"
        parts.append(f"{label} {value}" + (f" {unit}" if unit and unit not in label else ""))
    return ", ".join(parts)


def statement_for(category: str, section: str, sentence: str, params: dict[str, Quantity]) -> str:
    """A templated statement: category, where it was found, its numbers and what it is about."""
    label = CATEGORY_LABEL[category]
    where = f" ({section.strip()})" if section.strip() else ""
    about = [w for w in keywords(sentence, 6) if not w[0].isdigit()][:4]
    text = f"{label} rule{where}"
    if params:
        text += f": {_describe(params)}"
    if about:
        text += ("; " if params else ": ") + "concerns " + ", ".join(about)
    return text + "."


class _Ids:
    def __init__(self) -> None:
        self.used: set[str] = set()
        self.next_suffix: dict[str, int] = {}  # per base: where to resume counting (no rescans)

    def make(self, category: str, words: Sequence[str]) -> str:
        base = f"{category}.{_slug(words)}"
        rid, n = base, self.next_suffix.get(base, 2)
        if rid in self.used:
            rid = f"{base}-{n}"
        while rid in self.used:
            n += 1
            rid = f"{base}-{n}"
        self.next_suffix[base] = n + 1 if rid != base else n
        self.used.add(rid)
        return rid


def _quantities(sentence: str) -> dict[str, Quantity]:
    return {k: Quantity(value=v, unit=u) for k, (v, u) in parameters_of(find_quantities(sentence)).items()}


# --------------------------------------------------------------------------------------------------
# Text tables in manuals (a dashed line under a header, then rows of numbers)


def _chunks(line: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of the parts of a line separated by two or more spaces."""
    return [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"\S+(?: \S+)*", line)]


def _column_names(header_lines: list[str]) -> list[tuple[float, str]]:
    """(centre, name) per column from one or two header lines, merged by horizontal overlap."""
    if not header_lines:
        return []
    base = _chunks(header_lines[-1])
    names = [[c[2]] for c in base]
    for upper in header_lines[:-1]:
        for s, e, word in _chunks(upper):
            best, overlap = None, 0
            for i, (bs, be, _) in enumerate(base):
                ov = min(e, be) - max(s, bs)
                if ov > overlap:
                    best, overlap = i, ov
            if best is not None:
                names[best].insert(0, word)
    return [((bs + be) / 2, " ".join(n)) for (bs, be, _), n in zip(base, names)]


def _param_name(label: str) -> str:
    name = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")
    return name if name and name[0].isalpha() else f"col_{name}"


def text_tables(doc: Document, section: Section, ids: _Ids) -> list[Rule]:
    text = doc.text
    lines = list(lines_with_offsets(text, section.body_start, section.end))
    rules: list[Rule] = []
    for i, (off, line) in enumerate(lines):
        if not _DASH_RULE.match(line):
            continue
        header = [ln for _, ln in lines[max(0, i - 3):i] if ln.strip()][-2:]
        columns = _column_names(header)
        if len(columns) < 2:
            continue
        for roff, row in lines[i + 1:]:
            if not row.strip():
                if rules and rules[-1].source and rules[-1].source.end > roff:
                    break
                continue
            if not _NUMERIC_ROW.match(row):
                break
            cells = _chunks(row)
            params: dict[str, Quantity] = {}
            for s, e, value in cells:
                centre = (s + e) / 2
                _, label = min(columns, key=lambda c: abs(c[0] - centre))
                name = _param_name(label)
                unit = "points" if "point" in label.lower() else (
                    "level" if "level" in label.lower() else "count")
                num = value.replace(",", "")
                params[name] = Quantity(value=float(num) if "." in num else int(num), unit=unit)
            first_label = columns[0][1]
            key_value = params[_param_name(first_label)].value
            joined = " ".join(c[1] for c in columns)
            category = classify(joined) or "scoring"
            s, e = _trim(text, roff, roff + len(row))
            desc = ", ".join(f"{c[1].lower()} {params[_param_name(c[1])].value}" for c in columns[1:]
                             if _param_name(c[1]) in params)
            rules.append(Rule(
                id=ids.make(category, ["table", _param_name(first_label).replace("_", "-"),
                                       str(key_value)]),
                category=category,
                statement=(f"{CATEGORY_LABEL[category]} table ({section.title.strip()}): "
                           f"for {first_label.lower()} {key_value}, {desc}."),
                parameters=params,
                source=span_ref(doc, s, e),
            ))
    return rules


# --------------------------------------------------------------------------------------------------
# The extractor


def _chart_rule(doc: Document, unit: Unit, ids: _Ids) -> Optional[Rule]:
    """A row of a label/value chart ("DOT   10 POINTS", "Eggs   10" under "OBJECT   POINTS")."""
    row = doc.text[unit.start:unit.end]
    m = _LABEL_VALUE.fullmatch(row)
    if m is None:
        return None
    label, value = m.group("label").strip(), m.group("value")
    about = f"{unit.header} {value}"
    category = "scoring" if re.search(r"\bpoints?\b|\bscor", about, re.I) else classify(about)
    if category is None:
        return None
    numbers = [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", value)]
    unit_name = "points" if category == "scoring" else "count"
    if len(numbers) == 2:
        params = {"points_min" if unit_name == "points" else "minimum": Quantity(value=numbers[0], unit=unit_name),
                  "points_max" if unit_name == "points" else "maximum": Quantity(value=numbers[1], unit=unit_name)}
    else:
        params = {unit_name if unit_name == "points" else "value": Quantity(value=numbers[0], unit=unit_name)}
    where = f" ({unit.section.strip()})" if unit.section.strip() else ""
    return Rule(
        id=ids.make(category, ["chart"] + keywords(label, 3)),
        category=category,
        statement=f"{CATEGORY_LABEL[category]} chart{where}: '{label.lower()}' is listed with "
                  f"{_describe(params)}.",
        parameters=params,
        source=span_ref(doc, unit.start, unit.end),
    )


def _prose_rules(doc: Document, secs: Sequence[Section], ids: _Ids,
                 unsupported: list[UnsupportedClaim]) -> list[Rule]:
    rules: list[Rule] = []
    for section in secs:
        body = doc.text[section.body_start:section.end]
        if CLUB_SECTION.search(body):
            continue
        for unit in units(doc, section):
            sentence = doc.text[unit.start:unit.end]
            if len(sentence) < 12 or NOT_A_RULE.search(sentence):
                continue
            if unit.header:
                rule = _chart_rule(doc, unit, ids)
                if rule is not None:
                    rules.append(rule)
                continue
            category = classify(sentence)
            if category is None:
                continue
            params = _quantities(sentence)
            if VAGUE.search(sentence) and not params:
                unsupported.append(UnsupportedClaim(
                    statement=f"{CATEGORY_LABEL[category]} claim with no number: "
                              + ", ".join(keywords(sentence, 6)),
                    reason="the text implies a quantity but does not state it",
                    document=doc.id, source=span_ref(doc, unit.start, unit.end),
                ))
                continue
            rules.append(Rule(
                id=ids.make(category, keywords(sentence)),
                category=category,
                statement=statement_for(category, section.title, sentence, params),
                parameters=params,
                source=span_ref(doc, unit.start, unit.end),
            ))
        rules.extend(text_tables(doc, section, ids))
    return rules


def _farama_rules(doc: Document, page: FaramaPage, ids: _Ids) -> list[Rule]:
    rules: list[Rule] = []
    rows = page.action_rows
    n = len(page.actions)
    kind = "the full set of 18" if page.full_action_set or n == 18 else f"a minimal set of {n}"
    rules.append(Rule(
        id=ids.make("action", ["minimal-set"]), category="action",
        statement=f"The agent's actions are {kind} ALE actions, indexed in this order: "
                  + ", ".join(page.actions) + ".",
        parameters={"action_count": Quantity(value=n, unit="actions")},
        source=span_ref(doc, rows[0].start, rows[-1].end),
    ))
    v5 = [(v, r) for v, r in zip(page.variants, page.variant_rows) if v.env_id.startswith("ALE/")]
    if v5:
        variant, row = v5[0]
        if variant.frameskip.isdigit():
            rules.append(Rule(
                id=ids.make("timing", ["frameskip-v5"]), category="timing",
                statement=f"In {variant.env_id} one agent step repeats the action for "
                          f"{variant.frameskip} emulator frames.",
                parameters={"frameskip": Quantity(value=int(variant.frameskip), unit="frames")},
                source=span_ref(doc, row.start, row.end),
            ))
        rules.append(Rule(
            id=ids.make("action", ["sticky-v5"]), category="action",
            statement=f"In {variant.env_id} the previous action is repeated instead of the chosen "
                      f"one with probability {variant.repeat_action_probability} (sticky actions).",
            parameters={"repeat_action_probability":
                        Quantity(value=variant.repeat_action_probability, unit="probability")},
            source=span_ref(doc, row.start, row.end),
        ))
    return rules


def extract_rules(documents: Sequence[Document]) -> tuple[list[Rule], list[UnsupportedClaim]]:
    """Candidate rules (status ``extracted``) and unsupported claims from the documents."""
    ids = _Ids()
    rules: list[Rule] = []
    unsupported: list[UnsupportedClaim] = []
    for doc in sorted(documents, key=lambda d: (d.kind != "farama", d.id)):
        if doc.kind == "farama":
            page = parse_farama(doc)
            rules.extend(_farama_rules(doc, page, ids))
            rules.extend(_prose_rules(doc, page.prose_sections, ids, unsupported))
        else:
            rules.extend(_prose_rules(doc, sections(doc.text), ids, unsupported))
    return rules, unsupported


def skeleton(game: str, documents: Sequence[Document]) -> GameSpec:
    """The spec's structure (sources, actions, spaces, flavors, variants) without rules."""
    slug = gamenames.resolve(game)
    farama = next((d for d in documents if d.kind == "farama"), None)
    page = parse_farama(farama) if farama is not None else None
    return GameSpec(
        game=slug,
        title=(page.title if page and page.title else gamenames.ENV_NAMES[slug]),
        env_id=(page.make_id if page and page.make_id else gamenames.env_id(slug)),
        sources=[Source.of(d) for d in documents],
        actions=page.actions if page else [],
        observation_space=page.observation_space if page else "",
        flavors=page.flavors if page and page.flavors else Flavors(),
        variants=page.variants if page else [],
    )


def extract(game: str, documents: Sequence[Document]) -> GameSpec:
    """The whole offline spec of a game, validated against its documents."""
    spec = skeleton(game, documents)
    rules, unsupported = extract_rules(documents)
    data = spec.model_dump()
    data.update(rules=[r.model_dump() for r in rules],
                unsupported=[u.model_dump() for u in unsupported], extractor=EXTRACTOR_NAME)
    return GameSpec.model_validate(data, context={"documents": {d.id: d for d in documents}})
