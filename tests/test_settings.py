"""Settings: defaults, named errors for missing or invalid values."""

from __future__ import annotations

import pytest

from config import ConfigError, load_settings


def test_defaults_run_the_console_with_nothing_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TELEGRAM_BOT_TOKEN", "OPENAI_API_KEY", "OPENAI_BASE_URL", "MONGODB_URI"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings(_env_file=None)
    assert settings.default_language == "pt"
    assert settings.default_timezone == "America/Sao_Paulo"
    assert settings.mongodb_uri is None
    assert not settings.model_configured
    assert settings.user_daily_token_quota == 200_000
    assert settings.admin_daily_token_quota == 1_000_000
    assert settings.global_daily_token_cap == 20_000_000
    assert settings.belief_margin == 0.15


def test_serve_without_any_channel_names_what_is_missing() -> None:
    settings = load_settings(_env_file=None)
    with pytest.raises(ConfigError) as error:
        settings.require_channels()
    message = str(error.value)
    assert "TELEGRAM_BOT_TOKEN" in message
    assert "WHATSAPP_APP_SECRET" in message


def test_telegram_without_a_webhook_secret_is_refused_for_serve() -> None:
    settings = load_settings(_env_file=None, telegram_bot_token="123:abc")
    with pytest.raises(ConfigError, match="TELEGRAM_WEBHOOK_SECRET"):
        settings.require_channels()


def test_admin_ids_are_namespaced_and_trimmed() -> None:
    settings = load_settings(_env_file=None, admin_user_ids=" tg:1, wa:5511999990000 ,,")
    assert settings.admins == frozenset({"tg:1", "wa:5511999990000"})


def test_invalid_values_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEFAULT_TIMEZONE", "Mars/Olympus")
    monkeypatch.setenv("PORT", "99999")
    with pytest.raises(ConfigError) as error:
        load_settings(_env_file=None)
    assert "DEFAULT_TIMEZONE" in str(error.value)
    assert "PORT" in str(error.value)


def test_secrets_never_show_in_repr() -> None:
    settings = load_settings(_env_file=None, telegram_bot_token="123:very-secret")
    assert "very-secret" not in repr(settings)
