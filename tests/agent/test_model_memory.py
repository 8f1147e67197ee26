"""Model memory (issue 12): what `remember` and `bookmark` keep reaches the planner, stays the user's, and goes with /forget.

The transcripts (tests/transcripts/memory_*.yaml) cover the replies, the 10-bookmark cap
and `/memory`; these check what only the request, the database and the ledger show.
"""

from __future__ import annotations

from typing import Any

from agent.planning.grounding import Sources, judge
from agent.tools.remembering import MAX_BOOKMARKS, RememberArgs
from storage import Database
from storage.documents import MemoryDoc
from tests.support.live import ALICE, Live, call, live_runtime, respond

BOB = "cli:bob"


def system_prompt(report: Any) -> str:
    messages = report.requests[0].body["messages"]
    return "\n\n".join(str(m["content"]) for m in messages if m["role"] == "system")


async def plant(live: Live, user: str, count: int, *, kind: str, size: int, pinned: bool) -> None:
    """Memories written straight through the repository, as earlier turns would have left them."""
    for n in range(count):
        await live.db.memories.add(
            MemoryDoc(
                _id=f"{user}-{kind}-{n}",
                user_id=user,
                kind=kind,  # type: ignore[arg-type]
                text=f"{kind} número {n} " + "palavra " * size,
                event=f"momento {n}" if kind == "bookmark" else None,
                pinned=pinned,
                seq=n + 1,
                created_at_ms=live.clock.ms(),
            )
        )


async def test_facts_and_bookmarks_reach_the_planner_inside_data_blocks(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say(
            "eu prefiro filmes legendados", llm=[call("remember", fact="prefere filmes legendados")]
        )
        await live.say("salva o filme Inception", llm=[call("save_movie", title="Inception")])
        (item,) = await live.db.items.list_for(ALICE)
        await live.say(
            "marca esse filme pra ver com a Ana",
            llm=[call("bookmark", item_id=item.id, note="ver com a Ana")],
        )
        _, report = await live.say(
            "me recomenda um restaurante pra hoje", llm=[respond("Prefere legendas.")]
        )

    system = system_prompt(report)
    assert "O que o usuário me contou de si: <data>prefere filmes legendados</data>." in system
    assert "Marcadores: <data>Inception — ver com a Ana</data>." in system


async def test_a_full_memory_fits_the_prompt_budget_and_a_tight_one_keeps_the_newest(
    db: Database,
) -> None:
    for budget, newest_only in ((1_700, False), (600, True)):
        async with live_runtime(db, narrative_token_budget=budget) as live:
            await live.db.memories.delete_for_user(ALICE)
            await plant(live, ALICE, 30, kind="fact", size=40, pinned=False)
            await plant(live, ALICE, MAX_BOOKMARKS, kind="bookmark", size=20, pinned=False)
            _, report = await live.say(
                "me recomenda um restaurante pra hoje", llm=[respond("Muita coisa.")]
            )

        system = system_prompt(report)
        assert report.max_prompt_tokens is not None
        assert report.max_prompt_tokens <= 6000
        assert "fact número 29" in system  # the newest facts are kept longest
        assert ("fact número 0 " not in system) is newest_only
        assert "momento 9" in system


async def test_an_eleventh_bookmark_is_refused_when_all_ten_are_pinned(db: Database) -> None:
    async with live_runtime(db) as live:
        await plant(live, ALICE, MAX_BOOKMARKS, kind="bookmark", size=1, pinned=True)
        reply, _ = await live.say(
            "marca a conversa sobre a viagem",
            llm=[call("bookmark", event="a viagem", note="conversa sobre a viagem")],
        )
        kept = await live.db.memories.list_for(ALICE, "bookmark")

    assert "fixados" in reply.text
    assert len(kept) == MAX_BOOKMARKS
    assert all("viagem" not in m.text for m in kept)


async def test_another_users_item_cannot_be_bookmarked_nor_their_memory_listed(
    db: Database,
) -> None:
    async with live_runtime(db) as live:
        await live.say("salva o filme Inception", llm=[call("save_movie", title="Inception")])
        await live.say(
            "eu prefiro filmes legendados", llm=[call("remember", fact="prefere filmes legendados")]
        )
        (alices,) = await live.db.items.list_for(ALICE)
        refused, _ = await live.say(
            "marca esse filme",
            llm=[call("bookmark", item_id=alices.id, note="marca esse filme")],
            user=BOB,
        )
        listing, _ = await live.say("/memory", user=BOB)

        assert await live.db.memories.list_for(BOB) == []
        assert refused.meta.tools_executed == ()
        assert "Inception" not in refused.text
        assert "legendados" not in listing.text
        assert "Não guardei" in listing.text


async def test_forget_erases_the_memory_and_the_ledger_never_held_its_words(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say(
            "eu prefiro filmes legendados", llm=[call("remember", fact="prefere filmes legendados")]
        )
        await live.say(
            "marca a conversa sobre a viagem a Lisboa",
            llm=[call("bookmark", event="viagem a Lisboa", note="conversa sobre a viagem")],
        )
        events = await live.db.ledger.events(ALICE)
        await live.say("/forget")
        await live.say("sim")
        left = await live.db.memories.list_for(ALICE)

    noted = [e for e in events if e.type in ("memory_noted", "bookmark_set")]
    assert [e.type for e in noted] == ["memory_noted", "bookmark_set"]
    for event in noted:
        assert "legendados" not in str(event.payload)
        assert "Lisboa" not in str(event.payload)
        assert "viagem" not in str(event.payload)
    assert left == []


def test_a_fact_must_come_from_the_users_words_not_from_a_tool_result() -> None:
    said, everything = Sources(), Sources()
    said.add("eu gosto de filmes de terror")
    everything.add("eu gosto de filmes de terror")
    everything.add("Receitas vegetarianas fáceis")  # a page title a tool fetched

    invented = judge(RememberArgs(fact="é vegetariano"), everything, {}, said=said)
    told = judge(RememberArgs(fact="gosta de filmes de terror"), everything, {}, said=said)

    assert invented.args is None
    assert invented.problem is not None
    assert "`fact`" in invented.problem
    assert told.args is not None
