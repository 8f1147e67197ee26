"""The developers' own TSV sets of repeating and partial reminders (issue 43), scored by
bench/reminder_recurring.py's judge, as typed in chat and as `/remind` takes them: every
row right (rule and first times, or the question), its text right, and none early."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]
SETS = (
    "reminder_recurring_dev.tsv",
    "reminder_recurring_dev2.tsv",
    "reminder_recurring_dev3.tsv",
    "reminder_partial_dev.tsv",
)


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "reminder_recurring_bench", ROOT / "bench" / "reminder_recurring.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


@pytest.mark.parametrize("as_remind", [False, True], ids=["typed", "remind"])
@pytest.mark.parametrize("name", SETS)
def test_every_row_is_right_and_none_early(name: str, as_remind: bool) -> None:
    missed = []
    for row in BENCH.rows(ROOT / "tests" / "agent" / name):
        verdict, text_right, read, _ = BENCH.judge(row, as_remind=as_remind)
        if verdict != "right" or not text_right:
            missed.append((row.message, row.expected, verdict, read))
    assert not missed, "\n".join(map(str, missed))
