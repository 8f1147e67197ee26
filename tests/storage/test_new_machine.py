"""Disaster recovery as docs/operations.md ("A new machine") tells an operator to do it.

Failed before issue 30: `lembra restore FILE` into an empty DATA_DIR made a new signing
key, wrote the data, then reported every chain BROKEN ("signature does not match the
ledger's key") and exited 1, and nothing said the key is not in the archive.

The ledger is written by a real `lembra chat` process; the commands the documentation
gives then run through the command line's `main()` in this process (each opens the
database and reads the key from disk as a new process would), which keeps the test to
one interpreter start instead of eight.
"""

from __future__ import annotations

import gzip
import json
import logging
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli.main import main
from config.settings import Settings
from storage.signing import load_signer
from tests.support.proc import run_lembra

SAVES = "anota: comprar leite\nsalva https://example.com/artigo\nanota: ligar pro banco\n"


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


Lembra = Callable[[list[str], Path], Ran]


@pytest.fixture
def lembra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Lembra:
    """`lembra ARGS` on the machine whose folder is given: only its DATA_DIR set."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setenv("LOG_LEVEL", "WARNING")

    def run(args: list[str], machine: Path) -> Ran:
        monkeypatch.setenv("DATA_DIR", str(machine / "data"))
        monkeypatch.chdir(machine)  # no .env there
        root = logging.getLogger()
        handlers, level = list(root.handlers), root.level
        capsys.readouterr()
        try:
            code = main(args)
        finally:  # main() routes logging to this test's stderr: put it back
            root.handlers[:] = handlers
            root.setLevel(level)
        out = capsys.readouterr()
        return Ran(code, out.out, out.err)

    return run


def _data_files(data_dir: Path) -> list[Path]:
    return sorted(p for p in data_dir.rglob("*")) if data_dir.exists() else []


def test_a_backup_restores_on_a_new_machine_with_the_key_carried_apart(
    tmp_path: Path, lembra: Lembra
) -> None:
    old, new, safe = tmp_path / "old", tmp_path / "new", tmp_path / "safe"
    archive = tmp_path / "daily.jsonl.gz"
    on_old = {"DATA_DIR": str(old / "data")}
    for folder in (old, new, safe):
        folder.mkdir()

    chat = run_lembra(["chat", "--user", "alice"], env=on_old, cwd=old, stdin=SAVES)
    assert chat.returncode == 0, chat.stderr
    made = lembra(["backup", str(archive)], old)
    assert made.returncode == 0, made.stderr
    key = old / "data" / "ledger_signing.key"
    # the key's fingerprint is printed, and the key itself is nowhere in the archive
    assert "is NOT in the archive" in made.stderr
    assert str(key) in made.stderr
    fingerprint = made.stderr.split("ledger signing key ")[1].split()[0]
    assert fingerprint.startswith("ed25519:")
    shutil.copy(key, safe / "ledger_signing.key")
    with gzip.open(archive, "rt") as lines:
        header = json.loads(lines.readline())
    assert header["signing"]["fingerprint"] == fingerprint
    assert "PRIVATE" not in archive.read_bytes().decode("latin-1")

    # the old machine is gone; on the new one, a restore without the key refuses first
    refused = lembra(["restore", str(archive)], new)
    assert refused.returncode == 2
    assert "--signing-key" in refused.stderr
    assert fingerprint in refused.stderr
    assert "nothing was written" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert _data_files(new / "data") == []

    # started once before the restore: the new machine made a key of its own, as any
    # start does (storage.open_storage)
    assert load_signer(new / "data" / "ledger_signing.key", create=True) is not None
    own = (new / "data" / "ledger_signing.key").read_bytes()
    wrong = lembra(["restore", str(archive)], new)
    assert wrong.returncode == 2
    assert "is not the one the ledger in this backup is signed with" in wrong.stderr
    assert "--signing-key" in wrong.stderr

    restored = lembra(
        ["restore", str(archive), "--signing-key", str(safe / "ledger_signing.key")], new
    )
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert "ledger cli:alice: ok" in restored.stdout
    installed = new / "data" / "ledger_signing.key"
    assert installed.read_bytes() == key.read_bytes()
    assert installed.stat().st_mode & 0o777 == 0o600
    (aside,) = (new / "data").glob("ledger_signing.key.replaced-*[0-9Z]")
    assert aside.read_bytes() == own  # moved aside, never deleted
    assert f"is kept as {aside}" in restored.stdout

    verified = lembra(["ledger", "verify"], new)
    assert verified.returncode == 0, verified.stdout
    assert "cli:alice: ok" in verified.stdout
    doctor = lembra(["doctor"], new)
    assert doctor.returncode == 0, doctor.stdout
    assert json.loads(doctor.stdout.splitlines()[-1])["ok"] is True
