"""The embedded server: start, reuse by a second process, persistence, clean stop, clear failures."""

from __future__ import annotations

import gc
import json
import os
import pty
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import DatabaseUnavailable, StorageConfig, open_storage
from storage.database import make_client
from storage.embedded import EmbeddedServer, ping, uri_for
from tests.support.proc import REPO_ROOT, lembra_env, run_lembra

HOLDER = """
import sys
from pathlib import Path
from storage.embedded import EmbeddedServer
server = EmbeddedServer(Path(sys.argv[1]))
uri = server.start()
print(uri, server.reused, flush=True)
sys.stdin.readline()
server.stop()
print("stopped", flush=True)
"""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # reap if it is a zombie child of ours
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done != pid
    except ChildProcessError:
        return (
            Path(f"/proc/{pid}").exists()
            and "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
        )


def _holder(data_dir: Path) -> tuple[subprocess.Popen[str], str, bool]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=lembra_env(),
        cwd=REPO_ROOT,
    )
    assert proc.stdout is not None
    uri, reused = proc.stdout.readline().split()
    return proc, uri, reused == "True"


def _release(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    assert proc.stdout is not None
    proc.stdin.write("\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "stopped"
    proc.wait(timeout=30)
    proc.stdin.close()
    proc.stdout.close()


def test_a_second_process_reuses_the_running_server_and_the_last_one_stops_it(
    tmp_path: Path,
) -> None:
    first, uri_a, reused_a = _holder(tmp_path)
    second, uri_b, reused_b = _holder(tmp_path)
    assert uri_a == uri_b
    assert (reused_a, reused_b) == (False, True)
    server_pid = json.loads((tmp_path / "embedded.json").read_text())["pid"]
    port = int(uri_a.split(":")[2].split("/")[0])

    _release(first)  # the starter leaves; the server stays for the second process
    assert ping(port)
    _release(second)
    deadline = time.monotonic() + 10
    while _pid_alive(server_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _pid_alive(server_pid), "the embedded server outlived its last user"
    assert not (tmp_path / "embedded.json").exists()


async def test_data_persists_across_restarts(tmp_path: Path) -> None:
    config = StorageConfig(uri=None, db_name="lembra", data_dir=tmp_path)
    async with open_storage(config) as db:
        await db.users.ensure("cli:ana", language="pt", timezone="UTC", now_ms=1)
    async with open_storage(config) as db:
        user = await db.users.get("cli:ana")
    assert user is not None
    assert user.language == "pt"


async def test_a_stop_with_clients_connected_leaves_no_traceback_in_its_log(
    tmp_path: Path,
) -> None:
    """Issue 45: every stop wrote asyncio's tracebacks of the cancelled connections."""
    config = StorageConfig(uri=None, db_name="lembra", data_dir=tmp_path)
    async with open_storage(config) as db:
        port = json.loads((tmp_path / "embedded.json").read_text())["port"]
        other = make_client(uri_for(port))  # another client still connected at the stop
        await other.admin.command("ping")
        await db.users.ensure("cli:ana", language="pt", timezone="UTC", now_ms=1)
    await other.close()
    log = (tmp_path / "embedded.log").read_text()
    assert "Traceback" not in log
    assert "ERROR" not in log


@pytest.mark.parametrize(
    ("terminal", "sig"),
    [(False, signal.SIGTERM), (True, signal.SIGINT), (True, signal.SIGTERM)],
    ids=["piped-sigterm", "terminal-ctrl-c", "terminal-sigterm"],
)
def test_chat_exits_and_stops_the_embedded_server_on_a_signal_while_waiting_for_input(
    tmp_path: Path, terminal: bool, sig: signal.Signals
) -> None:
    # stdin stays open: a person at a terminal presses Ctrl+C (or systemd sends SIGTERM)
    # while `lembra chat` waits for the next line.
    master, slave = pty.openpty() if terminal else os.pipe()[::-1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "chat"],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=lembra_env({"DATA_DIR": str(tmp_path)}),
        cwd=tmp_path,
    )
    os.close(slave)
    try:
        assert proc.stdout is not None
        if terminal:
            assert "Ctrl+D" in proc.stdout.readline()  # the banner: it now waits for a line
        else:
            os.write(master, b"oi\n")
            assert proc.stdout.readline().strip()  # answered; it now waits for the next line
        server_pid = json.loads((tmp_path / "embedded.json").read_text())["pid"]
        assert _pid_alive(server_pid)
        proc.send_signal(sig)
        try:
            _, stderr = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise AssertionError("`lembra chat` kept waiting for input after the signal") from None
        assert proc.returncode == 128 + sig  # 130 for Ctrl+C, 143 for SIGTERM, as shells expect
        assert "Traceback" not in stderr
        deadline = time.monotonic() + 10
        while _pid_alive(server_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _pid_alive(server_pid), "the signal left an orphan embedded server"
        assert not (tmp_path / "embedded.json").exists()
    finally:
        os.close(master)


def test_port_in_use_is_a_one_line_error(tmp_path: Path) -> None:
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]
        result = run_lembra(
            ["chat"], env={"DATA_DIR": str(tmp_path), "EMBEDDED_DB_PORT": str(port)}, cwd=tmp_path
        )
    assert result.returncode != 0
    [line] = result.stderr.strip().splitlines()
    assert f"port {port} is already in use" in line
    assert "EMBEDDED_DB_PORT" in line


def test_unwritable_data_dir_is_a_one_line_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = run_lembra(["chat"], env={"DATA_DIR": str(blocker / "data")}, cwd=tmp_path)
    assert result.returncode != 0
    [line] = result.stderr.strip().splitlines()
    assert "is not writable" in line
    assert "DATA_DIR" in line


# pymongo's async client can leave the socket of a connection attempt to the killed
# server unclosed when it is closed mid-connect; that is the driver's, not ours.
@pytest.mark.filterwarnings(
    "ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning"
)
async def test_database_outage_raises_a_project_error_and_leaves_the_ledger_whole(
    tmp_path: Path,
) -> None:
    server = EmbeddedServer(tmp_path)
    uri = server.start()
    config = StorageConfig(uri=uri, db_name="lembra", data_dir=tmp_path)
    try:
        async with open_storage(config) as db:
            for i in range(3):
                await db.ledger.append("tg:1", "item_saved", {"n": i}, ts=i)
            state = json.loads((tmp_path / "embedded.json").read_text())
            os.kill(state["pid"], signal.SIGKILL)
            with pytest.raises(DatabaseUnavailable):
                await db.ledger.append("tg:1", "item_saved", {"n": 3}, ts=3)
            with pytest.raises(DatabaseUnavailable):
                await db.items.list_for("tg:1")
    finally:
        server.stop()
    server = EmbeddedServer(tmp_path)
    config = StorageConfig(uri=server.start(), db_name="lembra", data_dir=tmp_path)
    try:
        async with open_storage(config) as db:
            assert (await db.ledger.verify("tg:1")).ok
            event = await db.ledger.append("tg:1", "item_saved", {"n": 3}, ts=3)
            assert event.seq == 4
            assert (await db.ledger.verify("tg:1")).ok
    finally:
        server.stop()
    gc.collect()  # surface the driver's leftover socket inside this test's warning filters


def test_a_recorded_pid_reused_by_another_program_is_never_killed(tmp_path: Path) -> None:
    # After a reboot the recorded server pid can belong to anything: it must survive.
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        (tmp_path / "embedded.json").write_text(
            json.dumps({"pid": bystander.pid, "port": 9, "clients": [bystander.pid]})
        )
        server = EmbeddedServer(tmp_path)
        server.start()
        assert not server.reused
        server.stop()
        assert bystander.poll() is None, "Lembra killed a process that was not its server"
    finally:
        bystander.kill()
        bystander.wait()
