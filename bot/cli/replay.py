"""`lembra replay FILE...`: run transcript files against the real runtime (DESIGN section 6).

Each file runs against a fresh database on an embedded server, a scripted
OpenAI-compatible model server and a fake TMDB, both on loopback, so the real
client code runs. The program's clock is a FakeClock started at 2026-01-05 10:00
in the user's time zone. One JSON report is printed per file; the exit status is
0 only if every expectation held. A turn's `prompt_tokens` is one number: the
prompt tokens of every request the model server received in the turn, added up
(0 with none); the `max_prompt_tokens` expectation bounds the largest single one.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from agent.assembly import open_deps
from agent.clock import FakeClock
from agent.conversation.background import run_due
from agent.conversation.delivery import PushOutcome
from agent.conversation.runtime import Runtime
from agent.tokens import TokenCounter
from agent.tools.candidates import word_source
from agent.types import Audio, Incoming, Reply, namespaced_user_id
from bot.fakes.scripted_model import ScriptedModelServer, check_error, check_output
from bot.fakes.tmdb import FakeTmdb
from bot.fakes.transcription import FakeTranscriptionServer, silent_voice_note
from config.settings import Settings
from storage import Database
from storage.database import make_client
from storage.documents import ReminderDoc
from storage.embedded import EmbeddedServer

REPLAY_START = (2026, 1, 5, 10, 0)
UNLIMITED = 10**12


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Expect(_Strict):
    llm_calls: int | None = None
    state: Literal["OK", "PARTIAL", "AMBIGUOUS", "FAIL"] | None = None
    reply_contains: list[str] = Field(default_factory=list)
    reply_not_contains: list[str] = Field(default_factory=list)
    items: list[dict[str, Any]] | None = None
    items_count: int | None = None
    tools_executed: list[str] | None = None
    pending: bool | None = None
    ledger_events: list[str] = Field(default_factory=list)
    max_prompt_tokens: int | None = None
    pushed_contains: list[str] = Field(default_factory=list)
    transcriptions: int | None = None  # requests the transcription server received this turn

    @field_validator("state", mode="before")
    @classmethod
    def _any_case(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("reply_contains", "reply_not_contains", "pushed_contains", mode="before")
    @classmethod
    def _listify(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class TurnSpec(_Strict):
    user: str | None = None
    button: int | None = Field(default=None, ge=0)
    as_user: str | None = None
    llm: list[dict[str, Any]] = Field(default_factory=list)
    llm_errors: list[dict[str, Any]] = Field(default_factory=list)
    tmdb_status: int | None = None
    advance: float | None = Field(default=None, ge=0)
    # a voice note (DESIGN 10.3): what the fake transcription server hears in it, its length
    # as the channel announces it, and the HTTP status the server answers instead (500, 401...)
    voice: str | None = None
    voice_seconds: float | None = Field(default=None, gt=0)
    transcribe_status: int | None = Field(default=None, ge=400, le=599)
    expect: Expect = Field(default_factory=Expect)

    @model_validator(mode="after")
    def _text_or_button(self) -> TurnSpec:
        given = [self.user is not None, self.button is not None, self.voice is not None]
        if sum(given) != 1:
            raise ValueError(
                "a turn needs exactly one of `user` (text), `button` (index) or `voice` (words)"
            )
        if self.voice is None and (
            self.voice_seconds is not None or self.transcribe_status is not None
        ):
            raise ValueError("`voice_seconds` and `transcribe_status` need a `voice` turn")
        return self

    @field_validator("user", "voice", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return (
            str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value
        )

    @field_validator("llm")
    @classmethod
    def _outputs(cls, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for position, output in enumerate(value):
            check_output(position, output)
        return value

    @field_validator("llm_errors")
    @classmethod
    def _errors(cls, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for position, error in enumerate(value):
            check_error(position, error)
        return value

    @field_validator("as_user")
    @classmethod
    def _user_id(cls, value: str | None) -> str | None:
        if value is not None:
            namespaced_user_id(value)  # a ValueError names the bad id
        return value


class TranscriptSpec(_Strict):
    user: str = "replay"
    language: Literal["pt", "en"] = "pt"
    timezone: str | None = None
    tmdb: dict[str, dict[str, list[dict[str, Any]]]] = Field(default_factory=dict)
    model_timeout: float = Field(default=2.0, gt=0)
    context_size: int = Field(default=16_000, gt=0)
    daily_token_quota: int | None = Field(default=None, ge=0)
    global_token_cap: int | None = Field(default=None, ge=0)
    background_llm: bool = False
    output_mode: Literal["tools", "json_schema"] = "tools"  # LLM_OUTPUT_MODE of the run
    risk_confirm_threshold: float = Field(default=0.3, ge=0, le=1)  # RISK_CONFIRM_THRESHOLD
    risk_block_threshold: float = Field(default=0.9, ge=0, le=1)  # RISK_BLOCK_THRESHOLD
    turns: list[TurnSpec] = Field(min_length=1)

    @field_validator("tmdb", mode="before")
    @classmethod
    def _string_keys(cls, value: Any) -> Any:
        # YAML reads `1984:` as an int key; the fake matches on strings.
        if isinstance(value, Mapping):
            return {
                str(kind): {str(q): v for q, v in (queries or {}).items()}
                if isinstance(queries, Mapping | None)
                else queries
                for kind, queries in value.items()
            }
        return value

    @field_validator("user")
    @classmethod
    def _user_id(cls, value: str) -> str:
        namespaced_user_id(value)  # a ValueError names the bad id
        return value

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                ZoneInfo(value)
            except (ValueError, KeyError):  # ZoneInfoNotFoundError is a KeyError
                raise ValueError(f"unknown time zone {value!r} (e.g. America/Sao_Paulo)") from None
        return value


def user_id(name: str) -> str:
    """Transcript users live in the console namespace (`alice` -> `cli:alice`), as every `--user`."""
    return namespaced_user_id(name)


class TranscriptError(ValueError):
    """A transcript file that cannot be run; the message names the file and, when known, where."""


def load_transcript(path: Path) -> TranscriptSpec:
    """Read and validate one transcript file (YAML, or JSON when it ends in `.json`).

    Raises:
        TranscriptError: unreadable, empty, not YAML/JSON, or not a valid transcript.
    """
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TranscriptError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise TranscriptError(f"{path}: cannot read the file: {exc.strerror or exc}") from None
    empty = f"{path}: empty transcript (expected a mapping with at least `turns`)"
    if not raw.strip():
        raise TranscriptError(empty)
    try:
        data = json.loads(raw) if path.suffix == ".json" else yaml.safe_load(raw)
    except json.JSONDecodeError as exc:
        raise TranscriptError(
            f"{path}: line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}"
        ) from None
    except yaml.YAMLError as exc:
        raise TranscriptError(f"{path}: {_yaml_problem(exc)}") from None
    if data is None:  # only comments or `---`
        raise TranscriptError(empty)
    if not isinstance(data, Mapping):
        raise TranscriptError(
            f"{path}: a transcript is a mapping with at least `turns`, not {_kind(data)}"
        )
    try:
        return TranscriptSpec.model_validate(data)
    except ValidationError as exc:
        raise TranscriptError(f"{path}: {_short(exc)}") from None


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """`line L, column C: problem (while ... at line L, column C)`, 1-based as editors count."""
    if not isinstance(exc, yaml.MarkedYAMLError) or exc.problem_mark is None:
        return f"invalid YAML: {_short(exc)}"
    mark = exc.problem_mark
    found = f"line {mark.line + 1}, column {mark.column + 1}: invalid YAML: {exc.problem}"
    if exc.context and exc.context_mark is not None:
        context = exc.context_mark
        found += f" ({exc.context} at line {context.line + 1}, column {context.column + 1})"
    elif exc.context:
        found += f" ({exc.context})"
    return found


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a plain string"
    return f"a {type(value).__name__}"


@dataclass
class TurnReport:
    index: int
    reply: str = ""
    state: str = ""
    score: int = 0
    tools_executed: list[str] = field(default_factory=list)
    llm_calls: int = 0
    prompt_tokens: int = 0  # summed over the turn's requests; the largest is checked apart
    failures: list[str] = field(default_factory=list)


def _matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.strip().casefold() == actual.strip().casefold()
    return bool(expected == actual)


class UnresolvedItem(ValueError):
    """An `${item:USER:N}` placeholder that names no existing item; the message names it."""


class _ItemRefs:
    """`${item:USER:N}` in scripted outputs: the id of that user's N-th item (creation order)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def substitute(self, value: Any) -> Any:
        """`value` with every placeholder replaced.

        Raises:
            UnresolvedItem: a placeholder is malformed, or its user or item does not exist.
        """
        if isinstance(value, str):
            return await self._in_string(value)
        if isinstance(value, list):
            return [await self.substitute(v) for v in value]
        if isinstance(value, dict):
            return {k: await self.substitute(v) for k, v in value.items()}
        return value

    async def _in_string(self, text: str) -> str:
        done = 0
        while (start := text.find("${item:", done)) != -1:
            end = text.find("}", start)
            if end == -1:
                raise UnresolvedItem(f"{text[start:]!r} is not closed: write ${{item:USER:N}}")
            replacement = await self._item_id(text[start : end + 1])
            text = text[:start] + replacement + text[end + 1 :]
            done = start + len(replacement)
        return text

    async def _item_id(self, placeholder: str) -> str:
        name, _, index = placeholder[len("${item:") : -1].rpartition(":")
        try:
            uid = user_id(name)
        except ValueError:
            uid = ""
        if not uid or not index.isdigit():
            raise UnresolvedItem(
                f"{placeholder} is not of the form ${{item:USER:N}} (N counts from 0)"
            )
        if await self.db.users.get(uid) is None:
            raise UnresolvedItem(f"{placeholder}: {uid} is not a user of this replay")
        items = await self.db.items.list_for(uid)
        if int(index) >= len(items):
            has = f"only {len(items)} item(s), N 0..{len(items) - 1}" if items else "no items"
            raise UnresolvedItem(f"{placeholder}: {uid} has {has}")
        return items[int(index)].id


class TranscriptRun:
    """Everything one transcript file runs against, and the run itself."""

    def __init__(
        self, path: Path, spec: TranscriptSpec, server_uri: str, counter: TokenCounter
    ) -> None:
        self.path = path
        self.spec = spec
        self.server_uri = server_uri
        self.counter = counter
        self.last_token: dict[str, str | None] = {}
        self.pushed: dict[str, list[str]] = {}  # texts pushed to each user since their last turn

    async def push(
        self, reminder: ReminderDoc, reply: Reply, *, template: str | None
    ) -> PushOutcome:
        """The replay's channel for pushed messages: kept for `expect.pushed_contains`."""
        self.pushed.setdefault(reminder.user_id, []).append(reply.text)
        if reply.choices:
            self.last_token[reminder.user_id] = reply.choice_token
        return "sent"

    def _settings(
        self, model_url: str, tmdb_url: str, timezone: str, voice_url: str | None
    ) -> Settings:
        spec = self.spec
        user_quota = spec.daily_token_quota if spec.daily_token_quota is not None else UNLIMITED
        return Settings(
            _env_file=None,  # type: ignore[call-arg]
            openai_base_url=model_url,
            openai_api_key=SecretStr("replay-not-a-secret"),
            llm_timeout_seconds=spec.model_timeout,
            llm_model="replay-scripted",
            tmdb_base_url=tmdb_url,
            tmdb_api_key=None,
            default_language=spec.language,
            default_timezone=timezone,
            user_daily_token_quota=user_quota,
            admin_daily_token_quota=user_quota,
            global_daily_token_cap=spec.global_token_cap
            if spec.global_token_cap is not None
            else UNLIMITED,
            admin_user_ids="",
            link_fetch_allow_loopback=True,
            background_llm=spec.background_llm,
            llm_output_mode=spec.output_mode,
            risk_confirm_threshold=spec.risk_confirm_threshold,
            risk_block_threshold=spec.risk_block_threshold,
            transcribe_base_url=voice_url,
        )

    async def run(self) -> dict[str, Any]:
        spec = self.spec
        timezone = spec.timezone or Settings(_env_file=None).default_timezone  # type: ignore[call-arg]
        clock = FakeClock(datetime(*REPLAY_START, tzinfo=ZoneInfo(timezone)))
        db = Database(
            make_client(self.server_uri), f"replay_{uuid.uuid4().hex[:12]}", words=word_source()
        )
        await db.ensure_indexes()
        await db.items.catch_up()
        model = ScriptedModelServer(context_size=spec.context_size, counter=self.counter)
        tmdb = FakeTmdb(spec.tmdb)
        # voice notes are transcribed only in a transcript that sends some
        ears = FakeTranscriptionServer() if any(t.voice is not None for t in spec.turns) else None
        turns: list[TurnReport] = []
        try:
            model_url = await model.start()
            tmdb_url = await tmdb.start()
            voice_url = await ears.start() if ears is not None else None
            settings = self._settings(model_url, tmdb_url, timezone, voice_url)
            async with open_deps(settings, db=db, clock=clock, counter=self.counter) as deps:
                runtime = Runtime(deps)
                await db.users.ensure(
                    user_id(spec.user), language=spec.language, timezone=timezone, now_ms=clock.ms()
                )
                refs = _ItemRefs(db)
                for index, turn in enumerate(spec.turns):
                    turns.append(
                        await self._turn(index, turn, runtime, model, tmdb, refs, clock, ears)
                    )
        finally:
            await model.close()
            await tmdb.close()
            if ears is not None:
                await ears.close()
            await db.drop()
            await db.close()
        return {
            "file": str(self.path),
            "passed": all(not t.failures for t in turns),
            "turns": [t.__dict__ for t in turns],
        }

    async def _turn(
        self,
        index: int,
        turn: TurnSpec,
        runtime: Runtime,
        model: ScriptedModelServer,
        tmdb: FakeTmdb,
        refs: _ItemRefs,
        clock: FakeClock,
        ears: FakeTranscriptionServer | None = None,
    ) -> TurnReport:
        deps = runtime.deps
        db = deps.db
        uid = user_id(turn.as_user or self.spec.user)
        if await db.users.get(uid) is None:
            await db.users.ensure(
                uid,
                language=self.spec.language,
                timezone=deps.settings.default_timezone,
                now_ms=clock.ms(),
            )
        before = db.ledger.appended_total
        if turn.advance:
            clock.advance(turn.advance)
            await run_due(deps, push=self.push)
        tmdb.status = turn.tmdb_status or 200
        try:
            outputs = await refs.substitute(turn.llm)
        except UnresolvedItem as exc:
            # a script that cannot be written out is never run: no half-made turn
            return TurnReport(index=index, failures=[f"llm: {exc}; the turn was not run"])
        model.begin_turn(outputs, turn.llm_errors)
        local = uid.split(":", 1)[1]
        if turn.button is not None:
            incoming = Incoming(
                channel="console",
                chat_id=local,
                user_id=uid,
                kind="choice",
                choice=turn.button,
                choice_token=self.last_token.get(uid),
            )
        elif turn.voice is not None and ears is not None:
            incoming = _voice_note(local, uid, turn, ears)
        else:
            incoming = Incoming(channel="console", chat_id=local, user_id=uid, text=turn.user)
        heard_before = len(ears.requests) if ears is not None else 0
        reply = await runtime.handle(incoming)
        if reply.follow_up is not None:  # what a channel sends next (a long export's file)
            second = await reply.follow_up(None)
            if second.attachment is not None and second.attachment.path is not None:
                second.attachment.path.unlink(missing_ok=True)
            reply = replace(reply, text=f"{reply.text}\n{second.text}", follow_up=None)
        served = model.end_turn()
        heard = len(ears.requests) - heard_before if ears is not None else 0
        if ears is not None:
            ears.clear()  # a voice note never heard leaves nothing for the next one
        if reply.choice_token is not None or reply.choices:
            self.last_token[uid] = reply.choice_token
        report = TurnReport(
            index=index,
            reply=reply.text,
            state=reply.meta.state,
            score=reply.meta.score,
            tools_executed=list(reply.meta.tools_executed),
            llm_calls=served.llm_calls,
            prompt_tokens=sum(n for n in served.prompt_tokens if n is not None),
            failures=list(served.problems()),
        )
        count = db.ledger.appended_total - before
        appended = (
            [event_type for _, _, event_type in list(db.ledger.appended)[-count:]] if count else []
        )
        report.failures += await self._check(
            turn.expect, reply, report, uid, db, clock, appended, served.max_prompt_tokens or 0
        )
        if turn.expect.transcriptions is not None and heard != turn.expect.transcriptions:
            report.failures.append(
                f"transcriptions: expected {turn.expect.transcriptions}, got {heard}"
            )
        pushed = "\n".join(self.pushed.pop(uid, [])).casefold()
        report.failures += [
            f"pushed messages do not contain {s!r}"
            for s in turn.expect.pushed_contains
            if s.casefold() not in pushed
        ]
        return report

    @staticmethod
    async def _check(
        expect: Expect,
        reply: Reply,
        report: TurnReport,
        uid: str,
        db: Database,
        clock: FakeClock,
        appended: Sequence[str],
        largest_prompt: int,
    ) -> list[str]:
        failures: list[str] = []
        if expect.llm_calls is not None and report.llm_calls != expect.llm_calls:
            failures.append(f"llm_calls: expected {expect.llm_calls}, got {report.llm_calls}")
        if expect.state is not None and reply.meta.state != expect.state:
            failures.append(
                f"state: expected {expect.state}, got {reply.meta.state} (score {reply.meta.score})"
            )
        folded = reply.text.casefold()
        failures += [
            f"reply does not contain {s!r}"
            for s in expect.reply_contains
            if s.casefold() not in folded
        ]
        failures += [
            f"reply contains {s!r}" for s in expect.reply_not_contains if s.casefold() in folded
        ]
        if expect.items is not None or expect.items_count is not None:
            items = [i.model_dump() for i in await db.items.list_for(uid)]
            if expect.items_count is not None and len(items) != expect.items_count:
                failures.append(f"items_count: expected {expect.items_count}, got {len(items)}")
            if expect.items is not None:
                if len(items) != len(expect.items):
                    failures.append(f"items: expected {len(expect.items)}, got {len(items)}")
                for n, (want, have) in enumerate(zip(expect.items, items, strict=False)):
                    for key, value in want.items():
                        if not _matches(value, have.get(key)):
                            failures.append(
                                f"items[{n}].{key}: expected {value!r}, got {have.get(key)!r}"
                            )
        if expect.tools_executed is not None and report.tools_executed != expect.tools_executed:
            failures.append(
                f"tools_executed: expected {expect.tools_executed}, got {report.tools_executed}"
            )
        if expect.pending is not None:
            conversation = uid  # console conversations are the user's own
            has = await db.pending.get(uid, conversation, now_ms=clock.ms()) is not None
            if has != expect.pending:
                failures.append(f"pending: expected {expect.pending}, got {has}")
        missing = [t for t in expect.ledger_events if t not in appended]
        if missing:
            failures.append(f"ledger_events: missing {missing} (appended {list(appended)})")
        if expect.max_prompt_tokens is not None and largest_prompt > expect.max_prompt_tokens:
            failures.append(f"max_prompt_tokens: {largest_prompt} > {expect.max_prompt_tokens}")
        return failures


def _voice_note(local: str, uid: str, turn: TurnSpec, ears: FakeTranscriptionServer) -> Incoming:
    """A voice note saying `turn.voice`: scripted on the fake server, announced as Telegram does."""
    words = turn.voice or ""
    seconds = turn.voice_seconds or max(1.0, round(0.4 * len(words.split()), 1))
    ears.status = turn.transcribe_status or 200
    ears.hear(words)
    data = silent_voice_note(seconds)

    async def fetch(limit: int) -> bytes:
        return data

    return Incoming(
        channel="console",
        chat_id=local,
        user_id=uid,
        kind="voice",
        audio=Audio(mime_type="audio/ogg", fetch=fetch, seconds=seconds, size=len(data)),
    )


async def replay_files(
    paths: Sequence[str],
    *,
    emit: Any = print,
    server_uri: str | None = None,
    counter: TokenCounter | None = None,
) -> int:
    """Run every file; emit one JSON report a file; 0 only if every expectation held.

    Args:
        server_uri: an already running MongoDB-wire server to create the fresh
            databases on (tests share one); by default an in-memory embedded server.
    """
    server = EmbeddedServer(Path("."), memory=True) if server_uri is None else None
    counter = counter or TokenCounter()
    passed = True
    try:
        uri = server.start() if server is not None else str(server_uri)
        for name in paths:
            path = Path(name)
            try:
                spec = load_transcript(path)
            except TranscriptError as exc:
                report: dict[str, Any] = {
                    "file": name,
                    "passed": False,
                    "turns": [],
                    "error": f"invalid transcript: {exc}",
                }
            else:
                report = await TranscriptRun(path, spec, uri, counter).run()
            passed = passed and bool(report["passed"])
            emit(json.dumps(report, ensure_ascii=False))
    finally:
        if server is not None:
            server.stop()
    return 0 if passed else 1


def _short(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
            for e in exc.errors(include_url=False)[:5]
        )
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
