"""Mods of Frostbite: ``jaxtari.make("frostbite", mods=[...])``."""

from __future__ import annotations

import jax.numpy as jnp

from jaxtari.mods import InternalMod, PostStepMod


def _keep_warm(game, prev_state, state, reward):
    # the temperature never falls: Bailey cannot freeze (the level bonus stays at 45 degrees)
    playing = (state.flags == 0)
    return state.replace(temperature=jnp.where(playing, game.consts.start_temperature,
                                               state.temperature)), reward


MODS = [
    InternalMod("no_enemies", "No snow geese, fish, crabs or clams ever appear.",
                constants={"enemies": False},
                rules=("physics.hazards-push", "spawning.fish", "scoring.fish")),
    InternalMod("slow_floes", "Ice floes drift at half their speed on every level.",
                constants={"floe_speed_scale": 8}, rules=("physics.floes-drift",)),
    InternalMod("monochrome", "Sprites (Bailey, enemies) drawn as solid boxes of their colour.",
                constants={"monochrome": True}, rules=()),
    InternalMod("no_bear", "The polar bear never comes out (levels 4 and up).",
                constants={"bear": False}, rules=("spawning.grizzly-from-level-4",)),
    InternalMod("ale_endless_game_over",
                "As on ALE, a last Bailey frozen does not end the game: the console runs on into its "
                "demo (reward 0) until the episode cap; for like-for-like comparisons with ALE.",
                constants={"ale_endless_game_over": True}, rules=("timing.freeze-at-zero",)),
    PostStepMod("keep_warm", "The temperature stays at 45 degrees while playing.", _keep_warm,
                rules=("timing.temperature-falls", "timing.freeze-at-zero", "scoring.degree-bonus")),
]
