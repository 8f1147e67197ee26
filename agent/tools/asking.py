"""`request_clarification` (issue 13): the planner asks one question with 2-5 short options.

This is how the model offers to act (DESIGN 9.2): the runtime shows the options as
buttons or numbered lines, holds a pending choice, and gives the answer back to the
planner as this call's result. The question and options are the model's own words,
not facts, so grounding has nothing to check in them.
"""

from __future__ import annotations

from pydantic import Field, field_validator

from agent.tools.base import Clarification, Outcome, Tool, ToolArgs, ToolContext
from agent.trust.ledgering import append_event, digest
from agent.understanding.textnorm import clean_text, fold

MIN_OPTIONS = 2
MAX_OPTIONS = 5
OPTION_MAX_CHARS = 60


class RequestClarificationArgs(ToolArgs):
    question: str = Field(min_length=1, max_length=300)
    options: list[str] = Field(min_length=MIN_OPTIONS, max_length=MAX_OPTIONS)

    @field_validator("question")
    @classmethod
    def _question_has_text(cls, value: str) -> str:
        cleaned = clean_text(value)
        if not cleaned:
            raise ValueError("the question is empty")
        return cleaned

    @field_validator("options")
    @classmethod
    def _short_distinct_options(cls, value: list[str]) -> list[str]:
        cleaned = [clean_text(option) for option in value]
        for index, option in enumerate(cleaned):
            if not option:
                raise ValueError(f"option {index + 1} is empty")
            if len(option) > OPTION_MAX_CHARS:
                raise ValueError(
                    f"option {index + 1} is longer than {OPTION_MAX_CHARS} characters: keep options short"
                )
        folded = [fold(option) for option in cleaned]
        if len(set(folded)) != len(folded):
            raise ValueError("two options are the same: give distinct options")
        return cleaned


async def request_clarification(ctx: ToolContext, args: RequestClarificationArgs) -> Outcome:
    payload = {
        "options": len(args.options),
        "question_digest": digest(args.question),
        "options_digest": digest("\n".join(args.options)),
    }
    await append_event(ctx.deps, ctx.turn, "clarification_asked", payload)
    return Clarification(args.question, tuple(args.options))


ASK_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "request_clarification",
        RequestClarificationArgs,
        "read",
        "Ask one question with 2-5 short options (buttons), to offer to act or when "
        "unsure; the answer is this call's result.",
        request_clarification,
        {"question": "Save it as a note?", "options": ["Save as a note", "No"]},
        kind="ask",
    ),
)
