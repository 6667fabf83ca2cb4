"""Games being ported, not yet registered (see ports/README.md)."""
