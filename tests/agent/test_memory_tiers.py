"""Memory tiers (DESIGN 3.6): 20 verbatim, 21-100 structured, an archive capped at 800 tokens;
bounded requests however long the conversation or large a stored message."""

from __future__ import annotations

import json
from typing import Any

from agent.memory.tiers import (
    ARCHIVE_TOKEN_CAP,
    STRUCTURED_UNTIL,
    VERBATIM_MESSAGES,
    Tiers,
    whole_turn_suffix,
)
from storage import Database
from storage.messages import conversation_doc_id
from tests.support.history import bulk_write_turns, stored_turn, write_turns
from tests.support.live import ALICE, Live, live_runtime, respond, shared_counter

CONV = ALICE


async def conversation(live: Live) -> dict[str, Any]:
    doc = await live.db.summaries.get_conversation(ALICE, CONV)
    assert doc is not None
    return doc


def system_prompt(report: Any, index: int = 0) -> str:
    messages = report.requests[index].body["messages"]
    return "\n\n".join(str(m["content"]) for m in messages if m["role"] == "system")


# -- the three tiers ------------------------------------------------------------------------------


async def test_tiers_after_many_turns(db: Database) -> None:
    async with live_runtime(db) as live:
        await write_turns(live, 0, 150)
        doc = await conversation(live)
        recent = await db.messages.last(ALICE, CONV, 48)
        verbatim = whole_turn_suffix(recent, VERBATIM_MESSAGES)
        tiers = await Tiers(db, live.deps.counter).view(ALICE, CONV)

    last_seq = 150 * 4
    assert verbatim[-1].seq == last_seq
    assert len(verbatim) == VERBATIM_MESSAGES  # five whole 4-message turns
    assert tiers.verbatim == verbatim
    structured = doc["structured"]
    # messages 21..100 counted from the newest: one small object per turn
    assert structured[-1]["to"] == verbatim[0].seq - 1
    assert structured[0]["from"] == last_seq - STRUCTURED_UNTIL + 1
    assert len(structured) == (STRUCTURED_UNTIL - VERBATIM_MESSAGES) // 4
    assert [e["from"] for e in structured] == list(
        range(structured[0]["from"], structured[-1]["to"], 4)
    )
    for entry in structured:
        assert entry["to"] - entry["from"] == 3
        assert entry["user"].startswith("salva a nota")
        assert entry["tools"] == ["save_note: saved"]
        assert len(json.dumps(entry, ensure_ascii=False)) < 300
    # everything older is archived as text within the cap, the newest archived turn kept
    archive = doc["archive"]
    assert shared_counter().count_text(archive) <= ARCHIVE_TOKEN_CAP
    assert doc["archive_through_seq"] == structured[0]["from"] - 1
    assert "salva a nota 124" in archive  # the turn just before the structured tier
    # 125 archived turns do not fit in 800 tokens: the oldest are counted, the rest kept
    head, *kept = archive.split("\n")
    folded = int(head.removeprefix("(").split(" ")[0])
    assert head == f"({folded} older turns summarized away)"
    assert folded + len(kept) == 125
    assert kept[-1].startswith("user: salva a nota 124")
    assert tiers.archive == archive
    assert tiers.structured == structured
    assert not tiers.notes


async def test_the_model_sees_the_tiers_and_only_the_last_turns_verbatim(db: Database) -> None:
    async with live_runtime(db) as live:
        await write_turns(live, 0, 60)
        _, report = await live.say(
            "me lembra o que eu fiz", llm=[respond("Você pediu várias notas.")]
        )
    assert report.problems() == []
    sent = report.requests[0].body["messages"]
    verbatim_humans = [m["content"] for m in sent[1:-1] if m["role"] == "user"]
    # the last whole turns (at most 20 messages), as many as the prompt budget leaves room for
    assert 4 <= len(verbatim_humans) <= 5
    assert verbatim_humans == [
        f"<data>salva a nota {n}</data>" for n in range(60 - len(verbatim_humans), 60)
    ]
    system = system_prompt(report)
    assert "salva a nota 54" in system  # the structured tier, in the narrative
    assert "salva a nota 3" in system  # the archive


# -- corrupted summary documents ------------------------------------------------------------------


async def test_a_corrupted_summary_document_is_skipped_not_crashed_on(db: Database) -> None:
    async with live_runtime(db) as live:
        await write_turns(live, 0, 40)
        raw = live.raw("summaries")
        await raw.update_one(
            {"_id": conversation_doc_id(CONV)},
            {"$set": {"structured": {"not": "xq-list"}, "archive": ["not", "xq-string"]}},
        )
        reply, report = await live.say(
            "me lembra o que eu fiz", llm=[respond("Você pediu várias notas.")]
        )
        assert reply.text == "Você pediu várias notas."
        assert report.problems() == []
        assert "xq-list" not in system_prompt(report)
        assert "xq-string" not in system_prompt(report)

        # garbage entries among good ones; a garbage high-water mark
        await write_turns(live, 40, 10)
        good = (await conversation(live))["structured"]
        garbage: list[Any] = [
            "a string",
            7,
            None,
            {"user": "no position at all"},
            {"from": "x", "to": "y", "user": "bad numbers"},
            {"from": 1, "to": 2, "user": {"$gt": 1}, "tools": "not a list", "reply": 5},
            {"from": 3, "to": 4, "user": "ok", "tools": [1, None, {"x": 1}]},
        ]
        await raw.update_one(
            {"_id": conversation_doc_id(CONV)},
            {"$set": {"structured": garbage + good, "structured_through_seq": "abc"}},
        )
        view = await Tiers(db, live.deps.counter).view(ALICE, CONV)
        assert len(view.notes) == 2, "the skips are noted"
        # the view folds first: the two readable stale entries (turns 1-4) go to the
        # archive, the unreadable ones are dropped, the good ones stay as they were
        assert view.structured == good
        assert "user: ok" in view.archive
        assert all(isinstance(e["to"], int) and isinstance(e["user"], str) for e in view.structured)
        assert all(isinstance(t, str) for e in view.structured for t in e["tools"])
        reply, report = await live.say("e agora?", llm=[respond("Tudo certo.")])
        assert reply.text == "Tudo certo."
        assert report.problems() == []
        assert "bad numbers" not in system_prompt(report)
        # the turn's compaction wrote back what could be read: the document is clean again
        repaired = await Tiers(db, live.deps.counter).view(ALICE, CONV)
        assert repaired.notes == []

        # compaction goes on after the corruption: new turns keep being folded
        await write_turns(live, 50, 10)
        doc = await conversation(live)
        assert isinstance(doc["structured"], list)
        assert isinstance(doc["archive"], str)
        assert doc["structured"][-1]["to"] == (await db.messages.last_seq(ALICE, CONV)) - 20


# -- bounded requests -----------------------------------------------------------------------------


async def test_a_5000_turn_conversation_keeps_the_request_bounded(db: Database) -> None:
    async with live_runtime(db) as live:
        budget = live.deps.settings.prompt_token_budget
        await bulk_write_turns(live, 5_000)
        # before any compaction (a bulk import): the request is bounded already
        _, report = await live.say("me resume as notas", llm=[respond("Muitas.")])
        assert report.problems() == []
        first = report.requests[0].prompt_tokens
        assert first is not None
        assert first <= budget
        # the tiers catch up in one pass after that turn, and stay bounded
        doc = await conversation(live)
        assert shared_counter().count_text(doc["archive"]) <= ARCHIVE_TOKEN_CAP
        assert len(doc["structured"]) <= (STRUCTURED_UNTIL - VERBATIM_MESSAGES) // 4 + 1
        for _ in range(3):
            _, report = await live.say("e agora?", llm=[respond("Ok.")])
            assert report.problems() == []
            tokens = report.requests[0].prompt_tokens
            assert tokens is not None
            assert tokens <= budget


async def test_a_one_megabyte_tool_result_never_reaches_the_model(db: Database) -> None:
    huge = json.dumps({"status": "page", "description": "palavra " * 131_072})
    assert len(huge) > 1_000_000
    async with live_runtime(db) as live:
        budget = live.deps.settings.prompt_token_budget
        await write_turns(live, 0, 3)
        await db.messages.append(ALICE, CONV, stored_turn(3, result=huge), now_ms=live.clock.ms())
        for text in ("o que tinha na página?", "e antes?", "mais alguma coisa?"):
            _, report = await live.say(text, llm=[respond("Nada.")])
            assert report.problems() == []
            tokens = report.requests[0].prompt_tokens
            assert tokens is not None
            assert tokens <= budget
        # once it leaves the verbatim window its structured entry is small
        await write_turns(live, 10, 6)
        doc = await conversation(live)
        entry = next(e for e in doc["structured"] if e["user"] == "salva a nota 3")
        assert len(json.dumps(entry)) < 300


# -- the window moves in blocks (issue 28) -----------------------------------------------------------


async def test_the_window_grows_append_only_then_drops_a_block_and_folds_it(db: Database) -> None:
    async with live_runtime(db) as live:
        tiers = Tiers(db, live.deps.counter, keep=6, most=16)
        seen: list[tuple[int, int, int]] = []  # (first verbatim seq, messages, structured entries)
        for n in range(12):
            await write_turns(live, n, 1, compact=False)
            view = await tiers.view(ALICE, CONV)
            seen.append((view.verbatim[0].seq, len(view.verbatim), len(view.structured)))
        # a new session (a handover) starts the window small again
        await live.say("/end")
        restarted = await tiers.view(ALICE, CONV)
    starts = [first for first, _, _ in seen]
    sizes = [size for _, size, _ in seen]
    # 4 messages a turn: 4, 8, 12, 16, then 20 > 16 drops back to the last turn, and so on
    assert sizes == [4, 8, 12, 16, 4, 8, 12, 16, 4, 8, 12, 16]
    assert starts == [1, 1, 1, 1, 17, 17, 17, 17, 33, 33, 33, 33]
    # the structured tier changes only when the window drops, by the turns it dropped
    assert [entries for _, _, entries in seen] == [0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8]
    assert restarted.verbatim[0].seq > 33
    assert len(restarted.verbatim) <= 6
    assert restarted.structured[-1]["to"] == restarted.verbatim[0].seq - 1  # nothing lost


async def test_a_sliding_window_when_the_most_is_the_keep(db: Database) -> None:
    async with live_runtime(db) as live:
        tiers = Tiers(db, live.deps.counter, keep=8, most=8)
        for n in range(5):
            await write_turns(live, n, 1, compact=False)
            view = await tiers.view(ALICE, CONV)
            assert len(view.verbatim) == min(8, 4 * (n + 1))
            assert view.verbatim[-1].seq == 4 * (n + 1)
