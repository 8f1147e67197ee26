"""Building the user-visible reply of a turn: labels, the caveat line, and the meta."""

from __future__ import annotations

from collections.abc import Sequence

from agent.conversation.turn import Turn
from agent.texts import WARN_MARK, text
from agent.trust.confidence import Confidence, TurnKind, evaluate
from agent.types import Attachment, Choice, ChoiceKind, Paging, Reply, ReplyMeta
from agent.understanding.textnorm import one_line
from storage.documents import ItemDoc


def titled_label(title: str, year: int | None) -> str:
    """ "Title (year)", the form candidates and saved movies are shown in."""
    label = one_line(title, 120)
    return f"{label} ({year})" if year else label


def item_label(item: ItemDoc) -> str:
    if item.type in ("movie", "tv_show") and item.title:
        return titled_label(item.title, item.year)
    if item.title and item.url:
        return f"{one_line(item.title, 80)} — {item.url}"
    if item.url:
        return item.url
    return one_line(item.content or item.title or "", 80)


def numbered(labels: Sequence[str]) -> str:
    return "\n".join(f"{n}. {label}" for n, label in enumerate(labels, start=1))


def finish(
    turn: Turn,
    body: str,
    *,
    kind: TurnKind,
    choices: Sequence[str] = (),
    choice_kind: ChoiceKind = "none",
    choice_token: str | None = None,
    attachment: Attachment | None = None,
) -> Reply:
    """The reply for `body`, with notes first and, when the state calls for it, one caveat line."""
    confidence = evaluate(turn.facts, kind)
    lines = [*turn.notes, body]
    if confidence.shows_caveat and confidence.caveats:
        lines.append(f"{WARN_MARK} {confidence.caveats[0]}")
    return Reply(
        text="\n".join(line for line in lines if line),
        choices=tuple(Choice(index, label) for index, label in enumerate(choices)),
        choice_kind=choice_kind if choices else "none",
        choice_token=choice_token if choices else None,
        meta=meta_for(turn, confidence, kind),
        attachment=attachment,
    )


def meta_for(turn: Turn, confidence: Confidence, kind: TurnKind) -> ReplyMeta:
    return ReplyMeta(
        state=confidence.state,
        score=confidence.score,
        warning=confidence.warning,
        rules_applied=confidence.rules_applied,
        caveats=confidence.caveats,
        belief=turn.belief,
        tools_executed=tuple(turn.tools_executed),
        llm_calls=turn.llm_calls,
        prompt_tokens=max(turn.prompt_tokens, default=0),
        cached_tokens=sum(turn.cached_tokens),
        turn_kind=kind,
        intent=turn.intent.action if turn.intent else "",
        receipts=tuple(turn.receipts),
        blocks=confidence.blocks,
        tokens=sum(turn.prompt_tokens),
        reasoning=turn.reasoning,
    )


def confirm_choices(turn: Turn) -> list[str]:
    return [text("confirm_yes", turn.language), text("confirm_no", turn.language)]


def list_paging(type_word: str, page: int, pages: int) -> Paging | None:
    """The `/list <type> <page>` messages around `page` (None for a single page)."""
    if pages <= 1:
        return None
    return Paging(
        page=page,
        pages=pages,
        previous=f"/list {type_word} {page - 1}" if page > 1 else None,
        next=f"/list {type_word} {page + 1}" if page < pages else None,
    )
