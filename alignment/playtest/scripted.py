"""Scripted players: they play the real window by posting key events to pygame's event queue.

A player looks at what the window shows (the ALE side's signals), decides which controls to hold,
and posts ``KEYDOWN``/``KEYUP`` for the keys that change, exactly as a keyboard would; at scheduled
frames it also marks frames, types notes, pauses and single-steps, and finally presses Q. The
sessions it records say ``{"kind": "scripted", "name": ...}`` in their header. Each game's policy
is part of its plug-in (``scripted_player`` of its entry, in
``alignment/reference/games/<game>/players.py``).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from alignment import catalog

# control -> the key a player presses for it (the window maps arrows and WASD the same way)
CONTROL_KEYS = {"up": "K_UP", "down": "K_DOWN", "left": "K_LEFT", "right": "K_RIGHT",
                "fire": "K_SPACE"}


def post_key(name: str, down: bool, unicode: str = "") -> None:
    import pygame

    key = getattr(pygame, name)
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode=unicode, scancode=0))


def tap(name: str, unicode: str = "") -> None:
    post_key(name, True, unicode)
    post_key(name, False)


def type_text(text: str) -> None:
    import pygame

    for ch in text:
        key = pygame.key.key_code(ch) if ch != " " else pygame.K_SPACE
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=ch,
                                             scancode=0))


@dataclasses.dataclass
class Event:
    """A scheduled action of the player at a frame: ``bug``, ``ok``, ``note`` (with text),
    ``pause``, ``step``, ``resume`` or ``quit``."""

    tick: int
    what: str
    text: str = ""


class ScriptedPlayer:
    """Drives a :class:`~alignment.playtest.window.PlayWindow` through its event queue.

    ``policy(signals, tick) -> set of controls`` reads the ALE side's signals; ``schedule`` lists
    the marks and other keys to press, by frame; the player quits after ``frames`` frames.
    """

    def __init__(self, name: str, policy: Callable[[dict, int], set], frames: int,
                 schedule: list[Event] = ()):
        self.name = name
        self.policy = policy
        self.frames = int(frames)
        self.schedule = sorted(schedule, key=lambda e: e.tick) + [Event(int(frames), "quit")]
        self._held: set[str] = set()
        self._next = 0
        self._stepping = 0

    @property
    def identity(self) -> dict:
        return {"kind": "scripted", "name": self.name}

    def __call__(self, window) -> None:
        tick = window.tick
        while self._next < len(self.schedule) and self.schedule[self._next].tick <= tick:
            self._press(self.schedule[self._next])
            self._next += 1
        want = set(self.policy(window.signals.get("ale", {}), tick))
        for c in sorted(self._held - want):
            post_key(CONTROL_KEYS[c], False)
        for c in sorted(want - self._held):
            post_key(CONTROL_KEYS[c], True)
        self._held = want
        if window.paused and self._stepping:
            tap("K_PERIOD")
            self._stepping -= 1

    def _press(self, e: Event) -> None:
        if e.what == "bug":
            tap("K_b", "b")
        elif e.what == "ok":
            tap("K_g", "g")
        elif e.what == "note":
            tap("K_n", "n")
            type_text(e.text)
            tap("K_RETURN", "\r")
        elif e.what == "pause":
            tap("K_p", "p")
            self._stepping = int(e.text or 0)
        elif e.what == "resume":
            tap("K_p", "p")
        elif e.what == "quit":
            tap("K_q", "q")
        else:
            raise ValueError(f"unknown scheduled event {e.what!r}")


def default_schedule(frames: int) -> list[Event]:
    """Marks, a note, and a pause with three single steps spread over a session."""
    return [
        Event(frames // 6, "ok"),
        Event(frames // 3, "pause", "3"),
        Event(frames // 3 + 3, "resume"),
        Event(frames // 2, "note", "scripted player: halfway"),
        Event(2 * frames // 3, "bug"),
    ]


def games_with_players() -> list[str]:
    """Catalog games whose entry has a scripted player."""
    return [g for g in catalog.games() if catalog.entry(g).scripted_player is not None]


def player_for(game: str, frames: int, schedule: list[Event] | None = None) -> ScriptedPlayer:
    """The game's scripted player (its entry's ``scripted_player``), quitting after ``frames``."""
    try:
        scripted = catalog.entry(game).scripted_player
    except catalog.UnknownCatalogGame:
        scripted = None
    if scripted is None:
        raise ValueError(f"no scripted player for {game!r}; players: "
                         f"{', '.join(games_with_players())}")
    return ScriptedPlayer(scripted.name, scripted.make(), frames,
                          default_schedule(frames) if schedule is None else schedule)
