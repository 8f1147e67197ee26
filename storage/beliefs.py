"""`beliefs`: named values in [0, 1] per user (DESIGN 3.5), one document per belief."""

from __future__ import annotations

from storage.collection import Collection
from storage.documents import BeliefDoc


def belief_doc_id(user_id: str, key: str) -> str:
    return f"{user_id}|{key}"


class BeliefsRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("user_id", 1)])

    async def all(self, user_id: str) -> dict[str, float]:
        docs = await self._c.find({"user_id": user_id})
        return {str(d["key"]): float(d["value"]) for d in docs}

    async def get(self, user_id: str, key: str) -> float | None:
        doc = await self._c.find_owned(belief_doc_id(user_id, key), user_id)
        return float(doc["value"]) if doc else None

    async def set(self, user_id: str, key: str, value: float, *, now_ms: int) -> None:
        doc = BeliefDoc(
            _id=belief_doc_id(user_id, key),
            user_id=user_id,
            key=key,
            value=value,
            updated_at_ms=now_ms,
        )
        await self._c.replace_one({"_id": doc.id}, doc.to_doc(), upsert=True)

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
