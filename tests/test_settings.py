"""Settings: defaults, named errors for missing or invalid values."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import ConfigError, load_settings
from config.settings import Settings


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
    assert "neither TELEGRAM_BOT_TOKEN nor the WhatsApp settings" in message
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


DESIGN_SECTION_7 = (
    "TELEGRAM_BOT_TOKEN TELEGRAM_API_BASE_URL TELEGRAM_WEBHOOK_URL TELEGRAM_WEBHOOK_SECRET "
    "WHATSAPP_ACCESS_TOKEN WHATSAPP_APP_SECRET WHATSAPP_VERIFY_TOKEN WHATSAPP_PHONE_NUMBER_ID "
    "WHATSAPP_API_BASE_URL HOST PORT OPENAI_API_KEY OPENAI_BASE_URL LLM_MODEL TMDB_API_KEY "
    "TMDB_BASE_URL MONGODB_URI MONGODB_DB ADMIN_USER_IDS DATA_DIR DEFAULT_LANGUAGE "
    "DEFAULT_TIMEZONE LOG_LEVEL"
).split()


def test_env_example_documents_every_setting_in_one_line_with_its_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    example = Path(__file__).resolve().parents[1] / ".env.example"
    documented: dict[str, str] = {}
    for line in example.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, rest = line.partition("=")
        _, _, explanation = rest.partition("#")
        assert explanation.strip(), f"{name} has no explanation"
        assert name not in documented, f"{name} is documented twice"
        documented[name] = rest
    settings_names = {field.upper() for field in Settings.model_fields}
    assert set(documented) == settings_names
    assert set(DESIGN_SECTION_7) <= set(documented)
    # copied as it is, the example changes nothing: its values are the defaults
    for name in settings_names:
        monkeypatch.delenv(name, raising=False)
    assert Settings(_env_file=example) == Settings(_env_file=None)


def test_serve_refuses_a_partial_whatsapp_set_up_even_with_telegram() -> None:
    settings = load_settings(
        _env_file=None,
        telegram_bot_token="123:abc",
        telegram_webhook_secret="s",
        whatsapp_access_token="EAAG",
        whatsapp_phone_number_id="1055",
    )
    with pytest.raises(ConfigError) as error:
        settings.require_channels()
    message = str(error.value)
    assert "WhatsApp is partly configured" in message
    assert "WHATSAPP_APP_SECRET" in message
    assert "WHATSAPP_VERIFY_TOKEN" in message
    assert "WHATSAPP_ACCESS_TOKEN" not in message


def test_serve_accepts_whatsapp_alone_or_telegram_alone() -> None:
    whatsapp = {
        "whatsapp_access_token": "EAAG",
        "whatsapp_app_secret": "app",
        "whatsapp_verify_token": "verify",
        "whatsapp_phone_number_id": "1055",
    }
    load_settings(_env_file=None, **whatsapp).require_channels()
    load_settings(
        _env_file=None, telegram_bot_token="123:abc", telegram_webhook_secret="s"
    ).require_channels()
