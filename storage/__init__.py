"""MongoDB storage: the client, one repository per collection, the embedded server, the ledger.

Knows nothing of models, channels or the runtime. See SUBSET.md for the part of
MongoDB this code allows itself.
"""

from storage.database import COLLECTIONS, Database, StorageConfig, open_storage
from storage.errors import DatabaseUnavailable, DuplicateKey, EmbeddedServerError, StorageError

__all__ = [
    "COLLECTIONS",
    "Database",
    "DatabaseUnavailable",
    "DuplicateKey",
    "EmbeddedServerError",
    "StorageConfig",
    "StorageError",
    "open_storage",
]
