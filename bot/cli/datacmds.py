"""`lembra backup`, `lembra restore` and `lembra migrate`: the operator's data commands.

What was verified (digests, schema, ledger) goes to stdout; the `lembra: ...` status lines
to stderr.

The storage stack is imported when a command runs, not with the parser (`lembra --version`
and `--help` load none of it).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from config.version import lembra_version

if TYPE_CHECKING:
    from config.settings import Settings
    from storage.maintenance import Outcome


def _hosts_only(uri: str) -> str:
    """`uri` with any password replaced, so it can be printed."""
    scheme, sep, rest = uri.partition("://")
    if not sep:
        return uri
    auth, at, tail = rest.partition("@")
    if not at or "/" in auth:
        return uri
    user = auth.split(":", 1)[0]
    return f"{scheme}://{user}:****@{tail}" if ":" in auth else uri


def _report(outcome: Outcome) -> int:
    """Print what was verified; 0 when every ledger chain holds."""
    for name, found in outcome.digests.items():
        print(f"{name}: {found.count} documents (sha256 {found.sha256[:16]})")
    for applied in outcome.migrated:
        print(f"schema: migrated to version {applied.version} ({applied.name})")
    print(f"schema version: {outcome.schema_version}")
    for note in outcome.notes:
        print(note)
    for result in outcome.ledger:
        print(f"ledger {result.describe()}")
    if not outcome.ok:
        print("lembra: the ledger did not verify (see the BROKEN lines above)", file=sys.stderr)
        return 1
    return 0


def _key_file(settings: Settings) -> Path:
    from storage.signing import key_path

    return key_path(settings.data_dir, settings.ledger_signing_key_file)


async def run_backup(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import storage_config
    from storage import open_storage
    from storage.maintenance import backup

    path = Path(args.file)
    key_file = _key_file(settings)
    async with open_storage(storage_config(settings)) as db:
        written = await backup(db, path, lembra_version=lembra_version(), key_file=key_file)
        signer = db.ledger.signer
    total = sum(d.count for d in written.values())
    print(
        f"lembra: backup written to {path}: {total} documents in {len(written)} collections",
        file=sys.stderr,
    )
    if signer is not None:
        # the one thing a backup cannot hold: without it a new machine cannot check the ledger
        print(
            f"lembra: ledger signing key {signer.fingerprint} is NOT in the archive: keep a "
            f"copy of {key_file} apart from it, and give it to `lembra restore "
            "--signing-key` on a new machine (docs/operations.md)",
            file=sys.stderr,
        )
    return 0


async def run_restore(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import storage_config
    from storage import open_storage
    from storage.archive import read_archive
    from storage.maintenance import choose_key, restore

    path = Path(args.file)
    # Everything is checked before anything is written: the whole archive, then the key.
    archive = read_archive(path)
    given = Path(args.signing_key) if args.signing_key else None
    key = choose_key(archive, _key_file(settings), given)
    # no key is made here: the restored ledger is checked against the key chosen above
    config = replace(storage_config(settings), create_signing_key=False)
    async with open_storage(config) as db:
        outcome = await restore(db, path, force=args.force, archive=archive, key=key)
    status = _report(outcome)
    print(f"lembra: restored {outcome.documents} documents from {path}", file=sys.stderr)
    return status


async def run_migrate(args: argparse.Namespace, settings: Settings) -> int:
    from agent.assembly import storage_config
    from storage import open_storage
    from storage.maintenance import copy_database

    target_config = replace(storage_config(settings), uri=args.to)
    async with (
        open_storage(storage_config(settings)) as source,
        open_storage(target_config) as target,
    ):
        outcome = await copy_database(source, target, force=args.force)
        replica_set = await target.replica_set()
    status = _report(outcome)
    print(
        f"lembra: copied {outcome.documents} documents; counts, digests and ledger checked",
        file=sys.stderr,
    )
    if replica_set is None:
        print(
            "note: the target is not a replica set; use one for availability (docs/scaling.md)",
            file=sys.stderr,
        )
    if status == 0:
        print(
            f"lembra: now set MONGODB_URI={_hosts_only(args.to)} (and MONGODB_DB={settings.mongodb_db})",
            file=sys.stderr,
        )
    return status


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the data commands on the `lembra` parser."""
    back = sub.add_parser("backup", help="write a compressed archive of every collection")
    back.add_argument("file", help="where to write it, e.g. lembra-2024-05-01.jsonl.gz")
    back.set_defaults(run=run_backup)
    rest = sub.add_parser("restore", help="load an archive from `lembra backup`, then verify")
    rest.add_argument("file", help="the archive `lembra backup` wrote")
    rest.add_argument("--force", action="store_true", help="replace a database that is not empty")
    rest.add_argument(
        "--signing-key",
        metavar="PATH",
        help="the ledger_signing.key kept from the machine the backup came from; installed "
        "in DATA_DIR (or at LEDGER_SIGNING_KEY_FILE)",
    )
    rest.set_defaults(run=run_restore)
    mig = sub.add_parser("migrate", help="copy this database to a MongoDB deployment")
    mig.add_argument("--to", required=True, metavar="URI", help="mongodb://... of the target")
    mig.add_argument("--force", action="store_true", help="replace a target that is not empty")
    mig.set_defaults(run=run_migrate)
