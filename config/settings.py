"""Settings from the environment and `.env` (DESIGN section 7)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from config.checks import describe_errors, http_url, id_set, namespaced_ids
from config.errors import ConfigError
from config.profiles import Profile, apply_profile

Language = Literal["pt", "en"]
OPENAI_API_BASE = "https://api.openai.com/v1"


class Settings(BaseSettings):
    """Every variable Lembra reads; names are the upper-case field names."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        frozen=True,
        env_ignore_empty=True,
    )

    # Telegram
    telegram_bot_token: SecretStr | None = None
    telegram_api_base_url: str = "https://api.telegram.org/bot"
    telegram_file_base_url: str | None = None  # default: the API base with /bot -> /file/bot
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    # WhatsApp Cloud API
    whatsapp_access_token: SecretStr | None = None
    whatsapp_app_secret: SecretStr | None = None
    whatsapp_verify_token: SecretStr | None = None
    whatsapp_phone_number_id: str | None = None
    whatsapp_api_base_url: str = "https://graph.facebook.com"
    whatsapp_api_version: str = "v21.0"
    whatsapp_reminder_template: str | None = None  # approved template for reminders outside 24 h
    # Web app
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=1, le=65535)
    trust_forwarded_for: bool = False
    allow_group_chats: bool = False
    http_header_timeout_seconds: float = Field(
        default=15.0, gt=0, le=3_600
    )  # also the keep-alive idle
    http_body_timeout_seconds: float = Field(default=15.0, gt=0, le=3_600)
    # how long a SIGTERM'd `serve` keeps working its queue; the rest is left for the re-drive
    shutdown_grace_seconds: float = Field(default=20.0, ge=0, le=3_600)
    # Model
    openai_api_key: SecretStr | None = None
    openai_base_url: str | None = None
    llm_model: str = "gpt-4o-mini"
    llm_timeout_seconds: float = Field(default=20.0, gt=0, le=600)
    llm_max_tokens: int = Field(default=600, gt=0)
    llm_transport_retries: int = Field(default=2, ge=0, le=5)
    llm_output_mode: Literal["tools", "json_schema", "auto"] = "tools"
    llm_planner_max_tokens: int = Field(
        default=300, gt=0
    )  # a plan step; phrasing keeps LLM_MAX_TOKENS
    llm_frequency_penalty: float = Field(default=0.0, ge=-2, le=2)
    llm_presence_penalty: float = Field(default=0.0, ge=-2, le=2)
    llm_profile: Profile = "default"
    llm_history_messages: int = Field(default=20, ge=2, le=200)
    # LangChain/LangSmith tracing sends message text out: only when asked for by name
    llm_tracing: Literal["off", "langsmith"] = "off"
    # the verbatim history grows append-only up to this, then drops back to
    # LLM_HISTORY_MESSAGES at once (issue 28: the prefix cache); unset: twice that
    llm_history_max_messages: int | None = Field(default=None, ge=2, le=400)
    # TMDB
    tmdb_api_key: SecretStr | None = None
    tmdb_base_url: str = "https://api.themoviedb.org/3"
    tmdb_timeout_seconds: float = Field(default=5.0, gt=0, le=120)
    # Voice notes (DESIGN 10.3): an OpenAI-compatible server, or faster-whisper in process
    transcribe_base_url: str | None = None
    transcribe_api_key: SecretStr | None = None
    transcribe_model: str = "whisper-1"
    transcribe_model_dir: Path | None = None  # a local CTranslate2 Whisper model (lembra[voice])
    transcribe_max_seconds: int = Field(default=120, ge=1, le=3600)
    transcribe_timeout_seconds: float = Field(default=60.0, gt=0, le=600)
    # Database
    mongodb_uri: SecretStr | None = None
    mongodb_db: str = "lembra"
    data_dir: Path = Path("./data")
    embedded_db_port: int = Field(default=0, ge=0, le=65535)
    embedded_db_start_timeout_seconds: float = Field(default=20.0, gt=0, le=600)
    ledger_signing_key_file: Path | None = None  # Ed25519 key signing the ledger; else DATA_DIR's
    embedded_db_max_restarts: int = Field(default=5, ge=1, le=100)
    # People and locale
    admin_user_ids: str = ""
    allowed_user_ids: str = ""  # who may talk to the bot (empty: anyone); admins always may
    default_language: Language = "pt"
    default_timezone: str = "America/Sao_Paulo"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # Quotas, margins, thresholds
    user_daily_token_quota: int = Field(default=200_000, ge=0)
    admin_daily_token_quota: int = Field(default=1_000_000, ge=0)
    global_daily_token_cap: int = Field(default=20_000_000, ge=0)
    belief_margin: float = Field(default=0.15, ge=0, le=1)
    prompt_token_budget: int = Field(default=6_000, ge=500)
    narrative_token_budget: int = Field(default=1_700, ge=100)
    # per session kind (issue 12); chat uses prompt_token_budget
    prompt_budget_admin: int = Field(default=6_000, ge=500)
    prompt_budget_background: int = Field(default=4_000, ge=100)
    max_message_chars: int = Field(default=4_000, ge=16)
    pending_ttl_seconds: int = Field(default=120, ge=1, le=86_400)
    handover_idle_minutes: int = Field(default=30, ge=1, le=10_080)
    background_llm: bool = (
        True  # handovers and archive summaries by the model when one is configured
    )
    rate_limit_messages: int = Field(default=20, ge=1)
    rate_limit_window_seconds: int = Field(default=60, ge=1, le=86_400)
    max_backlog: int = Field(default=500, ge=1)  # webhook 503 above this many unfinished updates
    max_backlog_age_s: float = Field(
        default=30.0, gt=0, le=3_600
    )  # ...or when the oldest waited this long
    # enrich_link fetcher
    link_fetch_timeout_seconds: float = Field(default=5.0, gt=0, le=120)
    link_fetch_max_bytes: int = Field(default=512_000, ge=1_024)
    link_fetch_allow_loopback: bool = False
    # context frame (DESIGN 3.7): how long its slow sections are reused for one state version
    frame_cache_ttl_seconds: int = Field(default=30, ge=0)
    # the dreamer: the model that rewrites the baseline narrative in consolidation (none: code writes it)
    dreamer_model: str = ""
    dreamer_temperature: float = Field(default=0.3, ge=0, le=2)
    dreamer_max_tokens: int = Field(default=4_000, ge=100)
    reminder_reclaim_s: float = Field(
        default=120.0, gt=0
    )  # a `sending` reminder this old is retried
    reminders_every_s: float = Field(
        default=10.0, gt=0, le=3_600
    )  # due reminders go out within this long
    # the risk policy (agent/trust/risk.py): at or above confirm, ask "sim"; at or above block, refuse
    risk_confirm_threshold: float = Field(default=0.3, ge=0, le=1)
    risk_block_threshold: float = Field(default=0.9, ge=0, le=1)
    # an edited message corrects the item its turn saved for this long (DESIGN 10.5)
    edit_window_seconds: int = Field(default=600, ge=0, le=86_400)
    # console commands print human lines (text); `serve` keeps JSON (DESIGN 10.4)
    log_format: Literal["json", "text"] | None = None

    @model_validator(mode="before")
    @classmethod
    def _profile_defaults(cls, values: object) -> object:
        return apply_profile(values) if isinstance(values, dict) else values

    @field_validator("default_timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r}") from exc
        return value

    @field_validator("admin_user_ids", "allowed_user_ids")
    @classmethod
    def _namespaced_ids(cls, value: str) -> str:
        return namespaced_ids(value)

    @field_validator(
        "openai_base_url",
        "telegram_api_base_url",
        "whatsapp_api_base_url",
        "tmdb_base_url",
        "transcribe_base_url",
        "telegram_file_base_url",
    )
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        return None if value is None else http_url(value)

    @field_validator("telegram_webhook_url")
    @classmethod
    def _webhook_url(cls, value: str | None) -> str | None:
        return None if value is None else http_url(value, https_outside_loopback=True)

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.risk_confirm_threshold > self.risk_block_threshold:
            raise ValueError(
                f"RISK_CONFIRM_THRESHOLD ({self.risk_confirm_threshold:g}) is above "
                f"RISK_BLOCK_THRESHOLD ({self.risk_block_threshold:g}): nothing could ever be "
                "confirmed (for example RISK_CONFIRM_THRESHOLD=0.3 RISK_BLOCK_THRESHOLD=0.9)"
            )
        if self.narrative_token_budget >= self.prompt_token_budget:
            raise ValueError(
                f"NARRATIVE_TOKEN_BUDGET ({self.narrative_token_budget}) must be below "
                f"PROMPT_TOKEN_BUDGET ({self.prompt_token_budget}), which contains it "
                "(for example NARRATIVE_TOKEN_BUDGET=1700 PROMPT_TOKEN_BUDGET=6000)"
            )
        return self

    @field_validator("transcribe_model_dir")
    @classmethod
    def _local_model(cls, value: Path | None, info: ValidationInfo) -> Path | None:
        # checked here so a typo fails at start-up, never a user's voice note; and a
        # missing folder must never let faster-whisper look for the name on a model hub
        if value is None:
            return None
        if info.data.get("transcribe_base_url"):
            raise ValueError("set TRANSCRIBE_BASE_URL or TRANSCRIBE_MODEL_DIR, not both")
        if not (value / "model.bin").is_file():
            raise ValueError("the folder holds no model.bin (a CTranslate2 Whisper model)")
        if importlib.util.find_spec("faster_whisper") is None:
            raise ValueError("needs the voice extra: pip install 'lembra[voice]'")
        return value

    @property
    def admins(self) -> frozenset[str]:
        """Namespaced admin ids (`tg:123`, `wa:5511...`) from ADMIN_USER_IDS."""
        return id_set(self.admin_user_ids)

    @property
    def allowed(self) -> frozenset[str]:
        """Who may use the bot besides the admins (ALLOWED_USER_IDS); empty: everyone."""
        return id_set(self.allowed_user_ids)

    @property
    def model_configured(self) -> bool:
        """Whether an OpenAI-compatible model is configured (else the offline planner runs)."""
        return self.openai_api_key is not None or bool(self.openai_base_url)

    @property
    def transcription_backend(self) -> Literal["http", "local"] | None:
        """How voice notes are transcribed (DESIGN 10.3); None: they get the fixed reply.

        An OpenAI-compatible server at TRANSCRIBE_BASE_URL, else faster-whisper on
        TRANSCRIBE_MODEL_DIR, else OpenAI itself when a key for it is at hand
        (TRANSCRIBE_API_KEY, or OPENAI_API_KEY with no OPENAI_BASE_URL).
        """
        if self.transcribe_base_url:
            return "http"
        if self.transcribe_model_dir is not None:
            return "local"
        if self.transcribe_api_key is not None:
            return "http"
        if self.openai_api_key is not None and not self.openai_base_url:
            return "http"
        return None

    @property
    def transcription_configured(self) -> bool:
        """Whether voice notes are transcribed (the help mentions them only then)."""
        return self.transcription_backend is not None

    @property
    def transcribe_url(self) -> str:
        """The base of the OpenAI-compatible transcription API (OpenAI's unless set)."""
        return self.transcribe_base_url or OPENAI_API_BASE

    @property
    def transcribe_key(self) -> str | None:
        """TRANSCRIBE_API_KEY; OPENAI_API_KEY only when the request goes to OpenAI itself."""
        if self.transcribe_api_key is not None:
            return self.transcribe_api_key.get_secret_value()
        if self.transcribe_base_url is None and self.openai_api_key is not None:
            return self.openai_api_key.get_secret_value()
        return None

    @property
    def telegram_file_base(self) -> str:
        """Where Telegram files are downloaded from: TELEGRAM_FILE_BASE_URL, or the API base's."""
        if self.telegram_file_base_url:
            return self.telegram_file_base_url.rstrip("/")
        base = self.telegram_api_base_url.rstrip("/")
        head, sep, tail = base.rpartition("/bot")
        return f"{head}/file/bot{tail}" if sep else f"{base}/file"

    @property
    def telegram_configured(self) -> bool:
        return self.telegram_bot_token is not None

    @property
    def whatsapp_configured(self) -> bool:
        return all(
            (
                self.whatsapp_access_token,
                self.whatsapp_app_secret,
                self.whatsapp_verify_token,
                self.whatsapp_phone_number_id,
            )
        )

    def _missing_whatsapp(self) -> list[str]:
        return [
            name
            for name, value in (
                ("WHATSAPP_ACCESS_TOKEN", self.whatsapp_access_token),
                ("WHATSAPP_APP_SECRET", self.whatsapp_app_secret),
                ("WHATSAPP_VERIFY_TOKEN", self.whatsapp_verify_token),
                ("WHATSAPP_PHONE_NUMBER_ID", self.whatsapp_phone_number_id),
            )
            if not value
        ]

    def require_channels(self) -> None:
        """Fail with a named error unless the chat channels `lembra serve` would run are complete."""
        missing_wa = self._missing_whatsapp()
        if 0 < len(missing_wa) < 4:
            # half a WhatsApp set-up would leave its webhook silently unserved
            raise ConfigError(
                f"WhatsApp is partly configured for `lembra serve`: set {', '.join(missing_wa)} "
                "too, or unset the other WHATSAPP_ settings"
            )
        if self.telegram_configured and self.telegram_webhook_secret is None:
            raise ConfigError(
                "TELEGRAM_WEBHOOK_SECRET is required by `lembra serve` when "
                "TELEGRAM_BOT_TOKEN is set (Telegram sends it back on every webhook call)"
            )
        if not (self.telegram_configured or self.whatsapp_configured):
            raise ConfigError(
                "`lembra serve` needs a channel: neither TELEGRAM_BOT_TOKEN nor the WhatsApp "
                f"settings ({', '.join(missing_wa)}) are set; set TELEGRAM_BOT_TOKEN (with "
                "TELEGRAM_WEBHOOK_SECRET) or all four WhatsApp settings"
            )

    def require_telegram(self) -> None:
        """Fail with a named error unless Telegram is configured."""
        if not self.telegram_configured:
            raise ConfigError("TELEGRAM_BOT_TOKEN is required for `lembra telegram`")


def load_settings(**overrides: object) -> Settings:
    """Read settings, turning validation errors into one readable ConfigError."""
    from pydantic import ValidationError

    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise ConfigError(describe_errors(exc.errors(), Settings.model_fields)) from None
