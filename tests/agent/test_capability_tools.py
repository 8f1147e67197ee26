"""Every capability is a tool (issue 41, DESIGN 11.1): `save_items`, `list_items`, `update_item` by
a shelf handle, and the paths a plan may take decided by what a tool does, not by name lists.

The planner's call and the in-code reader of the same request run one implementation, so
their answers read the same; TMDB never blocks a save or an edit.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from agent.conversation.runtime import Runtime
from agent.planning.prompt import stable_prompt
from agent.planning.structured import first_step_tools, output_schema, step_tools
from agent.tools import paths, registry
from agent.tools.base import Found, Tool, ToolArgs, ToolContext
from agent.tools.listing import ListItemsArgs
from agent.tools.several import SaveItemsArgs
from storage import Database
from tests.support.harness import open_lembra
from tests.support.live import BELIEF, call

NO_TMDB = "https://api.themoviedb.org/3"  # its public host with no key: "not configured"


class _AskArgs(ToolArgs):
    about: str


async def _nothing(ctx: ToolContext, args: Any) -> Found:
    return Found(None, ())


def _tool(name: str, risk: Any, kind: Any = None) -> Tool[ToolArgs]:
    return Tool(name, _AskArgs, risk, "A tool another issue adds.", _nothing, {}, kind=kind)


# -- paths: decided by what a tool does -----------------------------------------------------------


def test_a_new_tool_is_offered_where_its_kind_belongs_with_no_list_to_edit() -> None:
    listed = [*registry().values(), _tool("list_reminders", "read"), _tool("cancel_it", "low")]
    # a reader is offered to a question; a change (by its risk, no kind given) is not
    assert "list_reminders" in paths.questions(listed)
    assert "cancel_it" not in paths.questions(listed)
    assert {"list_reminders", "cancel_it"} <= paths.plannable(listed)
    assert "cancel_it" in paths.without_saves(listed)
    # a question's first step never names a save, a change or a lookup
    assert not {"save_items", "enrich_movie", "update_item"} & paths.questions(listed)
    # the hints' first steps: a save may correct or look up, a delete may search and simulate
    assert {"save_items", "enrich_movie", "cancel_it"} <= (
        paths.first_step("save", listed) or set()
    )
    assert {"delete_item", "list_reminders", "simulate"} <= (
        paths.first_step("delete", listed) or set()
    )
    assert "log_reasoning" not in (paths.first_step("search", listed) or set())
    # deleting everything is never a plan's
    assert "delete_all_memories" not in paths.plannable(listed)
    # and its line is in the prompt, compact
    assert "- list_reminders(about: str): A tool another issue adds." in stable_prompt(tools=listed)


def test_the_json_schema_and_first_steps_follow_the_kinds() -> None:
    tools = list(registry().values())
    schema = output_schema(tools)
    assert {"save_items", "list_items"} <= step_tools(schema)
    assert first_step_tools("search", "procura leite", tools) == frozenset(
        {
            "search_items",
            "list_items",
            "list_reminders",
            "request_clarification",
            "where_to_watch",  # the watchlist's questions (issue 44) read too
            "suggest_from_list",
            "what_i_said",
        }
    )


def test_the_runtimes_paths_are_the_kinds_paths() -> None:
    from agent.conversation import runtime

    assert "list_items" in runtime.QUESTION_TOOLS
    assert not {"save_items", "save_note"} & runtime.NO_SAVE_TOOLS
    assert runtime.ALLOWED_FROM_PLAN == paths.plannable(registry().values())
    assert Runtime.allowed.__doc__


# -- the argument models ------------------------------------------------------------------------------


def test_save_items_takes_one_to_ten_typed_items_and_reads_loose_type_words() -> None:
    parsed = SaveItemsArgs.model_validate(
        {"items": [{"type": "tv", "title": "Dark"}, {"type": "filme", "content": "Duna"}]}
    )
    assert [(i.type, i.title) for i in parsed.items] == [("tv_show", "Dark"), ("movie", "Duna")]
    note = SaveItemsArgs.model_validate({"items": [{"type": "note", "title": "pão"}]}).items[0]
    assert (note.content, note.title) == ("pão", None)  # a note's title is its text
    for bad in (
        {"items": []},
        {"items": [{"type": "movie", "title": f"t{n}"} for n in range(11)]},
        {"items": [{"type": "link"}]},  # a link needs its address
        {"items": [{"type": "movie", "title": "x", "user_id": "cli:bob"}]},  # strict
    ):
        with pytest.raises(ValidationError):
            SaveItemsArgs.model_validate(bad)


def test_list_items_accepts_the_designs_periods_and_states() -> None:
    args = ListItemsArgs.model_validate(
        {"type": "series", "period": "last_7_days", "state": "to_see", "count_only": True}
    )
    assert (args.type, args.period, args.state, args.count_only) == (
        "tv_show",
        "last_7_days",
        "to_see",
        True,
    )
    # what code reads the planner can ask for (DESIGN 11.1): "semana passada" too
    assert ListItemsArgs.model_validate({"period": "last_week"}).period == "last_week"
    with pytest.raises(ValidationError):
        ListItemsArgs.model_validate({"period": "last_year"})


@given(st.dictionaries(st.sampled_from(["type", "title", "year", "url", "content"]), st.text()))
def test_reading_any_item_spec_never_raises_anything_but_a_validation_error(
    spec: dict[str, str],
) -> None:
    try:
        SaveItemsArgs.model_validate({"items": [spec]})
    except ValidationError:
        pass


# -- save_items ----------------------------------------------------------------------------------------


async def test_the_planners_save_items_saves_each_with_tmdb_absent_in_one_reply(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        message = "quero guardar Duna, a série Dark, https://example.com/receita e Duna de novo"
        reply = await lembra.say(
            message,
            llm=[
                call(
                    "save_items",
                    items=[
                        {"type": "movie", "title": "Duna"},
                        {"type": "tv_show", "title": "Dark"},
                        {"type": "link", "url": "https://example.com/receita"},
                        {"type": "movie", "title": "Duna"},
                    ],
                )
            ],
        )
        items = await lembra.items()
    assert [(i.type, i.title or i.url) for i in items] == [
        ("movie", "Duna"),
        ("tv_show", "Dark"),
        ("link", "https://example.com/receita"),
    ]
    lines = reply.text.splitlines()
    assert lines[:4] == [
        "✅ Salvei 3 itens:",
        "1. Duna",
        "2. Dark",
        "3. https://example.com/receita",
    ]
    assert "já estava" in lines[4]  # Duna again: what became of every item is said
    assert "TMDB" in reply.text  # the caveat names the cause
    assert reply.meta.state == "PARTIAL"
    assert reply.meta.llm_calls == 1


async def test_a_title_the_message_never_named_is_refused_and_asked_again(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        reply = await lembra.say(
            # no save verb in front: the planner's ("salva Duna e Matrix" is split in code)
            "me ajuda a guardar Duna e Matrix pra ver depois",
            llm=[
                call(
                    "save_items",
                    items=[{"type": "movie", "title": "Duna"}, {"type": "movie", "title": "Tenet"}],
                ),
                call(
                    "save_items",
                    items=[
                        {"type": "movie", "title": "Duna"},
                        {"type": "movie", "title": "Matrix"},
                    ],
                ),
            ],
        )
        assert [i.title for i in await lembra.items()] == ["Duna", "Matrix"]
        refusal = lembra.requests[1].body["messages"][-1]["content"]
    assert "Tenet" in refusal or "tenet" in refusal
    assert reply.meta.llm_calls == 2


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "salva Duna, Matrix e Tenet",
            [("movie", "Duna"), ("movie", "Matrix"), ("movie", "Tenet")],
        ),
        (
            "put Dune, Arrival and Gravity on my list",
            [("movie", "Dune"), ("movie", "Arrival"), ("movie", "Gravity")],
        ),
        ("salva a série Dark e o filme Duna", [("tv_show", "Dark"), ("movie", "Duna")]),
        (
            "anota comprar ração e guarda esse link https://example.com/racao",
            [("note", "comprar ração"), ("link", "https://example.com/racao")],
        ),
        (
            "save these:\n- Oppenheimer\n- Barbie",
            [("movie", "Oppenheimer"), ("movie", "Barbie")],
        ),
    ],
)
async def test_explicit_lists_and_typed_parts_are_several_items_without_tmdb(
    db: Database, message: str, expected: list[tuple[str, str]]
) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        reply = await lembra.say(message)
        items = await lembra.items()
        assert lembra.model_calls == 0
    assert [(i.type, i.title or i.content or i.url) for i in items] == expected
    assert reply.text.startswith("✅ Sa")  # Salvei / Saved


async def test_a_to_do_list_after_a_save_verb_is_left_to_the_planner(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say(
            "salva comprar pão, leite e ovos",
            llm=[call("save_note", content="comprar pão, leite e ovos")],
        )
        assert [i.content for i in await lembra.items()] == ["comprar pão, leite e ovos"]
        assert lembra.model_calls == 1


# -- list_items ----------------------------------------------------------------------------------------


async def test_the_planners_count_and_the_codes_count_read_the_same_with_one_call(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva as séries Dark e Lost")
        by_code = await lembra.say("quantas séries eu tenho?")
        by_model = await lembra.say(
            "me diz aí o total de seriados que tenho guardados",
            llm=[call("list_items", type="tv_show", count_only=True)],
        )
    assert by_code.text == by_model.text == "Você tem 2 séries."
    assert by_code.meta.llm_calls == 0
    assert by_model.meta.llm_calls == 1  # a list or a count is worded by the runtime


async def test_list_items_by_period_and_by_state(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("anota: comprar pão")
        lembra.clock.advance(86_400)
        await lembra.say("salva os filmes Duna e Matrix")
        today = await lembra.say(
            "e de hoje, o que entrou?", llm=[call("list_items", period="today")]
        )
        # an item stored with no state has its type's first (DESIGN 11.5; issue 44 stores it)
        seen = await lembra.say(
            "quais desses eu já assisti", llm=[call("list_items", type="movie", state="seen")]
        )
        left = await lembra.say(
            "e o que falta ver", llm=[call("list_items", type="movie", state="to_see")]
        )
    assert today.text.splitlines() == [
        "Você salvou 2 itens hoje:",
        "1. Matrix",
        "2. Duna",
    ]
    assert seen.text == "Você não tem filmes já vistos."
    # "o que falta ver" is the watchlist's own question, read in code (issue 44)
    assert left.text.splitlines() == ["Falta ver (2):", "1. Duna", "2. Matrix"]
    assert left.meta.llm_calls == 0


# -- update_item by a shelf handle, TMDB absent --------------------------------------------------------


async def test_update_item_by_handle_changes_a_year_and_a_title_with_tmdb_absent(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Duna", llm=[call("enrich_movie", title="Duna")])
        item = (await lembra.items())[0]
        handle = item.id[:8]
        year = await lembra.say(
            "na real é aquele lançado em 2021",
            llm=[call("update_item", item_id=handle, year=2021)],
        )
        title = await lembra.say(
            "o nome certo é Duna: Parte Um",
            llm=[call("update_item", item_id=handle, title="Duna: Parte Um")],
        )
        changed = (await lembra.items())[0]
        undone = await lembra.say("desfaz")
        back = (await lembra.items())[0]
    assert (changed.id, changed.title, changed.year) == (item.id, "Duna: Parte Um", 2021)
    assert year.meta.state == "OK"
    assert title.meta.state == "OK"
    assert "2021" in year.text
    assert "Duna: Parte Um" in title.text
    assert (back.title, back.year) == ("Duna", 2021)  # the title change undone, the year kept
    assert undone.meta.state == "OK"


async def test_a_wrong_words_correction_in_code_edits_only_the_item_just_saved(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("anota: a senha do wifi é 1233")
        fixed = await lembra.say("corrige: a senha do wifi é 1234")
        await lembra.say("me lembra amanhã às 9h de trocar a senha")
        later = await lembra.say("corrige: 10h")
        notes = [i.content for i in await lembra.items()]
    assert fixed.meta.llm_calls == 0
    assert notes == ["a senha do wifi é 1234"]  # "corrige: 10h" after a reminder is no edit
    # it moves the reminder just set, in code (a time beside a correction word asks nothing)
    assert later.meta.llm_calls == 0
    assert "10:00" in later.text
    assert "trocar a senha" in later.text


NOOP = {"action": "NOOP", "tool": None, "args": None, "message": None, "belief": BELIEF}


async def test_a_save_the_model_left_undone_is_done_as_the_rules_read_it(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        series = await lembra.say("salva a série The Bear", llm=[NOOP])
        bare = await lembra.say("guarda Oppenheimer pra mim", llm=[NOOP])
        vague = await lembra.say("salva aquele documentário", llm=[NOOP])
        reminder = await lembra.say("me lembra de comprar pão", llm=[NOOP])
        items = await lembra.items()
    assert [(i.type, i.title) for i in items] == [("tv_show", "The Bear"), ("movie", "Oppenheimer")]
    assert series.meta.state == bare.meta.state == "PARTIAL"  # saved as written, the caveat said
    assert "TMDB" in series.text
    assert vague.meta.tools_executed == reminder.meta.tools_executed == ()


async def test_a_first_step_names_an_item_only_by_a_handle_the_situation_showed(
    db: Database,
) -> None:
    """json_schema output: `item_id` is one of the shelf's handles, or not offered at all."""
    async with open_lembra(
        db, counting_model=True, tmdb_base_url=NO_TMDB, llm_output_mode="json_schema"
    ) as lembra:
        await lembra.say(
            "note: renew the passport", llm=[call("save_note", content="renew the passport")]
        )
        first = lembra.requests[-1].body["response_format"]["json_schema"]["schema"]
        await lembra.say("muda pra renovar o passaporte hoje", llm=[NOOP])
        later = lembra.requests[-1].body["response_format"]["json_schema"]["schema"]
        handle = (await lembra.items())[0].id[:8]

    def item_ids(schema: dict[str, Any]) -> list[Any]:
        found = []
        for step in schema["anyOf"]:
            args = step["properties"].get("args") or {}
            for variant in args.get("anyOf", [args]):
                if "item_id" in (variant.get("properties") or {}):
                    found.append(variant["properties"]["item_id"])
        return found

    assert item_ids(first) == []  # nothing shown yet: no item to name
    assert "update_item" not in step_tools(first)
    # a headed note is a note to save: never a fact noted about the user, nor a bookmark
    assert {"save_note", "save_items"} <= step_tools(first)
    assert not {"remember", "bookmark"} & step_tools(first)
    assert item_ids(later)
    assert all(spec == {"type": "string", "enum": [handle]} for spec in item_ids(later))


async def test_list_items_counts_a_state_exactly_past_a_thousand_items(db: Database) -> None:
    """Review of the merge: a state was counted on the newest 1,000 items read."""
    from tests.support.bulk import stored_notes
    from tests.support.harness import ALICE

    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("anota: comprar pão")
        await stored_notes(db, ALICE, 1_200)
        lembra.clock.advance(60)
        opened = await lembra.say(
            "quantas notas ainda estão abertas?",
            llm=[call("list_items", type="note", state="open", count_only=True)],
        )
        done = await lembra.say(
            "e quantas concluídas?",
            llm=[call("list_items", type="note", state="done", count_only=True)],
        )
    assert "1201" in opened.text.replace(".", "").replace(",", ""), opened.text
    assert "1201" not in done.text.replace(".", "").replace(",", ""), done.text
