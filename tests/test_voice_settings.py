"""The voice-note settings (DESIGN 10.3, stable surfaces): defaults and the named errors."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bot.web.startup import summary
from config import ConfigError, load_settings

HAS_EXTRA = importlib.util.find_spec("faster_whisper") is not None


def test_voice_defaults() -> None:
    settings = load_settings(_env_file=None, openai_api_key=None, openai_base_url=None)

    assert settings.transcribe_model == "whisper-1"
    assert settings.transcribe_max_seconds == 120
    assert settings.transcription_backend is None
    assert not settings.transcription_configured


@pytest.mark.parametrize(
    ("api_base", "file_base"),
    [
        ("https://api.telegram.org/bot", "https://api.telegram.org/file/bot"),
        ("http://127.0.0.1:8081/bot", "http://127.0.0.1:8081/file/bot"),
        ("http://127.0.0.1:8081/bot/", "http://127.0.0.1:8081/file/bot"),
    ],
)
def test_telegram_files_come_from_the_api_base_with_file_before_bot(
    api_base: str, file_base: str
) -> None:
    settings = load_settings(_env_file=None, telegram_api_base_url=api_base)

    assert settings.telegram_file_base == file_base


def test_telegram_file_base_url_wins_when_set() -> None:
    settings = load_settings(
        _env_file=None, telegram_file_base_url="http://127.0.0.1:9000/files/bot/"
    )

    assert settings.telegram_file_base == "http://127.0.0.1:9000/files/bot"


@pytest.mark.parametrize("name", ["transcribe_base_url", "telegram_file_base_url"])
def test_a_url_that_is_not_http_is_named(name: str) -> None:
    with pytest.raises(ConfigError, match=name.upper()):
        load_settings(_env_file=None, **{name: "ftp://127.0.0.1/v1"})


@pytest.mark.parametrize("value", ["0", "-5", "3601", "two minutes"])
def test_a_bad_length_limit_is_named(value: str) -> None:
    with pytest.raises(ConfigError, match="TRANSCRIBE_MAX_SECONDS"):
        load_settings(_env_file=None, transcribe_max_seconds=value)


def test_a_model_folder_without_a_model_is_named(tmp_path: Path) -> None:
    with pytest.raises(
        ConfigError, match="^TRANSCRIBE_MODEL_DIR=.*holds no model.bin.*for example"
    ):
        load_settings(_env_file=None, transcribe_model_dir=str(tmp_path))


def test_a_server_and_a_local_model_at_once_is_refused(tmp_path: Path) -> None:
    (tmp_path / "model.bin").write_bytes(b"weights")

    with pytest.raises(ConfigError, match="^TRANSCRIBE_MODEL_DIR=.*not both"):
        load_settings(
            _env_file=None,
            transcribe_base_url="http://127.0.0.1:9/v1",
            transcribe_model_dir=str(tmp_path),
        )


@pytest.mark.skipif(HAS_EXTRA, reason="faster-whisper is installed here")
def test_a_local_model_without_the_voice_extra_says_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "model.bin").write_bytes(b"weights")

    with pytest.raises(ConfigError, match=r"pip install 'lembra\[voice\]'"):
        load_settings(_env_file=None, transcribe_model_dir=str(tmp_path))


@pytest.mark.skipif(not HAS_EXTRA, reason="needs the voice extra (faster-whisper)")
def test_a_local_model_with_the_voice_extra_is_the_backend(tmp_path: Path) -> None:
    (tmp_path / "model.bin").write_bytes(b"weights")

    settings = load_settings(_env_file=None, transcribe_model_dir=str(tmp_path))

    assert settings.transcription_backend == "local"


@pytest.mark.parametrize(
    ("values", "said"),
    [({}, "off"), ({"transcribe_base_url": "http://127.0.0.1:9/v1"}, "http")],
)
def test_the_start_up_line_says_how_voice_notes_are_heard(
    values: dict[str, str], said: str
) -> None:
    settings = load_settings(_env_file=None, openai_api_key=None, **values)

    assert summary(settings, offline=True, jobs=False)["voice"] == said
