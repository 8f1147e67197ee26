"""`lembra backup`, `lembra restore` and `lembra migrate`: the operator's data commands."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from agent.deps import storage_config
from config.settings import Settings
from config.version import lembra_version
from storage import open_storage
from storage.maintenance import Outcome, backup, copy_database, restore


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
    for result in outcome.ledger:
        print(f"ledger {result.describe()}")
    if not outcome.ok:
        print("lembra: the ledger did not verify (see the BROKEN lines above)")
        return 1
    return 0


async def run_backup(args: argparse.Namespace, settings: Settings) -> int:
    path = Path(args.file)
    async with open_storage(storage_config(settings)) as db:
        written = await backup(db, path, lembra_version=lembra_version())
    total = sum(d.count for d in written.values())
    print(f"lembra: backup written to {path}: {total} documents in {len(written)} collections")
    return 0


async def run_restore(args: argparse.Namespace, settings: Settings) -> int:
    path = Path(args.file)
    async with open_storage(storage_config(settings)) as db:
        outcome = await restore(db, path, force=args.force)
    status = _report(outcome)
    print(f"lembra: restored {outcome.documents} documents from {path}")
    return status


async def run_migrate(args: argparse.Namespace, settings: Settings) -> int:
    target_config = replace(storage_config(settings), uri=args.to)
    async with (
        open_storage(storage_config(settings)) as source,
        open_storage(target_config) as target,
    ):
        outcome = await copy_database(source, target, force=args.force)
        replica_set = await target.replica_set()
    status = _report(outcome)
    print(f"lembra: copied {outcome.documents} documents; counts, digests and ledger checked")
    if replica_set is None:
        print("note: the target is not a replica set; use one for availability (docs/scaling.md)")
    if status == 0:
        print(f"now set MONGODB_URI={_hosts_only(args.to)} (and MONGODB_DB={settings.mongodb_db})")
    return status


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the data commands on the `lembra` parser."""
    back = sub.add_parser("backup", help="write a compressed archive of every collection")
    back.add_argument("file", help="where to write it, e.g. lembra-2024-05-01.jsonl.gz")
    back.set_defaults(run=run_backup)
    rest = sub.add_parser("restore", help="load an archive from `lembra backup`, then verify")
    rest.add_argument("file")
    rest.add_argument("--force", action="store_true", help="replace a database that is not empty")
    rest.set_defaults(run=run_restore)
    mig = sub.add_parser("migrate", help="copy this database to a MongoDB deployment")
    mig.add_argument("--to", required=True, metavar="URI", help="mongodb://... of the target")
    mig.add_argument("--force", action="store_true", help="replace a target that is not empty")
    mig.set_defaults(run=run_migrate)
