"""What this process knows of its own chats' unfinished updates (issue 16).

A process serving alone may skip reading a chat's waiting records under the lease
(bot/delivery/peers.py) only if nothing of the chat it admitted earlier is still unfinished
here. Its per-chat queue is not enough: two webhooks of one chat can finish admitting
in the other order than they were numbered, so the later one may reach the chat's slot
first. The read then finds the earlier one and runs it first, as it always did.

A chat also falls "behind" when an update of it is left `received` here (a database
failure, a reply to send later, a busy lease): its next turn reads, so nothing waits
for the re-drive's minute behind newer messages. An update of ours that another turn's
read ran early always reads when its own job comes, and finds itself done.
"""

from __future__ import annotations


class LocalOrder:
    def __init__(self) -> None:
        self._unfinished: dict[str, dict[str, int]] = {}  # chat -> update id -> arrival
        self._behind: set[str] = set()
        self._early: set[str] = set()  # updates of ours a read ran before their own job

    def arrived(self, conversation_id: str, update_id: str, seq: int) -> bool:
        """Note an update being admitted; False when it is already here (a redelivery)."""
        unfinished = self._unfinished.setdefault(conversation_id, {})
        if update_id in unfinished:
            return False
        unfinished[update_id] = seq
        return True

    def left(self, conversation_id: str, update_id: str) -> None:
        """The update is finished here, or was never admitted."""
        unfinished = self._unfinished.get(conversation_id)
        if unfinished is not None:
            unfinished.pop(update_id, None)
            if not unfinished:
                del self._unfinished[conversation_id]
        self._early.discard(update_id)

    def ran_early(self, conversation_id: str, update_id: str) -> None:
        """A read ran `update_id` before its own job here: that job must read and skip it."""
        if update_id in self._unfinished.get(conversation_id, {}):
            self._early.add(update_id)

    def fell_behind(self, conversation_id: str) -> None:
        self._behind.add(conversation_id)

    def read(self, conversation_id: str) -> None:
        """The chat's waiting records are being read: it is no longer behind."""
        self._behind.discard(conversation_id)

    def first_in_line(self, conversation_id: str, update_id: str) -> bool:
        """Nothing of the chat admitted here before `update_id` is unfinished, nor left behind."""
        if conversation_id in self._behind or update_id in self._early:
            return False
        unfinished = self._unfinished.get(conversation_id, {})
        seq = unfinished.get(update_id)
        return seq is not None and seq == min(unfinished.values())
