"""Stage 3, playtest: play ALE and the JAX game side by side, record every frame, replay forever.

``session`` (the file format, recorder and reader), ``core`` (find and replay sessions), ``report``
(replay reports), ``window`` (the pygame window), ``scripted`` (players that drive the window through
its event queue), ``export`` (video and Minari datasets), ``command`` (the CLI).
"""
