"""The embedded MongoDB-wire-compatible server (nx-27017, SQLite-backed).

With no `MONGODB_URI`, Lembra runs nx-27017 as a child process on a free loopback
port with its file under `DATA_DIR`. Its pid, port and the pids of the Lembra
processes using it are recorded in `DATA_DIR/embedded.json` under an exclusive
`flock` on `DATA_DIR/embedded.lock`, so a second process on the same `DATA_DIR`
reuses the running server and the last one to leave stops it. A server left
behind by processes that were killed outright is adopted by the next start.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bson
import bson.errors

from storage.errors import EmbeddedServerError

_STATE = "embedded.json"
_LOCK = "embedded.lock"
_DB_FILE = "lembra.sqlite"
_LOG_FILE = "embedded.log"
# nx-27017 exits on SIGTERM from inside its event loop; Python 3.11's asyncio then logs each
# client connection's cancelled handler as an error with a traceback. Those are the
# expected end of a stop, not errors: the launcher quiets asyncio once the signal came.
_LAUNCH = (
    "import logging, sys\n"
    "from nx_27017 import daemon\n"
    "from nx_27017.nx_27017 import main\n"
    "def stop(signum, frame):\n"
    "    logging.getLogger('asyncio').setLevel(logging.CRITICAL)\n"
    "    sys.exit(0)\n"
    "daemon._signal_exit_handler = stop\n"
    "sys.exit(main())\n"
)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def uri_for(port: int) -> str:
    return f"mongodb://127.0.0.1:{port}/?directConnection=true"


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child still "exists"; treat it as dead.
    with contextlib.suppress(ChildProcessError, OSError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return False
    return True


def ping(port: int, *, timeout_s: float = 0.5) -> bool:
    """Whether a MongoDB-wire server answers `ping` on the loopback port.

    One OP_MSG over a plain socket: a short-lived driver client leaves monitor
    sockets behind that can outlive `close()`.
    """
    body = bson.encode({"ping": 1, "$db": "admin"})
    payload = struct.pack("<I", 0) + b"\x00" + body  # flagBits, then a kind-0 section
    header = struct.pack("<iiii", 16 + len(payload), 1, 0, 2013)  # OP_MSG
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
            sock.sendall(header + payload)
            raw = _read_exactly(sock, 16)
            length = struct.unpack("<i", raw[:4])[0]
            reply = _read_exactly(sock, length - 16)
    except (OSError, struct.error, ValueError):
        return False
    try:
        document = bson.decode(reply[5:])  # skip flagBits and the section kind byte
    except (bson.errors.BSONError, ValueError, IndexError):
        return False
    return float(document.get("ok", 0)) == 1.0


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ValueError("connection closed")
        data += chunk
    return data


def _port_of(uri: str) -> int:
    return int(uri.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])


def _port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _is_embedded_server(pid: int, db_file: Path) -> bool:
    """Whether `pid` is the nx-27017 serving `db_file` (not a process that reused the pid).

    Decided from /proc; where that is missing, no: leaving a stray server beats
    killing an unrelated process.
    """
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return any(b"nx_27017" in arg for arg in argv) and os.fsencode(db_file) in argv


def stop_process(pid: int, *, grace_s: float = 5.0) -> None:
    """SIGTERM, wait up to `grace_s`, then SIGKILL; reap it if it is our child."""
    if not _alive(pid):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        if not _alive(pid):
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, 0)


@dataclass
class EmbeddedServer:
    """Start, reuse and stop nx-27017 for one `DATA_DIR` (or in memory for tests)."""

    data_dir: Path
    port: int = 0
    start_timeout_s: float = 20.0
    memory: bool = False
    uri: str | None = field(default=None, init=False)
    reused: bool = field(default=False, init=False)
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _tmp_pid_file: Path | None = field(default=None, init=False, repr=False)

    # -- public -----------------------------------------------------------------------------

    def start(self) -> str:
        """Start or reuse the server and return its URI; raise EmbeddedServerError on failure."""
        if self.memory:
            port = self._launch(db="memory", pid_file=None)
            self.uri = uri_for(port)
            return self.uri
        self._prepare_data_dir()
        with self._locked():
            state = self._read_state()
            if state and _alive(int(state["pid"])) and ping(int(state["port"])):
                clients = [p for p in state.get("clients", []) if _alive(int(p))]
                clients.append(os.getpid())
                self._write_state({**state, "clients": clients})
                self.reused = True
                self.uri = uri_for(int(state["port"]))
                return self.uri
            if state and _alive(int(state["pid"])) and self._ours(int(state["pid"])):
                stop_process(int(state["pid"]))  # alive but deaf: replace it
            pid_file = self.data_dir / "embedded.pid"
            pid_file.unlink(missing_ok=True)  # a stale pid file blocks nx-27017's start
            port = self._launch(db=str((self.data_dir / _DB_FILE).resolve()), pid_file=pid_file)
            assert self._proc is not None
            self._write_state({"pid": self._proc.pid, "port": port, "clients": [os.getpid()]})
            self.uri = uri_for(port)
            return self.uri

    def stop(self) -> None:
        """Leave the server; stop it when no other live process uses it."""
        if self.uri is None:
            return
        self.uri = None
        if self.memory:
            self._reap()
            if self._tmp_pid_file is not None:
                self._tmp_pid_file.unlink(missing_ok=True)
            return
        with self._locked():
            state = self._read_state()
            if not state:
                return
            me = os.getpid()
            clients = [p for p in state.get("clients", []) if int(p) != me and _alive(int(p))]
            if clients:
                self._write_state({**state, "clients": clients})
                return
            if self._ours(int(state["pid"])):
                stop_process(int(state["pid"]))
            (self.data_dir / _STATE).unlink(missing_ok=True)
            (self.data_dir / "embedded.pid").unlink(missing_ok=True)
        self._reap()

    def alive(self) -> bool:
        """Whether the server this process uses is running (a cheap check: no round trip)."""
        if self.uri is None:
            return False
        if self.memory:
            return self._proc is not None and self._proc.poll() is None
        state = self._read_state()
        return state is not None and _alive(int(state["pid"]))

    def answers(self) -> bool:
        """Whether the server answers `ping` on its port."""
        return self.uri is not None and ping(_port_of(self.uri), timeout_s=2.0)

    def revive(self, *, replace_deaf: bool = False) -> bool:
        """Restart a dead server on the same port and data file; False when it was running.

        Several Lembra processes may notice at once: under the lock, the first restarts
        it and the others find it answering. `replace_deaf` also replaces a server that
        is alive but has stopped answering. Raises EmbeddedServerError when it cannot start.
        """
        if self.uri is None or self.memory:
            raise EmbeddedServerError("only a server with a data file under DATA_DIR is restarted")
        port = _port_of(self.uri)
        with self._locked():
            state = self._read_state() or {"pid": 0, "port": port, "clients": [os.getpid()]}
            pid = int(state["pid"])
            if _alive(pid) and (not replace_deaf or ping(port, timeout_s=2.0)):
                return False
            if _alive(pid) and self._ours(pid):
                stop_process(pid)
            self._reap()
            pid_file = self.data_dir / "embedded.pid"
            pid_file.unlink(missing_ok=True)  # a stale pid file blocks nx-27017's start
            db_file = str((self.data_dir / _DB_FILE).resolve())
            self._launch(db=db_file, pid_file=pid_file, port=port)
            assert self._proc is not None
            clients = [p for p in state.get("clients", []) if _alive(int(p))] or [os.getpid()]
            self._write_state({"pid": self._proc.pid, "port": port, "clients": clients})
            return True

    def _reap(self) -> None:
        """Stop and wait for the server process we launched, if any."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            stop_process(proc.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        if proc.stderr is not None:
            proc.stderr.close()

    # -- internals --------------------------------------------------------------------------

    def _ours(self, pid: int) -> bool:
        """The recorded pid still belongs to this DATA_DIR's server (we launched it, or /proc says so)."""
        if self._proc is not None and self._proc.pid == pid:
            return True
        return _is_embedded_server(pid, (self.data_dir / _DB_FILE).resolve())

    def _prepare_data_dir(self) -> None:
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            probe = self.data_dir / ".write-test"
            probe.write_text("ok")
            probe.unlink()
        except OSError as exc:
            raise EmbeddedServerError(
                f"DATA_DIR {self.data_dir} is not writable ({exc.strerror or exc}): "
                "set DATA_DIR to a writable folder, or set MONGODB_URI to use a MongoDB server"
            ) from None

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        with open(self.data_dir / _LOCK, "a+") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def _read_state(self) -> dict[str, Any] | None:
        try:
            data = json.loads((self.data_dir / _STATE).read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and "pid" in data and "port" in data else None

    def _write_state(self, state: dict[str, Any]) -> None:
        tmp = self.data_dir / (_STATE + ".tmp")
        tmp.write_text(json.dumps(state))
        tmp.replace(self.data_dir / _STATE)

    def _launch(self, *, db: str, pid_file: Path | None, port: int = 0) -> int:
        wanted = port or self.port
        fixed = wanted != 0
        attempts = 1 if fixed else 3
        last_error = ""
        for _ in range(attempts):
            port = wanted or free_port()
            if fixed and _port_in_use(port):
                raise EmbeddedServerError(
                    f"embedded database port {port} is already in use: set EMBEDDED_DB_PORT to a free "
                    "port (or 0 to pick one), or set MONGODB_URI to use a MongoDB server"
                )
            log_dir = self.data_dir if not self.memory else None
            log_file = str(log_dir / _LOG_FILE) if log_dir else os.devnull
            pid_path = (
                pid_file or Path(tempfile.gettempdir()) / f"lembra-nx-{os.getpid()}-{port}.pid"
            )
            if pid_file is None:
                self._tmp_pid_file = pid_path
            cmd = [
                sys.executable,
                "-c",
                _LAUNCH,
                "--db",
                db,
                "--host",
                "127.0.0.1",
                "-p",
                str(port),
                "--pid-file",
                str(pid_path),
                "--log-file",
                log_file,
            ]
            self._proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,  # Ctrl+C reaches us; we stop it after a clean shutdown
            )
            deadline = time.monotonic() + self.start_timeout_s
            while time.monotonic() < deadline:
                if self._proc.poll() is not None:
                    last_error = (self._proc.stderr.read() if self._proc.stderr else b"").decode(
                        errors="replace"
                    )
                    break
                if ping(port, timeout_s=0.3):
                    if self._proc.stderr is not None:
                        self._proc.stderr.close()
                    return port
                time.sleep(0.05)
            else:
                self._reap()
                raise EmbeddedServerError(
                    f"the embedded database did not answer within {self.start_timeout_s:.0f}s: "
                    f"see {log_file}, or set MONGODB_URI to use a MongoDB server"
                )
            if "in use" in last_error.lower() and fixed:
                break
        detail = last_error.strip().splitlines()[-1] if last_error.strip() else "no output"
        raise EmbeddedServerError(
            f"the embedded database could not start ({detail}): set EMBEDDED_DB_PORT to a free port "
            "or MONGODB_URI to use a MongoDB server"
        )
