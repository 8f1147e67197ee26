"""A stand-in for `agent.conversation.runtime.Runtime.handle` in channel tests.

Channels never decide; these tests check what a channel does with a Reply (buttons,
splitting, attachments, failures), so this handler returns the Replies that exercise
that, keyed by the message text. It records every Incoming it was given, which is how
tests see "handled exactly once". Behaviour of the real runtime is tested in tests/e2e.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from agent.texts import text as fixed_text
from agent.types import Attachment, Choice, Incoming, Reply

PICK_TOKEN = "pk1"
CONFIRM_TOKEN = "cf1"
LONG_LINE = "x" * 5000


def long_text() -> str:
    """About 10,000 characters over many short lines, then one line longer than 4,096."""
    lines = [f"{n:03d} " + "item " * 18 for n in range(100)]
    return "\n".join(lines) + "\n" + LONG_LINE


@dataclass
class ScriptedRuntime:
    seen: list[Incoming] = field(default_factory=list)
    slow_s: float = 1.2
    release: asyncio.Event | None = None
    entered: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle(self, incoming: Incoming) -> Reply:
        self.seen.append(incoming)
        self.entered.set()
        language = incoming.language_hint or "pt"
        if incoming.kind == "unsupported":
            return Reply(text=fixed_text("unsupported_media", language))
        if incoming.kind == "choice":
            return Reply(text=f"escolheu {incoming.choice} ({incoming.choice_token})")
        message = (incoming.text or "").strip().lower()
        if message == "escolhe":
            return Reply(
                text="Qual deles?\n1. Inception (2010)\n2. Inception (2014)",
                choices=(Choice(0, "Inception (2010)"), Choice(1, "Inception (2014)")),
                choice_kind="pick",
                choice_token=PICK_TOKEN,
            )
        if message == "muitas":
            labels = [f"Um título bem comprido número {n} (20{n:02d})" for n in range(12)]
            return Reply(
                text="Escolha:\n"
                + "\n".join(f"{n + 1}. {label}" for n, label in enumerate(labels)),
                choices=tuple(Choice(n, label) for n, label in enumerate(labels)),
                choice_kind="pick",
                choice_token=PICK_TOKEN,
            )
        if message == "apaga tudo":
            return Reply(
                text="Apagar 3 itens? Isso não pode ser desfeito.",
                choices=(Choice(0, "Sim, apagar"), Choice(1, "Não")),
                choice_kind="confirm",
                choice_token=CONFIRM_TOKEN,
            )
        if message == "token enorme":
            return Reply(
                text="Qual?",
                choices=(Choice(0, "A"),),
                choice_kind="pick",
                choice_token="t" * 300,
            )
        if message == "longo":
            return Reply(text=long_text())
        if message == "exporta":
            return Reply(
                text="Seus dados:",
                attachment=Attachment("lembra-export.json", "application/json", b'{"items": []}'),
            )
        if message == "devagar":
            if self.release is not None:
                await self.release.wait()
            else:
                await asyncio.sleep(self.slow_s)
            return Reply(text="pronto")
        if message == "silencio":
            return Reply(text="", silent=True)
        if message == "quebra":
            raise RuntimeError("a bug in the runtime")
        return Reply(text=f"eco: {incoming.text}")

    def texts(self) -> list[str | None]:
        return [i.text for i in self.seen]
