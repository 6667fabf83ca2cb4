"""jaxtari-align: the fidelity pipeline proving each JAX game plays like the real emulator (ALE)."""

__version__ = "0.1.0"
