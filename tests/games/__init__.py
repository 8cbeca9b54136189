"""Test-only games: each package here ends its ``__init__`` with ``register(GameDescriptor(...))``
and is imported by tests/conftest.py, so every test that loops over the registered games plays
it too. Members never see them: production runs the games under bot/games only."""
