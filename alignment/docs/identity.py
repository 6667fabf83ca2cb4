"""Is a document really about the game asked for?

A corpus file is found by its name, so Pong's Farama page saved as ``farama/frostbite.md`` would
otherwise yield a "frostbite" spec with Pong's rules. A Farama page names its game in its title and
its ``ALE/<Name>-v5`` id; a manual names its game near the top. A page whose title or id is another
game, or a manual whose opening names another game and which never names this one, is refused.
A document that names no game at all is accepted: nothing contradicts the file name.
"""

from __future__ import annotations

import re
from typing import Optional

from alignment import gamenames
from alignment.docs.document import Document
from alignment.docs.text import DocumentError

_FRONT_TITLE = re.compile(r"^---\s*\n(?:.*\n)*?title:\s*(.+?)\s*\n", re.M)
_HEADING = re.compile(r"^#\s+(.+?)\s*$", re.M)
_ENV_ID = re.compile(r"ALE/([A-Za-z0-9]+)-v\d+")
_OPENING_CHARS = 400
_MIN_KEY = 5  # shorter names ("et", "pong" is 4) occur inside ordinary words


def _normalized(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _game_of(name: str) -> Optional[str]:
    try:
        return gamenames.resolve(name)
    except gamenames.UnknownGameError:
        return None


def _farama_claims(text: str) -> list[tuple[str, str]]:
    """(what the page says, the game it names) for its title, first heading and first env id."""
    claims = []
    for pattern, what in ((_FRONT_TITLE, "title"), (_HEADING, "heading"), (_ENV_ID, "env id")):
        m = pattern.search(text)
        if m:
            game = _game_of(m.group(1) if what != "env id" else f"ALE/{m.group(1)}-v5")
            if game is not None:
                claims.append((f"{what} {m.group(0).strip()!r}", game))
    return claims


def _games_named_in(normalized: str) -> set[str]:
    return {slug for slug in gamenames.GAME_SLUGS
            if any(len(k) >= _MIN_KEY and k in normalized for k in gamenames.name_keys(slug))}


def check_document_game(doc: Document, game: str, *, where: str = "") -> None:
    """Raise :class:`DocumentError` when ``doc`` is evidently another game's document."""
    place = f" ({where})" if where else ""
    if doc.kind == "farama":
        for what, named in _farama_claims(doc.text):
            if named != game:
                raise DocumentError(
                    doc.id, f"is the Farama page of {named}, not {game}: its {what}{place}",
                    hint=f"save {game}'s own page as farama/{game}.md",
                )
        return
    if any(k in _normalized(doc.text) for k in gamenames.name_keys(game)):
        return
    others = sorted(_games_named_in(_normalized(doc.text[:_OPENING_CHARS])) - {game})
    if others:
        raise DocumentError(
            doc.id, f"looks like the manual of {', '.join(others)}, not {game}: its opening names "
            f"{', '.join(others)} and the text never names {game}{place}",
            hint=f"save {game}'s own manual as atariage/{game}.txt",
        )
