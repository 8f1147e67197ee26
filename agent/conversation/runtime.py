"""The runtime: the single decision point `handle(incoming) -> Reply` (DESIGN section 1).

Order of a turn: bad input is refused before any write; a pending action is
resolved in code; the intent classifier routes deterministic intents to code with
zero model calls; only `llm` messages reach the planner, whose one step the runtime
validates, executes and then decides what follows (ADR-011). Confidence is computed
for every reply, and everything the turn did is persisted at the end.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from agent.conversation import (
    answering,
    answers,
    batching,
    clarifying,
    continuing,
    corrections,
    degraded,
    deleting,
    hearing,
    importing,
    listing,
    memorycmd,
    noting,
    offers,
    outcomes,
    pointing,
    reminding,
    retyping,
    undoing,
    watching,
)
from agent.conversation import pending as pendings
from agent.conversation import shelf as shelves
from agent.conversation.access import Access
from agent.conversation.background import background_llm
from agent.conversation.commands import Commands, session_kind
from agent.conversation.helping import help_reply
from agent.conversation.recovery import recovered_reply
from agent.conversation.replies import confirm_choices, finish, titled_label
from agent.conversation.turn import Turn
from agent.conversation.turnlog import log_turn
from agent.deps import Deps
from agent.memory import situation as situations
from agent.memory.frame import ContextFrame, build_frame, request_hash
from agent.memory.framecache import FrameCache
from agent.memory.handover import session_idle, write_handover
from agent.memory.history import asked_back_on, situation_before, to_messages
from agent.memory.narrator import narrate, only_tools
from agent.memory.tiers import Tiers, drop_oldest_turn
from agent.planning.backend import ModelBackend, PlannerBackend
from agent.planning.offline import OfflineBackend
from agent.planning.prompt import (
    memory_prompt,
    render_constitution,
    request_messages,
    stable_prompt,
)
from agent.planning.schema import planner_function_schema
from agent.planning.step import PlanningSession
from agent.texts import OK_MARK, items_word, joined, text
from agent.tools import paths, registry
from agent.tools.base import Found, PageFetched, Reasoned, Saved, Simulated, ToolContext
from agent.tools.finding import execute_delete_all
from agent.tools.listing import ListItemsArgs
from agent.tools.saving import store_item
from agent.trust import effects
from agent.trust.budgets import prompt_budget
from agent.trust.quotas import Quotas
from agent.types import Incoming, Language, Reply
from agent.understanding import watchlist
from agent.understanding.batches import read_batch
from agent.understanding.chatter import without_asides, without_chatter, without_remark
from agent.understanding.facts import read_fact
from agent.understanding.intent import Intent, IntentClassifier
from agent.understanding.language import detect_language, reply_language
from agent.understanding.questions import read_question
from agent.understanding.references import named_titles, read_reference, saves_it
from agent.understanding.smalltalk import asks_about_link
from agent.understanding.textnorm import clean_text, fold
from agent.understanding.vocabulary import plain_save_head
from storage import roundtrips
from storage.documents import ITEM_TYPES, UserDoc
from storage.messages import NewMessage

MIN_NARRATIVE = 200
TOUCH_EVERY_MS = 60_000
ALLOWED_FROM_PLAN = paths.plannable(registry().values())
READ_RESULTS = (Found, PageFetched, Simulated)
# a question about saved things: answered from storage, never by a lookup or a save
QUESTION_TOOLS = paths.questions(registry().values())
NO_SAVE_TOOLS = paths.without_saves(registry().values())
# a deterministic turn stores the user's message and the reply: their numbers are reserved
# with the user read, so storing them is one round trip (storage/messages.py)
TURN_MESSAGES = 2
# a planned turn usually stores four: the message, the plan call, its result and the reply
PLANNED_TURN_MESSAGES = 4


class Runtime:
    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.classifier = IntentClassifier()
        self.tools = registry()
        self.backend: PlannerBackend = (
            ModelBackend(deps.model, list(self.tools.values()))
            if deps.model is not None
            else OfflineBackend()
        )
        self.quotas = Quotas(deps)
        self.tiers = Tiers.for_settings(deps.db, deps.counter, deps.settings)
        self.commands = Commands(deps, self.quotas)
        self.frame_cache = FrameCache(deps.settings.frame_cache_ttl_seconds * 1000)
        self.access = Access(deps)  # ALLOWED_USER_IDS (DESIGN 10.5)

    @property
    def offline(self) -> bool:
        return not self.backend.calls_model

    # -- entry point ------------------------------------------------------------------------

    async def handle(self, incoming: Incoming) -> Reply:
        """Decide and answer one incoming message."""
        metrics = self.deps.metrics
        started = time.perf_counter()
        metrics.in_flight.inc()
        try:
            with roundtrips.counted() as trips:
                reply = await self._handle(incoming)
        finally:
            metrics.in_flight.dec()
        log_turn(
            incoming, reply, round_trips=trips.count, ms=(time.perf_counter() - started) * 1000
        )
        metrics.turns.labels(reply.meta.intent or "none").inc()
        metrics.states.labels(reply.meta.state).inc()
        if reply.meta.llm_calls == 0:
            metrics.model_calls_avoided.inc()
        metrics.turn_seconds.labels(reply.meta.turn_kind).observe(time.perf_counter() - started)
        return reply

    async def _handle(self, incoming: Incoming) -> Reply:
        if not await self.access.allows(incoming.user_id):
            return await self.access.refuse(incoming)  # before anything of theirs is written
        if incoming.kind == "voice":  # heard, then handled as the typed message it stands for
            return await hearing.voice_turn(self.deps, incoming, self._handle)
        now = self.deps.clock.ms()
        raw = incoming.text or ""
        correction: corrections.Correction | None = None
        if incoming.kind == "edit":  # a correction of what that message saved, or silence
            if len(raw) > self.deps.settings.max_message_chars:  # the limit a message has
                return await self._refuse_bad_input(incoming, raw) or Reply(text="")
            read = await corrections.read_edit(self.deps, incoming, now)
            if isinstance(read, str):
                return corrections.ignored(incoming, read)
            correction = read
        if incoming.kind == "text":
            refusal = await self._refuse_bad_input(incoming, raw)
            if refusal is not None:
                return refusal
        private = incoming.conversation_id == incoming.user_id
        count = self._messages_expected(incoming) if private else 0
        user = await self._user(incoming, now, reserve=count)
        kept = answers.kept(user, incoming)
        if kept is not None:  # a re-drive of a turn that finished: its answer, nothing again
            return kept
        reserved = (user.message_seq - count + 1, user.message_seq) if private else None
        user = await self._close_idle_session(user, incoming, now)
        # an effect a crash interrupted is finished (and recorded) before anything else
        user, finished = await effects.recover(
            self.deps, user, incoming.conversation_id, incoming.update_id
        )
        worded = incoming.kind in ("text", "edit")
        language = reply_language(
            raw if worded else "",
            stored=user.language,
            chosen=user.language_chosen,
        )
        if language != user.language and not user.language_chosen:
            # the language read from the message becomes the stored one (DESIGN 9.2)
            await self.deps.db.users.set_language(user.id, language, chosen=False)
        turn = Turn(
            incoming=incoming, user=user, language=language, now_ms=now, reserved_seq=reserved
        )
        if incoming.kind == "unsupported":
            return finish(turn, text("unsupported_media", turn.language), kind="deterministic")
        shown = clean_text(raw) if worded else f"[button {incoming.choice}]"
        turn.messages.append(NewMessage(role="human", content=shown, turn_id=turn.turn_id))
        if correction is not None:
            reply = await corrections.correct(self.deps, turn, correction)
        else:
            reply = await recovered_reply(self.deps, turn, finished) or await self._decide(turn)
        reply = await reminding.with_held(self.deps, turn, reply)
        await self._persist(turn, reply)
        return reply

    async def _refuse_bad_input(self, incoming: Incoming, raw: str) -> Reply | None:
        """Empty or oversized messages: a clear reply, before any model call or database write."""
        limit = self.deps.settings.max_message_chars
        if len(raw) <= limit and clean_text(raw):
            return None
        existing = await self.deps.db.users.get(incoming.user_id)
        language: Language = (
            existing.language
            if existing
            else incoming.language_hint or self.deps.settings.default_language
        )
        body = (
            text("too_long", language, length=len(raw), limit=limit)
            if len(raw) > limit
            else text("empty_message", language)
        )
        return Reply(text=body)

    async def _user(self, incoming: Incoming, now: int, *, reserve: int) -> UserDoc:
        """The user, with `reserve` message numbers of its private chat taken in the same trip."""
        settings = self.deps.settings
        return await self.deps.db.users.ensure(
            incoming.user_id,
            language=incoming.language_hint or settings.default_language,
            timezone=settings.default_timezone,
            now_ms=now,
            reserve=reserve,
        )

    def _messages_expected(self, incoming: Incoming) -> int:
        """How many messages this turn will likely store (more are numbered when needed).

        Read from the message alone (about 30 us): a pending question may still turn a
        planned message into a two-message turn, which leaves a gap in the numbers.
        """
        if incoming.kind != "text":
            return TURN_MESSAGES
        planned = self.classifier.classify(incoming.text or "").action == "llm"
        return PLANNED_TURN_MESSAGES if planned else TURN_MESSAGES

    async def _close_idle_session(self, user: UserDoc, incoming: Incoming, now: int) -> UserDoc:
        """A session idle past the limit gets its handover before the new turn opens another.

        The code's handover is written here (database only), so this turn's frame has it;
        the model's text, when background models are on, is left to the background jobs
        (`rewrite_pending`): a user's turn never waits for a handover model call.
        """
        if not await session_idle(self.deps, user, incoming.conversation_id, now):
            return user
        await write_handover(
            self.deps,
            user,
            incoming.conversation_id,
            now_ms=now,
            reason="idle",
            use_model=False,
            model_later=background_llm(self.deps),
        )
        return user.model_copy(update={"session_open": False})

    # -- deciding -----------------------------------------------------------------------------

    async def _decide(self, turn: Turn) -> Reply:
        if turn.incoming.kind == "choice" and reminding.is_snooze(turn.incoming.choice_token):
            return await reminding.snooze(self.deps, turn)  # a pushed reminder's button
        if turn.incoming.kind == "choice" and watching.is_mark_button(turn.incoming.choice_token):
            return await watching.press(self.deps, turn)  # a list line's ✓ (issue 44)
        current = await pendings.load(self.deps, turn)
        if current is not None:
            turn.answers_pending = True
            reply = await self._resolve_pending(turn, current)
            if reply is not None:
                return reply
            turn.answers_pending = False  # unrelated to the question: the message stands alone
            if isinstance(current, pendings.OfferSave | pendings.OfferSeen):
                await pendings.clear(self.deps, turn)  # an offer lapses quietly
            elif self._to_planner(turn, turn.intent):
                turn.open_pending = current  # the frame shows it; a tool the planner runs drops it
            else:
                await pendings.clear(self.deps, turn)
                turn.notes.append(text("pending_dropped", turn.language))
                turn.waiting_delete = current
        if turn.incoming.kind == "choice":
            return finish(turn, text("stale_button", turn.language), kind="deterministic")
        said = plain_save_head(
            without_chatter(turn.incoming.text or "")
        )  # "mas slava tb a série X"
        if said != (turn.incoming.text or ""):  # "salva X e Y pfv": the readers get "salva X e Y"
            turn.incoming = dataclasses.replace(turn.incoming, text=said)
            turn.intent = None
        intent = turn.intent or self.classifier.classify(turn.incoming.text or "")
        if (bare := without_asides(said)) != said:
            # "ops, desfaz, apaguei errado", "actually remove X": clauses of interjections and
            # a lead-in around a request are no topic; anything else keeps its words ("opa
            # errei, é 17h" stays whole for the reader of corrections), and so does a change
            # to a reminder ("na verdade coloca 18h": "coloca 18h" would be a new one)
            plain = self.classifier.classify(bare)
            sets_one = plain.action == "command" and plain.entities.get("name") in SETS_REMINDER
            if sets_one and reminding.moves_one(said):
                plain = intent
            if _reads(plain) and (
                not _reads(intent)
                or _kind(plain) == _kind(intent)
                or (intent.action == "llm" and plain.action != "llm")  # "apaguei" is no delete
            ):
                turn.incoming = dataclasses.replace(turn.incoming, text=bare)
                intent = plain
        parted = without_remark(turn.incoming.text or "")
        if parted is not None and (not _reads(intent) or watchlist.asks_of_title(parted[1])):
            # "hmm só alugando né. salva mesmo assim": a first sentence that asks nothing (no
            # request, no mark, no question) before one that reads as a request; "qnd
            # terminar te aviso. e succession, tem onde?" reads as a search as a whole
            first, rest = parted
            plain = self.classifier.classify(rest)
            if _reads(plain) and _asks_nothing(self.classifier.classify(first), first):
                turn.incoming = dataclasses.replace(turn.incoming, text=rest)
                intent = plain
        turn.intent = intent
        return await self._route(turn, intent)

    async def _route(self, turn: Turn, intent: Intent) -> Reply:
        lang = turn.language
        action = intent.action
        if action == "llm" and (asked := retyping.asked_type(turn)) is not None:
            retyped = await retyping.retype(self.deps, turn, asked)  # "é uma série", in code
            if retyped is not None:
                return retyped
        if action == "llm" or (action == "select" and not self._bare_choice_number(turn)):
            # "1984" may well be a film: a select with nothing pending is the planner's.
            llm_intent = str(intent.entities.get("intent", "other")) if action == "llm" else "other"
            # "e a série X tb", "e o outro também": the last action carried (issue 41)
            continued = await continuing.act(self.deps, turn, self.tools, turn.incoming.text or "")
            if continued is not None and continued.reply is not None:
                return continued.reply
            if continued is not None and continued.hint is not None:
                llm_intent = continued.hint
            elif read_fact(turn.incoming.text or "") is not None:
                llm_intent = "fact"  # "o diretor é o Nolan": about the last item, never a new one
            in_code = await self._in_code(turn, llm_intent)
            if in_code is not None:
                return in_code
            planned = await self.plan(turn, llm_intent)
            if not turn.tools_executed and (named := named_titles(turn.incoming.text or "")):
                # "quem dirigiu o filme Cidade de Deus?" changed nothing: "salva ele" saves
                # it, and what the conversation last did stays ("e o X tb" after a save)
                last = shelves.last_action(turn) or shelves.Last("named")
                titles = tuple(f"{k}:{t}" for k, t in named)
                shelves.did(turn, last.action, last.type, last.period, named=titles)
            return planned
        turn.facts.apply_rule("deterministic_intent")
        match action:
            case "delete_all":
                return await deleting.delete_all_preview(self.deps, turn)
            case "list_all":
                return await self._list(turn, intent)
            case "cancel":
                return finish(turn, text("nothing_to_cancel", lang), kind="deterministic")
            case "confirm" | "deny":
                return finish(turn, text("nothing_to_confirm", lang), kind="deterministic")
            case "select":  # a bare "2": the line of what was just shown, if anything was
                shown = await pointing.act(self.deps, turn, self.tools, turn.incoming.text or "")
                return shown or finish(turn, text("nothing_to_choose", lang), kind="deterministic")
            case "greeting" | "help":
                body = help_reply(self.deps.settings, lang, action, turn.incoming.text or "")
                return finish(turn, body, kind="deterministic")
            case "command":
                return await self.commands.handle(turn, intent)
            case "smalltalk":
                key = f"smalltalk_{intent.entities.get('kind', 'question')}"
                return finish(turn, text(key, lang), kind="deterministic")
        raise AssertionError(f"unhandled intent {action}")

    async def _list(self, turn: Turn, intent: Intent) -> Reply:
        """`lista`, "quantos vídeos eu tenho?", "o que eu salvei hoje?": `list_items`, in code."""
        message = turn.incoming.text or ""
        if reminding.asks_agenda(message):  # "o que eu tenho hoje?": the day's reminders
            agenda = await reminding.in_code(self.deps, turn, message)
            if agenda is not None:
                return agenda
        carried = await watching.carried_list(self.deps, turn, message)  # "e as séries?"
        if carried is not None:
            return carried
        question = read_question(message)
        several = tuple(intent.entities.get("types", ()))  # "q filmes e séries eu tenho?"
        if question is not None and question.kind in ("count", "when") and not question.subject:
            args = answering.list_request(question)
            if args.type is None and intent.entities.get("type") in ITEM_TYPES:
                args = args.model_copy(update={"type": intent.entities["type"]})
            only = question.types or several
            return await listing.list_reply(self.deps, turn, args, only=only)
        wanted = intent.entities.get("type")
        args = ListItemsArgs(type=wanted if wanted in ITEM_TYPES else None)
        page = listing.page_number(message)
        return await listing.list_reply(self.deps, turn, args, page=page, only=several)

    async def _in_code(self, turn: Turn, llm_intent: str) -> Reply | None:
        """What code answers before any planner (issue 26): a reference to the shelf ("apaga o
        2"), a question about saved things, several items to save in one message."""
        message = turn.incoming.text or ""
        reply = await watching.answer(self.deps, turn, message)  # "já vi X", "onde assistir X?"
        if reply is None:
            reply = await pointing.act(self.deps, turn, self.tools, message)
        if reply is None:  # "apaga a série X e o link tb": one question for both
            reply = await deleting.several_named(self.deps, turn, message)
        if reply is None and (llm_intent != "save" or reminding.moves_one(message)):
            reply = await reminding.in_code(self.deps, turn, message)  # asked about, changed
        if reply is None and llm_intent not in ("save", "fact"):  # a save or a fact asks nothing
            reply = await answering.answer(self.deps, turn, self.tools, message)
        if reply is not None or llm_intent == "fact":
            return reply
        batch = read_batch(message, split_and=not self.deps.tmdb.configured)
        if batch is not None:
            return await batching.save_if_settled(self.deps, turn, batch)
        return None

    def _to_planner(self, turn: Turn, intent: Intent | None) -> bool:
        """Whether `_route` sends this message to the planner."""
        return intent is not None and (
            intent.action == "llm"
            or (intent.action == "select" and not self._bare_choice_number(turn))
        )

    @staticmethod
    def _bare_choice_number(turn: Turn) -> bool:
        raw = (turn.incoming.text or "").strip()
        return raw.isdigit() and 1 <= int(raw) <= 10

    # -- pending actions ------------------------------------------------------------------------

    async def _resolve_pending(self, turn: Turn, current: pendings.Pending) -> Reply | None:
        """Resolve `current` in code, or return None when the message is unrelated to it."""
        lang = turn.language
        incoming = turn.incoming
        undos = [
            intent
            for said in {incoming.text or "", without_asides(without_chatter(incoming.text or ""))}
            if incoming.kind == "text"
            and undoing.asks_undo(intent := self.classifier.classify(said))
        ]
        if undos:
            # «desfaz» while a question is open takes the question back, nothing older (DESIGN
            # 11.3), also among asides ("ops, desfaz, apaguei errado"); a «desfaz» that names
            # an effect ("não apaga. desfaz o último que eu salvei") undoes that one too
            await pendings.clear(self.deps, turn)
            named = next((str(i.entities.get("args", "")) for i in undos if undoing.names(i)), "")
            labels = (
                [o.label for o in current.also] + [current.label]
                if isinstance(current, pendings.ConfirmDeleteItem)  # what stays, by its name
                else []
            )
            if named:
                turn.notes.append(
                    text("undo_kept_item_short", lang, label=joined(labels, lang))
                    if labels
                    else text("undo_question_dropped", lang)
                )
                return await undoing.undo(self.deps, turn, named)
            if labels:
                kept = text("undo_kept_item", lang, label=joined(labels, lang))
                return finish(turn, kept, kind="deterministic")
            return finish(turn, text("undo_cancelled_question", lang), kind="deterministic")
        if isinstance(current, pendings.ChooseClarification):
            return await self._clarified(turn, current)
        if isinstance(current, pendings.ChooseReminderTime):  # a reminder's time (issue 36)
            if incoming.kind == "text":
                turn.intent = self.classifier.classify(incoming.text or "")
            # a reminder, or only a note: "keep it" takes the note offered
            if reminding.chose_note(self.deps, turn, current) or (
                current.note and saves_it(incoming.text or "")
            ):
                await pendings.clear(self.deps, turn)
                return await noting.keep_note(self.deps, turn, self.tools, current.note)
            return await reminding.answer_time(self.deps, turn, current)
        if isinstance(current, pendings.ChooseCancelScope):  # a repeating one: next or all
            if incoming.kind == "text":
                turn.intent = self.classifier.classify(incoming.text or "")
            return await reminding.answer_scope(self.deps, turn, current)
        if incoming.kind == "choice":
            if incoming.choice_token != current.token or incoming.choice is None:
                return finish(turn, text("stale_button", lang), kind="deterministic")
            if pendings.is_choice(current):
                return await self._choose(turn, current, incoming.choice)  # type: ignore[arg-type]
            return await (
                self._confirm(turn, current) if incoming.choice == 0 else self._deny(turn, current)
            )
        intent = self.classifier.classify(incoming.text or "")
        turn.intent = intent
        if intent.action == "help" or (
            intent.action == "command" and intent.entities.get("name") in ("why", "end")
        ):
            # asking for help or why does not abandon the open question; /end leaves it to the handover
            return await self._route(turn, intent)
        if intent.action == "cancel" or (intent.action == "deny" and pendings.is_choice(current)):
            await pendings.clear(self.deps, turn)
            return finish(turn, text("cancelled", lang), kind="deterministic")
        if isinstance(current, pendings.OfferSave) and saves_it(incoming.text or ""):
            return await self._confirm(turn, current)  # "save that": what the offer keeps
        if isinstance(current, pendings.OfferSave) and not offers.accepts(incoming.text or ""):
            if intent.action in ("confirm", "deny"):
                await pendings.clear(self.deps, turn)
                return finish(turn, text("offer_declined", lang), kind="deterministic")
            return None  # anything else is a new message; the offer lapses quietly
        if isinstance(current, pendings.OfferSeen) and intent.action not in ("confirm", "deny"):
            if offers.takes_seen(incoming.text or ""):  # "pode sim, salva como visto"
                if (rating := offers.yes_rating(incoming.text or "")) is not None:
                    current = current.model_copy(update={"rating": rating})  # "nota 10 pra ele"
                return await self._confirm(turn, current)
            return None  # anything else is a new message; the offer lapses quietly
        if not pendings.is_choice(current):
            if intent.action == "confirm" and "?" in (incoming.text or ""):
                # "sim?", "certo?": a question is not the explicit confirmation a deletion needs
                return finish(
                    turn,
                    text("confirm_needs_plain_yes", lang),
                    kind="preview",
                    choices=confirm_choices(turn),
                    choice_kind="confirm",
                    choice_token=current.token,
                )
            if intent.action == "confirm":
                return await self._confirm(turn, current)
            if intent.action == "deny":
                return await self._deny(turn, current)
            return None
        choice: pendings.ChooseCandidate | pendings.ChooseDelete = current  # type: ignore[assignment]
        if intent.action == "select":
            if "index" in intent.entities:
                return await self._choose(turn, choice, int(intent.entities["index"]))
            year = int(intent.entities.get("year", 0))
            matching = [
                i
                for i, option_year in enumerate(pendings.option_years(choice))
                if option_year == year
            ]
            if len(matching) == 1:
                return await self._choose(turn, choice, matching[0])
            if len(matching) > 1:
                return finish(turn, text("year_ambiguous", lang, year=year), kind="deterministic")
            return None
        said = read_reference(incoming.text or "")
        if said is not None and said.correction and said.field == "year" and said.value:
            # "na verdade é o de 2021" while a choice is open: the option of that year (issue 26)
            years = pendings.option_years(choice)
            matching = [i for i, option_year in enumerate(years) if option_year == int(said.value)]
            if len(matching) == 1:
                return await self._choose(turn, choice, matching[0])
        wanted = fold(incoming.text or "")
        labels = [fold(self._option_label(choice, i)) for i in range(pendings.option_count(choice))]
        if wanted and labels.count(wanted) == 1:
            return await self._choose(turn, choice, labels.index(wanted))
        return None

    @staticmethod
    def _option_label(choice: pendings.ChooseCandidate | pendings.ChooseDelete, index: int) -> str:
        if isinstance(choice, pendings.ChooseCandidate):
            option = choice.options[index]
            return titled_label(option.title, option.year)
        return choice.options[index].label

    async def _choose(
        self, turn: Turn, choice: pendings.ChooseCandidate | pendings.ChooseDelete, index: int
    ) -> Reply:
        lang = turn.language
        count = pendings.option_count(choice)
        if index < 0:
            index += count  # "o último" / "the last one"
        if not 0 <= index < count:
            return finish(
                turn, text("choice_out_of_range", lang, count=count), kind="deterministic"
            )
        await pendings.clear(self.deps, turn)
        turn.facts.apply_rule("choice_resolved_in_code")
        if isinstance(choice, pendings.ChooseCandidate):
            option = choice.options[index]
            tool = "save_movie" if choice.item_type == "movie" else "save_tv_show"
            outcome = await store_item(
                ToolContext(self.deps, turn, wants_save=True),
                choice.item_type,
                title=option.title,
                year=option.year,
                tmdb_id=option.tmdb_id,
                overview=option.overview,
                enriched=True,
                original_title=option.original_title,
            )
            if isinstance(outcome, Saved):
                turn.tools_executed.append(tool)
            return outcomes.saved_reply(turn, outcome)
        # Choosing says which item, not that it may go: a deletion still needs its "sim".
        target = choice.options[index]
        return await deleting.delete_preview(self.deps, turn, target.item_id, target.label)

    async def _confirm(self, turn: Turn, current: pendings.Pending) -> Reply:
        lang = turn.language
        await pendings.take(self.deps, turn)  # kept for this update's re-drive (issue 46)
        turn.facts.apply_rule("explicit_confirmation")
        if isinstance(current, pendings.ConfirmDeleteItem):
            return await deleting.confirmed(self.deps, turn, current)
        if isinstance(current, pendings.ConfirmDeleteAll):
            count, kept = await execute_delete_all(self.deps, turn, up_to_seq=current.up_to_seq)
            await self.deps.db.users.update(turn.user_id, {"dream_due": "all_deleted"})
            done = text("delete_all_done", lang, count=count, items=items_word(count, lang))
            if kept:
                done += " " + text("delete_all_kept_newer", lang, count=kept)
            return finish(turn, f"{OK_MARK} " + done, kind="effect")
        if isinstance(current, pendings.OfferSave):
            outcome = await offers.accept(self.deps, turn, current, self.tools)
            if isinstance(outcome, Saved) and outcome.created:
                turn.tools_executed.append(current.tool)
            return outcomes.saved_reply(turn, outcome)
        if isinstance(current, pendings.OfferSeen):
            seen = await offers.save_seen(self.deps, turn, current)
            if not isinstance(seen, Saved):
                return outcomes.saved_reply(turn, seen)  # why it could not be saved
            return offers.seen_reply(turn, current, seen)
        if isinstance(current, pendings.ConfirmUndoAll):
            return await undoing.confirm_restore_all(self.deps, turn, current)
        if isinstance(current, pendings.ConfirmImport):
            return await importing.confirm(self.deps, turn, current)
        if isinstance(current, pendings.ConfirmClearMemory):
            return await memorycmd.clear_all(self.deps, turn)
        assert isinstance(current, pendings.ConfirmForget)
        return await self.commands.forget_now(turn)

    async def _deny(self, turn: Turn, current: pendings.Pending) -> Reply:
        await pendings.take(self.deps, turn)
        key = "kept_account" if isinstance(current, pendings.ConfirmForget) else "kept_everything"
        if isinstance(current, pendings.OfferSave):
            key = "offer_declined"
        if isinstance(current, pendings.OfferSeen):
            key = "offer_seen_declined"
        if isinstance(current, pendings.ConfirmUndoAll):
            key = "undo_kept"
        if isinstance(current, pendings.ConfirmImport):
            key = "import_cancelled"
        return finish(turn, text(key, turn.language), kind="deterministic")

    # -- the model path -------------------------------------------------------------------------------

    async def _clarified(self, turn: Turn, current: pendings.ChooseClarification) -> Reply:
        """The user's answer to the planner's question goes back to it as that call's result."""
        if turn.incoming.kind == "text":
            turn.intent = self.classifier.classify(turn.incoming.text or "")
        found = await clarifying.resolve(self.deps, turn, current)
        if found is None:
            assert turn.intent is not None
            return await self._route(turn, turn.intent)
        if not isinstance(found, clarifying.Answer):
            return found
        said = self.classifier.classify(found.said)  # "Salvar como nota" asks to save
        intent = str(said.entities.get("intent", "other")) if said.action == "llm" else "other"
        return await self.plan(turn, intent, answered=found)

    async def plan(
        self, turn: Turn, llm_intent: str, *, answered: clarifying.Answer | None = None
    ) -> Reply:
        """Plan one step (and a second only to phrase an answer from read results)."""
        wants_save = llm_intent == "save"
        # the offline rules read only the message: no frame, no history, no memory reads
        messages: list[BaseMessage] = (
            [HumanMessage(content=turn.messages[0].content)]
            if self.offline
            else await self._context(turn, allowed=self.allowed(turn, llm_intent))
        )
        if answered is not None:
            clarifying.deliver(turn, messages, answered)
        session = PlanningSession(
            self.deps,
            turn,
            self.backend,
            self.tools,
            messages,
            wants_save=wants_save,
            llm_intent=llm_intent,
            quotas=self.quotas,
            consented=answered is not None or self._save_still_asked(turn),
        )
        allowed = self.allowed(turn, llm_intent)
        # an explicit save code reads with no doubt is done in code when the model's answer
        # ran away (cut at the cap, looping): it is not asked a second time (issue 41)
        retry = answered is not None or not noting.reads_save(turn.incoming.text or "")
        result = await session.step(allowed=allowed, index=0, retry=retry)
        if isinstance(result.outcome, Reasoned):  # a note for /why: the plan is the next step
            notes = paths.of_kinds(self.tools.values(), frozenset({"meta"}))
            result = await session.step(allowed=allowed - notes, index=1)
        if result.transport and answered is None:  # the model is down: the offline rules serve
            return await degraded.fall_back(
                self.deps,
                turn,
                result,
                llm_intent=llm_intent,
                tools=self.tools,
                quotas=self.quotas,
                allowed=allowed,
            )
        await pendings.settle_open(self.deps, turn, status=result.status, outcome=result.outcome)
        if answered is None:  # "anota: X" the model asked back about or only answered
            kept = await noting.unsaved_note(self.deps, turn, self.tools, result)
            if kept is not None:
                return kept
        if (
            result.status == "tool"
            and isinstance(result.outcome, READ_RESULTS)
            and llm_intent == "other"
            and not self.offline
        ):
            phrased = await session.step(allowed=frozenset(), index=1, phrasing=True)
            if phrased.status == "respond":
                return await outcomes.model_message(self.deps, turn, phrased, kind="effect")
            if phrased.status == "violation":
                return await outcomes.after_step(
                    self.deps, turn, phrased, wants_save, offline=self.offline
                )
            # a search is never thrown away: when the phrasing failed (invalid output after
            # the retries, or the model unavailable) the runtime phrases the results itself
            if phrased.status == "failed":
                turn.facts.apply_rule("phrased_by_runtime")
        reply = await outcomes.after_step(self.deps, turn, result, wants_save, offline=self.offline)
        return retyping.announce_guess(turn, result, reply) if self.offline else reply

    def _save_still_asked(self, turn: Turn) -> bool:
        """The user's save is still being served: they answer the choice it left open
        ("quero o mais antigo") or what the reply to it asked back ("the 1975 one")."""
        if isinstance(turn.open_pending, pendings.ChooseCandidate | pendings.OfferSave):
            return True
        said = turn.asked_back_on
        if not said:
            return False
        intent = self.classifier.classify(said)
        return intent.action == "llm" and intent.entities.get("intent") == "save"

    @staticmethod
    def allowed(turn: Turn, llm_intent: str) -> frozenset[str]:
        """The tools the first planning step may call on this path (the turn's part says so).

        A question gets search and clarification, never a save (issue 26: a lookup is
        never the answer to a question about something saved); a question about a link
        may read the page but never saves it.
        """
        message = turn.incoming.text or ""
        if asks_about_link(message):
            return NO_SAVE_TOOLS  # a question about a link never saves it
        if llm_intent == "search":
            return QUESTION_TOOLS
        if llm_intent == "fact":
            return NO_SAVE_TOOLS  # a fact about the item just named: changed or asked, never saved
        if llm_intent != "save" and "?" in message:
            return NO_SAVE_TOOLS
        return ALLOWED_FROM_PLAN

    async def _context(
        self, turn: Turn, *, allowed: frozenset[str] = ALLOWED_FROM_PLAN
    ) -> list[BaseMessage]:
        """The whole request, built before the call and kept within the prompt budget (DESIGN 3.7, 3.9).

        Ordered so a server's prefix cache keeps all but the last turn (issue 28): the
        stable rules, what is remembered (every tool listed), the history (append-only
        until it drops a block), this message's situation (with the tools this path
        allows, when fewer), then the message.
        """
        settings = self.deps.settings
        frame = await self._frame(turn)
        turn.asked_back_on = asked_back_on(frame.verbatim)
        told_in = conversation_language(turn, frame.verbatim)
        only = "" if allowed == ALLOWED_FROM_PLAN else only_tools(sorted(allowed), told_in)
        only_parts = (
            situations.Part("tools", only, always=True),
            situations.Part("language", write_in(turn.language, told_in), always=True),
        )
        beliefs = dict(frame.memory.get("beliefs") or {})
        beliefs["answer.confidence"] = 1.0
        constitution = render_constitution(frame.constitution)  # text, stance, overrides
        verbatim = list(frame.verbatim)
        narrative_budget = settings.narrative_token_budget
        tools = [planner_function_schema()]
        budget = prompt_budget(settings, session_kind(turn.intent))  # chat or admin (issue 12)
        json_output = self.deps.model is not None and self.deps.model.output_mode == "json_schema"
        stable = stable_prompt(
            tools=list(self.tools.values()), constitution=constitution, json_output=json_output
        )
        shrunk = False
        while True:
            narrative = narrate(
                frame,
                told_in,
                budget=narrative_budget,
                counter=self.deps.counter,
                changes_told=json_output,
            )
            parts = (*narrative.parts, *only_parts)
            # json_schema: what changed since the last situation the history shows (issue 28)
            situation = situations.tell(parts, situation_before(verbatim) if json_output else None)
            messages = request_messages(
                stable,
                memory_prompt(beliefs=beliefs, language=told_in, memory=narrative.memory),
                to_messages(verbatim, verbatim=json_output),
                situation,
                turn.messages[0].content,
            )
            size = self.backend.count_prompt(messages, tools=tools)
            if size <= budget or (not verbatim and narrative_budget <= MIN_NARRATIVE):
                break
            if not shrunk and len(verbatim) > self.tiers.keep:
                # The history drops a block at once, stored, so the next requests share
                # this one's prefix again; the memory is read again with what it folded.
                shrunk = True
                await self.tiers.shrink(turn.user_id, turn.conversation_id)
                frame = await self._frame(turn)
                verbatim = list(frame.verbatim)
                told_in = conversation_language(turn, verbatim)
                self.deps.metrics.sections_compressed.labels("history_block").inc()
            elif verbatim:  # this request only: the oldest whole turn goes first
                verbatim = drop_oldest_turn(verbatim)
                self.deps.metrics.sections_compressed.labels("verbatim").inc()
            else:
                narrative_budget = max(MIN_NARRATIVE, narrative_budget // 2)
        for section in narrative.compressed:
            self.deps.metrics.sections_compressed.labels(section).inc()
        self.deps.metrics.narrative_tokens.observe(narrative.tokens)
        turn.facts.apply_rule(f"frame:{request_hash(messages, tools)[:12]}")
        if json_output and turn.messages[0].role == "human":
            # the history shows this message with its situation again (issue 28)
            turn.messages[0] = dataclasses.replace(
                turn.messages[0],
                situation=situation,
                situation_parts=tuple(p.as_record() for p in parts),
            )
        return messages

    async def _frame(self, turn: Turn) -> ContextFrame:
        return await build_frame(
            self.deps,
            turn,
            tools=sorted(ALLOWED_FROM_PLAN),
            tiers=self.tiers,
            cache=self.frame_cache,
        )

    # -- persistence ------------------------------------------------------------------------------

    async def _persist(self, turn: Turn, reply: Reply) -> None:
        """Store the turn's messages (native roles, in order) and its counters."""
        if turn.forgotten:
            return
        meta = json.dumps(asdict(reply.meta), ensure_ascii=False, default=str)
        turn.messages.append(
            NewMessage(role="ai", content=reply.text, turn_id=turn.turn_id, meta_json=meta)
        )
        db = self.deps.db
        await db.messages.append(
            turn.user_id,
            turn.conversation_id,
            turn.messages,
            now_ms=turn.now_ms,
            reserved=turn.reserved_seq,
        )
        counters: dict[str, int | float] = {"messages": 1, f"states.{reply.meta.state}": 1}
        kind = session_kind(turn.intent)  # chat or admin; background use is counted by Quotas
        counters[f"kinds.{kind}.messages"] = 1
        counters[f"kinds.{kind}.prompt_tokens"] = sum(turn.prompt_tokens)
        if turn.fallback:  # the model failed; the offline planner served it or could not
            counters[f"fallbacks.{turn.fallback}"] = 1
        if reply.meta.llm_calls == 0:
            counters["messages_no_model"] = 1
        else:
            counters["llm_calls"] = reply.meta.llm_calls
        tally = self.deps.tally  # summed in memory, written in one batch now and then
        tally.add(turn.user_id, self.quotas.day(turn), counters, now_ms=turn.now_ms)
        if tally.due(turn.now_ms):
            await tally.flush(db.usage)
        opening = not turn.user.session_open
        shelves.forget_named(turn)  # titles named count for the next message only
        shelf = shelves.take_staged(turn)  # what this turn showed, numbered (DESIGN 10.1)
        answer = answers.to_keep(turn, reply)  # what a re-drive of this update answers
        if opening or shelf or answer or turn.now_ms - turn.user.last_seen_at_ms >= TOUCH_EVERY_MS:
            # last_seen only needs minute precision (idle sessions are 30 minutes)
            also = {**(shelf or {}), **answer}
            await db.users.touch(turn.user_id, turn.now_ms, open_session=opening, also=also)
        # The memory tiers are folded when the next model request is built (Tiers.view).


def conversation_language(turn: Turn, history: Sequence[Any]) -> Language:
    """The language the request's remembered part and situations are told in (issue 41).

    The language of the history's first message that has one, so one English message
    among Portuguese ones changes nothing the server has cached: the history, and what
    is remembered before it, are told as before; that message only gets a line saying
    which language to write in (`write_in`). Told anew when the history drops a block,
    which the server evaluates again anyway. A language chosen with /lang is always it.
    """
    if turn.user.language_chosen:
        return turn.language
    for record in history:
        if getattr(record, "role", "") == "human":
            found = detect_language(str(getattr(record, "content", "") or ""))
            if found is not None:
                return found
    return turn.language


def write_in(language: Language, told_in: Language) -> str:
    """The situation's line asking for `language` when the conversation is told in another."""
    if language == told_in:
        return ""
    name = {"pt": {"pt": "português", "en": "inglês"}, "en": {"pt": "Portuguese", "en": "English"}}
    if told_in == "pt":
        return f"Nesta mensagem, escreva em {name['pt'][language]}."
    return f"For this message, write in {name['en'][language]}."


SETS_REMINDER = frozenset({"remind", "remind_or_note"})


def _reads(intent: Intent) -> bool:
    """Whether a message reads as a request in code: a command, or a kind for the planner
    ("apaga a nota X" is a delete); a search or a plain message is no reading."""
    if intent.action == "llm":
        return str(intent.entities.get("intent", "other")) != "other"
    return intent.action not in ("search", "smalltalk")


def _asks_nothing(intent: Intent, said: str) -> bool:
    """Whether a sentence asks nothing and names nothing the next may point at: no request,
    no watchlist mark or question, no fact, no title ("a friend recommended two films, Past
    Lives and Aftersun. save the first one" saves from the first sentence)."""
    return (
        not _reads(intent)
        and not named_titles(said)
        and watchlist.read(said) is None
        and read_question(said) is None
        and read_fact(said) is None
    )


def _kind(intent: Intent) -> str:
    return str(intent.entities.get("intent", "")) if intent.action == "llm" else intent.action
