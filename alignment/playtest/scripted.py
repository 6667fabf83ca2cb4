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


def breakout_policy(signals: dict, tick: int) -> set:
    """Serve when no ball is in play (ball_y reads 9 then), else keep the paddle's middle under the
    ball (the paddle eases after the knob, so it lags: a human-like miss now and then)."""
    if not signals:
        return set()
    if signals["ball_y"] <= 9:
        return {"fire"} if tick % 60 < 4 else set()
    offset = (signals["ball_x"] + 1) - (signals["paddle_x"] + 8)
    return {"right"} if offset > 3 else {"left"} if offset < -3 else set()


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


FLOE_PIECES = ((-4, 12), (28, 44), (60, 76))  # white spans of a floe row from its floe_x (px)
FLOE_ROWS = 4
SHORE = 255
JUMP_FRAMES = 4  # frames a jump key is held
JUMP_AIR = 28  # frames from the key to the landing (measured on ALE from the shore)
SPEED_WINDOW = 16  # frames over which a floe row's speed is read


class FrostbiteHopper:
    """Jump from row to row (down to the bottom row, then up to the shore, again) whenever
    Bailey's middle is over a piece of the floe row he is jumping to; on the shore walk toward the
    nearest piece of the top row. Every landing on a white floe adds an igloo block."""

    def __init__(self):
        self.going_down = True
        self.hold = 0
        self.key = ""
        self.history: list[np.ndarray] = []

    def __call__(self, signals: dict, tick: int) -> set:
        if not signals:
            return set()
        self.history = (self.history + [np.asarray(signals["floe_x"], np.float64)])[-SPEED_WINDOW:]
        if self.hold:
            self.hold -= 1
            return {self.key}
        row = int(signals["row"])
        if row == SHORE:
            self.going_down, target = True, FLOE_ROWS - 1
        else:
            if row == 0:
                self.going_down = False
            target = row - 1 if self.going_down else row + 1
        middle = int(signals["player_x"]) + 4
        if target >= FLOE_ROWS:  # back up onto the shore: always possible
            return self._jump("up")
        # where the target row will be when Bailey lands (rows drift while he is in the air)
        speed = (self.history[-1] - self.history[0]) / max(1, len(self.history) - 1)
        fx = float(self.history[-1][target] + speed[target] * JUMP_AIR)
        centres = [fx + (a + b) // 2 for a, b in FLOE_PIECES]
        if any(fx + a + 3 <= middle <= fx + b - 3 for a, b in FLOE_PIECES):
            return self._jump("down" if target < (row if row != SHORE else FLOE_ROWS) else "up")
        if row == SHORE:
            nearest = min(centres, key=lambda c: abs(c - middle))
            return {"left"} if nearest < middle else {"right"}
        return set()

    def _jump(self, key: str) -> set:
        self.key, self.hold = key, JUMP_FRAMES - 1
        return {key}


# game -> a factory of its policy (a fresh one per player: the hopper keeps state)
POLICIES: dict[str, Callable[[], Callable[[dict, int], set]]] = {
    "pong": lambda: pong_policy, "freeway": lambda: freeway_policy, "frostbite": FrostbiteHopper,
    "breakout": lambda: breakout_policy,
}
# The name a session's header gives the player; a changed policy gets a new version.
PLAYER_NAMES = {"pong": "scripted-pong-v1", "freeway": "scripted-freeway-v1",
                "frostbite": "scripted-frostbite-hopper-v2", "breakout": "scripted-breakout-v1"}


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
    return ScriptedPlayer(PLAYER_NAMES[game], POLICIES[game](), frames,
                          default_schedule(frames) if schedule is None else schedule)
