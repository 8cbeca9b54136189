"""A throwaway PostgreSQL server for the tests and the storage bench.

``initdb`` in a fresh temporary directory, trust authentication, a free port on the loopback
interface, its socket in that directory; stopped and deleted afterwards. PostgreSQL refuses to run
as root, so as root the server runs as the ``postgres`` user that Debian's package creates.

A test run keeps its clusters (one per pytest-xdist worker) in one directory, ``new_home``; at the
end ``stop_all`` stops and deletes whatever is still there, so a worker that crashed or was killed
by Ctrl-C leaves no server behind.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

INSTALL_HINT = "apt-get install postgresql (Debian), or set PG_BINDIR to the directory holding initdb"
PORT_ATTEMPTS = 3


def find_bindir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are: PG_BINDIR, Debian's versioned directory, or PATH."""
    if os.environ.get("PG_BINDIR"):
        return Path(os.environ["PG_BINDIR"])
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3].split(".")[0])
    )
    if versions:
        return Path(versions[-1]).parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def new_home() -> Path:
    """A directory for one test run's clusters; ``stop_all`` removes it."""
    home = Path(tempfile.mkdtemp(prefix="party-cards-pg-run-"))
    # As root each server runs as postgres, which must be able to reach its cluster inside.
    home.chmod(0o711)
    return home


def _as_postgres() -> list[str]:
    """The command prefix that runs PostgreSQL's programs as a user they accept."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError(f"running as root but there is no postgres user ({INSTALL_HINT})") from None
    return ["runuser", "-u", "postgres", "--"]


class Cluster:
    def __init__(self, bindir: Path, *, durable: bool = False, home: Path | None = None) -> None:
        self.bindir = bindir
        self.home = home
        # Tests throw the data away, so the server need not flush it; the bench keeps the defaults.
        self.settings = [] if durable else ["-c", "fsync=off", "-c", "full_page_writes=off"]
        self.port = 0
        self.directory: Path | None = None
        self._as: list[str] = []
        self._options = ""  # the server's command line, to start it again the same

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self._as, str(self.bindir / args[0]), *args[1:]],
            check=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )

    def start(self) -> Cluster:
        self._as = _as_postgres()
        self.directory = Path(tempfile.mkdtemp(prefix="party-cards-pg-", dir=self.home))
        if self._as:
            owner = pwd.getpwnam("postgres")
            os.chown(self.directory, owner.pw_uid, owner.pw_gid)
        data = self.directory / "data"
        try:
            self._run("initdb", "-D", str(data), "--auth=trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
            for attempt in range(1, PORT_ATTEMPTS + 1):
                self.port = free_port()
                options = " ".join(
                    [
                        "-p",
                        str(self.port),
                        "-k",
                        str(self.directory),
                        "-c",
                        "listen_addresses=127.0.0.1",
                        *self.settings,
                    ]
                )
                self._options = options  # the server starts again the same (``resume``)
                try:
                    self._run(
                        "pg_ctl",
                        "-D",
                        str(data),
                        "-o",
                        options,
                        "-l",
                        str(self.directory / "log"),
                        "-w",
                        "start",
                    )
                    break
                except subprocess.CalledProcessError:
                    # Another process may take the free port before the server binds it: likelier
                    # while every test worker starts its server at once. Another port, then.
                    log = (self.directory / "log").read_text(errors="replace")
                    if attempt == PORT_ATTEMPTS or "could not bind" not in log:
                        raise
        except subprocess.CalledProcessError as error:
            output = error.stdout.decode(errors="replace") if error.stdout else ""
            log = self.directory / "log"
            if log.exists():
                output += log.read_text(errors="replace")
            self.stop()
            raise RuntimeError(f"PostgreSQL did not start: {output[-2000:]}") from error
        return self

    def stop(self) -> None:
        if self.directory is None:
            return
        data = self.directory / "data"
        if (data / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.CalledProcessError):
                self._run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory = None

    def halt(self) -> None:
        """Stop the server at once, as a crash would, keeping its data (the chaos test)."""
        assert self.directory is not None
        self._run("pg_ctl", "-D", str(self.directory / "data"), "-m", "immediate", "-w", "stop")

    def resume(self) -> None:
        """Start the server (again) on its data and port."""
        assert self.directory is not None
        data, log = str(self.directory / "data"), str(self.directory / "log")
        self._run("pg_ctl", "-D", data, "-o", self._options, "-l", log, "-w", "start")

    def create_database(self, name: str) -> str:
        """A new empty database; its address."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return self.dsn(name)

    def drop_database(self, name: str) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("dropdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "--force", name)


@contextlib.contextmanager
def running(bindir: Path, *, durable: bool = False, home: Path | None = None) -> Iterator[Cluster]:
    cluster = Cluster(bindir, durable=durable, home=home).start()
    try:
        yield cluster
    finally:
        cluster.stop()


def stop_all(home: Path) -> None:
    """Stops every cluster left running in ``home`` and deletes them all with it."""
    bindir = find_bindir()
    for directory in sorted(home.glob("party-cards-pg-*")):
        if bindir is not None:
            cluster = Cluster(bindir)
            cluster.directory, cluster._as = directory, _as_postgres()
            cluster.stop()
    shutil.rmtree(home, ignore_errors=True)
