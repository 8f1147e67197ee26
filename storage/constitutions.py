"""`constitutions`: versioned behaviour documents; the newest version is in force."""

from __future__ import annotations

from storage.collection import Collection
from storage.documents import ConstitutionDoc
from storage.errors import DuplicateKey


def constitution_id(version: int) -> str:
    return f"v{version:06d}"


class ConstitutionsRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("version", -1)])

    async def latest(self) -> ConstitutionDoc | None:
        docs = await self._c.find({}, sort=[("version", -1)], limit=1)
        return ConstitutionDoc.model_validate(docs[0]) if docs else None

    async def ensure_first(self, text: str, *, now_ms: int) -> tuple[ConstitutionDoc, bool]:
        """Store `text` as version 1 unless a version exists; say whether this call created it."""
        doc = ConstitutionDoc(
            _id=constitution_id(1), version=1, text=text, created_at_ms=now_ms, author="system"
        )
        try:
            await self._c.insert_one(doc.to_doc())
        except DuplicateKey:
            latest = await self.latest()
            assert latest is not None
            return latest, False
        return doc, True

    async def previous(self, version: int) -> ConstitutionDoc | None:
        """The newest version older than `version`, if any."""
        docs = await self._c.find({"version": {"$lt": version}}, sort=[("version", -1)], limit=1)
        return ConstitutionDoc.model_validate(docs[0]) if docs else None

    async def add(
        self,
        text: str,
        *,
        author: str,
        now_ms: int,
        structure: ConstitutionDoc | None = None,
    ) -> ConstitutionDoc:
        """Store `text` as the next version (retrying if another writer took the number).

        The structured fields come from `structure` (unchanged from the version in force
        when None).
        """
        while True:
            current = await self.latest()
            version = (current.version if current else 0) + 1
            source = structure or current
            doc = ConstitutionDoc(
                _id=constitution_id(version),
                version=version,
                text=text,
                created_at_ms=now_ms,
                author=author,
                overrides=list(source.overrides) if source else [],
                stance=source.stance if source else "",
                risk_tolerance=source.risk_tolerance if source else 0.0,
            )
            try:
                await self._c.insert_one(doc.to_doc())
            except DuplicateKey:
                continue
            return doc
