"""Obligations and stakes (DESIGN 3.7, seed 002): an open pending action as the frame carries it.

Who waits for what, what was offered, when it expires and what happens if it lapses.
The expiry is a local clock time to the minute, not a countdown, so the frame (and
the prompt prefix) does not change every second while a question is open. Offered
labels are stored content: the narrator shows them only inside data blocks.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any, Literal, assert_never

from agent.conversation import pending as pendings
from agent.conversation.replies import titled_label

Lapse = Literal[
    "nothing_saved", "nothing_deleted", "nothing_erased", "nothing_restored", "nothing_done"
]
MAX_OFFERED = 10


def describe(pending: pendings.Pending, expires_at_ms: int, zone: tzinfo) -> dict[str, Any]:
    """The frame's obligation for `pending`: structured, content only in `offered` and `subject`."""
    expires = datetime.fromtimestamp(expires_at_ms / 1000, tz=zone).strftime("%H:%M")
    offered: list[str] = []
    subject = ""
    lapse: Lapse
    waiting: Literal["choice", "confirmation"] = "confirmation"
    if isinstance(pending, pendings.ChooseCandidate):
        waiting, lapse, subject = "choice", "nothing_saved", pending.query
        offered = [titled_label(o.title, o.year) for o in pending.options]
    elif isinstance(pending, pendings.ChooseDelete):
        waiting, lapse, subject = "choice", "nothing_deleted", pending.query
        offered = [o.label for o in pending.options]
    elif isinstance(pending, pendings.ConfirmDeleteItem):
        lapse, subject = "nothing_deleted", pending.label
    elif isinstance(pending, pendings.ConfirmDeleteAll):
        lapse, subject = "nothing_deleted", str(pending.count)
    elif isinstance(pending, pendings.ConfirmForget):
        lapse = "nothing_erased"
    elif isinstance(pending, pendings.OfferSave):
        lapse = "nothing_saved"  # the offered text itself stays out of the frame
    elif isinstance(pending, pendings.OfferSeen):
        lapse, subject = "nothing_saved", titled_label(pending.title, pending.year)
    elif isinstance(pending, pendings.ConfirmUndoAll):
        lapse, subject = "nothing_restored", str(pending.count)
    elif isinstance(pending, pendings.ConfirmImport):
        lapse, subject = "nothing_saved", str(len(pending.entries))
    elif isinstance(pending, pendings.ChooseClarification):
        waiting, lapse, offered = "choice", "nothing_done", list(pending.options)
    elif isinstance(pending, pendings.ConfirmClearMemory):
        lapse, subject = "nothing_deleted", str(pending.count)
    elif isinstance(pending, pendings.ChooseReminderTime):
        waiting, lapse, subject = "choice", "nothing_done", pending.what
        offered = [
            datetime.fromtimestamp(ms / 1000, tz=zone).strftime("%Y-%m-%d %H:%M")
            for ms in pending.options_ms
        ]
    elif isinstance(pending, pendings.ChooseCancelScope):
        waiting, lapse, offered = "choice", "nothing_done", ["next", "all"]
    else:
        assert_never(pending)
    return {
        "kind": pending.kind,
        "waiting_for": waiting,
        "subject": subject,
        "offered": offered[:MAX_OFFERED],
        "options": len(offered),
        "expires_at": expires,
        "on_lapse": lapse,
    }


_KIND_PT = {
    "choose_candidate": "qual destes títulos salvar",
    "choose_delete": "qual destes itens apagar",
    "confirm_delete_item": "a confirmação (sim/não) para apagar um item",
    "confirm_delete_all": "a confirmação (sim/não) para apagar todos os itens",
    "confirm_forget": "a confirmação (sim/não) para apagar todos os dados da conta",
    "confirm_undo_all": "a confirmação (sim/não) para trazer de volta os itens apagados",
    "confirm_import": "a confirmação (sim/não) para importar itens",
    "offer_seen": "a confirmação (sim/não) para salvar um título como visto",
    "choose_clarification": "a resposta à minha pergunta",
    "confirm_clear_memory": "a confirmação (sim/não) para apagar minhas notas e marcadores",
    "choose_reminder_time": "o dia e a hora de um lembrete",
}
_KIND_EN = {
    "choose_candidate": "which of these titles to save",
    "choose_delete": "which of these items to delete",
    "confirm_delete_item": "the confirmation (yes/no) to delete one item",
    "confirm_delete_all": "the confirmation (yes/no) to delete every item",
    "confirm_forget": "the confirmation (yes/no) to erase all the account's data",
    "confirm_undo_all": "the confirmation (yes/no) to bring the deleted items back",
    "confirm_import": "the confirmation (yes/no) to import items",
    "offer_seen": "the confirmation (yes/no) to save a title as seen",
    "choose_clarification": "the answer to my question",
    "confirm_clear_memory": "the confirmation (yes/no) to delete my notes and bookmarks",
    "choose_reminder_time": "the day and time of a reminder",
}
_LAPSE_PT = {
    "nothing_saved": "nada é salvo",
    "nothing_deleted": "nada é apagado",
    "nothing_erased": "nada é apagado da conta",
    "nothing_restored": "nada é restaurado",
    "nothing_done": "nada é feito",
}
_LAPSE_EN = {
    "nothing_saved": "nothing is saved",
    "nothing_deleted": "nothing is deleted",
    "nothing_erased": "nothing is erased",
    "nothing_restored": "nothing is restored",
    "nothing_done": "nothing is done",
}


def _parts(obligation: dict[str, Any], pt: bool) -> tuple[str, str, str]:
    kind = str(obligation.get("kind", ""))
    what = (_KIND_PT if pt else _KIND_EN).get(kind, kind.replace("_", " "))
    lapse = (_LAPSE_PT if pt else _LAPSE_EN).get(str(obligation.get("on_lapse")), "")
    return what, lapse, str(obligation.get("expires_at", ""))


def narrate_short(obligation: dict[str, Any], pt: bool) -> str:
    """One obligation in one sentence, no stored content (the minimal narrative's form)."""
    what, lapse, expires = _parts(obligation, pt)
    options = int(obligation.get("options") or 0)
    if pt:
        count = f" ({options} opções)" if options else ""
        return f"Há uma pendência: aguardo {what}{count} até {expires}; se expirar, {lapse}."
    count = f" ({options} options)" if options else ""
    return f"Something is pending: I await {what}{count} until {expires}; if it lapses, {lapse}."


def narrate(obligation: dict[str, Any], pt: bool, data: Any) -> str:
    """One obligation as first-person lines: who waits, what was offered, deadline, stakes."""
    what, lapse, expires = _parts(obligation, pt)
    subject = str(obligation.get("subject") or "")
    offered = [str(o) for o in obligation.get("offered") or []]
    if pt:
        line = f"Há uma pendência: eu aguardo do usuário {what}"
        line += f" (sobre {data(subject)})" if subject else ""
        line += "."
        if offered:
            listed = "\n".join(f"{i}. {label}" for i, label in enumerate(offered, 1))
            line += f" Opções oferecidas: {data(listed)}."
        line += f" Expira às {expires}; se expirar, {lapse}."
        line += (
            " Se a mensagem responde à pendência, ajo sobre a opção escolhida;"
            " se trata de outra coisa e eu usar uma ferramenta, a pendência é descartada."
        )
        return line
    line = f"Something is pending: I am waiting for the user's {what}"
    line += f" (about {data(subject)})" if subject else ""
    line += "."
    if offered:
        listed = "\n".join(f"{i}. {label}" for i, label in enumerate(offered, 1))
        line += f" Options offered: {data(listed)}."
    line += f" It expires at {expires}; if it lapses, {lapse}."
    line += (
        " If the message answers it, I act on the chosen option;"
        " if it is about something else and I use a tool, the pending question is dropped."
    )
    return line
