"""Discord cogs: one per game, plus the commands they share."""
