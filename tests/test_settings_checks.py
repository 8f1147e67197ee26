"""Settings checked at start (issue 34): a bad value stops the command with one line naming it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from config import ConfigError, load_settings
from tests.support.proc import run_lembra


def _problem(**values: object) -> str:
    with pytest.raises(ConfigError) as error:
        load_settings(_env_file=None, **values)
    return str(error.value)


def test_an_admin_id_without_its_namespace_is_refused_with_the_fix() -> None:
    message = _problem(admin_user_ids="123456")
    assert message.startswith("ADMIN_USER_IDS='123456': ")
    assert "tg:123456" in message
    assert "wa:123456" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("ids", "named"),
    [
        ("tg:12,wa:abc", "'wa:abc'"),
        ("tg:1,xx:2", "unknown namespace 'xx'"),
        ("tg:-5", "'tg:-5'"),
        ("cli:two words", "'cli:two words'"),
        ("alice", "'alice' is not a namespaced id"),
    ],
)
def test_allowed_ids_are_checked_like_admin_ids(ids: str, named: str) -> None:
    message = _problem(allowed_user_ids=ids)
    assert message.startswith("ALLOWED_USER_IDS=")
    assert named in message
    assert "for example ALLOWED_USER_IDS=tg:" in message


def test_namespaced_ids_pass_and_are_trimmed() -> None:
    checked = load_settings(
        _env_file=None, allowed_user_ids=" tg:1, wa:5511999990000,cli:alice ,", admin_user_ids=""
    )
    assert checked.allowed == frozenset({"tg:1", "wa:5511999990000", "cli:alice"})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("openai_base_url", "not-a-url"),
        ("openai_base_url", "127.0.0.1:11434/v1"),  # no scheme: the host would read as one
        ("tmdb_base_url", "ftp://api.themoviedb.org/3"),
        ("telegram_api_base_url", "https://api.telegram.org:99999/bot"),
        ("whatsapp_api_base_url", "https://"),
    ],
)
def test_urls_must_parse_as_http_urls_with_a_host(name: str, value: str) -> None:
    message = _problem(**{name: value})
    assert message.startswith(f"{name.upper()}={value!r}: ")
    assert "\n" not in message


def test_a_webhook_url_is_https_except_on_loopback() -> None:
    message = _problem(telegram_webhook_url="http://bot.example.com/telegram/webhook")
    assert "must be an https URL" in message
    assert "for example TELEGRAM_WEBHOOK_URL=https://" in message
    for fine in ("http://127.0.0.1:8080/telegram/webhook", "http://localhost/t", "https://b.io/t"):
        assert load_settings(_env_file=None, telegram_webhook_url=fine).telegram_webhook_url == fine


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("llm_timeout_seconds", "inf"),
        ("pending_ttl_seconds", "0"),
        ("pending_ttl_seconds", "999999"),
        ("rate_limit_window_seconds", "-1"),
        ("port", "99999"),
    ],
)
def test_numbers_out_of_range_name_the_variable_and_a_correct_value(name: str, value: str) -> None:
    message = _problem(**{name: value})
    assert message.startswith(f"{name.upper()}={value!r}: ")
    assert f"(for example {name.upper()}=" in message


def test_settings_that_contradict_each_other_are_named_together() -> None:
    message = _problem(risk_confirm_threshold=0.95, risk_block_threshold=0.9)
    assert "RISK_CONFIRM_THRESHOLD" in message
    assert "RISK_BLOCK_THRESHOLD" in message
    message = _problem(narrative_token_budget=7000)
    assert "NARRATIVE_TOKEN_BUDGET" in message
    assert "PROMPT_TOKEN_BUDGET" in message


def test_each_bad_variable_gets_its_own_line_and_secrets_are_never_echoed() -> None:
    message = _problem(port="0", admin_user_ids="42", telegram_bot_token=["not", "a", "string"])
    lines = message.splitlines()
    assert [line.split("=", 1)[0].split(":", 1)[0] for line in lines] == [
        "TELEGRAM_BOT_TOKEN",
        "PORT",
        "ADMIN_USER_IDS",
    ]
    assert "not" not in lines[0].split(":", 1)[0]
    assert "'not'" not in message


def test_a_password_inside_a_bad_url_is_not_echoed() -> None:
    message = _problem(openai_base_url="https://bob:sk-secret-123@proxy.example.com:99999/v1")
    assert message.startswith("OPENAI_BASE_URL='https://***@proxy.example.com:99999/v1': ")
    assert "sk-secret-123" not in message
    assert "bob" not in message


@pytest.mark.parametrize(
    ("command", "env", "variable"),
    [
        (["serve"], {"ADMIN_USER_IDS": "123456"}, "ADMIN_USER_IDS"),
        (["chat"], {"OPENAI_BASE_URL": "not-a-url"}, "OPENAI_BASE_URL"),
    ],
)
def test_the_command_stops_with_exit_code_2_and_one_line(
    tmp_path: Path, command: list[str], env: dict[str, str], variable: str
) -> None:
    data = tmp_path / "data"
    result = run_lembra(command, env={"DATA_DIR": str(data), **env}, cwd=tmp_path, stdin="oi\n")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"lembra: error: {variable}=")
    assert "for example" in lines[0]
    assert not data.exists()  # stopped before opening anything


_ANY = st.one_of(st.text(max_size=40), st.integers(), st.floats(), st.none(), st.booleans())
_CHECKED = st.sampled_from(
    [
        "admin_user_ids",
        "allowed_user_ids",
        "openai_base_url",
        "telegram_webhook_url",
        "tmdb_base_url",
        "port",
        "pending_ttl_seconds",
        "llm_timeout_seconds",
        "llm_tracing",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_CHECKED, _ANY, max_size=4))
def test_any_value_either_loads_or_is_one_named_line_per_variable(
    values: dict[str, object],
) -> None:
    try:
        load_settings(_env_file=None, **values)
    except ConfigError as exc:
        for line in str(exc).splitlines():
            assert line.split("=", 1)[0].split(":", 1)[0].lower() in values
