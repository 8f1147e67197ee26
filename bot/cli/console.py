"""The console channel (`lembra chat`): a terminal conversation, or one message a line when piped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from agent.conversation.commands import belief_line
from agent.conversation.runtime import Runtime
from agent.texts import text
from agent.types import CHANNEL_PREFIX, Incoming, Language, Progress, Reply, namespaced_user_id
from config.errors import LembraError
from config.logging import log_event

LOG = logging.getLogger(__name__)


def console_text(reply: Reply, *, saved: Path | None = None) -> str:
    """The reply as the console shows it (choices are already numbered in the text)."""
    if reply.attachment is not None:
        size = saved.stat().st_size if saved is not None else reply.attachment.size
        where = f" -> {saved}" if saved is not None else ""
        return f"{reply.text}\n[{reply.attachment.filename}: {size} bytes{where}]"
    return reply.text


def save_attachment(reply: Reply, directory: Path) -> Path | None:
    """Write the reply's file (e.g. `/export`) under `directory`; its path, or None if none."""
    if reply.attachment is None:
        return None
    attachment = reply.attachment
    path = directory / Path(attachment.filename).name  # never a path from elsewhere
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if attachment.path is not None:  # a long export, already written: moved, not copied
            shutil.move(attachment.path, path)
        else:
            path.write_bytes(attachment.data)
    except OSError as exc:  # the reply still prints; the operator sees why the file is missing
        log_event(LOG, "console_file_not_written", level=logging.WARNING, error=exc.strerror)
        return None
    return path.resolve()


def progress_line(language: str, *, out: TextIO | None = None) -> Progress:
    """A `Progress` printing one human line on stderr at every tenth of the way."""
    shown = -1
    stream = out or sys.stderr
    lang: Language = "en" if language == "en" else "pt"

    def show(done: int, of: int) -> None:
        nonlocal shown
        tenth = done * 10 // of if of else 10
        if tenth > shown:
            shown = tenth
            share = f"{done / of:.0%}" if of else "100%"
            line = text("export_progress", lang, done=done, of=of, share=share)
            print(line, file=stream, flush=True)

    return show


def meta_line(reply: Reply, language: str) -> str:
    """The `--show-meta` line: state, score, tools, model calls, rules, caveats, belief."""
    meta = reply.meta
    state = meta.state + (" (warning)" if meta.warning else "")
    tools = ",".join(meta.tools_executed) or "-"
    line = f"[{state} · score {meta.score} · tools {tools} · llm_calls {meta.llm_calls}]"
    line += " rules: " + (", ".join(meta.rules_applied) or "-")
    line += " | caveats: " + ("; ".join(meta.caveats) or "-")
    if meta.llm_calls:
        line += f" | tokens: prompt {meta.prompt_tokens}, cached {meta.cached_tokens}"
    if meta.blocks:
        line += " | blocks: " + ", ".join(meta.blocks)
    if meta.receipts:
        line += " | receipts: " + ", ".join(meta.receipts)
    if meta.belief is not None:
        line += " | " + belief_line(meta.belief.guessed, meta.belief.delta, language)
    return line


def console_user_id(user: str) -> str:
    """The console user `user` names (`alice`, `cli:alice`), resolved as every `--user` is.

    Raises:
        ValueError: for an id of another channel (`tg:123`): the console speaks only as
            its own users, so it never writes into a Telegram or WhatsApp user's data.
    """
    user_id = namespaced_user_id(user)
    if not user_id.startswith(f"{CHANNEL_PREFIX['console']}:"):
        raise ValueError(
            f"{user_id} is not a console user: `lembra chat` talks as `cli:` users only"
        )
    return user_id


async def read_line(stdin: TextIO) -> str:
    """One line of `stdin` ("" at end of input), read without holding the event loop.

    The read runs in a daemon thread rather than the loop's executor: a terminal read
    cannot be interrupted, and on Ctrl+C or SIGTERM `asyncio.run` (and interpreter exit)
    would wait for an executor thread until the user pressed Enter.
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[str] = loop.create_future()

    def deliver(setter: Callable[..., None], value: object) -> None:
        if not done.done():  # the console was cancelled meanwhile
            setter(value)

    def read() -> None:
        try:
            line = stdin.readline()
        except BaseException as exc:  # handed to the awaiting coroutine, which raises it
            setter: Callable[..., None] = done.set_exception
            value: object = exc
        else:
            setter, value = done.set_result, line
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody is waiting
            loop.call_soon_threadsafe(deliver, setter, value)

    threading.Thread(target=read, name="lembra-console-stdin", daemon=True).start()
    return await done


async def banner(runtime: Runtime, user_id: str) -> str:
    """The first line at a terminal, in the user's language (DEFAULT_LANGUAGE for a new one)."""
    settings = runtime.deps.settings
    user = await runtime.deps.db.users.get(user_id)
    language = user.language if user is not None else settings.default_language
    if runtime.offline:
        mode = text("console_offline", language)
    else:
        mode = text("console_model", language, model=settings.llm_model)
    return text("console_banner", language, mode=mode)


async def run_console(
    runtime: Runtime,
    *,
    user: str,
    show_meta: bool,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    """Read messages until end of input; print each reply (and its meta when asked).

    Args:
        user: a console user, bare (`alice`) or namespaced (`cli:alice`).
    """
    user_id = console_user_id(user)
    local = user_id.split(":", 1)[1]
    interactive = stdin.isatty()
    if interactive:
        print(await banner(runtime, user_id), file=stdout, flush=True)
    while True:
        if interactive:
            print("> ", end="", file=stdout, flush=True)
        line = await read_line(stdin)
        if not line:
            return 0
        message = line.rstrip("\n")
        if not interactive and not message.strip():
            continue
        try:
            reply = await runtime.handle(
                Incoming(channel="console", chat_id=local, user_id=user_id, text=message)
            )
            user_doc = await runtime.deps.db.users.get(user_id)
        except LembraError as exc:
            # e.g. the database went away: say so plainly and keep the console alive
            log_event(
                LOG, "console_turn_failed", level=logging.WARNING, error_type=type(exc).__name__
            )
            print(
                text("try_again_later", runtime.deps.settings.default_language),
                file=stdout,
                flush=True,
            )
            continue
        language = user_doc.language if user_doc else runtime.deps.settings.default_language
        exports = runtime.deps.settings.data_dir / "exports"
        saved = save_attachment(reply, exports)
        print(console_text(reply, saved=saved), file=stdout, flush=True)
        if show_meta:
            print(meta_line(reply, language), file=stdout, flush=True)
        if reply.follow_up is not None:  # e.g. a long export: its file, with a progress line
            try:
                second = await reply.follow_up(progress_line(language))
            except LembraError as exc:
                log_event(
                    LOG, "console_turn_failed", level=logging.WARNING, error_type=type(exc).__name__
                )
                print(text("try_again_later", language), file=stdout, flush=True)
                continue
            saved = save_attachment(second, exports)
            print(console_text(second, saved=saved), file=stdout, flush=True)
