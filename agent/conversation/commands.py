"""Slash commands (the `command` label): user commands and admin commands, all in code.

Admin power is checked here by namespaced id (`Deps.is_admin`), never by a prompt or
a menu. A non-admin gets exactly the unknown-command reply, and the attempt is an
`admin_action` ledger event with `allowed: false`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Literal

from agent.conversation import (
    access,
    exporting,
    importfile,
    importing,
    memorycmd,
    outcomes,
    reminding,
    undoing,
    watching,
)
from agent.conversation import pending as pendings
from agent.conversation.background import background_llm
from agent.conversation.constitutioncmd import constitution_command
from agent.conversation.explaining import why_text
from agent.conversation.replies import confirm_choices, finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.memory.consolidation import consolidate_now
from agent.memory.handover import write_handover
from agent.texts import OK_MARK, menu, plural, text
from agent.tools.base import Found, ToolContext
from agent.tools.finding import SearchItemsArgs, search_items
from agent.trust.beliefs import CALIBRATION
from agent.trust.confidence import TurnKind
from agent.trust.ledgering import append_event
from agent.trust.quotas import MODEL_SUBJECT, Quotas
from agent.types import Language, Progress, Reply
from agent.understanding.intent import Intent
from storage.documents import ITEM_TYPES
from storage.usage import GLOBAL
from storage.wordindex import IndexProgress

# the admin rows of the table the menus and `ajuda` are built from
ADMIN_COMMANDS = frozenset(c.name for c in menu.ADMIN_COMMANDS)


class Commands:
    def __init__(self, deps: Deps, quotas: Quotas) -> None:
        self.deps = deps
        self.quotas = quotas

    async def handle(self, turn: Turn, intent: Intent) -> Reply:
        name = str(intent.entities.get("name", "")).lower()
        args = str(intent.entities.get("args", "")).strip()
        if name in ADMIN_COMMANDS:
            admin = self.deps.is_admin(turn.user_id)
            # Admin output (user ids, counts) is for the admin alone: never in a group,
            # where every member would read it. A private chat's id is its user's id.
            private = turn.conversation_id == turn.user_id
            await append_event(
                self.deps, turn, "admin_action", {"command": name, "allowed": admin and private}
            )
            if not admin:
                return self._unknown(turn, name)
            if not private:
                return self._plain(turn, text("admin_private_only", turn.language, name=name))
            return await self._admin(turn, name, args)
        handler = {
            "why": self._why,
            "lang": self._lang,
            "end": self._end,
            "search": self._search,
            "export": self._export,
            "forget": self._forget,
            "delete_all": self._delete_all_with_target,
            **reminding.handlers(self.deps),
            "undo": self._undo,
            "desfazer": self._undo,
            "redo": self._redo,
            "refazer": self._redo,
            "import": self._import,
            "id": self._id,
            **memorycmd.handlers(self.deps),
            **watching.handlers(self.deps),
        }.get(name)
        if handler is None:
            return self._unknown(turn, name)
        return await handler(turn, args)

    def _unknown(self, turn: Turn, name: str) -> Reply:
        return finish(
            turn,
            text("unknown_command", turn.language, name=name[:32] or "?"),
            kind="deterministic",
        )

    def _plain(
        self, turn: Turn, body: str, kind: TurnKind = "deterministic", **extra: Any
    ) -> Reply:
        return finish(turn, body, kind=kind, **extra)

    # -- user commands ------------------------------------------------------------------------

    async def _delete_all_with_target(self, turn: Turn, args: str) -> Reply:
        """`/delete_all filmes`: the command deletes everything or nothing, never a part."""
        return self._plain(turn, text("delete_all_with_target", turn.language))

    async def _undo(self, turn: Turn, args: str) -> Reply:
        return await undoing.undo(self.deps, turn, args)

    async def _id(self, turn: Turn, args: str) -> Reply:
        return self._plain(turn, text("your_id", turn.language, user_id=turn.user_id))

    async def _redo(self, turn: Turn, args: str) -> Reply:
        return await undoing.redo(self.deps, turn, args)

    async def _why(self, turn: Turn, args: str) -> Reply:
        lang = turn.language
        history = await self.deps.db.messages.last(turn.user_id, turn.conversation_id, 12)
        last = next((m for m in reversed(history) if m.role == "ai" and m.meta_json), None)
        if last is None:
            return self._plain(turn, text("why_none", lang))
        # in plain words: no rule, tool or event names (agent/conversation/explaining.py)
        return self._plain(turn, why_text(json.loads(last.meta_json or "{}"), lang))

    async def _lang(self, turn: Turn, args: str) -> Reply:
        choice = args.lower()[:2]
        if choice not in ("pt", "en"):
            return self._plain(turn, text("lang_usage", turn.language))
        await self.deps.db.users.set_language(turn.user_id, choice)  # type: ignore[arg-type]
        turn.language = choice  # type: ignore[assignment]
        return self._plain(turn, text("lang_set", turn.language))

    async def _end(self, turn: Turn, args: str) -> Reply:
        user = await self.deps.db.users.get(turn.user_id)
        if user is not None and user.session_open:
            written = await write_handover(
                self.deps,
                user,
                turn.conversation_id,
                now_ms=turn.now_ms,
                reason="end",
                use_model=background_llm(self.deps),
            )
            turn.llm_calls += written.model_calls if written is not None else 0
            # this turn must not reopen the session it just closed
            turn.user = user.model_copy(update={"session_open": True})
        return self._plain(turn, text("session_ended", turn.language))

    async def _search(self, turn: Turn, args: str) -> Reply:
        if not args:
            return self._plain(turn, text("search_usage", turn.language))
        outcome = await search_items(
            ToolContext(self.deps, turn, wants_save=False), SearchItemsArgs(query=args[:200])
        )
        assert isinstance(outcome, Found)
        turn.tools_executed.append("search_items")
        return outcomes.found_reply(turn, outcome)

    async def _export(self, turn: Turn, args: str) -> Reply:
        fmt = exporting.export_format(args)
        if fmt is None:
            return self._plain(turn, text("export_usage", turn.language))
        lang, user, now_ms = turn.language, turn.user, turn.now_ms

        async def exported(progress: Progress | None = None, *, to_file: bool = True) -> Reply:
            done = await exporting.export_file(
                self.deps,
                user,
                fmt,
                now_ms=now_ms,
                language=lang,
                progress=progress,
                to_file=to_file,
            )
            key = "export_ready" if fmt == "json" else "export_ready_items"
            body = text(
                key,
                lang,
                items=plural(done.items, "item", lang) if fmt == "json" else done.items,
                messages=plural(done.messages, "message", lang),
                format=fmt.upper(),
            )
            return Reply(text=body, attachment=done.attachment)

        if not exporting.in_parts(user):
            ready = await exported(to_file=False)
            return self._plain(turn, ready.text, attachment=ready.attachment)
        # a long one: said now, sent once written (issue 47), off the user's turn
        count = sum(int(n) for n in user.counts.values())
        body = text("export_preparing", lang, items=plural(count, "item", lang))
        return replace(self._plain(turn, body), follow_up=exported)

    async def _import(self, turn: Turn, args: str) -> Reply:
        if turn.incoming.document is not None:  # a file sent: it is what is imported
            return await importfile.preview(self.deps, turn, turn.incoming.document)
        return await importing.preview(self.deps, turn, turn.incoming.text or "")

    async def _forget(self, turn: Turn, args: str) -> Reply:
        counts = turn.user.counts
        items = sum(int(counts.get(t, 0)) for t in ITEM_TYPES)
        # the numbers given out before this turn (its own are reserved, not yet stored)
        messages = (
            turn.reserved_seq[0] - 1
            if turn.reserved_seq
            else await self.deps.db.messages.last_seq(turn.user_id, turn.conversation_id)
        )
        pending = pendings.ConfirmForget()
        await pendings.store(self.deps, turn, pending)
        turn.facts.apply_rule("confirmation_required")
        return self._plain(
            turn,
            text(
                "forget_preview",
                turn.language,
                items=plural(items, "item", turn.language),
                messages=plural(messages, "message", turn.language),
            ),
            kind="preview",
            choices=confirm_choices(turn),
            choice_kind="confirm",
            choice_token=pending.token,
        )

    async def forget_now(self, turn: Turn) -> Reply:
        """Erase the user's account and data; the ledger (content-free) stays verifiable."""
        db, user_id = self.deps.db, turn.user_id
        removed = {
            "items": await db.items.delete_all(user_id),
            "messages": await db.messages.delete_for_user(user_id),
            "summaries": await db.summaries.delete_for_user(user_id),
            "beliefs": await db.beliefs.delete_for_user(user_id),
            "pending": await db.pending.delete_for_user(user_id),
            "usage": await db.usage.delete_for_user(user_id),
            "update_replies": await db.updates.forget_user(user_id),
            "reminders": await db.reminders.delete_for_user(user_id),
            "undo_snapshots": await db.snapshots.delete_for_user(user_id),
            "memories": await db.memories.delete_for_user(user_id),
        }
        await db.users.delete(user_id)
        await append_event(self.deps, turn, "user_forgotten", removed)
        turn.forgotten = True
        return self._plain(turn, f"{OK_MARK} " + text("forgotten", turn.language), kind="effect")

    # -- admin commands -------------------------------------------------------------------------

    async def _admin(self, turn: Turn, name: str, args: str) -> Reply:
        db = self.deps.db
        lang = turn.language
        if name == "stats":
            day = self.quotas.day(turn)
            return self._plain(turn, await stats_text(self.deps, day, language=lang))
        if name == "users":
            users = await db.users.recent(limit=20)
            lines = [
                text(
                    "admin_user_line",
                    lang,
                    user=u.id,
                    user_language=u.language,
                    items=plural(sum(u.counts.values()), "item", lang),
                    status=text("admin_active" if u.active else "admin_inactive", lang),
                )
                for u in users
            ]
            return self._plain(turn, "\n".join(lines) or "-")
        if name == "quota":
            parts = args.split()
            if len(parts) != 2 or not parts[1].isdigit():
                return self._plain(turn, text("admin_quota_usage", lang))
            found = await db.users.set_daily_quota(parts[0], int(parts[1]))
            key = "admin_quota_set" if found else "admin_unknown_user"
            return self._plain(turn, text(key, lang, user=parts[0], tokens=parts[1]))
        if name == "ledger":
            target = args.split()[0] if args.split() else turn.user_id
            return self._plain(turn, ledger_line(await db.ledger.verify(target), lang))
        if name in ("allow", "deny"):
            return self._plain(turn, await self._access(turn, name, args))
        if name == "constitution":
            return self._plain(
                turn, await constitution_command(self.deps, args, turn.user_id, language=lang)
            )
        assert name == "dream"
        targets = args.split()[:1] or [turn.user_id]
        lines = []
        for target in targets:
            # the admin's own private chat: this turn holds the lease consolidation takes
            own = target == turn.user_id == turn.conversation_id
            _, line = await consolidate_now(
                self.deps,
                target,
                use_model=background_llm(self.deps),
                language=lang,
                lease_held=own,
            )
            lines.append(line)
        return self._plain(turn, "\n".join(lines))

    async def _access(self, turn: Turn, name: str, args: str) -> str:
        """`/allow CODE|ID` and `/deny ID` (DESIGN 11.6); the admin's power was checked above."""
        lang = turn.language
        if not args:
            return text(f"{name}_usage", lang)
        if name == "allow":
            change = await access.approve(self.deps, args, by=turn.user_id)
        else:
            change = await access.revoke(self.deps, args)
        if change.outcome == "invalid":
            return text(f"{name}_usage", lang)
        return text(f"access_{change.outcome}", lang, user_id=change.user_id or args[:40])


def ledger_line(result: Any, language: Language) -> str:
    """A ledger verification in the admin's language (the reason stays the verifier's own)."""
    if result.ok and result.events == 0:
        return text("admin_ledger_empty", language, stream=result.stream)
    if result.ok:
        events = plural(result.events, "event", language)
        return text("admin_ledger_ok", language, stream=result.stream, events=events)
    return text(
        "admin_ledger_broken",
        language,
        stream=result.stream,
        seq=result.bad_seq,
        event=result.bad_id,
        reason=result.reason,
    )


def belief_line(guessed: float, delta: float, language: str) -> str:
    """ "Palpite atual: 0.72 · Delta aplicado: +0.05" (seed 000)."""
    if language == "en":
        return f"Current guess: {guessed:.2f} · Delta applied: {delta:+.2f}"
    return f"Palpite atual: {guessed:.2f} · Delta aplicado: {delta:+.2f}"


def session_kind(intent: Intent | None) -> Literal["chat", "admin"]:
    """A turn's session kind: `admin` for admin commands, `chat` otherwise (`background` is the
    dreamer's and the handover writer's, counted where those calls are made)."""
    if intent is not None and intent.action == "command":
        if str(intent.entities.get("name", "")).lower() in ADMIN_COMMANDS:
            return "admin"
    return "chat"


def _kinds_line(per_user: list[Any], language: Language) -> str:
    totals: dict[str, int] = {}
    for d in per_user:
        for kind, fields in (d.get("kinds") or {}).items():
            for name, n in (fields or {}).items():
                totals[f"{kind}.{name}"] = totals.get(f"{kind}.{name}", 0) + int(n)
        totals["background.calls"] = totals.get("background.calls", 0) + int(
            d.get("background_calls", 0)
        )
        totals["background.tokens"] = totals.get("background.tokens", 0) + int(
            d.get("background_tokens", 0)
        )
    calls = totals["background.calls"] if per_user else 0
    return text(
        "admin_stats_kinds",
        language,
        chat=plural(totals.get("chat.messages", 0), "message", language),
        chat_tokens=totals.get("chat.prompt_tokens", 0),
        admin=plural(totals.get("admin.messages", 0), "message", language),
        calls=plural(calls, "model_call", language),
        tokens=totals["background.tokens"] if per_user else 0,
    )


def _model_cost_line(doc: dict[str, Any], language: Language) -> str:
    """What one model's requests cost its server today, per request (issue 28)."""
    requests = int(doc.get("requests", 0))
    prompt, cached = int(doc.get("prompt_tokens", 0)), int(doc.get("cached_tokens", 0))
    return text(
        "admin_stats_model_cost",
        language,
        model=str(doc["user_id"]).removeprefix(MODEL_SUBJECT),
        requests=requests,
        evaluated=f"{(prompt - cached) / requests:.0f}",
        sent=f"{prompt / requests:.0f}",
        cached=f"{cached / prompt if prompt else 0:.0%}",
        generated=f"{int(doc.get('completion_tokens', 0)) / requests:.0f}",
    )


def _fallbacks_line(per_user: list[Any], language: Language) -> str:
    """Turns whose model call failed, served by the offline planner or not (DESIGN 10.5)."""
    done = {
        outcome: sum(int((d.get("fallbacks") or {}).get(outcome, 0)) for d in per_user)
        for outcome in ("served", "unserved")
    }
    return text("admin_stats_fallbacks", language, served=done["served"], unserved=done["unserved"])


def index_line(progress: IndexProgress, language: Language) -> str:
    """The word index: ready, or how far its catch-up is (issue 47: it runs while serving)."""
    if progress.ready:
        return text("admin_stats_index_ready", language)
    of = max(progress.of, progress.done)
    share = f"{progress.done / of:.0%}" if of else "-"
    return text(
        "admin_stats_index_catching_up",
        language,
        done=progress.done,
        of=of,
        share=share,
    )


async def stats_text(deps: Any, day: str, *, language: Language = "en") -> str:
    """Users, items, messages, share with no model call, tokens today, states, calibration
    (in the admin's language over chat; English for `lembra stats`)."""
    db = deps.db
    await deps.tally.flush(db.usage)  # this process's counters not yet written
    users = await db.users.recent(limit=100_000)
    items = sum(sum(u.counts.values()) for u in users)
    days = await db.usage.days(day)
    per_model = [d for d in days if str(d.get("user_id", "")).startswith(MODEL_SUBJECT)]
    per_user = [d for d in days if d.get("user_id") != GLOBAL and d not in per_model]
    messages = sum(int(d.get("messages", 0)) for d in per_user)
    no_model = sum(int(d.get("messages_no_model", 0)) for d in per_user)
    tokens = next((int(d.get("tokens", 0)) for d in days if d.get("user_id") == GLOBAL), 0)
    states: dict[str, int] = {}
    for d in per_user:
        for state, n in (d.get("states") or {}).items():
            states[state] = states.get(state, 0) + int(n)
    calibrations = await db.usage.of_subject(CALIBRATION)
    lang = language
    lines = [
        text("admin_stats_users", lang, n=len(users)),
        text("admin_stats_items", lang, n=items),
        index_line(await db.word_index.progress(), lang),
        text("admin_stats_messages", lang, n=messages),
        text("admin_stats_no_model", lang, share=f"{no_model / messages:.0%}" if messages else "-"),
        text("admin_stats_tokens", lang, n=tokens),
        text(
            "admin_stats_states",
            lang,
            states=", ".join(f"{k} {v}" for k, v in sorted(states.items())) or "-",
        ),
        _fallbacks_line(per_user, lang),
        _kinds_line(per_user, lang),
    ]
    lines += [_model_cost_line(d, lang) for d in per_model if int(d.get("requests", 0))]
    # Per model (DESIGN 3.5), every model that planned here, not only the configured one.
    for calibration in calibrations:
        n = int(calibration.get("n", 0))
        if not n:
            continue
        model = str(calibration["_id"]).removeprefix(f"{CALIBRATION}:")
        mean = float(calibration.get("abs_error_sum", 0)) / n
        within = int(calibration.get("within", 0)) / n
        lines.append(
            text(
                "admin_stats_calibration",
                lang,
                model=model,
                mean=f"{mean:.3f}",
                within=f"{within:.0%}",
                n=n,
            )
        )
    return "\n".join(lines)
