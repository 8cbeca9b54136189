"""The test-only Tap game's cog as a discord.py extension (tests/tapgame.py says why apart)."""

from discord.ext import commands
from tapgame import TapCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TapCog(bot))
