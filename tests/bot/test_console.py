"""`lembra chat` (DESIGN 6) as a real process: piped stdin, one reply per message, the meta line.

The fake TMDB runs in the test process on loopback; the chat process starts its own
file-backed embedded database under DATA_DIR, as `make run` does, and must stop it.
"""

from __future__ import annotations

import asyncio
import os
import pty
import re
import select
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.texts import text
from bot.cli.console import banner
from bot.fakes.tmdb import FakeTmdb
from storage import Database
from tests.support.harness import CATALOGUE, open_lembra
from tests.support.proc import lembra_env, run_lembra

META = re.compile(
    r"^\[(?P<state>OK|PARTIAL|AMBIGUOUS|FAIL)(?: \(warning\))? · score (?P<score>\d+) · "
    r"tools (?P<tools>\S+) · llm_calls (?P<calls>\d+)\]"
)


@pytest.fixture
async def tmdb_url() -> AsyncIterator[str]:
    tmdb = FakeTmdb(CATALOGUE)
    try:
        yield await tmdb.start()
    finally:
        await tmdb.close()


async def chat(
    stdin: str, data_dir: Path, tmdb_url: str, *args: str
) -> subprocess.CompletedProcess[str]:
    """Run `lembra chat --show-meta` in a thread, so this loop keeps serving the fake TMDB."""
    env = {"DATA_DIR": str(data_dir), "TMDB_BASE_URL": tmdb_url}
    return await asyncio.to_thread(
        run_lembra, ["chat", "--show-meta", *args], env=env, cwd=data_dir.parent, stdin=stdin
    )


def turns(stdout: str) -> list[tuple[str, re.Match[str]]]:
    """(reply, meta) pairs: every reply is followed by exactly one meta line."""
    found: list[tuple[str, re.Match[str]]] = []
    reply: list[str] = []
    for line in stdout.splitlines():
        meta = META.match(line)
        if meta is None:
            reply.append(line)
            continue
        found.append(("\n".join(reply), meta))
        reply = []
    assert reply == [], f"output after the last meta line: {reply}"
    return found


def processes_using(path: Path) -> list[str]:
    """Command lines of live processes that mention `path` (the embedded server names its file)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            raw = cmdline.read_bytes()
        except OSError:
            continue  # the process ended while we looked
        if str(path).encode() in raw:
            found.append(raw.replace(b"\0", b" ").decode(errors="replace"))
    return found


async def test_piped_messages_get_one_reply_and_one_meta_line_each(
    tmp_path: Path, tmdb_url: str
) -> None:
    data_dir = tmp_path / "data"
    stdin = "oi\n\n" + "x" * 20_000 + "\nsalva o filme inception\n1\nlista tudo\n"

    result = await chat(stdin, data_dir, tmdb_url)

    assert result.returncode == 0, result.stderr
    replies = turns(result.stdout)
    assert len(replies) == 5  # the blank line is skipped
    (hello, hello_meta), (refused, _), (choice, choice_meta), (saved, saved_meta), (listed, _) = (
        replies
    )
    assert hello == text("greeting", "pt")
    assert hello_meta.group(0) == "[OK · score 100 · tools - · llm_calls 0]"
    assert refused.startswith("Mensagem longa demais (20000 caracteres")
    assert choice.splitlines() == [
        "Encontrei 2 opções para «inception». Qual?",
        "1. Inception (2010)",
        "2. Inception (2014)",
    ]
    assert choice_meta["state"] == "AMBIGUOUS"
    assert choice_meta["tools"] == "enrich_movie"
    assert saved == "✅ Salvo: Inception (2010)."
    assert saved_meta.group(0) == "[OK · score 100 · tools save_movie · llm_calls 0]"
    assert listed.splitlines() == ["Seus itens (1):", "", "Filmes (1):", "1. Inception (2010)"]
    assert "offline rule-based planner is active" in result.stderr
    assert "offline" not in result.stdout
    # The embedded server ran file-backed under DATA_DIR and was stopped on exit.
    assert (data_dir / "lembra.sqlite").exists()
    assert not (data_dir / "embedded.json").exists()
    assert processes_using(data_dir) == []


async def test_a_choice_survives_a_restart_and_users_are_kept_apart(
    tmp_path: Path, tmdb_url: str
) -> None:
    data_dir = tmp_path / "data"

    first = await chat("salva o filme inception\n", data_dir, tmdb_url)
    other = await chat("1\nlista tudo\n", data_dir, tmdb_url, "--user", "bob")
    again = await chat("1\nlista tudo\n", data_dir, tmdb_url)

    for result in (first, other, again):
        assert result.returncode == 0, result.stderr
    assert "Inception (2014)" in turns(first.stdout)[0][0]
    assert [reply for reply, _ in turns(other.stdout)] == [
        "Não há nenhuma escolha pendente.",
        "Você ainda não salvou nada.",
    ]
    (saved, _), (listed, _) = turns(again.stdout)
    assert saved == "✅ Salvo: Inception (2010)."
    assert "1. Inception (2010)" in listed
    assert processes_using(data_dir) == []


async def test_user_ids_live_in_the_cli_namespace(tmp_path: Path, tmdb_url: str) -> None:
    data_dir = tmp_path / "data"

    saved = await chat("salva o filme the matrix\n", data_dir, tmdb_url, "--user", "bob")
    listed = await chat("lista tudo\n", data_dir, tmdb_url, "--user", "cli:bob")
    other = await chat("lista tudo\n", data_dir, tmdb_url, "--user", "tg:bob")

    assert turns(saved.stdout)[0][0] == "✅ Salvo: The Matrix (1999)."
    assert "1. The Matrix (1999)" in turns(listed.stdout)[0][0]
    # "tg:bob" keeps its namespace as every `--user` does, and the console never talks
    # as a Telegram user: it refuses before reading a message
    assert other.returncode == 2
    assert "tg:bob is not a console user" in other.stderr
    assert other.stdout == ""


def read_prompts(master: int, seen: bytearray, count: int) -> None:
    """Read the terminal's output until it has shown `count` prompts (or the child closed it)."""
    while seen.count(PROMPT) < count:
        ready, _, _ = select.select([master], [], [], 60)
        assert ready, f"waiting for prompt {count}; the terminal showed {bytes(seen)!r}"
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            return
        if not chunk:
            return
        seen.extend(chunk)


def interactive_chat(data_dir: Path, tmdb_url: str, messages: list[str]) -> tuple[str, int]:
    """Run `lembra chat` on a pseudo-terminal, typing each message at a prompt, then Ctrl+D."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "chat", "--user", "carol"],
        stdin=slave,
        stdout=slave,
        stderr=subprocess.DEVNULL,
        env=lembra_env({"DATA_DIR": str(data_dir), "TMDB_BASE_URL": tmdb_url}),
        cwd=data_dir.parent,
    )
    os.close(slave)
    seen = bytearray()
    try:
        for typed, message in enumerate(messages, start=1):
            read_prompts(master, seen, typed)
            os.write(master, message.encode() + b"\n")
        read_prompts(master, seen, len(messages) + 1)
        os.write(master, b"\x04")  # Ctrl+D on an empty line: end of input
        code = process.wait(timeout=60)
        read_prompts(master, seen, len(messages) + 2)  # drain what is left
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    return seen.decode(errors="replace").replace("\r\n", "\n"), code


PROMPT = b"> "


async def test_on_a_terminal_it_greets_prompts_and_answers_until_ctrl_d(
    tmp_path: Path, tmdb_url: str
) -> None:
    data_dir = tmp_path / "data"

    screen, code = await asyncio.to_thread(
        interactive_chat, data_dir, tmdb_url, ["oi", "salva o filme inception", "2"]
    )

    assert code == 0, screen
    # in the user's language: a new user speaks DEFAULT_LANGUAGE (pt); issue 45
    assert screen.startswith("Lembra (planejador offline, por regras). Ctrl+D para sair.\n> ")
    assert text("greeting", "pt") in screen
    assert "1. Inception (2010)\n2. Inception (2014)" in screen
    assert "✅ Salvo: Inception (2014)." in screen
    assert "[OK" not in screen  # no meta line without --show-meta
    assert processes_using(data_dir) == []


async def test_the_banner_speaks_the_user_s_language(db: Database) -> None:
    async with open_lembra(db) as lembra:
        new = await banner(lembra.runtime, "cli:dora")
        await lembra.say("/lang en", user="cli:dora")
        english = await banner(lembra.runtime, "cli:dora")

    assert new == "Lembra (planejador offline, por regras). Ctrl+D para sair."
    assert english == "Lembra (offline rule-based planner). Ctrl+D to leave."
