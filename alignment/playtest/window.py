"""The play window: ALE | JAX | difference, a side panel of signals, one controller for both.

Every tick of the loop reads pygame's event queue (keyboard, gamepad, window close), advances both
backends one emulator frame with the same action (sticky actions off, the same seed), records the
frame, and draws. A person plays it; a scripted player (:mod:`alignment.playtest.scripted`) drives it
the same way, by posting key events to the same queue from ``hook`` before each tick.

Keys: arrows or WASD move, space fires; P pauses, "." steps one frame while paused, Tab toggles slow
motion (a quarter of the speed), B marks a bug, G marks "looks right", N starts a note (type, Enter
saves, Esc drops it), Q or Esc quits. The session is saved as it goes and closed on quit.
"""

from __future__ import annotations

import dataclasses
import getpass
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from alignment import artefacts, catalog
from alignment.playtest import panes
from alignment.playtest.core import ale_counterparts, code_hash, make_sides
from alignment.provenance import PLAYTEST_STACK, versions
from alignment.playtest.keymap import action_for
from alignment.playtest.session import Recorder, make_header, new_session_id, session_path

SLOW_FACTOR = 4
PANEL_W = 330
STATUS_H = 28
AXIS_DEAD_ZONE = 0.5
HEADLESS_HELP = (
    "no display is available{why}. To play without a screen: run with SDL_VIDEODRIVER=dummy "
    "(nothing is shown; a scripted player or posted events drive it and the session is still "
    "recorded), or under a virtual X server: xvfb-run -a jaxtari-align play GAME"
)


class PlayError(RuntimeError):
    """A play session that cannot start (reported as a message, exit code 1)."""


def check_display() -> None:
    """Raise :class:`PlayError` naming the headless options when no window can be opened."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver:
        return
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        raise PlayError(HEADLESS_HELP.format(why=" (neither DISPLAY nor WAYLAND_DISPLAY is set)"))


@dataclasses.dataclass
class PlayResult:
    path: Path
    ticks: int
    episodes: int
    marks: list[dict]
    first_divergence: int | None
    seconds: float

    @property
    def fps(self) -> float:
        return self.ticks / self.seconds if self.seconds > 0 else 0.0


def _keymap():
    import pygame

    return {
        pygame.K_UP: "up", pygame.K_w: "up", pygame.K_DOWN: "down", pygame.K_s: "down",
        pygame.K_LEFT: "left", pygame.K_a: "left", pygame.K_RIGHT: "right", pygame.K_d: "right",
        pygame.K_SPACE: "fire",
    }


class PlayWindow:
    """One play session. ``player``: ``{"kind": "person"|"scripted", "name": ...}``."""

    def __init__(self, game: str, *, seed: int = 0, mode: int | None = None,
                 mods: Sequence[str] = (), scale: int = 2, fps: float = 60.0,
                 root: Path = Path(artefacts.PLAYTEST_SESSION.folder), player: dict | None = None):
        check_display()
        if scale < 1:
            raise PlayError(f"--scale must be >= 1, got {scale}")
        if fps < 0:
            raise PlayError(f"--fps must be >= 0 (0: as fast as it goes), got {fps}")
        self.game = catalog.canonical(game)
        self.entry = catalog.entry(self.game)
        self.seed, self.mode, self.mods = int(seed), mode, tuple(mods)
        self.scale, self.fps = int(scale), float(fps)
        self.player = player or {"kind": "person", "name": getpass.getuser()}
        self.sides = make_sides(self.game, self.mods, mode)
        self.action_names = tuple(self.sides["ale"].action_names)
        if tuple(self.sides["jax"].action_names) != self.action_names:
            raise PlayError(f"{self.game}: the backends' action sets differ: ALE "
                            f"{self.action_names}, JAX {tuple(self.sides['jax'].action_names)}")
        self.signal_names = list(self.entry.signals)
        self.session_id = new_session_id(self.game)
        self.path = session_path(root, self.game, self.session_id)
        self.header = make_header(
            session_id=self.session_id, game=self.game, mode=mode, seed=self.seed, mods=self.mods,
            settings={"fps": self.fps, "scale": self.scale, "frameskip": 1, "sticky": 0.0,
                      "full_action_space": False,
                      "ale_mods": list(ale_counterparts(self.game, self.mods)),
                      "new_episode": "when either side's game ends"},
            versions=versions(PLAYTEST_STACK), code_hash=code_hash(self.game), player=self.player,
            actions=self.action_names, signals=self.signal_names)
        # state of the loop
        self.held: set[str] = set()
        self.pad_held: set[str] = set()
        self.paused = False
        self.step_once = False
        self.slow = False
        self.typing: str | None = None
        self.running = False
        self.episode = 0
        self.tick = 0
        self.signals: dict[str, dict[str, Any]] = {}
        self.diverged: list[str] = []
        self.first_divergence: int | None = None
        self.marks: list[dict] = []
        self.last_action = 0
        self.recorder: Recorder | None = None

    # ---- the game ------------------------------------------------------------------------------
    def _new_episode(self) -> None:
        seed = self.seed + self.episode
        for b in self.sides.values():
            b.reset(seed=seed)
        self.recorder.reset(self.episode, seed)
        self.signals = {k: b.signals() for k, b in self.sides.items()}

    def _advance(self) -> None:
        action = action_for(self.held | self.pad_held, self.action_names, self.entry.control_aliases)
        for b in self.sides.values():
            b.act(action)
        self.signals = {k: b.signals() for k, b in self.sides.items()}
        ale, jax = self.signals["ale"], self.signals["jax"]
        self.diverged = [k for k, s in self.entry.signals.items() if not s.within(ale[k], jax[k])]
        if self.diverged and self.first_divergence is None:
            self.first_divergence = self.tick
        self.recorder.frame(self.episode, action, ale, jax, self.diverged)
        self.last_action = action
        self.tick += 1
        if any(b.terminated for b in self.sides.values()):
            self.episode += 1
            self._new_episode()

    def _mark(self, kind: str, text: str = "") -> None:
        self.marks.append(self.recorder.mark(kind, text))

    # ---- input ------------------------------------------------------------------------------------
    def _handle(self, event) -> None:
        import pygame

        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN and self.typing is not None:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self._mark("note", self.typing)
                self.typing = None
            elif event.key == pygame.K_ESCAPE:
                self.typing = None
            elif event.key == pygame.K_BACKSPACE:
                self.typing = self.typing[:-1]
            elif getattr(event, "unicode", "") and event.unicode.isprintable():
                self.typing += event.unicode
        elif event.type == pygame.KEYDOWN:
            control = _keymap().get(event.key)
            if control:
                self.held.add(control)
            elif event.key in (pygame.K_q, pygame.K_ESCAPE):
                self.running = False
            elif event.key == pygame.K_p:
                self.paused = not self.paused
            elif event.key == pygame.K_PERIOD:
                self.step_once = True
            elif event.key == pygame.K_TAB:
                self.slow = not self.slow
            elif event.key == pygame.K_b:
                self._mark("bug")
            elif event.key == pygame.K_g:
                self._mark("looks-right")
            elif event.key == pygame.K_n:
                self.typing = ""
        elif event.type == pygame.KEYUP:
            control = _keymap().get(event.key)
            if control:
                self.held.discard(control)
        elif event.type in (pygame.JOYAXISMOTION, pygame.JOYHATMOTION, pygame.JOYBUTTONDOWN,
                            pygame.JOYBUTTONUP):
            self._read_pads()
        elif event.type == pygame.JOYDEVICEADDED:
            pygame.joystick.Joystick(event.device_index)

    def _read_pads(self) -> None:
        import pygame

        held: set[str] = set()
        for i in range(pygame.joystick.get_count()):
            pad = pygame.joystick.Joystick(i)
            x = pad.get_axis(0) if pad.get_numaxes() > 0 else 0.0
            y = pad.get_axis(1) if pad.get_numaxes() > 1 else 0.0
            if pad.get_numhats():
                hx, hy = pad.get_hat(0)
                x, y = x + hx, y - hy
            if x < -AXIS_DEAD_ZONE:
                held.add("left")
            if x > AXIS_DEAD_ZONE:
                held.add("right")
            if y < -AXIS_DEAD_ZONE:
                held.add("up")
            if y > AXIS_DEAD_ZONE:
                held.add("down")
            if any(pad.get_button(b) for b in range(pad.get_numbuttons())):
                held.add("fire")
        self.pad_held = held

    # ---- drawing ------------------------------------------------------------------------------------
    def _draw(self, screen, text: panes.TextCache) -> None:
        import pygame

        img = np.ascontiguousarray(panes.panes(self.sides["ale"].rgb(), self.sides["jax"].rgb()))
        frame = pygame.image.frombuffer(img.data, (img.shape[1], img.shape[0]), "RGB")
        size = (img.shape[1] * self.scale, img.shape[0] * self.scale)
        screen.blit(pygame.transform.scale(frame, size), (0, STATUS_H))
        screen.fill((20, 20, 24), (0, 0, size[0], STATUS_H))
        screen.fill((20, 20, 24), (size[0], 0, screen.get_width() - size[0], screen.get_height()))
        w = panes.SCREEN_W * self.scale
        for i, label in enumerate(("ALE", "JAX", "difference")):
            screen.blit(text.render(label, panes.DIM), (i * (w + panes.GAP * self.scale) + 4, 6))
        x0, y = size[0] + 10, 6
        ale, jax = self.signals.get("ale", {}), self.signals.get("jax", {})
        lines = [
            (f"{self.game}  frame {self.tick}  episode {self.episode}", panes.TEXT),
            (f"score  ALE {ale.get('score')}  JAX {jax.get('score')}", panes.TEXT),
            (f"action {self.action_names[self.last_action]}", panes.TEXT),
            ("first divergence: " + ("none" if self.first_divergence is None
                                     else f"frame {self.first_divergence}"),
             panes.GOOD if self.first_divergence is None else panes.BAD),
            ("signal            ALE | JAX", panes.DIM),
        ]
        for k in self.signal_names:
            colour = panes.BAD if k in self.diverged else panes.TEXT
            lines.append((f"{k}: {_short(ale.get(k))} | {_short(jax.get(k))}", colour))
        state = ("PAUSED ('.' steps) " if self.paused else "") + ("SLOW " if self.slow else "")
        lines.append((state + f"marks {len(self.marks)}", panes.DIM))
        if self.typing is not None:
            lines.append((f"note: {self.typing}_", (255, 255, 120)))
        lines.append(("P pause . step Tab slow B bug G ok N note Q quit", panes.DIM))
        for line, colour in lines:
            screen.blit(text.render(line[:60], colour), (x0, y))
            y += text.size - 2
        pygame.display.flip()

    # ---- the loop ---------------------------------------------------------------------------------
    def run(self, hook: Callable[["PlayWindow"], None] | None = None,
            max_ticks: int | None = None) -> PlayResult:
        """Play until quit (or ``max_ticks`` frames); the session file is closed either way."""
        import pygame

        pygame.display.init()
        pygame.joystick.init()
        try:
            height = max(panes.SCREEN_H * self.scale + STATUS_H, 460)
            screen = pygame.display.set_mode((panes.panes_width(self.scale) + PANEL_W, height))
        except pygame.error as exc:
            pygame.display.quit()
            raise PlayError(HEADLESS_HELP.format(why=f" (pygame: {exc})")) from None
        pygame.display.set_caption(f"jaxtari-align play {self.game}: ALE | JAX | difference")
        text = panes.TextCache()
        pacer = Pacer()
        self.recorder = Recorder(self.path, self.header)
        t0 = time.perf_counter()
        reason = "quit"
        try:
            self._new_episode()
            self.running = True
            while self.running:
                if hook is not None:
                    hook(self)
                for event in pygame.event.get():
                    self._handle(event)
                if not self.running:
                    break
                if self.typing is None and (not self.paused or self.step_once):
                    self._advance()
                    self.step_once = False
                    if max_ticks is not None and self.tick >= max_ticks:
                        reason = "max-ticks"
                        self.running = False
                self._draw(screen, text)
                if self.fps > 0:
                    pacer.wait(self.fps / SLOW_FACTOR if self.slow else self.fps)
        except BaseException as exc:
            reason = f"error: {type(exc).__name__}"
            raise
        finally:
            self.recorder.close(reason)
            pygame.display.quit()
        return PlayResult(self.path, self.tick, self.episode + 1, self.marks, self.first_divergence,
                          time.perf_counter() - t0)


class Pacer:
    """Holds a frame rate against absolute deadlines, so a late wake-up (a loaded machine sleeps
    past the asked time) is made up on the next frames instead of lowering the rate, as a
    sleep-per-frame limiter does. After falling more than CATCH_UP_S behind (a stall, not jitter)
    it starts afresh rather than rushing frames."""

    CATCH_UP_S = 0.25

    def __init__(self, clock=time.perf_counter, sleep=time.sleep):
        self._clock, self._sleep = clock, sleep
        self._deadline: float | None = None

    def wait(self, fps: float) -> None:
        period = 1.0 / fps
        now = self._clock()
        if self._deadline is None or now - self._deadline > self.CATCH_UP_S:
            self._deadline = now
        self._deadline += period
        if self._deadline > now:
            self._sleep(self._deadline - now)


def _short(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ",".join(_short(x) for x in np.asarray(v).tolist()) + "]"
    if isinstance(v, (bool, np.bool_)):
        return "T" if v else "F"
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.1f}"
    return str(int(v)) if isinstance(v, (int, float, np.integer, np.floating)) else str(v)
