"""Time zones beside a clock (issue 36)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from agent.understanding.reminders.zones import Zone, read_zone
from tests.agent.reminders.helpers import toks, whole


@pytest.mark.parametrize(
    ("text", "label", "hours"),
    [("PST", "PST", -8), ("utc", "UTC", 0), ("GMT-3", "GMT-3", -3), ("UTC+5:30", "UTC+5:30", 5.5),
     ("BRT", "BRT", -3), ("cet", "CET", 1), ("GMT+1", "GMT+1", 1), ("(BST)", "BST", 1)],
)  # fmt: skip
def test_abbreviations_and_offsets(text: str, label: str, hours: float) -> None:
    zone = whole(read_zone, text)
    assert isinstance(zone, Zone)
    assert zone.label == label
    assert zone.tz.utcoffset(None) == timedelta(hours=hours)


def test_a_named_zone_follows_its_rules() -> None:
    zone = whole(read_zone, "horário de Brasília")
    assert isinstance(zone, Zone)
    assert zone.tz == ZoneInfo("America/Sao_Paulo")
    assert zone.tz.utcoffset(datetime(2026, 1, 5)) == timedelta(hours=-3)


@pytest.mark.parametrize("text", ["art", "z", "gmt+99"])
def test_not_a_zone(text: str) -> None:
    found = read_zone(toks(text), 0)
    assert found is None or found[1] != len(toks(text))
