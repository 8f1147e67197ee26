"""`lembra replay FILE...` (DESIGN 6) itself: its report, its failures and its exit status.

The transcript suite (tests/e2e/test_transcripts.py) proves that good transcripts
pass; these tests prove that the replay would notice when they do not, and that the
command line prints one JSON report a file with exactly the documented keys.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import yaml

from bot.cli.replay import replay_files
from tests.support.harness import token_counter
from tests.support.proc import run_lembra
from tests.support.servers import RunningServer

BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}
SAVE_MILK = {
    "action": "CALL_TOOL",
    "tool": "save_note",
    "args": {"content": "comprar leite"},
    "message": None,
    "belief": BELIEF,
}
REPORT_KEYS = {"file", "passed", "turns"}
TURN_KEYS = {
    "index",
    "reply",
    "state",
    "score",
    "tools_executed",
    "llm_calls",
    "prompt_tokens",
    "failures",
}
GOOD = {
    "user": "alice",
    "turns": [
        {
            "user": "anota: comprar leite",
            "llm": [SAVE_MILK],
            "expect": {"llm_calls": 1, "state": "OK", "items_count": 1},
        },
        {"user": "lista tudo", "expect": {"llm_calls": 0, "reply_contains": "comprar leite"}},
    ],
}


def write(tmp_path: Path, name: str, transcript: dict[str, Any]) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(transcript, allow_unicode=True), encoding="utf-8")
    return path


async def replay(paths: list[Path], server: RunningServer) -> tuple[int, list[dict[str, Any]]]:
    lines: list[str] = []
    status = await replay_files(
        [str(p) for p in paths], emit=lines.append, server_uri=server.uri, counter=token_counter()
    )
    return status, [json.loads(line) for line in lines]


async def test_a_passing_file_gives_exit_0_and_the_documented_report(
    tmp_path: Path, nx_server: RunningServer
) -> None:
    path = write(tmp_path, "good.yaml", GOOD)

    status, [report] = await replay([path], nx_server)

    assert status == 0
    assert set(report) == REPORT_KEYS
    assert report["file"] == str(path)
    assert report["passed"] is True
    saved, listed = report["turns"]
    assert all(set(turn) == TURN_KEYS for turn in report["turns"])
    assert saved["index"] == 0
    assert saved["state"] == "OK"
    assert saved["score"] == 100
    assert saved["tools_executed"] == ["save_note"]
    assert saved["llm_calls"] == 1
    assert type(saved["prompt_tokens"]) is int
    assert saved["prompt_tokens"] > 0
    assert saved["failures"] == []
    assert "comprar leite" in listed["reply"]
    assert listed["llm_calls"] == 0
    assert listed["prompt_tokens"] == 0


async def test_an_item_placeholder_that_names_no_item_fails_its_turn_and_runs_nothing(
    tmp_path: Path, nx_server: RunningServer
) -> None:
    def delete(placeholder: str) -> dict[str, Any]:
        output = {**SAVE_MILK, "tool": "delete_item", "args": {"item_id": placeholder}}
        return {"user": "apaga aquela nota", "llm": [output], "expect": {"state": "OK"}}

    transcript = {
        "user": "alice",
        "turns": [
            {"user": "anota: comprar leite", "llm": [SAVE_MILK]},
            delete("${item:alice:3}"),
            delete("${item:carol:0}"),
            delete("${item:alice}"),
            delete("${item:alice:0"),
            {"user": "lista tudo", "expect": {"llm_calls": 0, "items_count": 1}},
        ],
    }
    path = write(tmp_path, "placeholders.yaml", transcript)

    status, [report] = await replay([path], nx_server)

    assert status == 1
    assert report["passed"] is False
    failures = [turn["failures"] for turn in report["turns"]]
    assert failures == [
        [],
        ["llm: ${item:alice:3}: cli:alice has only 1 item(s), N 0..0; the turn was not run"],
        ["llm: ${item:carol:0}: cli:carol is not a user of this replay; the turn was not run"],
        [
            "llm: ${item:alice} is not of the form ${item:USER:N} (N counts from 0); "
            "the turn was not run"
        ],
        ["llm: '${item:alice:0' is not closed: write ${item:USER:N}; the turn was not run"],
        [],  # nothing was deleted, and no scripted output leaked into a later turn
    ]
    assert [turn["llm_calls"] for turn in report["turns"]] == [1, 0, 0, 0, 0, 0]


async def test_expected_state_is_read_in_any_case(tmp_path: Path, nx_server: RunningServer) -> None:
    def expecting(state: str) -> dict[str, Any]:
        return {"user": "alice", "turns": [{"user": "oi", "expect": {"state": state}}]}

    lower = write(tmp_path, "lower.yaml", expecting("ok"))
    mixed = write(tmp_path, "mixed.yaml", expecting("Partial"))
    unknown = write(tmp_path, "unknown.yaml", expecting("fine"))

    status, reports = await replay([lower, mixed, unknown], nx_server)

    assert status == 1
    assert reports[0]["passed"] is True, reports[0]
    assert reports[1]["turns"][0]["failures"] == ["state: expected PARTIAL, got OK (score 100)"]
    assert "turns.0.expect.state" in reports[2]["error"]


async def test_prompt_tokens_add_up_every_request_of_the_turn_and_the_cap_is_per_request(
    tmp_path: Path, nx_server: RunningServer
) -> None:
    two_calls = {
        "user": "alice",
        "turns": [
            {
                "user": "anota: comprar leite",
                "llm": [{"raw": "Claro! Vou anotar."}, SAVE_MILK],  # refused, then re-asked
                "expect": {"llm_calls": 2, "state": "OK", "max_prompt_tokens": 1},
            }
        ],
    }
    path = write(tmp_path, "two_calls.yaml", two_calls)

    status, [report] = await replay([path], nx_server)

    [turn] = report["turns"]
    assert status == 1
    assert turn["llm_calls"] == 2
    [failure] = turn["failures"]
    largest = int(failure.removeprefix("max_prompt_tokens: ").split(" > ")[0])
    # the re-ask carries the first request and the refusal, so it is the larger of the two
    assert largest < turn["prompt_tokens"] < 2 * largest

    # the cap applies to the largest single request, not to the turn's total
    two_calls["turns"][0]["expect"]["max_prompt_tokens"] = largest
    status, [report] = await replay([write(tmp_path, "fits.yaml", two_calls)], nx_server)
    assert status == 0, report
    assert report["turns"][0]["prompt_tokens"] > largest


async def test_every_expectation_that_does_not_hold_is_reported_and_fails_the_file(
    tmp_path: Path, nx_server: RunningServer
) -> None:
    wrong = {
        "user": "alice",
        "turns": [
            {
                "user": "anota: comprar leite",
                "llm": [SAVE_MILK],
                "expect": {
                    "llm_calls": 2,
                    "state": "PARTIAL",
                    "reply_contains": ["nunca aparece"],
                    "reply_not_contains": ["COMPRAR LEITE"],
                    "items": [{"type": "movie", "content": "comprar leite"}],
                    "items_count": 3,
                    "tools_executed": ["save_movie"],
                    "pending": True,
                    "ledger_events": ["all_deleted"],
                    "max_prompt_tokens": 10,
                },
            }
        ],
    }
    path = write(tmp_path, "wrong.yaml", wrong)

    status, [report] = await replay([path], nx_server)

    assert status == 1
    assert report["passed"] is False
    failures = report["turns"][0]["failures"]
    expected_starts = [
        "llm_calls: expected 2, got 1",
        "state: expected PARTIAL, got OK",
        "reply does not contain 'nunca aparece'",
        "reply contains 'COMPRAR LEITE'",  # case-insensitive
        "items_count: expected 3, got 1",
        "items[0].type: expected 'movie', got 'note'",
        "tools_executed: expected ['save_movie'], got ['save_note']",
        "pending: expected True, got False",
        "ledger_events: missing ['all_deleted']",
        "max_prompt_tokens: ",
    ]
    for start in expected_starts:
        assert any(f.startswith(start) for f in failures), (start, failures)
    # the note's content matched (strings compare ignoring case and surrounding spaces)
    assert not any(f.startswith("items[0].content") for f in failures)


async def test_a_script_that_does_not_fit_the_requests_fails_the_file(
    tmp_path: Path, nx_server: RunningServer
) -> None:
    # the note is in the message (DESIGN 9.6), so the first output is accepted and one is left
    leftover = {
        "user": "alice",
        "turns": [{"user": "anota: comprar leite", "llm": [SAVE_MILK, SAVE_MILK]}],
    }
    missing = {"user": "alice", "turns": [{"user": "anota: comprar leite"}]}
    unserved = {"user": "alice", "turns": [{"user": "lista tudo", "llm_errors": [{"status": 500}]}]}
    paths = [
        write(tmp_path, "leftover.yaml", leftover),
        write(tmp_path, "missing.yaml", missing),
        write(tmp_path, "unserved.yaml", unserved),
    ]

    status, reports = await replay(paths, nx_server)

    assert status == 1
    assert [r["passed"] for r in reports] == [False, False, False]
    assert reports[0]["turns"][0]["failures"] == ["1 scripted output(s) left unconsumed"]
    assert any("out_of_outputs" in f for f in reports[1]["turns"][0]["failures"])
    assert reports[2]["turns"][0]["failures"] == ["1 scripted error(s) never served"]


async def test_an_invalid_file_is_a_failed_report_and_the_others_still_run(
    tmp_path: Path, nx_server: RunningServer
) -> None:
    unknown_key = write(
        tmp_path, "typo.yaml", {"turns": [{"user": "oi", "expect": {"reply_contain": "x"}}]}
    )
    no_text = write(tmp_path, "no_text.yaml", {"turns": [{"expect": {}}]})
    good = write(tmp_path, "good.yaml", GOOD)
    absent = tmp_path / "absent.yaml"

    status, reports = await replay([unknown_key, no_text, absent, good], nx_server)

    assert status == 1
    assert [r["passed"] for r in reports] == [False, False, False, True]
    assert "reply_contain" in reports[0]["error"]
    assert reports[0]["turns"] == []
    assert "exactly one of `user`" in reports[1]["error"]
    assert reports[2]["file"] == str(absent)


async def test_a_broken_file_is_reported_with_its_name_and_where_without_a_traceback(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("user: alice\nturns:\n  - user: oi\n   expect: {}\n", encoding="utf-8")
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"turns": [\n  {"user": "oi",}\n]}', encoding="utf-8")
    empty = tmp_path / "empty.yaml"
    empty.write_text("", encoding="utf-8")
    comments = tmp_path / "comments.yaml"
    comments.write_text("# nothing here yet\n", encoding="utf-8")
    listed = tmp_path / "list.yaml"
    listed.write_text("- user: oi\n", encoding="utf-8")
    zone = write(tmp_path, "zone.yaml", {"timezone": "Mars/Olympus", "turns": [{"user": "oi"}]})
    tmdb = write(tmp_path, "tmdb.yaml", {"tmdb": {"movie": ["x"]}, "turns": [{"user": "oi"}]})
    who = write(tmp_path, "who.yaml", {"turns": [{"user": "oi", "as_user": "tg:"}]})
    status = write(
        tmp_path, "status.yaml", {"turns": [{"user": "oi", "llm_errors": [{"status": 200}]}]}
    )
    files = [broken, bad_json, empty, comments, listed, zone, tmdb, who, status]

    result = await asyncio.to_thread(
        run_lembra, ["replay", *map(str, files)], cwd=tmp_path, timeout=120
    )

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [set(r) for r in reports] == [REPORT_KEYS | {"error"}] * len(files)
    assert [(r["file"], r["passed"], r["turns"]) for r in reports] == [
        (str(f), False, []) for f in files
    ]
    errors = [r["error"] for r in reports]
    assert all(
        e.startswith(f"invalid transcript: {f}: ") for e, f in zip(errors, files, strict=True)
    )
    assert errors[0] == (
        f"invalid transcript: {broken}: line 4, column 4: invalid YAML: expected <block end>, "
        "but found '<block mapping start>' (while parsing a block collection at line 3, column 3)"
    )
    assert "line 2, column 17: invalid JSON" in errors[1]
    assert errors[2] == errors[3].replace(str(comments), str(empty))
    assert "empty transcript" in errors[2]
    assert "a transcript is a mapping with at least `turns`, not a list" in errors[4]
    assert "unknown time zone 'Mars/Olympus'" in errors[5]
    assert "tmdb.movie" in errors[6]
    assert "'tg:' is not a user id" in errors[7]
    assert "turns.0.llm_errors: Value error, scripted error 0: `status` must be" in errors[8]


async def test_the_command_prints_one_report_a_file_and_exits_1_if_any_failed(
    tmp_path: Path,
) -> None:
    good = write(tmp_path, "good.yaml", GOOD)
    bad = write(
        tmp_path,
        "bad.json",
        {"user": "bob", "turns": [{"user": "lista tudo", "expect": {"llm_calls": 1}}]},
    )
    bad.write_text(json.dumps(yaml.safe_load(bad.read_text())), encoding="utf-8")

    both = await asyncio.to_thread(
        run_lembra, ["replay", str(good), str(bad)], cwd=tmp_path, timeout=120
    )
    alone = await asyncio.to_thread(run_lembra, ["replay", str(good)], cwd=tmp_path, timeout=120)

    assert both.returncode == 1, both.stderr
    reports = [json.loads(line) for line in both.stdout.splitlines()]
    assert [(r["file"], r["passed"]) for r in reports] == [(str(good), True), (str(bad), False)]
    assert reports[1]["turns"][0]["failures"] == ["llm_calls: expected 1, got 0"]
    assert alone.returncode == 0, alone.stderr
    assert len(alone.stdout.splitlines()) == 1


async def test_file_keys_model_timeout_context_size_and_global_token_cap_are_applied(
    tmp_path: Path, nx_server: RunningServer
) -> None:
    held = {"user": "anota: comprar leite", "llm_errors": [{"delay": 1}], "llm": [SAVE_MILK]}
    # 1 s held then dropped: within a 5 s timeout it is a dropped connection, retried...
    patient = write(
        tmp_path,
        "patient.yaml",
        {"model_timeout": 5, "turns": [{**held, "expect": {"llm_calls": 2, "state": "OK"}}]},
    )
    # ...past a 0.5 s timeout it is a timeout: not retried, the output stays unconsumed
    # (the offline planner saves the note in simple mode, saying the model took too long).
    hasty = write(
        tmp_path,
        "hasty.yaml",
        {"model_timeout": 0.5, "turns": [{**held, "expect": {"llm_calls": 1, "state": "OK"}}]},
    )
    # The scripted server answers a request over `context_size` with HTTP 400, as the API does.
    small = write(
        tmp_path,
        "small.yaml",
        {"context_size": 300, "turns": [{"user": "anota: comprar leite", "llm": [SAVE_MILK]}]},
    )
    # With a global cap of 1 token no model call is made; deterministic commands still work.
    capped = write(
        tmp_path,
        "capped.yaml",
        {
            "global_token_cap": 1,
            "turns": [
                {
                    "user": "anota: comprar leite",
                    "expect": {
                        "llm_calls": 0,
                        "state": "FAIL",
                        "reply_contains": "O assistente atingiu o limite diário",
                        "items_count": 0,
                    },
                },
                {"user": "ajuda", "expect": {"llm_calls": 0, "state": "OK"}},
            ],
        },
    )

    status, reports = await replay([patient, hasty, small, capped], nx_server)

    assert status == 1
    assert reports[0]["passed"] is True, reports[0]
    assert "demorou demais para responder" in reports[1]["turns"][0]["reply"]
    assert reports[1]["turns"][0]["failures"] == ["1 scripted output(s) left unconsumed"]
    small_failures = reports[2]["turns"][0]["failures"]
    assert any("context_length_exceeded" in f for f in small_failures), small_failures
    assert reports[3]["passed"] is True, reports[3]
