"""Frostbite's lives() against ALE over a whole random game, game over included."""

import jax
import numpy as np

import jaxtari
from alignment.reference import AleGame


def test_lives_match_ale_on_every_frame_up_to_game_over():
    game = jaxtari.make("frostbite")
    ale = AleGame("frostbite")
    ale.reset()
    _, state = game.reset(jax.random.key(0))
    step = jax.jit(game.step)
    rng = np.random.default_rng(0)
    ale_lives, jax_lives = [ale.lives], [int(game.lives(state))]
    done = False
    while not ale.terminated and len(ale_lives) < 5000:
        a = int(rng.integers(0, game.num_actions))
        ale.step(a)
        _, state, _, done, _ = step(state, a)
        ale_lives.append(ale.lives)
        jax_lives.append(int(game.lives(state)))
    assert ale.terminated and bool(done), "the random game should end within 5000 frames on both"
    assert ale_lives[-1] == 0
    assert jax_lives == ale_lives
