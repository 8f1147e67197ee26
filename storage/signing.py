"""Ed25519 signatures over ledger hashes, with a key kept outside the database.

Whoever can write the database can recompute the hash chain (DESIGN 3.9); a
signature made with a key held only in a file (`DATA_DIR/ledger_signing.key`,
mode 0600, or `LEDGER_SIGNING_KEY_FILE`) cannot be recomputed without it.

That is also why a backup never holds the key: it records the public half, and a
restore on a new machine needs the key file carried there separately (`lembra restore
FILE --signing-key PATH`, docs/operations.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from config.errors import ConfigError

KEY_FILE_NAME = "ledger_signing.key"
# a domain tag, so a ledger signature can never be replayed as a signature of anything else
_EVENT_TAG = b"lembra-ledger-event-v1:"
_HEAD_TAG = b"lembra-ledger-head-v1:"
_ADOPTION_TAG = b"lembra-ledger-adoption-v1:"


@dataclass(frozen=True, slots=True)
class LedgerSigner:
    """The private key that signs ledger events and heads."""

    key: Ed25519PrivateKey

    @property
    def public_hex(self) -> str:
        raw = self.key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return raw.hex()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_hex)

    def sign_event(self, event_hash: str) -> str:
        return self.key.sign(_EVENT_TAG + event_hash.encode()).hex()

    def event_ok(self, event_hash: str, sig: str | None) -> bool:
        return sig is not None and _valid(
            self.key.public_key(), _EVENT_TAG + event_hash.encode(), sig
        )

    def sign_head(self, stream: str, seq: int, head_hash: str) -> str:
        return self.key.sign(_head_bytes(stream, seq, head_hash)).hex()

    def sign_adoption(self, heads: dict[str, int]) -> str:
        return self.key.sign(_ADOPTION_TAG + _canonical(heads)).hex()

    def adoption_ok(self, heads: dict[str, int], sig: str) -> bool:
        return _valid(self.key.public_key(), _ADOPTION_TAG + _canonical(heads), sig)


def fingerprint(public_hex: str) -> str:
    """A public key short enough to compare by eye: `ed25519:` and 16 bytes of its SHA-256."""
    try:
        raw = bytes.fromhex(public_hex)
    except ValueError:
        raw = public_hex.encode()
    digest = hashlib.sha256(raw).hexdigest()[:32]
    return "ed25519:" + ":".join(digest[i : i + 4] for i in range(0, 32, 4))


def _canonical(heads: dict[str, int]) -> bytes:
    return json.dumps(heads, sort_keys=True, separators=(",", ":")).encode()


def head_signature_ok(public_hex: str, stream: str, seq: int, head_hash: str, sig: str) -> bool:
    """Whether `sig` is the signature of this head by the key `public_hex`."""
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
    except ValueError:
        return False
    return _valid(public, _head_bytes(stream, seq, head_hash), sig)


def _head_bytes(stream: str, seq: int, head_hash: str) -> bytes:
    return _HEAD_TAG + f"{stream}\n{seq}\n{head_hash}".encode()


def _valid(public: Ed25519PublicKey, message: bytes, sig: str) -> bool:
    try:
        public.verify(bytes.fromhex(sig), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def key_path(data_dir: Path, key_file: Path | None) -> Path:
    """Where the signing key lives: `LEDGER_SIGNING_KEY_FILE`, else under `DATA_DIR`."""
    return key_file if key_file is not None else data_dir / KEY_FILE_NAME


def adoption_path(key: Path) -> Path:
    """The file beside the key naming each stream's head when signing began."""
    return key.with_name(key.name + ".adopted.json")


def read_adoption(path: Path, signer: LedgerSigner) -> dict[str, int] | None:
    """Per stream, the last seq written before signing began (unsigned by right); None if unset.

    It lives beside the key, not in the database, so a database writer cannot widen it.
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the ledger signing record {path}: {exc}") from None
    heads = raw.get("heads") if isinstance(raw, dict) else None
    sig = raw.get("sig") if isinstance(raw, dict) else None
    if (
        not isinstance(heads, dict)
        or not isinstance(sig, str)
        or not all(isinstance(v, int) for v in heads.values())
        or not signer.adoption_ok(heads, sig)
    ):
        raise ConfigError(f"the ledger signing record {path} is not signed by the ledger's key")
    return {str(k): int(v) for k, v in heads.items()}


def adoption_record(path: Path) -> dict[str, Any] | None:
    """The signing record beside a key as stored (heads and signature, unchecked); None if unset."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the ledger signing record {path}: {exc}") from None
    return raw if isinstance(raw, dict) else None


def adoption_signed(signer: LedgerSigner, record: dict[str, Any]) -> bool:
    """Whether `record` (heads and signature, as a backup carries it) is signed by `signer`."""
    heads, sig = record.get("heads"), record.get("sig")
    return (
        isinstance(heads, dict)
        and isinstance(sig, str)
        and all(isinstance(v, int) for v in heads.values())
        and signer.adoption_ok(heads, sig)
    )


def install_adoption(path: Path, signer: LedgerSigner, record: dict[str, Any]) -> bool:
    """Write a signing record carried from elsewhere, if `signer` signed it and none is here.

    Returns whether it was written (False: one exists here already, and that one holds).
    """
    if not adoption_signed(signer, record):
        raise ConfigError("the backup's ledger signing record is not signed by the ledger's key")
    heads, sig = record["heads"], record["sig"]
    try:
        _write_once(path, json.dumps({"heads": heads, "sig": sig}, sort_keys=True).encode())
    except FileExistsError:
        return False
    return True


def install_key(source: Path, target: Path) -> Path | None:
    """Copy the key file `source` to `target` (0600); a different key there is moved aside.

    Returns where the key that was at `target` went (with its signing record), or None.
    """
    data = source.read_bytes()
    moved: Path | None = None
    if target.exists():
        if target.read_bytes() == data:
            return None
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        moved = target.with_name(f"{target.name}.replaced-{stamp}")
        try:
            os.replace(target, moved)
            record = adoption_path(target)
            if record.exists():
                os.replace(record, adoption_path(moved))
        except OSError as exc:
            raise ConfigError(f"cannot move {target} aside: {exc.strerror}") from None
    _write_once(target, data)
    return moved


def write_adoption(path: Path, signer: LedgerSigner, heads: dict[str, int]) -> dict[str, int]:
    """Record `heads` as where signing began, unless a record exists (then that one holds)."""
    body = json.dumps({"heads": heads, "sig": signer.sign_adoption(heads)}, sort_keys=True)
    try:
        _write_once(path, body.encode())
    except FileExistsError:
        kept = read_adoption(path, signer)
        return kept if kept is not None else heads
    return heads


def _write_once(path: Path, data: bytes) -> None:
    """Write `path` (0600) only if it does not exist; FileExistsError when another writer won."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # link, not rename: two processes starting at once must not each keep their own file
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        tmp.unlink(missing_ok=True)


def load_signer(path: Path, *, create: bool) -> LedgerSigner | None:
    """The key in `path`; a new one written there (0600) when missing and `create`, else None."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return _create(path) if create else None
    except OSError as exc:
        raise ConfigError(f"cannot read the ledger signing key {path}: {exc.strerror}") from None
    try:
        key = serialization.load_pem_private_key(raw, password=None)
    except ValueError:
        raise ConfigError(
            f"the ledger signing key {path} is not a PEM Ed25519 private key"
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ConfigError(f"the ledger signing key {path} is not an Ed25519 key")
    return LedgerSigner(key)


def _create(path: Path) -> LedgerSigner:
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    try:
        _write_once(path, pem)
    except FileExistsError:
        return _reload(path)
    return LedgerSigner(key)


def _reload(path: Path) -> LedgerSigner:
    signer = load_signer(path, create=False)
    if signer is None:
        raise ConfigError(f"the ledger signing key {path} vanished while being created")
    return signer
