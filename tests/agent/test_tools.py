"""The eleven tools of DESIGN 3.2: names, argument models, risk levels, outcomes and errors.

The first half checks the registry as the planner and the runtime see it. The second
runs tools directly, the way the runtime's executor does, on the test database with the
fake TMDB and the page server on loopback: structured errors, user scoping, enrichment.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import ValidationError

from agent.conversation.turn import Turn
from agent.errors import ToolFailure
from agent.tools import registry
from agent.tools.base import (
    Candidates,
    DeletePreview,
    Failed,
    Found,
    NotFound,
    PageFetched,
    Saved,
    ToolArgs,
    ToolContext,
    UnknownItem,
)
from agent.types import Incoming
from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra, seed

# DESIGN 3.2, as written there: name -> (argument fields, risk)
DESIGN_TOOLS: dict[str, tuple[set[str], str]] = {
    "save_note": ({"content"}, "low"),
    "save_movie": ({"title", "year", "tmdb_id"}, "low"),
    "save_tv_show": ({"title", "year", "tmdb_id"}, "low"),
    "save_video": ({"url", "title"}, "low"),
    "save_link": ({"url", "description"}, "low"),
    "enrich_movie": ({"title", "year"}, "read"),
    "enrich_tv_show": ({"title", "year"}, "read"),
    "enrich_link": ({"url"}, "read"),
    "search_items": ({"query", "type", "limit"}, "read"),
    "delete_item": ({"item_id", "query"}, "high"),
    "delete_all_memories": (set(), "critical"),
    "update_item": ({"item_id", "title", "year", "content"}, "low"),  # DESIGN 9.4
    "request_clarification": ({"question", "options"}, "read"),  # issue 13
    "remember": ({"fact"}, "low"),  # issue 12: model memory
    "bookmark": ({"item_id", "event", "note", "pinned"}, "low"),
    "simulate": ({"tool", "args"}, "read"),  # issue 13
    "log_reasoning": ({"note"}, "read"),  # issue 31: a note for /why, no effect
    # DESIGN 11.1 (issue 43): reminders and undo
    "set_reminder": ({"text", "when", "phrase", "rule"}, "low"),
    "list_reminders": ({"period"}, "read"),
    "change_reminder": ({"reminder_id", "query", "when", "phrase", "text", "rule"}, "low"),
    "cancel_reminder": ({"reminder_id", "query", "scope"}, "low"),
    "undo_last": (set(), "low"),
    "save_items": ({"items"}, "low"),  # DESIGN 11.1
    "list_items": ({"type", "period", "state", "count_only"}, "read"),  # DESIGN 11.1
    "mark_item": ({"item_id", "query", "state", "rating", "comment"}, "low"),  # DESIGN 11.1
    "where_to_watch": ({"item_id", "title", "country"}, "read"),
    "suggest_from_list": ({"type", "max_minutes", "genre_words"}, "read"),
    "what_i_said": ({"item_id", "query"}, "read"),  # issue 44: the rating kept of one item
}
REQUIRED = {
    "update_item": {"item_id"},
    "request_clarification": {"question", "options"},
    "simulate": {"tool"},
    "log_reasoning": {"note"},
    "remember": {"fact"},
    "bookmark": {"note"},
    "mark_item": {"state"},
    "save_note": {"content"},
    "save_movie": {"title"},
    "save_tv_show": {"title"},
    "save_video": {"url"},
    "save_link": {"url"},
    "enrich_movie": {"title"},
    "enrich_tv_show": {"title"},
    "enrich_link": {"url"},
    "set_reminder": {"text"},
    "save_items": {"items"},
}


# -- the registry -----------------------------------------------------------------------------


def test_there_are_exactly_the_eleven_tools_of_the_design() -> None:
    assert sorted(registry()) == sorted(DESIGN_TOOLS)


@pytest.mark.parametrize("name", sorted(DESIGN_TOOLS))
def test_each_tool_has_the_arguments_and_risk_of_the_design(name: str) -> None:
    tool = registry()[name]
    fields, risk = DESIGN_TOOLS[name]

    assert tool.name == name
    assert set(tool.args_model.model_fields) == fields
    assert tool.risk == risk
    required = {n for n, f in tool.args_model.model_fields.items() if f.is_required()}
    assert required == REQUIRED.get(name, set())
    assert tool.description


@pytest.mark.parametrize("name", sorted(DESIGN_TOOLS))
def test_each_example_is_valid_and_an_unknown_field_is_rejected(name: str) -> None:
    tool = registry()[name]
    assert issubclass(tool.args_model, ToolArgs)
    tool.args_model.model_validate(tool.example)

    with pytest.raises(ValidationError) as raised:
        tool.args_model.model_validate({**tool.example, "user_id": "cli:mallory"})

    [error] = raised.value.errors()
    assert (error["type"], error["loc"]) == ("extra_forbidden", ("user_id",))


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("save_note", {"content": ""}),
        ("save_note", {}),
        ("save_movie", {"title": "   "}),
        ("save_movie", {"title": "Inception", "year": 12}),
        ("save_movie", {"title": "Inception", "tmdb_id": -1}),
        ("save_movie", {"title": {"$where": "1"}}),
        ("save_link", {"url": ""}),
        ("search_items", {"type": "recipe"}),
        ("search_items", {"limit": 0}),
        ("search_items", {"query": {"$ne": None}}),
        ("delete_item", {}),
        ("delete_item", {"item_id": "abc", "query": "inception"}),
        ("delete_item", {"query": ["inception"]}),
        ("remember", {"fact": ""}),
        ("bookmark", {"note": "ver depois"}),
        ("bookmark", {"item_id": "abc", "event": "a viagem", "note": "ver depois"}),
    ],
)
def test_bad_arguments_are_rejected_by_the_tools_own_model(name: str, args: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        registry()[name].args_model.model_validate(args)


def test_a_structured_error_has_code_category_message_and_remediation() -> None:
    failure = ToolFailure("TMDB_UNAVAILABLE", "unavailable", "TMDB did not answer", "retry")

    assert failure.to_json() == {
        "code": "TMDB_UNAVAILABLE",
        "category": "unavailable",
        "message": "TMDB did not answer",
        "remediation": "retry",
    }


# -- running them ------------------------------------------------------------------------------


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db) as running:
        yield running


async def context(lembra: Lembra, *, user: str = ALICE, wants_save: bool = True) -> ToolContext:
    """A turn's tool context, as the runtime builds it for `user`."""
    now = lembra.clock.ms()
    doc = await lembra.db.users.ensure(
        user, language="pt", timezone="America/Sao_Paulo", now_ms=now
    )
    incoming = Incoming(
        channel="console", chat_id=user.split(":", 1)[1], user_id=user, text="(a test turn)"
    )
    turn = Turn(incoming=incoming, user=doc, language=doc.language, now_ms=now)
    return ToolContext(lembra.deps, turn, wants_save=wants_save)


async def run(lembra: Lembra, name: str, args: dict[str, Any], **kwargs: Any) -> Any:
    tool = registry()[name]
    ctx = await context(lembra, **kwargs)
    return await tool.run(ctx, tool.args_model.model_validate(args))


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("javascript:alert(1)", "scheme"),
        ("https://user:secret@example.com/", "credentials"),
        ("ftp://example.com/file", "scheme"),
    ],
)
async def test_a_link_we_do_not_take_is_a_structured_validation_error(
    lembra: Lembra, url: str, reason: str
) -> None:
    outcome = await run(lembra, "save_link", {"url": url})

    assert isinstance(outcome, Failed)
    failure = outcome.failure
    assert (failure.code, failure.category, failure.remediation) == (
        "INVALID_URL",
        "validation",
        "rephrase",
    )
    assert failure.reason == reason
    assert "secret" not in failure.message
    assert await lembra.items() == []


@pytest.mark.parametrize("path", ["/to-private", "/to-metadata", "/to-credentials"])
async def test_enrich_link_refuses_a_redirect_to_an_address_it_must_not_fetch(
    lembra: Lembra, path: str
) -> None:
    outcome = await run(lembra, "enrich_link", {"url": lembra.pages.url(path)})

    assert isinstance(outcome, Failed)
    assert (outcome.failure.code, outcome.failure.category) == ("LINK_REFUSED", "forbidden")
    assert lembra.pages.hits == [path]  # the redirect's target was never contacted
    assert await lembra.items() == []


async def test_enrich_link_only_reads_when_the_message_did_not_ask_to_save(lembra: Lembra) -> None:
    url = lembra.pages.url("/article")

    outcome = await run(lembra, "enrich_link", {"url": url}, wants_save=False)

    assert outcome == PageFetched(
        url, "Lembra & the art of memory", "A page about remembering things."
    )
    assert await lembra.items() == []


async def test_enrich_movie_asks_tmdb_in_the_users_language(lembra: Lembra) -> None:
    outcome = await run(lembra, "enrich_movie", {"title": "inception"}, wants_save=False)

    assert isinstance(outcome, Candidates)
    assert [(c.title, c.year) for c in outcome.candidates] == [
        ("Inception", 2010),
        ("Inception", 2014),
    ]
    assert lembra.tmdb.requests[-1].params["language"] == "pt-BR"
    assert await lembra.items() == []


async def test_tmdb_down_still_saves_un_enriched_with_a_caveat(lembra: Lembra) -> None:
    lembra.tmdb.status = 503

    outcome = await run(lembra, "enrich_movie", {"title": "inception", "year": 2010})

    assert isinstance(outcome, Saved)
    assert outcome.created
    assert outcome.caveats == ("caveat_tmdb_unavailable",)
    [item] = await lembra.items()
    assert (item.type, item.title, item.year, item.tmdb_id, item.enriched) == (
        "movie",
        "inception",
        2010,
        None,
        False,
    )
    assert len(lembra.tmdb.requests) == 3  # the first try and two bounded retries


async def test_saving_twice_is_one_item(lembra: Lembra) -> None:
    first = await run(lembra, "save_movie", {"title": "Inception", "year": 2010, "tmdb_id": 27205})
    again = await run(lembra, "save_movie", {"title": "A Origem", "year": 2010, "tmdb_id": 27205})

    assert isinstance(first, Saved)
    assert first.created
    assert isinstance(again, Saved)
    assert not again.created
    assert again.item.id == first.item.id
    assert len(await lembra.items()) == 1


async def test_titles_made_only_of_symbols_are_not_one_movie(lembra: Lembra) -> None:
    first = await run(lembra, "save_movie", {"title": "🎬"})
    second = await run(lembra, "save_movie", {"title": "🍿"})
    again = await run(lembra, "save_movie", {"title": "🍿"})

    assert isinstance(first, Saved)
    assert isinstance(second, Saved)
    assert isinstance(again, Saved)
    assert (first.created, second.created, again.created) == (True, True, False)
    assert [i.title for i in await lembra.items()] == ["🎬", "🍿"]


async def test_search_and_delete_see_only_the_callers_items(lembra: Lembra, db: Database) -> None:
    await seed(db, ["salva o filme the matrix"], user="cli:bob")
    [bobs] = await lembra.items("cli:bob")
    await seed(db, ["anota: comprar leite"])

    found = await run(lembra, "search_items", {"query": "matrix"})
    by_id = await run(lembra, "delete_item", {"item_id": bobs.id})
    by_query = await run(lembra, "delete_item", {"query": "matrix"})

    assert isinstance(found, Found)
    assert found.items == ()
    assert by_id == UnknownItem(bobs.id)
    assert by_query == NotFound("matrix")
    assert len(await lembra.items("cli:bob")) == 1


async def test_delete_item_only_previews(lembra: Lembra, db: Database) -> None:
    await seed(db, ["salva o filme the matrix"])

    outcome = await run(lembra, "delete_item", {"query": "matrix"})

    assert isinstance(outcome, DeletePreview)
    assert outcome.item.title == "The Matrix"
    assert len(await lembra.items()) == 1
    assert "item_deleted" not in await lembra.event_types()


async def test_delete_all_memories_as_a_tool_only_previews(lembra: Lembra, db: Database) -> None:
    await seed(db, ["anota: comprar leite", "salva o filme the matrix"])

    await run(lembra, "delete_all_memories", {})

    assert len(await lembra.items()) == 2
    assert "all_deleted" not in await lembra.event_types()
