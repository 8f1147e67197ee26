"""Session handovers and their sanity check (DESIGN 3.8, seed 002).

A session ends after 30 idle minutes or `/end`. Its handover says what was done,
what is still open (a pending choice or confirmation, requests that failed or were
refused), the session's errors, and tags derived in code (saved, deleted, searched,
failed, pending), all in the user's language; it is empty or at least 50 characters. It is model-written when a model is configured for background
work and deterministic otherwise, and always carries structured claims taken from
the ledger (item ids saved and deleted) so the next frame can check it against
stored facts. A claim that does not hold becomes a governance note; a check that
cannot run shows the handover as unverified.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from langchain_core.messages import HumanMessage, SystemMessage

from agent.conversation import pending as pendings
from agent.conversation.replies import item_label
from agent.deps import Deps
from agent.memory import obligations as stakes
from agent.memory.sessionlog import (
    SESSION_MESSAGES,
    SessionLog,
    cause_words,
    errors_line,
    read_session,
    tags,
)
from agent.planning.claims import named_effects
from agent.planning.schema import PlannerResponse, planner_function_schema
from agent.texts import plural
from agent.tools.finding import score_item
from agent.trust.ledgering import append_event, digest
from agent.trust.quotas import Quotas
from agent.types import Language
from agent.understanding.textnorm import clean_text, data_block, fold
from config.errors import LembraError
from storage.documents import UserDoc

MIN_CHARS = 50
MATCH_CUTOFF = 90
MAX_NOTES = 5
MAX_LABELS = 30
_SAVED_CLAIM = re.compile(r"(?:salvei|guardei|saved|stored)\s*:?\s*([^.;\n]+)", re.IGNORECASE)
_DELETED_CLAIM = re.compile(
    r"(?:apaguei|deletei|removi|deleted|removed)\s*:?\s*([^.;\n]+)", re.IGNORECASE
)
_COUNT_ONLY = re.compile(r"^\d+\s+(?:itens?|items?)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SanityResult:
    verified: bool
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SessionFacts:
    start_ms: int
    end_ms: int
    saved: list[tuple[str, str]]  # (item id, label) still present
    saved_ids: list[str]
    deleted_ids: list[str]
    all_deleted: int
    violations: int
    pending: str | None
    log: SessionLog = field(default_factory=SessionLog)
    pending_what: dict[str, Any] | None = None  # the open obligation (frame form)
    tags: list[str] = field(default_factory=list)
    session_kind: str = "chat"  # "admin" when the session ran admin commands


@dataclass(frozen=True, slots=True)
class HandoverWritten:
    handover_id: str
    writer: str
    model_calls: int  # requests the model server received for it (billed as background use)


def _clock(ms: int, zone: ZoneInfo) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=zone).strftime("%d/%m %H:%M")


async def session_facts(
    deps: Deps, user: UserDoc, conversation_id: str, now_ms: int
) -> SessionFacts:
    """What the ledger and the database say happened in the user's open session."""
    start = user.session_start_ms or user.created_at_ms
    events = await deps.db.ledger.events_in(user.id, start, now_ms)
    saved_ids = [str(e.payload.get("item_id")) for e in events if e.type == "item_saved"]
    deleted_ids = [str(e.payload.get("item_id")) for e in events if e.type == "item_deleted"]
    saved: list[tuple[str, str]] = []
    for item_id in saved_ids:
        item = await deps.db.items.get(user.id, item_id)
        if item is not None:
            saved.append((item_id, item_label(item)))
    doc = await deps.db.pending.peek(user.id, conversation_id)
    pending = doc.kind if doc is not None and doc.expires_at_ms > now_ms else None
    pending_what = None
    if doc is not None and pending is not None:
        parsed = pendings.parse(doc.payload_json)
        if parsed is not None:
            pending_what = stakes.describe(parsed, doc.expires_at_ms, _zone_of(deps, user))
    log = read_session(
        await deps.db.messages.last(user.id, conversation_id, SESSION_MESSAGES), start
    )
    deleted_any = any(e.type in ("item_deleted", "all_deleted") for e in events)
    admin = any(e.type == "admin_action" and e.payload.get("allowed") for e in events)
    return SessionFacts(
        start_ms=start,
        end_ms=now_ms,
        saved=saved,
        saved_ids=saved_ids,
        deleted_ids=deleted_ids,
        all_deleted=sum(int(e.payload.get("count", 0)) for e in events if e.type == "all_deleted"),
        violations=sum(1 for e in events if e.type == "pipeline_violation"),
        pending=pending,
        log=log,
        pending_what=pending_what,
        tags=list(tags(saved=bool(saved_ids), deleted=deleted_any, log=log, pending=bool(pending))),
        session_kind="admin" if admin else "chat",
    )


def _zone_of(deps: Deps, user: UserDoc) -> ZoneInfo:
    try:
        return ZoneInfo(user.timezone)
    except (ValueError, KeyError):
        return ZoneInfo(deps.settings.default_timezone)


def deterministic_text(facts: SessionFacts, language: str, zone: ZoneInfo) -> str:
    """The handover written by code: facts only, in the user's language."""
    pt = language == "pt"
    lang: Language = "pt" if pt else "en"
    span = f"{_clock(facts.start_ms, zone)}–{_clock(facts.end_ms, zone)[-5:]}"
    lines = [f"{'Sessão de' if pt else 'Session of'} {span}."]
    if facts.saved:
        labels = "; ".join(label for _, label in facts.saved[:MAX_LABELS])
        more = len(facts.saved) - MAX_LABELS
        if more > 0:
            labels += f" e mais {plural(more, 'item', lang)}" if pt else f" and {more} more"
        lines.append(("Salvei: " if pt else "Saved: ") + labels + ".")
    if facts.deleted_ids:
        lines.append(
            f"{'Apaguei' if pt else 'Deleted'} {plural(len(facts.deleted_ids), 'item', lang)}."
        )
    if facts.all_deleted:
        lines.append(
            f"{'Apaguei tudo' if pt else 'Deleted everything'}: {plural(facts.all_deleted, 'item', lang)}."
        )
    if not (facts.saved or facts.deleted_ids or facts.all_deleted):
        lines.append("Nenhuma alteração nos itens." if pt else "No change to the items.")
    if facts.pending_what is not None:
        lines.append(
            ("Ficou pendente: " if pt else "Still open: ")
            + stakes.narrate_short(facts.pending_what, pt)
        )
    elif facts.pending:
        lines.append(
            ("Ficou pendente: " if pt else "Still open: ") + facts.pending.replace("_", " ") + "."
        )
    for failed in facts.log.failed:
        lines.append(
            ("Pedido não concluído" if pt else "Request not done")
            + f" ({cause_words(failed.cause, language)}): «{failed.request}»."
        )
    if facts.log.errors:
        lines.append(
            ("Erros da sessão: " if pt else "Session errors: ")
            + errors_line(facts.log.errors, language)
            + "."
        )
    if facts.violations:
        lines.append(
            f"{'Observação' if pt else 'Observation'}: {facts.violations} "
            + (
                "pedido(s) do planejador recusado(s) por violar o pipeline."
                if pt
                else "planner request(s) refused as pipeline violations."
            )
        )
    text = " ".join(lines)
    return (
        text
        if len(text) >= MIN_CHARS
        else text + (" Sem observações." if pt else " Nothing else to note.")
    )


def facts_payload(facts: SessionFacts) -> dict[str, Any]:
    """What the model is told of a session to write its handover (bounded, whatever it did)."""
    return {
        # a session can save hundreds of items: the request stays small whatever it did
        "saved": [label for _, label in facts.saved[:MAX_LABELS]],
        "saved_count": len(facts.saved),
        "deleted_count": len(facts.deleted_ids),
        "deleted_everything": facts.all_deleted,
        "pending": facts.pending_what or facts.pending,
        "refused_requests": facts.violations,
        "failed_requests": [{"request": f.request, "cause": f.cause} for f in facts.log.failed],
        "errors": facts.log.errors,
        "tags": facts.tags,
    }


async def model_text(deps: Deps, user: UserDoc, facts: SessionFacts) -> tuple[str | None, int]:
    """Ask the model to write the handover from the facts (billed to the user as background use).

    Returns the text (None when it cannot) and how many model answers it took.
    """
    return await _model_text(deps, user, facts_payload(facts))


async def _model_text(deps: Deps, user: UserDoc, payload: dict[str, Any]) -> tuple[str | None, int]:
    language = user.language
    facts_json = json.dumps(payload, ensure_ascii=False)
    messages = [
        SystemMessage(
            content=(
                "Write the handover of a finished session for the next planner instance: what was done, "
                "what is still open, observations. Use only the facts given; at least 50 characters; "
                f"language: {'Portuguese' if language == 'pt' else 'English'}. "
                "Answer by calling `plan` with action RESPOND and the handover as `message`, "
                "belief {key: answer.confidence, guessed: 1.0, delta: 0}."
            )
        ),
        HumanMessage(content=data_block(facts_json)),
    ]
    answer = await Quotas(deps).background_complete(
        user, messages, tools=[planner_function_schema()]
    )
    if answer is None:
        return None, 0
    try:
        call = answer.message.tool_calls[0]
        response = PlannerResponse.model_validate(call["args"])
    except (IndexError, KeyError, ValueError):
        return None, 1
    text = clean_text(response.message or "")
    return (text if response.action == "RESPOND" and len(text) >= MIN_CHARS else None), 1


async def session_idle(deps: Deps, user: UserDoc, conversation_id: str, now_ms: int) -> bool:
    """Whether the user's open session has been idle for the handover time.

    `users.last_seen_at_ms` is touched at most once a minute, so it can lag the last
    message; when it says idle, the conversation's last stored message decides, so a
    session is never closed before its full idle time.
    """
    idle_ms = deps.settings.handover_idle_minutes * 60_000
    if not user.session_open or now_ms - user.last_seen_at_ms < idle_ms:
        return False
    newest = await deps.db.messages.last(user.id, conversation_id, 1)
    last = max([user.last_seen_at_ms, *(m.ts_ms for m in newest)])
    return now_ms - last >= idle_ms


async def write_handover(
    deps: Deps,
    user: UserDoc,
    conversation_id: str,
    *,
    now_ms: int,
    reason: str,
    use_model: bool,
    model_later: bool = False,
) -> HandoverWritten | None:
    """Close the user's open session with a handover (None when no session was open).

    `model_later`: write the code's text now and leave the model's for the background
    job (`rewrite_pending`), so nothing waits for a model call here (issue 28).
    """
    if not user.session_open:
        return None
    zone = ZoneInfo(user.timezone) if user.timezone else ZoneInfo(deps.settings.default_timezone)
    facts = await session_facts(deps, user, conversation_id, now_ms)
    text = deterministic_text(facts, user.language, zone)
    writer = "deterministic"
    calls = 0
    if use_model:
        written, calls = await model_text(deps, user, facts)
        if written is not None:
            text, writer = written, "model"
    later = (
        {"model_due": True, "model_facts": facts_payload(facts)}
        if model_later and writer == "deterministic"
        else {}
    )
    handover_id = await deps.db.summaries.add_handover(
        user.id,
        conversation_id,
        {
            "text": text,
            "writer": writer,
            "reason": reason,
            "claims": {"saved": facts.saved_ids, "deleted": facts.deleted_ids},
            "session_from_ms": facts.start_ms,
            "session_to_ms": facts.end_ms,
            "tags": facts.tags,
            "errors": facts.log.errors,
            "threads": {
                "pending": facts.pending_what,
                "failed": [{"request": f.request, "cause": f.cause} for f in facts.log.failed],
            },
            "language": user.language,
            "model_calls": calls,
            "session_kind": facts.session_kind,
            **later,
        },
        now_ms=now_ms,
    )
    await deps.db.users.update(user.id, {"session_open": False}, inc={"sessions_since_dream": 1})
    await append_event(
        deps,
        None,
        "handover_written",
        {
            "handover_id": handover_id,
            "writer": writer,
            "reason": reason,
            "chars": len(text),
            "text_sha256": digest(text),
        },
        stream=user.id,
    )
    deps.metrics.handovers.labels(writer).inc()
    return HandoverWritten(handover_id, writer, calls)


async def rewrite_pending(deps: Deps, *, limit: int = 20) -> int:
    """Give handovers written by code for later (`model_later`) the model's text; return how many.

    Runs in the background jobs, never in a user's turn. A handover whose text changed
    meanwhile is left alone; one the model cannot write keeps the code's text (tried once).
    """
    rewritten = 0
    for doc in await deps.db.summaries.handovers_to_rewrite(limit=limit):
        user = await deps.db.users.get(str(doc.get("user_id")))
        payload = doc.get("model_facts")
        written, calls = (None, 0)
        if user is not None and isinstance(payload, dict):
            written, calls = await _model_text(deps, user, payload)
        fields: dict[str, Any] = {"model_calls": int(doc.get("model_calls") or 0) + calls}
        if written is not None:
            fields |= {"text": written, "writer": "model"}
        if not await deps.db.summaries.rewrite_handover(
            str(doc.get("user_id")), str(doc["_id"]), was=str(doc.get("text")), fields=fields
        ):
            continue
        if written is None:
            continue
        await append_event(
            deps,
            None,
            "handover_written",
            {
                "handover_id": str(doc["_id"]),
                "writer": "model",
                "reason": str(doc.get("reason") or ""),
                "chars": len(written),
                "text_sha256": digest(written),
            },
            stream=str(doc["user_id"]),
        )
        deps.metrics.handovers.labels("model").inc()
        rewritten += 1
    return rewritten


_NOTES = {
    "saved_id": {
        "pt": "a passagem diz que o item {x} foi salvo, mas ele não está entre os itens agora",
        "en": "the handover says item {x} was saved, but it is not among the items now",
    },
    "deleted_id": {
        "pt": "a passagem diz que o item {x} foi apagado, mas ele ainda está lá",
        "en": "the handover says item {x} was deleted, but it is still there",
    },
    "saved_name": {
        "pt": "a passagem diz que «{x}» foi salvo, mas não está entre os itens",
        "en": "the handover says «{x}» was saved, but it is not among the items",
    },
    "deleted_name": {
        "pt": "a passagem diz que «{x}» foi apagado, mas ainda está lá",
        "en": "the handover says «{x}» was deleted, but it is still there",
    },
    "unchecked": {
        "pt": "a passagem não pôde ser conferida com os fatos guardados",
        "en": "the handover could not be checked against stored facts",
    },
    "more": {"pt": "e mais {x}", "en": "and {x} more"},
}


def _lang(language: str) -> Language:
    return "pt" if language == "pt" else "en"


def _note(key: str, language: str, x: object = "") -> str:
    """A governance note in the user's language (the narrative around it is in that language)."""
    return _NOTES[key]["pt" if language == "pt" else "en"].format(x=x)


async def check_handover(
    deps: Deps, user_id: str, handover: dict[str, Any], *, language: str = "en"
) -> SanityResult:
    """Compare a handover's claims with stored facts; discrepancies become governance notes.

    A save is history, not a standing fact: an item the handover says was saved and that
    the ledger shows deleted since (in that session or a later one) is no discrepancy.
    """
    try:
        notes: list[str] = []
        claims = handover.get("claims") or {}
        deletions: _Deletions | None = None
        for item_id in claims.get("saved") or []:
            if await deps.db.items.get(user_id, str(item_id)) is None:
                deletions = deletions or await _deletions_since(deps, user_id, handover)
                if not deletions.covers(str(item_id)):
                    notes.append(_note("saved_id", language, item_id))
        for item_id in claims.get("deleted") or []:
            if await deps.db.items.get(user_id, str(item_id)) is not None:
                notes.append(_note("deleted_id", language, item_id))
        if handover.get("writer") == "model":
            # Free text can claim anything; the deterministic writer's text restates its claims.
            deletions = deletions or await _deletions_since(deps, user_id, handover)
            notes += await _text_claims(
                deps,
                user_id,
                str(handover.get("text", "")),
                saves_checked=not deletions.any,
                language=language,
            )
    except (LembraError, TypeError, ValueError, AttributeError):
        return SanityResult(False, [_note("unchecked", language)])
    deps.metrics.count_discrepancies(str(handover.get("_id", "")), len(notes))
    if len(notes) > MAX_NOTES:  # a handover claiming hundreds of things stays a few lines
        notes = [
            *notes[:MAX_NOTES],
            _note("more", language, plural(len(notes) - MAX_NOTES, "discrepancy", _lang(language))),
        ]
    return SanityResult(True, notes)


@dataclass(frozen=True, slots=True)
class _Deletions:
    item_ids: frozenset[str]
    everything: bool

    @property
    def any(self) -> bool:
        return self.everything or bool(self.item_ids)

    def covers(self, item_id: str) -> bool:
        return self.everything or item_id in self.item_ids


async def _deletions_since(deps: Deps, user_id: str, handover: dict[str, Any]) -> _Deletions:
    """What the ledger says was deleted from the start of the handover's session until now."""
    start = handover.get("session_from_ms")
    start = start if isinstance(start, int) and not isinstance(start, bool) else 0
    events = await deps.db.ledger.events_in(user_id, start, deps.clock.ms())
    return _Deletions(
        frozenset(str(e.payload.get("item_id")) for e in events if e.type == "item_deleted"),
        any(e.type == "all_deleted" for e in events),
    )


async def _text_claims(
    deps: Deps, user_id: str, text: str, *, saves_checked: bool = True, language: str = "en"
) -> list[str]:
    """Keyword extraction over free text (seed 002, phase 1): named saves and deletions.

    Named saves are checked only when nothing was deleted since the session began: the
    ledger holds ids, not names, so an absent name may simply have been deleted since.
    """
    items = await deps.db.items.list_for(user_id)
    notes: list[str] = []
    checks = ((_SAVED_CLAIM, True), (_DELETED_CLAIM, False)) if saves_checked else ()
    for pattern, should_exist in checks or ((_DELETED_CLAIM, False),):
        for match in pattern.finditer(text):
            for name in re.split(r",|;| e | and ", match.group(1)):
                name = re.sub(r"\(\d{4}\)", "", name).strip(" «»\"'")
                if not fold(name) or _COUNT_ONLY.match(name) or len(fold(name)) < 3:
                    continue
                exists = any(score_item(item, name) >= MATCH_CUTOFF for item in items)
                if exists != should_exist:
                    key = "saved_name" if should_exist else "deleted_name"
                    notes.append(_note(key, language, name[:60]))
    # the same reading model answers get (agent/planning/claims.py): "Coloquei Duna na
    # lista", "Matrix foi adicionado", "X está na sua lista", in any inflection
    titles = [i.title for i in items if i.title]
    for effect, target in named_effects(text, language, titles):
        should_exist = effect == "save"
        if effect not in ("save", "delete") or (should_exist and not saves_checked):
            continue
        exists = any(score_item(item, target) >= MATCH_CUTOFF for item in items)
        if exists != should_exist:
            note = _note("saved_name" if should_exist else "deleted_name", language, target[:60])
            if note not in notes and not any(
                fold(target) in fold(n) or fold(n).endswith(fold(target)) for n in notes
            ):
                notes.append(note)
    return notes
