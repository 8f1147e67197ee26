"""The structured constitution (issue 13): overrides, stance, risk tolerance; versions and rollback."""

from __future__ import annotations

import json

from storage import Database
from storage.documents import ConstitutionDoc
from tests.support.harness import ALICE, open_lembra
from tests.support.live import live_runtime, respond

ROOT = "cli:root"


async def _version(db: Database) -> int:
    latest = await db.constitutions.latest()
    return latest.version if latest else 0


def test_a_version_stored_before_the_structured_fields_reads_with_defaults() -> None:
    old = {"_id": "v000001", "version": 1, "text": "Be brief.", "created_at_ms": 0}
    doc = ConstitutionDoc.model_validate(old)
    assert (doc.overrides, doc.stance, doc.risk_tolerance) == ([], "", 0.0)


async def test_bad_edits_name_the_field_and_change_nothing(db: Database) -> None:
    async with open_lembra(db, admin_user_ids=ROOT) as lembra:
        await lembra.say("/constitution", user=ROOT)
        cases = {
            '{"risk_tolerance": 2}': "risk_tolerance",
            '{"stanse": "calm"}': "stanse",
            '{"overrides": [{"trigger": "x", "instruction": "y", "priority": 500}]}': (
                "overrides.0.priority"
            ),
            '{"overrides": [{"trigger": "", "instruction": "y"}]}': "overrides.0.trigger",
            '{"stance": "calm"': "not JSON",
            "[1, 2]": "JSON object",
            "{}": "nothing to set",
        }
        for raw, named in cases.items():
            reply = await lembra.say(f"/constitution set {raw}", user=ROOT)
            assert reply.text.startswith("Constituição inalterada:"), raw
            assert named in reply.text, raw
        assert await _version(db) == 1
        events = [e for e in await lembra.events("system") if e.type == "constitution_updated"]
        assert len(events) == 1


async def test_every_edit_is_a_version_and_rollback_restores_the_previous_as_a_new_one(
    db: Database,
) -> None:
    async with open_lembra(db, admin_user_ids=ROOT) as lembra:
        first = await lembra.say("/constitution rollback", user=ROOT)
        assert "nothing to roll back" in first.text
        assert await _version(db) == 1

        await lembra.say('/constitution set {"stance": "cautious and terse"}', user=ROOT)
        shown = await lembra.say('/constitution set {"risk_tolerance": 0.5}', user=ROOT)
        assert shown.text.startswith(f"v3 ({ROOT}):")
        v3 = await db.constitutions.latest()
        assert v3 is not None
        assert (v3.stance, v3.risk_tolerance) == ("cautious and terse", 0.5)

        rolled = await lembra.say("/constitution rollback", user=ROOT)
        assert rolled.text.startswith("v4 ")
        v4 = await db.constitutions.latest()
        assert v4 is not None
        assert (v4.stance, v4.risk_tolerance) == ("cautious and terse", 0.0)
        assert (await db.constitutions.previous(4)) == v3  # the rolled-back version is kept

        current = await lembra.say("/constitution", user=ROOT)
        structure = json.loads(current.text.split("estrutura:\n", 1)[1])
        assert structure == {"stance": "cautious and terse", "risk_tolerance": 0.0, "overrides": []}
        events = [e for e in await lembra.events("system") if e.type == "constitution_updated"]
        assert [e.payload["version"] for e in events] == [1, 2, 3, 4]
        assert "cautious" not in json.dumps([e.payload for e in events])  # digests only
        assert events[1].payload["structure_sha256"] != events[0].payload["structure_sha256"]
        assert events[3].payload["structure_sha256"] == events[1].payload["structure_sha256"]


async def test_a_non_admin_can_neither_see_nor_edit_the_constitution(db: Database) -> None:
    async with open_lembra(db, admin_user_ids=ROOT) as lembra:
        await lembra.say('/constitution set {"stance": "first"}', user=ROOT)
        for command in ('/constitution set {"risk_tolerance": 1}', "/constitution rollback"):
            reply = await lembra.say(command, user=ALICE)
            assert "estrutura:" not in reply.text
        latest = await db.constitutions.latest()
        assert latest is not None
        assert (latest.version, latest.risk_tolerance) == (2, 0.0)


async def test_the_overrides_sit_in_the_stable_prompt_by_priority(db: Database) -> None:
    edit = {
        "stance": "warm but brief",
        "overrides": [
            {"trigger": "the user greets", "instruction": "greet back in one line", "priority": 1},
            {"trigger": "a title is unclear", "instruction": "ask before saving", "priority": 9},
        ],
    }
    async with live_runtime(db, admin_user_ids=ROOT) as live:
        await live.say(f"/constitution set {json.dumps(edit)}", user=ROOT)
        stables, situations = [], []
        for message in ("o que eu fiz antes?", "e antes disso, o que foi?"):
            _, report = await live.say(message, llm=[respond("Oi.")])
            messages = report.requests[0].body["messages"]
            systems = [str(m["content"]) for m in messages if m["role"] == "system"]
            stables.append(systems[0])
            situations.append(systems[-1])
    assert stables[0] == stables[1]  # byte-identical across turns: the prefix cache holds
    stable = stables[0]
    high = stable.index("- [9] when a title is unclear: ask before saving")
    low = stable.index("- [1] when the user greets: greet back in one line")
    assert high < low
    assert "Stance: warm but brief" in stable
    assert not any("ask before saving" in s or "warm but brief" in s for s in situations)


async def test_a_delete_is_confirmed_or_runs_by_the_risk_tolerance(db: Database) -> None:
    async with open_lembra(db, admin_user_ids=ROOT) as lembra:
        await lembra.say("anota: comprar leite")
        await lembra.say("apaga a nota comprar leite")
        await lembra.say("sim")  # the first delete is always confirmed
        await lembra.say("anota: pagar luz")

        await lembra.say("apaga a nota pagar luz")
        assert await lembra.pending() is not None  # 0.4 is over the confirm threshold 0.3
        await lembra.say("não")
        assert len(await lembra.items()) == 1  # "não": nothing deleted

        await lembra.say('/constitution set {"risk_tolerance": 1}', user=ROOT)
        await lembra.say("apaga a nota pagar luz")  # threshold now 0.65: it runs
        assert await lembra.pending() is None
        assert await lembra.items() == []
