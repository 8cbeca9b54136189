"""One package per game: a pure engine, its pictures, computer players and simulator."""
