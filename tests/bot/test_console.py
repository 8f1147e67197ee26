"""`lembra chat` (DESIGN 6) as a real process: piped stdin, one reply per message, the meta line.

The fake TMDB runs in the test process on loopback; the chat process starts its own
file-backed embedded database under DATA_DIR, as `make run` does, and must stop it.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.texts import text
from bot.fakes.tmdb import FakeTmdb
from tests.support.harness import CATALOGUE
from tests.support.proc import run_lembra

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
    assert hello == text("help", "pt")
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
    assert listed.splitlines() == ["Seus itens (1):", "", "Filmes (1):", "• Inception (2010)"]
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
    assert "• Inception (2010)" in listed
    assert processes_using(data_dir) == []
