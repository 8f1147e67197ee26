"""Database servers for tests: nx-27017 in memory, SecantusDB, or a real MongoDB by URI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from storage.embedded import EmbeddedServer, free_port, ping, stop_process, uri_for


@dataclass
class RunningServer:
    name: str
    uri: str
    stop: Callable[[], None]

    def close(self) -> None:
        self.stop()


def start_nx() -> RunningServer:
    server = EmbeddedServer(data_dir=Path(tempfile.gettempdir()), memory=True)
    uri = server.start()
    return RunningServer("nx-27017", uri, server.stop)


def start_secantus(timeout_s: float = 60.0) -> RunningServer:
    exe = shutil.which("secantusd-py", path=os.path.dirname(sys.executable)) or shutil.which(
        "secantusd-py"
    )
    if exe is None:
        raise RuntimeError("secantusd-py is not installed (pip install secantusdb==0.7.0b3)")
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="lembra-secantus-")
    proc = subprocess.Popen(
        [
            exe,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--storage-path",
            ":memory:",
            "--log-level",
            "ERROR",
        ],
        cwd=workdir,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"secantusd-py exited with {proc.returncode}")
        if ping(port, timeout_s=0.5):
            break
        time.sleep(0.1)
    else:
        stop_process(proc.pid, grace_s=2)
        proc.wait(timeout=5)
        raise RuntimeError("secantusd-py did not answer in time")

    def stop() -> None:
        stop_process(proc.pid, grace_s=3)
        proc.wait(timeout=5)
        shutil.rmtree(workdir, ignore_errors=True)

    return RunningServer("secantusdb", uri_for(port), stop)
