"""The command line: run the bot, the browser playground, or a game's simulator (``--help``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import logging
import sys

from bot.games import registry

NO_TOKEN = """\
No Discord token found, so the bot cannot connect to Discord.

  1. Create an application at https://discord.com/developers/applications,
     open "Bot", press "Reset Token" and copy the token.
  2. Put it in a file named .env next to where you run the bot:
         DISCORD_TOKEN=your-token-here
     (copy .env.example to .env to start from the documented settings),
     or set the DISCORD_TOKEN environment variable.

Just want to try the games? No token needed:
    python -m bot play
"""


def run_bot() -> int:
    import aiohttp
    import discord

    from bot.app.client import create_bot
    from bot.app.config import Config, ConfigError
    from bot.app.shutdown import stop_on_signals
    from bot.ops.metrics import MetricsUnavailable
    from bot.storage import StorageUnavailable

    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 1
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 1
    discord.utils.setup_logging(level=getattr(logging, config.log_level, logging.INFO))
    bot = create_bot(config)

    async def serve() -> None:
        async with bot:
            stop_on_signals(bot)  # SIGTERM and Ctrl+C stop it gracefully (bot/app/shutdown.py)
            await bot.start(config.token)

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:  # Ctrl+C before the bot was up: nothing to save yet
        return 0
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN: it is mistyped or was reset. "
            "Copy a fresh one from the developer portal (Bot → Reset Token).",
            file=sys.stderr,
        )
        return 1
    except (StorageUnavailable, MetricsUnavailable, registry.GameError) as error:
        print(error, file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused the Message Content intent. Turn it on in the developer portal "
            "(Bot → Privileged Gateway Intents → Message Content), then start again.",
            file=sys.stderr,
        )
        return 1
    except (OSError, aiohttp.ClientError) as error:
        print(
            f"Could not reach Discord ({error}). Check the network connection and try again.", file=sys.stderr
        )
        return 1
    return 0


def _play_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot play", description="Play every game in a local browser."
    )
    parser.add_argument("--port", type=int, default=None, help="port for the page (default: any free one)")
    parser.add_argument("--no-browser", action="store_true", help="only print the address")
    parser.add_argument(
        "--database",
        default=":memory:",
        help="SQLite file for standings (default: in memory, gone when you stop)",
    )
    parser.add_argument(
        "--server-locale",
        default="en-US",
        metavar="LOCALE",
        help="the server's Discord language, which boards speak until /settings language: (default en-US)",
    )
    parser.add_argument(
        "--locale",
        action="append",
        default=[],
        metavar="NAME=LOCALE",
        help="a member's Discord language, e.g. --locale Bob=fr (default: Erin and Frank de, Grace and Heidi fr)",
    )
    return parser


def _member_locales(parser: argparse.ArgumentParser, given: list[str]) -> dict[str, str]:
    from bot.app.playground import LOCALES, MEMBERS

    locales = dict(LOCALES)
    for item in given:
        name, _, locale = item.partition("=")
        if name not in MEMBERS or not locale:
            parser.error(f"--locale {item}: expected NAME=LOCALE with NAME one of {', '.join(MEMBERS)}")
        locales[name] = locale
    return locales


def run_playground(argv: list[str]) -> int:
    parser = _play_parser()
    args = parser.parse_args(argv)
    try:
        import simcord.preview  # noqa: F401

        from bot.app.playground import run_playground as play
    except ImportError:
        print("The playground needs SimCord's preview: pip install -e '.[playground]'", file=sys.stderr)
        return 1
    locales = _member_locales(parser, args.locale)
    logging.basicConfig(level=logging.WARNING)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(
            play(
                database=args.database,
                port=args.port,
                open_browser=not args.no_browser,
                server_locale=args.server_locale,
                locales=locales,
            )
        )
    return 0


def _record_parser(command: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m bot {command}", description=description)
    parser.add_argument("file", metavar="GAME_LOG", help="a game's JSON record, or one per line; - for stdin")
    return parser


RECORD_COMMANDS = {
    "verify": "re-deal a finished game from its seed and check every card, move and the commitment",
    "replay": "print a finished game's record as readable text, move by move",
}


def run_record_command(command: str, argv: list[str]) -> int:
    """``verify``: exit 0 when every record verifies, 1 naming the first mismatch of each that
    does not. ``replay``: each record as text; 1 if one is not a whole game's record. Whatever
    is wrong is said in one line, never as a traceback."""
    from bot.community.record_paths import tracked
    from bot.community.replays import (
        UnreadableRecords,
        as_text,
        read_records,
        record_problem,
        replay_problem,
        verify,
    )

    args = _record_parser(command, RECORD_COMMANDS[command]).parse_args(argv)
    name = "the input" if args.file == "-" else args.file
    try:
        data = sys.stdin.buffer.read(LARGEST_RECORD + 1) if args.file == "-" else _read_file(args.file)
        if len(data) > LARGEST_RECORD:
            return _refuse(
                f"{name} is over {LARGEST_RECORD // 2**20} MB: far larger than a whole game's record"
            )
        records = read_records(data.decode("utf-8"), name)
    except UnicodeDecodeError:
        return _refuse(f"{name} is not text (UTF-8), so it is not a game record")
    except OSError as error:
        return _refuse(_unreadable(args.file, error))
    except UnreadableRecords as error:
        return _refuse(str(error))
    if not records:
        return _refuse(f"{name} holds no game record")
    failed = 0
    for number, rec in enumerate(map(tracked, records), 1):  # a malformed field is then named
        prefix = f"record {number}: " if len(records) > 1 else ""
        if command == "replay":
            problem = record_problem(rec)
            if problem:
                failed += 1
                print(f"{prefix}{name}: {problem}", file=sys.stderr)
                continue
            print(("\n" if number > 1 else "") + prefix + as_text(rec))
            stopped = replay_problem(rec)
            if stopped:
                failed += 1
                print(f"{prefix}{name}: {stopped}", file=sys.stderr)
            continue
        verdict = verify(rec)
        failed += not verdict.verified
        print(prefix + verdict.summary, file=sys.stdout if verdict.verified else sys.stderr)
    return 1 if failed else 0


# A 16-player Kingdom game of the longest length, the largest record a game writes, is ~450 kB:
# anything past this is no game's, and is refused before it is read whole.
LARGEST_RECORD = 4 * 2**20


def _read_file(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read(LARGEST_RECORD + 1)


def _unreadable(path: str, error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return f"there is no file {path}"
    if isinstance(error, IsADirectoryError):
        return f"{path} is a folder, not a file"
    if isinstance(error, PermissionError):
        return f"{path} may not be read (permission denied)"
    return f"cannot read {path}: {error.strerror or error}"


def _refuse(problem: str) -> int:
    print(problem, file=sys.stderr)
    return 1


HELP = ("-h", "--help")


def _simulator_usage(game: registry.GameDescriptor) -> str:
    """A simulator's own usage line, as its parser prints it: each simulator owns its options."""
    if game.simulator is None:
        return (
            f"usage: python -m bot simulate {game.id}\n  {game.id}: {NO_SIMULATOR.format(title=game.title)}"
        )
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        game.part("simulator").main(["--help"])
    usage = out.getvalue().split("\n\n")[0]  # argparse prints the usage first, then a blank line
    return f"{usage}\n  {game.id}: computer players play whole games"


NO_SIMULATOR = "{title} has no simulator"


def usage(*, simulators_only: bool = False) -> str:
    parts = [_simulator_usage(game) for game in registry.games().values()]
    if not simulators_only:
        parts[:0] = [
            "usage: python -m bot [run]\n  run the bot on Discord (needs DISCORD_TOKEN, see .env.example)",
            _play_parser().format_usage().rstrip() + "\n  the local playground in a browser, no token needed",
        ]
        parts += [
            _record_parser(command, text).format_usage().rstrip() + f"\n  {text}"
            for command, text in RECORD_COMMANDS.items()
        ]
        parts.append("Add --help after a command for its options.")
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in HELP or args[:1] == ["run"] and args[1:2] and args[1] in HELP:
        print(usage())
        return 0
    if not args or args == ["run"]:
        return run_bot()
    if args[0] == "play":
        return run_playground(args[1:])
    if args[0] in RECORD_COMMANDS:
        return run_record_command(args[0], args[1:])
    if args[0] == "simulate":
        if args[1:2] and args[1] in HELP:
            print(usage(simulators_only=True))
            return 0
        if len(args) < 2:
            print(usage(simulators_only=True), file=sys.stderr)
            return 2
        try:
            game = registry.get(args[1])
        except registry.GameError as error:
            print(f"{error}\n\n{usage(simulators_only=True)}", file=sys.stderr)
            return 2
        if game.simulator is None:
            return _refuse(NO_SIMULATOR.format(title=game.title))
        return game.part("simulator").main(args[2:])
    problem = "run takes no options" if args[0] == "run" else f"Unknown command {args[0]!r}."
    print(f"{problem}\n\n{usage()}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
