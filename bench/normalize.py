"""CPU of reading one webhook body: Lembra's normalizers against python-telegram-bot's parse.

    .venv/bin/python bench/normalize.py [--rounds 200]

Over the real bodies of tests/bot/corpus (issue 33), per body and per channel:
  telegram normalize     bot.telegram.updates.normalize on the raw JSON (what the webhook
                         runs since issue 30)
  telegram PTB de_json   telegram.Update.de_json alone (what the webhook ran before it
                         normalized; the one that refused a poll in an older shape)
  whatsapp normalize     bot.whatsapp.updates.values + normalize of each message
Each figure is the median over `--rounds` passes of the whole set, in microseconds per
body, from time.process_time; bodies PTB refuses are left out of its figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from telegram import Bot, Update  # noqa: E402

from bot.telegram.updates import normalize as tg_normalize  # noqa: E402
from bot.whatsapp.updates import normalize as wa_normalize  # noqa: E402
from bot.whatsapp.updates import values  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "bot" / "corpus"
TELEGRAM = (
    "telegram_illemius.json",
    "telegram_libraries.json",
    "telegram_captured.json",
    "telegram_update_kinds.json",
)


def bodies(name: str) -> list[dict[str, Any]]:
    return list(json.loads((CORPUS / name).read_text(encoding="utf-8")).values())


def median_us(run: Callable[[], None], count: int, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        started = time.process_time()
        run()
        samples.append((time.process_time() - started) / count * 1e6)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args().rounds
    telegram = [body for name in TELEGRAM for body in bodies(name)]
    whatsapp = bodies("whatsapp_pywa.json")
    bot = Bot("123:bench")
    parsable = []
    for body in telegram:
        try:
            Update.de_json(body, bot)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        parsable.append(body)

    def ours() -> None:
        for body in telegram:
            tg_normalize(body, allow_groups=False)

    def ptb() -> None:
        for body in parsable:
            Update.de_json(body, bot)

    def whatsapp_run() -> None:
        for body in whatsapp:
            found = values(body)
            for value in found if isinstance(found, list) else []:
                names = value.names()
                for raw in value.messages:
                    sender = raw.get("from") if isinstance(raw, dict) else None
                    wa_normalize(raw, names.get(sender) if isinstance(sender, str) else None)

    own = median_us(ours, len(telegram), rounds)
    theirs = median_us(ptb, len(parsable), rounds)
    print(f"telegram normalize     {own:6.1f} us per body ({len(telegram)} bodies)")
    print(
        f"telegram PTB de_json   {theirs:6.1f} us per body ({len(parsable)} bodies it parses;"
        f" {len(telegram) - len(parsable)} refused)"
    )
    print(f"  ratio normalize / de_json: {own / theirs:.2f}")
    wa = median_us(whatsapp_run, len(whatsapp), rounds)
    print(f"whatsapp normalize     {wa:6.1f} us per body ({len(whatsapp)} bodies)")


if __name__ == "__main__":
    main()
