"""`simulate`: a read-only dry run telling what an effect would do (issue 13).

It answers with the count of items the effect would touch, up to three of them, whether
`desfaz` can reverse it, and the risk score and decision of agent/trust/risk.py: the
same ones the runtime acts on when the effect is really asked for. Nothing is written.
Its estimate (issue 31: match confidence per target, undo, similar items that stay and
a verdict) is computed here from the items, never guessed by the model.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator, model_validator

from agent.errors import ToolFailure
from agent.memory.constitution import current_limits
from agent.tools.base import Failed, Outcome, Simulated, Tool, ToolArgs, ToolContext
from agent.tools.editing import EDIT_TOOLS, UpdateItemArgs
from agent.tools.estimating import NAME_CHARS, of_targets, similar_count
from agent.tools.finding import DELETE_CUTOFF, FINDING_TOOLS, DeleteItemArgs, find_named
from agent.tools.saving import (
    SAVE_TOOLS,
    SaveLinkArgs,
    SaveMovieArgs,
    SaveNoteArgs,
    SaveTvShowArgs,
    SaveVideoArgs,
)
from agent.trust import risk
from agent.trust.estimates import Estimate
from storage.documents import ItemDoc

MAX_EXAMPLES = 3
# a plain string in the schema keeps the prompt line short; the validator names the choices
SIMULABLE = (
    "save_note",
    "save_movie",
    "save_tv_show",
    "save_video",
    "save_link",
    "update_item",
    "delete_item",
    "delete_all_memories",
)
EffectArgs = (
    DeleteItemArgs
    | UpdateItemArgs
    | SaveNoteArgs
    | SaveMovieArgs
    | SaveTvShowArgs
    | SaveVideoArgs
    | SaveLinkArgs
)


def _tools() -> dict[str, Tool[ToolArgs]]:
    return {t.name: t for t in (*SAVE_TOOLS, *FINDING_TOOLS, *EDIT_TOOLS)}


class SimulateArgs(ToolArgs):
    tool: str = Field(min_length=1, max_length=40)
    args: EffectArgs | None = None  # None only for delete_all_memories

    @field_validator("tool")
    @classmethod
    def _an_effect(cls, value: str) -> str:
        if value not in SIMULABLE:
            raise ValueError(f"simulate takes one of: {', '.join(SIMULABLE)}")
        return value

    @model_validator(mode="before")
    @classmethod
    def _args_of_that_tool(cls, data: Any) -> Any:
        # Validate against the named tool's own model, so an error names its real fields.
        if isinstance(data, dict) and isinstance(data.get("args"), dict):
            tool = _tools().get(str(data.get("tool")))
            if tool is not None and tool.name != "delete_all_memories":
                return {**data, "args": tool.args_model.model_validate(data["args"])}
        return data

    @model_validator(mode="after")
    def _args_match(self) -> SimulateArgs:
        if self.tool == "delete_all_memories":
            self.args = None
        elif self.args is None:
            raise ValueError(f"give the args {self.tool} would be called with")
        return self


async def _touched(ctx: ToolContext, args: SimulateArgs) -> list[tuple[float, ItemDoc]] | None:
    """The items the effect would touch with the matcher's score (None: a new item)."""
    db, user_id = ctx.deps.db, ctx.turn.user_id
    inner = args.args
    if args.tool == "delete_all_memories":
        items = sorted(await db.items.list_for(user_id), key=lambda i: -i.seq)
        return [(100.0, item) for item in items]
    if isinstance(inner, DeleteItemArgs) and inner.query is not None:
        return await find_named(
            db, user_id, inner.query, DELETE_CUTOFF, type_counts=ctx.turn.user.counts
        )
    if isinstance(inner, DeleteItemArgs | UpdateItemArgs):
        item_id = inner.item_id
        assert item_id is not None
        item = await db.items.get(user_id, item_id)
        return [(100.0, item)] if item else []  # named by its id
    return None


async def _estimate(
    ctx: ToolContext, args: SimulateArgs, touched: list[tuple[float, ItemDoc]] | None, undo: bool
) -> Estimate:
    """Match confidence per target shown, undo, and the similar items that would stay."""
    db, user_id, counts = ctx.deps.db, ctx.turn.user_id, ctx.turn.user.counts
    shown = (touched or [])[:MAX_EXAMPLES]
    if args.tool == "delete_all_memories":
        return Estimate(tuple(100 for _ in shown), int(undo), 0, everything=True)
    if touched is None:  # a save: what is already there under that name stays beside it
        inner = args.args
        name = getattr(inner, "title", None) or getattr(inner, "content", None) or ""
        name = name or getattr(inner, "url", None) or ""
        kept = await similar_count(db, user_id, name[:NAME_CHARS], type_counts=counts)
        return Estimate((), int(undo), kept)
    if args.tool == "delete_item" and isinstance(args.args, DeleteItemArgs) and args.args.query:
        # one of the items the query names goes; the others stay
        return Estimate(tuple(round(s) for s, _ in shown), int(undo), len(touched) - 1)
    return await of_targets(db, user_id, shown, reversible=undo, type_counts=counts)


async def simulate(ctx: ToolContext, args: SimulateArgs) -> Outcome:
    """Tell what the effect would do, and how risky it is; change nothing."""
    ctx.turn.facts.apply_rule("user_scope")
    tool = _tools()[args.tool]
    touched = await _touched(ctx, args)
    if touched == []:
        failure = ToolFailure("NOT_FOUND", "validation", "no item of this user matches", "rephrase")
        return Failed(failure)
    # a delete by query that matches several items deletes one, after a choice
    count = 1 if touched is None or args.tool in ("delete_item", "update_item") else len(touched)
    limits = await current_limits(ctx.deps)
    flags = ctx.turn.user.destructive_used
    assessment = risk.assess(
        tool.name, tool.risk, limits, count=count, used_before=risk.used_before(flags, tool.name)
    )
    examples = tuple(item for _, item in (touched or [])[:MAX_EXAMPLES])
    return Simulated(
        assessment,
        examples,
        ambiguous=args.tool == "delete_item" and len(touched or []) > 1,
        estimate=await _estimate(ctx, args, touched, assessment.reversible),
    )


SIMULATE_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "simulate",
        SimulateArgs,
        "read",
        "Dry run of an effect `tool` with its `args`: items touched, undo, risk 0-1, run/ask/refuse.",
        simulate,
        {"tool": "delete_item", "args": {"query": "inception"}},
        kind="check",
    ),
)
