"""The constitution: a stored, versioned behaviour document (`constitutions`) with a default.

Creating the default, or any later version, appends `constitution_updated` to the
`system` ledger stream with the version and a digest of the text.
"""

from __future__ import annotations

from agent.deps import Deps
from agent.planning.prompt import DEFAULT_CONSTITUTION
from agent.trust.ledgering import append_event, digest
from agent.trust.risk import Thresholds, thresholds
from storage.documents import ConstitutionDoc

SYSTEM_STREAM = "system"


async def current_constitution(deps: Deps) -> ConstitutionDoc:
    """The constitution in force, creating the default version on first use."""
    latest = await deps.db.constitutions.latest()
    if latest is not None:
        return latest
    doc, created = await deps.db.constitutions.ensure_first(
        DEFAULT_CONSTITUTION, now_ms=deps.clock.ms()
    )
    if created:
        await _record(deps, doc)
    return doc


async def update_constitution(deps: Deps, text: str, *, author: str) -> ConstitutionDoc:
    """Store a new version of the constitution (it applies from the next frame)."""
    doc = await deps.db.constitutions.add(text, author=author, now_ms=deps.clock.ms())
    await _record(deps, doc)
    return doc


async def _record(deps: Deps, doc: ConstitutionDoc) -> None:
    await append_event(
        deps,
        None,
        "constitution_updated",
        {"version": doc.version, "text_sha256": digest(doc.text), "author": doc.author},
        stream=SYSTEM_STREAM,
    )


async def current_limits(deps: Deps) -> Thresholds:
    """The risk thresholds in force: the settings, moved by the constitution's risk tolerance."""
    settings = deps.settings
    return thresholds(settings.risk_confirm_threshold, settings.risk_block_threshold)
