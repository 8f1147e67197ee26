"""The `lembra` command line: every stable subcommand of DESIGN section 6 is there."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.main import _log_setup, build_parser, main
from config.settings import Settings
from config.version import lembra_version
from tests.support.proc import lembra_env, run_lembra

# DESIGN section 6: each command line and the options it must accept
STABLE = {
    ("chat",): ["--user", "--show-meta"],
    ("serve",): [],
    ("telegram",): ["--polling", "--set-webhook"],
    ("classify",): [],
    ("replay",): ["files"],
    ("ledger", "verify"): ["--user", "--against"],
    ("ledger", "head"): [],
    ("dream",): ["--user"],
    ("stats",): [],
    ("restore",): ["--force", "--signing-key"],  # DESIGN 10.4
    ("check",): [],  # DESIGN 11.6
    ("users", "allow"): ["who"],
    ("users", "deny"): ["who"],
    ("users", "list"): [],
}


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(actions[0].choices) if actions else {}


def _every_command(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found = [(path, parser)]
    for name, sub in _subparsers(parser).items():
        found += _every_command(sub, (*path, name))
    return found


def test_every_subcommand_and_option_has_help() -> None:
    """Issue 45: `serve`, `classify`, `stats` and the `telegram` options had none."""
    parser = build_parser()
    missing = []
    for path, command in _every_command(parser):
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                helped = {c.dest for c in action._choices_actions if c.help}
                missing += [
                    f"{' '.join(path)} {name}" for name in action.choices if name not in helped
                ]
            elif not action.help and action.dest != "help":
                missing.append(f"{' '.join(path)} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def test_version_loads_none_of_the_stack() -> None:
    code = (
        "import sys; from bot.cli.main import main\n"
        "try: main(['--version'])\nexcept SystemExit: pass\n"
        "heavy = {'pydantic', 'pymongo', 'langchain_core', 'telegram', 'aiohttp', 'agent.assembly'}\n"
        "print(sorted(heavy & set(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=lembra_env(), check=True
    )
    assert done.stdout.splitlines() == ["lembra " + lembra_version(), "[]"]


@pytest.mark.parametrize("command", sorted(STABLE), ids=" ".join)
def test_each_stable_subcommand_is_registered_with_its_options(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    assert usage.startswith(f"usage: lembra {' '.join(command)}")
    for option in STABLE[command]:
        assert option in usage


def test_the_console_script_and_python_m_bot_list_the_same_commands(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("lembra")
    listings = [run_lembra(["--help"], cwd=tmp_path).stdout]
    if script.exists():  # installed by `make install` (pip install -e .)
        listings.append(
            subprocess.run(
                [str(script), "--help"],
                capture_output=True,
                text=True,
                env=lembra_env(),
                cwd=tmp_path,
                timeout=60,
                check=True,
            ).stdout
        )
    for listing in listings:
        for name in ("chat", "serve", "telegram", "classify", "replay", "ledger", "dream", "stats"):
            assert name in listing


def test_an_unknown_subcommand_is_refused_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["remember"])
    assert done.value.code == 2
    assert "invalid choice: 'remember'" in capsys.readouterr().err


def test_stats_runs_on_a_fresh_embedded_database(tmp_path: Path) -> None:
    result = run_lembra(["stats"], env={"DATA_DIR": str(tmp_path / "data")}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "users: 0" in result.stdout
    assert "search index: ready" in result.stdout
    assert not (tmp_path / "data" / "embedded.json").exists()  # the server stopped with it


def _console(
    args: list[str], tmp_path: Path, stdin: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """`lembra ARGS` as a person runs it: no LOG_LEVEL (the test helper sets one)."""
    environment = {k: v for k, v in lembra_env({"DATA_DIR": str(tmp_path / "data")}).items()}
    environment.pop("LOG_LEVEL")
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment | env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )


def test_chat_on_first_start_prints_human_lines_and_no_migrations(tmp_path: Path) -> None:
    """Failed before issue 30: five JSON "schema migration applied" lines between the replies."""
    done = _console(["chat"], tmp_path, "oi\nsalva o filme inception\n")

    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert all(line.startswith("lembra: ") for line in lines), lines
    assert not [line for line in lines if "migration" in line]
    # one warning for the save, naming the cause (issue 45: the client said it again)
    assert [line for line in lines if "tmdb" in line] == [
        "lembra: warning: tmdb caveat (cause not_configured)"
    ]
    assert "inception" in done.stdout.lower()


def test_log_format_json_keeps_machine_lines_at_the_console(tmp_path: Path) -> None:
    done = _console(["chat"], tmp_path, "oi\n", LOG_FORMAT="json", LOG_LEVEL="INFO")

    assert done.returncode == 0, done.stderr
    events = [
        json.loads(line)["event"] for line in done.stderr.splitlines() if line.startswith("{")
    ]
    assert "schema migration applied" in events


@pytest.mark.parametrize(
    ("command", "log_format", "expected"),
    [
        (["chat"], None, ("WARNING", "text")),  # a person at a terminal: no info chatter
        (["chat"], "json", ("INFO", "json")),
        (["serve"], None, ("INFO", "json")),
        # a service told to write text still says it is serving, and what it ignores
        (["serve"], "text", ("INFO", "text")),
    ],
)
def test_log_format_changes_the_form_and_only_the_console_drops_info(
    command: list[str], log_format: str | None, expected: tuple[str, str]
) -> None:
    """Failed before: `LOG_FORMAT=text lembra serve` hid every INFO line (`serving`...)."""
    args = build_parser().parse_args(command)
    settings = Settings(_env_file=None, log_format=log_format, log_level="INFO")  # type: ignore[call-arg]
    assert _log_setup(args, settings) == expected
