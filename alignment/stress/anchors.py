"""Published returns of the same PPO on ALE, the outside anchor of the stage-4 report.

CleanRL's ``ppo_atari_envpool_xla_jax_scan.py`` at 10M agent steps, 3 seeds, mean and standard
deviation of the final episodic return, as its documentation's benchmark table publishes them
(Open RL Benchmark, docs.cleanrl.dev, "ppo_atari_envpool_xla_jax_scan" results). Games it did not
run are absent.
"""

CLEANRL_PPO_ENVPOOL_10M: dict[str, dict] = {
    "pong": {"mean": 20.39, "sd": 0.24},
    "breakout": {"mean": 430.09, "sd": 8.12},
    "freeway": {"mean": 33.10, "sd": 0.31},
    "seaquest": {"mean": 1240.0, "sd": 419.0},
    "kangaroo": {"mean": 6582.0, "sd": 5395.0},
    "frostbite": {"mean": 1137.0, "sd": 1192.0},
}


CLEANRL_SOURCE = ("CleanRL's benchmark of ppo_atari_envpool_xla_jax_scan.py (Open RL Benchmark; "
                  "its documentation's results table, 10M steps, 3 seeds)")
CLEANRL_PROTOCOL = ("EnvPool Atari v5: frameskip 4 with the last two frames max-pooled, 84x84 by "
                    "INTER_AREA resize, sticky 0.25, episodic life and reward clipping in training, "
                    "no-op starts up to 30; ours: no max-pool, nearest-neighbour 84x84, no no-op "
                    "starts, the same PPO hyperparameters")
