"""Scripted players: they play the real window by posting key events to pygame's event queue.

A player looks at what the window shows (the ALE side's signals), decides which controls to hold,
and posts ``KEYDOWN``/``KEYUP`` for the keys that change, exactly as a keyboard would; at scheduled
frames it also marks frames, types notes, pauses and single-steps, and finally presses Q. The
sessions it records say ``{"kind": "scripted", "name": ...}`` in their header.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

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


# ---- per-game policies ---------------------------------------------------------------------------
def pong_policy(signals: dict, tick: int) -> set:
    """Follow the ball with the paddle's centre; serve when the ball is out."""
    if not signals:
        return set()
    paddle = signals["player_y"] + 8
    ball = signals["ball_y"]
    held = set()
    if ball > paddle + 4:
        held.add("down")
    elif ball < paddle - 4:
        held.add("up")
    if tick % 120 < 4:
        held.add("fire")
    return held


def freeway_policy(signals: dict, tick: int) -> set:
    """Walk up the road, stopping now and then and stepping back once in a while."""
    phase = tick % 300
    if phase < 200:
        return {"up"}
    if phase < 240:
        return set()
    if phase < 252:
        return {"down"}
    return {"up"}


def frostbite_policy(signals: dict, tick: int) -> set:
    """Hop down the floe rows and back up, drifting left and right, firing now and then."""
    rng = np.random.default_rng(tick // 45)
    phase = tick % 360
    held = {"down"} if phase < 180 else {"up"}
    held.add(("left", "right")[int(rng.integers(2))])
    if tick % 600 < 3:
        held.add("fire")
    return held


POLICIES: dict[str, Callable[[dict, int], set]] = {
    "pong": pong_policy, "freeway": freeway_policy, "frostbite": frostbite_policy,
}


def default_schedule(frames: int) -> list[Event]:
    """Marks, a note, and a pause with three single steps spread over a session."""
    return [
        Event(frames // 6, "ok"),
        Event(frames // 3, "pause", "3"),
        Event(frames // 3 + 3, "resume"),
        Event(frames // 2, "note", "scripted player: halfway"),
        Event(2 * frames // 3, "bug"),
    ]


def player_for(game: str, frames: int, schedule: list[Event] | None = None) -> ScriptedPlayer:
    if game not in POLICIES:
        raise ValueError(f"no scripted player for {game!r}; players: {', '.join(POLICIES)}")
    return ScriptedPlayer(f"scripted-{game}-v1", POLICIES[game], frames,
                          default_schedule(frames) if schedule is None else schedule)
