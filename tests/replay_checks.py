"""What every game's end-to-end test checks of its finished game's stored record: it is kept with
the game, reads by the rules, verifies from its seed, and opens the commitment the boards showed."""

from __future__ import annotations

from bot.community.replays import verify
from bot.games import registry


async def assert_stored_record_verifies(storage, guild_id: int, channel_id: int, first: str, final: str):
    """``first`` and ``final``: the footers of the game's first and final boards."""
    (listed,) = await storage.recent_games(guild_id, channel_id=channel_id, limit=1)
    stored = await storage.game_log(guild_id, listed.game_key)
    rec = stored.log
    registry.get(rec["game"]).part("checker")(rec)  # the rules' own reading of the log
    verdict = verify(rec)
    assert verdict.verified, verdict.summary
    assert f"Shuffle commitment (SHA-256): {rec['commitment']}" in first
    assert rec["salt"] not in first and str(rec["seed"]) not in first  # secret until the end
    assert f"seed {rec['seed']}, salt {rec['salt']}. SHA-256 of {rec['salt']}:{rec['seed']}" in final
    return rec
