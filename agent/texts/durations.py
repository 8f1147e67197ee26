"""Durations in words, from the setting they depend on ("expira em 2 minutos", "por um minuto")."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "duration_second_one": {"pt": "um segundo", "en": "a second"},
    "duration_second_many": {"pt": "{n} segundos", "en": "{n} seconds"},
    "duration_minute_one": {"pt": "um minuto", "en": "a minute"},
    "duration_minute_many": {"pt": "{n} minutos", "en": "{n} minutes"},
    "duration_hour_one": {"pt": "uma hora", "en": "an hour"},
    "duration_hour_many": {"pt": "{n} horas", "en": "{n} hours"},
}

_UNITS = (("hour", 3600), ("minute", 60))


def duration(seconds: float, language: Language) -> str:
    """`seconds` in the largest unit that divides it exactly: 120 -> "2 minutos", 60 -> "um minuto"."""
    whole = max(0, round(seconds))
    unit, size = next(((u, s) for u, s in _UNITS if whole >= s and whole % s == 0), ("second", 1))
    n = whole // size
    template = TEXTS[f"duration_{unit}_{'one' if n == 1 else 'many'}"][language]
    return template.format(n=n)
